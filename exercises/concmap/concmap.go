// Package concmap is the `concurrent-map` lesson of the concurrency chapter
// (the course chapter on concurrency, "thread-safe structures: concurrent map with atomic
// put-if-absent"): many goroutines try to put the same key at the same time,
// and each one learns whether it was the one that inserted it. With an
// atomic put-if-absent (sync.Map.LoadOrStore, or a map whose check and put
// are under one mutex) exactly one goroutine wins; with the racy
// check-then-put several believe they did.
package concmap

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lesson"
)

// Implementations, for --impl.
const (
	ImplRacy    = "racy"
	ImplMutex   = "mutex"
	ImplSyncMap = "syncmap"
)

// Key is the key every goroutine tries to insert.
const Key = "answer"

// MaxGoroutines bounds --goroutines.
const MaxGoroutines = 1_000_000

const explain = `
concurrent-map: --goroutines goroutines wait at a start line, then all call
PutIfAbsent("answer", their id) at once. Each learns whether IT inserted the key. The run
counts how many goroutines believe they inserted it first: exactly one may be right.

  --impl syncmap  sync.Map.LoadOrStore: one atomic step, "load the value, or store mine if there
                  is none". Exactly 1 winner; everyone else gets the winner's value.
  --impl mutex    a plain map with check and put inside ONE critical section (sync.Mutex).
                  Exactly 1 winner.
  --impl racy     check, then put, with nothing making the two steps one: several goroutines see
                  "absent", each puts its own id, each believes it won, and the last write
                  silently replaces the others. It is also a data race: build with -race and the
                  detector reports it (exit 66). (It uses a small table of its own: a built-in Go
                  map written without a lock often kills the program with "fatal error:
                  concurrent map writes" before you can see the lesson.)

Why: "check-then-act" is two steps; another goroutine can act in between. Making each step
thread-safe is not enough; the whole sequence must be atomic.
`

// Map is a map with an atomic (or not) put-if-absent.
type Map interface {
	// PutIfAbsent stores v under key if key is absent and reports whether it
	// did; actual is the value now stored (v, or the earlier one).
	PutIfAbsent(key string, v int) (actual int, inserted bool)
	Get(key string) (int, bool)
}

// MutexMap is a built-in map guarded by one mutex. Create it with
// NewMutexMap; it must not be copied.
type MutexMap struct {
	mu sync.Mutex
	m  map[string]int
}

// NewMutexMap returns an empty map.
func NewMutexMap() *MutexMap { return &MutexMap{m: map[string]int{}} }

// PutIfAbsent implements Map: the check and the put are one critical section.
func (m *MutexMap) PutIfAbsent(key string, v int) (int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.m[key]; ok {
		return old, false
	}
	m.m[key] = v
	return v, true
}

// Get implements Map.
func (m *MutexMap) Get(key string) (int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[key]
	return v, ok
}

// SyncMap is a sync.Map of string to int. The zero value is ready to use.
type SyncMap struct{ m sync.Map }

// PutIfAbsent implements Map with LoadOrStore, one atomic step.
func (m *SyncMap) PutIfAbsent(key string, v int) (int, bool) {
	actual, loaded := m.m.LoadOrStore(key, v)
	return actual.(int), !loaded
}

// Get implements Map.
func (m *SyncMap) Get(key string) (int, bool) {
	v, ok := m.m.Load(key)
	if !ok {
		return 0, false
	}
	return v.(int), true
}

// New returns an empty map of impl; it panics on an unknown impl.
func New(impl string) Map {
	switch impl {
	case ImplRacy:
		return NewRacyMap()
	case ImplMutex:
		return NewMutexMap()
	case ImplSyncMap:
		return &SyncMap{}
	}
	panic("concmap: unknown impl " + impl)
}

// Result is what the goroutines believed and what the map holds.
type Result struct {
	Believers int // goroutines told "you inserted it"
	Stored    int // the id stored under Key at the end
	// Started goroutines were started (all n unless Interrupted: ctx ended
	// before the gate opened, and none of them called PutIfAbsent).
	Started     int
	Interrupted bool
}

// Command returns the `exercises concurrent-map` command.
func Command() *cli.Command {
	return lesson.Command(&cli.Command{
		Name:  "concurrent-map",
		Usage: "put-if-absent: sync.Map.LoadOrStore and a mutex map vs the racy check-then-put",
		UsageText: "ringlab exercises concurrent-map [--impl syncmap|mutex|racy] [--goroutines 100] [--explain]\n\n" +
			"Example:\n   ringlab exercises concurrent-map --impl racy",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "impl", Value: ImplSyncMap, Usage: "syncmap (LoadOrStore), mutex, or racy (check-then-put)"},
			&cli.IntFlag{Name: "goroutines", Value: 100, Usage: fmt.Sprintf("goroutines racing to insert the key (1..%d)", MaxGoroutines)},
		},
	}, explain, action)
}

func action(c *cli.Context) error {
	impl, err := lesson.OneOf(c, "impl", ImplSyncMap, ImplMutex, ImplRacy)
	if err != nil {
		return err
	}
	n, err := lesson.Goroutines(c, "goroutines", 1, MaxGoroutines)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "%d goroutines called PutIfAbsent(%q, id) at once (--impl %s)\n", n, Key, impl)
	res := Run(c.Context, impl, n)
	if res.Interrupted {
		fmt.Fprintf(c.App.Writer, "interrupted: %d of %d goroutines were started and joined; the start gate never opened, so none called PutIfAbsent\n", res.Started, n)
		return c.Context.Err()
	}
	fmt.Fprintf(c.App.Writer, "%d believed they inserted it first (want exactly 1); the map holds %s=%d\n", res.Believers, Key, res.Stored)
	if res.Believers == 1 || impl == ImplRacy {
		return nil // several winners is what the racy variant demonstrates
	}
	return cliutil.Violationf("concurrent-map --impl %s: %d goroutines believed they inserted the key, want 1", impl, res.Believers)
}

// Run lines up n goroutines at a start gate, lets them all PutIfAbsent(Key,
// id) at once, joins them and counts the winners. If ctx ends before the
// gate opens, no more goroutines start, the gate stays shut, the ones
// started are joined, and the result is Interrupted.
func Run(ctx context.Context, impl string, n int) Result {
	return RunMap(ctx, New(impl), n)
}

// RunMap is Run on the map m.
func RunMap(ctx context.Context, m Map, n int) Result {
	start := make(chan struct{})
	var believers atomic.Int64
	var wg sync.WaitGroup
	started := 0
	for id := 1; id <= n && ctx.Err() == nil; id++ {
		started++
		wg.Go(func() {
			select {
			case <-start:
			case <-ctx.Done():
				return
			}
			if _, inserted := m.PutIfAbsent(Key, id); inserted {
				believers.Add(1)
			}
		})
	}
	interrupted := ctx.Err() != nil
	if !interrupted {
		close(start) // the start gate: all of them go at once
	}
	wg.Wait()
	stored, _ := m.Get(Key)
	return Result{Believers: int(believers.Load()), Stored: stored, Started: started, Interrupted: interrupted}
}
