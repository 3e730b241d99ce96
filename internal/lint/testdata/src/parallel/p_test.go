package parallel

import (
	"runtime"
	"strconv"
	"sync"
	"testing"
)

var mu sync.Mutex
var sink int

func get() {
	mu.Lock()
	sink++
	mu.Unlock()
}

func BenchmarkGetConcurrent(b *testing.B) {
	benchmarkGetConcurrent(b, 1)
}

func BenchmarkGetConcurrentOther(b *testing.B) {
	benchmarkGetConcurrent(b, 2)
}

// The helper holds the goroutines: b.N split with truncation, and as many
// workers as CPUs whatever -cpu says.
func benchmarkGetConcurrent(b *testing.B, _ int) {
	b.StopTimer()
	wg := new(sync.WaitGroup)
	workers := runtime.NumCPU()
	each := b.N / workers // want `BenchmarkGetConcurrent, BenchmarkGetConcurrentOther: b.N / workers splits the iterations among goroutines with truncation`
	wg.Add(workers)
	b.StartTimer()
	for i := 0; i < workers; i++ { // want `BenchmarkGetConcurrent, BenchmarkGetConcurrentOther: starts runtime.NumCPU\(\) workers, whatever -cpu says`
		go func() {
			for j := 0; j < each; j++ {
				get()
			}
			wg.Done()
		}()
	}
	wg.Wait()
}

// Workers started before the timer: a constant count, fed a share of b.N.
func BenchmarkGetMany(b *testing.B) {
	b.StopTimer()
	n := 100
	each := b.N / n // want `BenchmarkGetMany: b.N / n splits the iterations`
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ { // want `BenchmarkGetMany: starts 100 workers`
		go func() { // want `BenchmarkGetMany: workers started before the timer starts`
			for j := 0; j < each; j++ {
				get()
			}
			wg.Done()
		}()
	}
	b.StartTimer()
	wg.Wait()
}

// GOMAXPROCS workers, the remainder handed out, the timer running: fine.
func BenchmarkGetFair(b *testing.B) {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		n := b.N / workers
		if w < b.N%workers {
			n++
		}
		wg.Add(1)
		go func() {
			for j := 0; j < n; j++ {
				get()
			}
			wg.Done()
		}()
	}
	wg.Wait()
}

// A server started before ResetTimer does no measured work: fine.
func BenchmarkServer(b *testing.B) {
	ch := make(chan int)
	go func() {
		for range ch {
			get()
		}
	}()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ch <- i
	}
	close(ch)
}

func BenchmarkRunParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			get()
		}
	})
}

var store = map[string]int{}

// The keys are all "key100": the bound, not the index.
func BenchmarkGetManyKeys(b *testing.B) {
	n := 100
	keys := make([]string, n)
	for i := 0; i < n; i++ {
		keys[i] = "key" + strconv.Itoa(n) // want `BenchmarkGetManyKeys: strconv.Itoa\(n\) formats the loop's bound n, not its index i: .*; format the index: strconv.Itoa\(i\)$`
		store[keys[i]] = i
	}
	b.RunParallel(func(pb *testing.PB) {
		j := 0
		for pb.Next() {
			mu.Lock()
			sink += store[keys[j%n]]
			mu.Unlock()
			j++
		}
	})
}

// The index: fine.
func BenchmarkGetManyKeysRight(b *testing.B) {
	n := 100
	keys := make([]string, n)
	for i := 0; i < n; i++ {
		keys[i] = "key" + strconv.Itoa(i)
	}
	b.RunParallel(func(pb *testing.PB) {
		j := 0
		for pb.Next() {
			mu.Lock()
			sink += len(keys[j%n])
			mu.Unlock()
			j++
		}
	})
}

type limiter struct{}

func (limiter) Allow(string) bool { return true }

func runStore(wg *sync.WaitGroup, s limiter, addrs []string, b *testing.B) {
	for i := 0; i < b.N; i++ {
		s.Allow(addrs[i%len(addrs)])
	}
	wg.Done()
}

// Each of the workers runs all of b.N: an op is 10 (or 100) calls.
func benchmarkStore(s limiter, parallel int, b *testing.B) {
	addrs := []string{"a", "b"}
	wg := &sync.WaitGroup{}
	for i := 0; i < parallel; i++ { // want `starts 10 or 100 workers, each running all b.N iterations, whatever -cpu says`
		wg.Add(1)
		go runStore(wg, s, addrs, b)
	}
	wg.Wait()
}

func BenchmarkStore10(b *testing.B)  { benchmarkStore(limiter{}, 10, b) }
func BenchmarkStore100(b *testing.B) { benchmarkStore(limiter{}, 100, b) }
