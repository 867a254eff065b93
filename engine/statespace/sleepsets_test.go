package statespace

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// The sleep sets off the heap number each distinct set once, in order,
// give back what was stored past many blocks and index growths, and can
// be read through a view while more are numbered.
func TestSleepSetsNumberDistinctSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ss := newSleepSets()
	defer ss.free()
	if ss.id(nil) != 0 || ss.at(0) != nil {
		t.Fatal("the empty set is not number 0")
	}
	want := map[string]int32{}
	var sets [][]Trans
	randSet := func() []Trans {
		ts := make([]Trans, 1+rng.IntN(6))
		for i := range ts {
			ts[i] = Trans{Kind: Kind(rng.IntN(3)), Node: int16(1 + rng.IntN(4)), From: int16(rng.IntN(4)), K: int16(rng.IntN(2)), Timer: rng.Int32N(3), Msg: rng.Uint32N(500)}
		}
		return ts
	}
	for range 60_000 {
		ts := randSet()
		if rng.IntN(3) == 0 && len(sets) > 0 { // a set seen before, in a fresh slice
			ts = append([]Trans(nil), sets[rng.IntN(len(sets))]...)
		}
		id := ss.id(ts)
		k := fmt.Sprintf("%#v", ts)
		if w, ok := want[k]; ok {
			if id != w {
				t.Fatalf("set %v numbered %d, then %d", ts, w, id)
			}
			continue
		}
		if int(id) != len(sets)+1 {
			t.Fatalf("new set %v numbered %d, want %d", ts, id, len(sets)+1)
		}
		want[k] = id
		sets = append(sets, ts)
		ts[0].Msg++ // the caller's slice is copied, not kept
		ts[0].Msg--
	}
	if len(ss.data) < 2 || len(ss.index.S) <= 1<<10 {
		t.Fatalf("%d data blocks, %d index slots: the test did not cross a block or grow the index", len(ss.data), len(ss.index.S))
	}
	v := ss.view()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // reads through the view while the sets grow
		defer wg.Done()
		for i, ts := range sets {
			if got := v.at(int32(i + 1)); !equalTrans(got, ts) {
				t.Errorf("view: set %d = %v, want %v", i+1, got, ts)
				return
			}
		}
	}()
	for range 20_000 {
		ss.id(randSet())
	}
	wg.Wait()
	for i, ts := range sets {
		if got := ss.at(int32(i + 1)); !equalTrans(got, ts) {
			t.Fatalf("set %d = %v, want %v", i+1, got, ts)
		}
	}
}
