package concmap

// QUARANTINE: this file is a data race on purpose. It is the check-then-put
// students write first: look the key up, and if it is missing, store it, with
// nothing making the two steps one. It exists so the lesson can show several
// goroutines all "inserting first", and so the race detector has something
// real to report (see the README, "Race-detector curriculum"). It runs only
// in a subprocess built with -race, or in tests skipped under -race. Do not
// copy it.
//
// It is a tiny table of its own rather than a Go map: unsynchronized writes to
// a built-in map make the runtime abort the whole program ("fatal error:
// concurrent map writes") at random, which would hide the lesson (and the
// detector's report) behind a crash.

import (
	"hash/maphash"
	"runtime"
)

const racySlots = 64

// RacyMap is an open-addressing hash table with no synchronization at all.
// It holds at most racySlots keys; the zero value is ready to use.
type RacyMap struct {
	// Between, if set, runs between the check and the put in place of the
	// yield: a test holds goroutines there to make the interleaving that
	// breaks put-if-absent happen on every run, however busy the machine.
	Between func()

	seed maphash.Seed
	used [racySlots]bool
	keys [racySlots]string
	vals [racySlots]int
}

// NewRacyMap returns an empty table.
func NewRacyMap() *RacyMap { return &RacyMap{seed: maphash.MakeSeed()} }

// PutIfAbsent implements Map: check, yield, put. The yield
// (runtime.Gosched) stands for anything that lets another goroutine run
// between the check and the put; it makes the bug show on every run.
func (m *RacyMap) PutIfAbsent(key string, v int) (int, bool) {
	i := int(maphash.String(m.seed, key) % racySlots)
	for ; m.used[i]; i = (i + 1) % racySlots { // check ...
		if m.keys[i] == key {
			return m.vals[i], false
		}
	}
	if m.Between != nil {
		m.Between()
	} else {
		runtime.Gosched()
	}
	m.used[i], m.keys[i], m.vals[i] = true, key, v // ... then put: another goroutine may have put in between
	return v, true
}

// Get returns the value stored for key.
func (m *RacyMap) Get(key string) (int, bool) {
	for i := int(maphash.String(m.seed, key) % racySlots); m.used[i]; i = (i + 1) % racySlots {
		if m.keys[i] == key {
			return m.vals[i], true
		}
	}
	return 0, false
}
