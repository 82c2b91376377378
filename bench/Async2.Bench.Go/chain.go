// Seed 003's comparison, the Go side: a chain of n goroutines joined by unbuffered channels, each
// taking a number from the goroutine before it and handing on that number plus one, as the seed's
// Go program does. `async2 bench` (src/Async2.Cli/Bench/GoChain.cs) builds this file with Debian's
// golang and runs it once; it prints one JSON line in the shape the C# worker prints its cells
// (bench/Async2.Bench/Harness.cs, Report.Cell), which the report puts beside the C# AddOne chain
// (bench/Async2.Bench/Chains.cs) of the same length. Keep the three in step.
//
//	chain <n> <rounds> <case>
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"time"
)

func addOne(from <-chan int, to chan<- int) {
	to <- 1 + <-from
}

// build starts n goroutines in a row and returns the channel that feeds the far end and the one
// the near end answers on.
func build(n int) (chan<- int, <-chan int) {
	near := make(chan int)
	to := near
	for i := 0; i < n; i++ {
		from := make(chan int)
		go addOne(from, to)
		to = from
	}
	return to, near
}

// round builds a chain and passes a value through it; the time covers both, as the C# chain's does.
func round(n int) (ms float64, heapBytes uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	far, near := build(n)
	far <- 0
	result := <-near
	ms = float64(time.Since(start).Nanoseconds()) / 1e6
	runtime.ReadMemStats(&after)
	if result != n {
		fmt.Fprintf(os.Stderr, "a chain of %d gave %d\n", n, result)
		os.Exit(1)
	}
	return ms, after.TotalAlloc - before.TotalAlloc
}

// stackPerLink is the goroutine stack memory a chain holds while all of it waits (not part of
// TotalAlloc, which counts heap objects only), measured in a round of its own, untimed.
func stackPerLink(n int) float64 {
	var before, waiting runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	// A goroutine gets its stack when it is created, so the whole chain's is in use here.
	far, near := build(n)
	runtime.ReadMemStats(&waiting)
	far <- 0
	<-near
	return float64(waiting.StackInuse-before.StackInuse) / float64(n)
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: chain <n> <rounds> <case>")
		os.Exit(2)
	}
	n, err1 := strconv.Atoi(os.Args[1])
	rounds, err2 := strconv.Atoi(os.Args[2])
	if err1 != nil || err2 != nil || n < 1 || rounds < 1 {
		fmt.Fprintln(os.Stderr, "usage: chain <n> <rounds> <case>")
		os.Exit(2)
	}
	// Warm-up: the seed's program runs its test twice; the first run grows the heap and the
	// stack cache the later ones reuse.
	round(n)
	times := make([]float64, rounds)
	heap := make([]float64, rounds)
	for i := range times {
		ms, bytes := round(n)
		times[i], heap[i] = ms, float64(bytes)/float64(n)
	}
	stack := stackPerLink(n)
	cell := map[string]any{
		"benchmark":  "go",
		"variant":    "Go",
		"case":       os.Args[3],
		"unit":       "ms",
		"value":      median(times),
		"bytesPerOp": median(heap),
		"rounds":     times,
		"extra": map[string]float64{
			"stackBytesPerLink": stack,
			"gomaxprocs":        float64(runtime.GOMAXPROCS(0)),
		},
	}
	line, _ := json.Marshal(cell)
	fmt.Println(string(line))
}

func median(values []float64) float64 {
	sorted := append([]float64(nil), values...)
	sort.Float64s(sorted)
	mid := len(sorted) / 2
	if len(sorted)%2 == 1 {
		return sorted[mid]
	}
	return (sorted[mid-1] + sorted[mid]) / 2
}
