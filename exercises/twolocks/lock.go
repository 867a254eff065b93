package twolocks

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// ErrAborted is returned by Lock when the watchdog found a deadlock and
// released every waiter so the program can unwind and exit cleanly.
var ErrAborted = errors.New("lock wait aborted: deadlock detected")

// Monitor keeps the table of who holds and who waits for each of its locks,
// and a watchdog that reads it. All of the table changes under one mutex, so
// the watchdog always reads a consistent snapshot. Create it with NewMonitor;
// it must not be copied.
type Monitor struct {
	mu       sync.Mutex
	holder   map[string]string // lock -> goroutine holding it
	waitsFor map[string]string // goroutine -> lock it is blocked on

	poke  chan struct{} // buffered(1): "someone started waiting, look again"
	abort chan struct{} // closed by the watchdog when it finds a deadlock
}

// NewMonitor returns an empty monitor.
func NewMonitor() *Monitor {
	return &Monitor{
		holder: map[string]string{}, waitsFor: map[string]string{},
		poke: make(chan struct{}, 1), abort: make(chan struct{}),
	}
}

// Lock is a mutual-exclusion lock that tells its Monitor who holds it and who
// waits for it, and whose waiters can be aborted. It is a channel with room
// for one token: Lock puts the token in, Unlock takes it out. A Go
// sync.Mutex cannot be used here: a goroutine blocked in Mutex.Lock can never
// be woken except by Unlock, so a deadlocked program could not exit cleanly.
type Lock struct {
	name  string
	m     *Monitor
	token chan struct{}
}

// NewLock returns a lock named name watched by m.
func (m *Monitor) NewLock(name string) *Lock {
	return &Lock{name: name, m: m, token: make(chan struct{}, 1)}
}

// Lock takes l for goroutine who. If arrived is not nil it is called once
// who either holds l or is recorded as waiting for it (the lesson uses it to
// line the two goroutines up). It returns ErrAborted if the watchdog aborts
// the wait.
func (l *Lock) Lock(who string, arrived func()) error {
	if arrived == nil {
		arrived = func() {}
	}
	select {
	case l.token <- struct{}{}:
		l.m.update(func() { l.m.holder[l.name] = who })
		arrived()
		return nil
	default: // held by someone else: record the wait, then block
	}
	l.m.update(func() { l.m.waitsFor[who] = l.name })
	select {
	case l.m.poke <- struct{}{}:
	default: // a poke is already pending; the watchdog will see this wait too
	}
	arrived()
	select {
	case l.token <- struct{}{}:
		l.m.update(func() { delete(l.m.waitsFor, who); l.m.holder[l.name] = who })
		return nil
	case <-l.m.abort:
		l.m.update(func() { delete(l.m.waitsFor, who) })
		return ErrAborted
	}
}

// Unlock releases l. The holder is cleared BEFORE the token is released, so
// the table never names a goroutine as holder after it let go.
func (l *Lock) Unlock() {
	l.m.update(func() { delete(l.m.holder, l.name) })
	<-l.token
}

func (m *Monitor) update(f func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f()
}

// Watch is the watchdog. Each time a goroutine starts waiting it looks for a
// cycle in the wait-for graph (g waits for a lock held by h, who waits for a
// lock held by ... g). A cycle in a consistent snapshot is a real deadlock:
// nobody in it can ever release. Then Watch aborts every waiter and returns
// the description; it returns "" when stop closes first.
func (m *Monitor) Watch(stop <-chan struct{}) string {
	for {
		select {
		case <-m.poke:
			if report := m.findCycle(); report != "" {
				close(m.abort)
				return report
			}
		case <-stop:
			return ""
		}
	}
}

// findCycle returns the description of a wait-for cycle, or "". Goroutines
// are tried in name order so the report is the same on every run.
func (m *Monitor) findCycle() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, start := range slices.Sorted(maps.Keys(m.waitsFor)) {
		path := []string{start}
		for g := start; len(path) <= len(m.waitsFor); {
			next, ok := m.holder[m.waitsFor[g]]
			if !ok {
				break
			}
			if next == start {
				return m.describe(path)
			}
			path, g = append(path, next), next
		}
	}
	return ""
}

func (m *Monitor) describe(cycle []string) string {
	parts := make([]string, len(cycle))
	for i, g := range cycle {
		var holds []string
		for lock, h := range m.holder {
			if h == g {
				holds = append(holds, lock)
			}
		}
		slices.Sort(holds)
		want := m.waitsFor[g]
		parts[i] = fmt.Sprintf("%s holds %s and waits for %s (held by %s)", g, strings.Join(holds, ", "), want, m.holder[want])
	}
	return strings.Join(parts, "; ")
}
