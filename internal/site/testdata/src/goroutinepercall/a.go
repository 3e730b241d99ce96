package goroutinepercall

type block struct{ data []byte }

type Writer struct{ blocks chan chan *block }

func (w *Writer) write(data []byte) {
	c := make(chan *block) // want `write makes a channel and starts a goroutine on every call \(line 10\): a goroutine, its closure and a channel per call`
	w.blocks <- c
	go func(c chan *block, data []byte) {
		c <- &block{data: data}
	}(c, data)
}

// start runs one worker for the writer's life: no channel made per call.
func (w *Writer) start() {
	go func() {
		for c := range w.blocks {
			<-c
		}
	}()
}

// wait makes a channel and starts nothing.
func wait() chan struct{} { return make(chan struct{}) }
