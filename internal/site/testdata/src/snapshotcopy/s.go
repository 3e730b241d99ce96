package snapshotcopy

import (
	"bytes"
	"io"
	"sync"
)

type sendReady struct {
	mu   sync.Mutex
	Body []byte
}

func sendLoop(conn io.Writer, ch chan *sendReady) {
	var bodyBuf bytes.Buffer
	for ready := range ch {
		bodyBuf.Reset()
		ready.mu.Lock()
		if ready.Body != nil {
			bodyBuf.Write(ready.Body) // want `sendLoop copies ready.Body out under ready.mu and drops it \(ready.Body = nil\) before the lock is released`
			ready.Body = nil
		}
		ready.mu.Unlock()
		conn.Write(bodyBuf.Bytes())
	}
}

// Copied but kept, or copied with no lock: nothing to say.
func kept(mu *sync.Mutex, r *sendReady, dst []byte) []byte {
	mu.Lock()
	dst = append(dst, r.Body...)
	mu.Unlock()
	return append(dst, r.Body...)
}

// In a select's case, the write's error checked between.
func selectLoop(conn io.Writer, ch chan *sendReady, done chan struct{}) error {
	var bodyBuf bytes.Buffer
	for {
		select {
		case ready := <-ch:
			ready.mu.Lock()
			if ready.Body != nil {
				_, err := bodyBuf.Write(ready.Body) // want `selectLoop copies ready.Body out under ready.mu`
				if err != nil {
					ready.mu.Unlock()
					return err
				}
				ready.Body = nil
			}
			ready.mu.Unlock()
			conn.Write(bodyBuf.Bytes())
		case <-done:
			return nil
		}
	}
}
