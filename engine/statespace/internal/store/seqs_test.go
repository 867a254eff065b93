package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// move is a 16-byte element, as a search's transition is.
type move struct {
	Kind          uint8
	Node, From, K int16
	Timer         int32
	Msg           uint32
}

func hashMoves(ts []move) uint64 {
	h := uint64(len(ts))
	for _, t := range ts {
		h = (h^uint64(t.Kind)<<48^uint64(uint16(t.Node))<<32^uint64(uint16(t.From))<<16^uint64(uint16(t.K)))*0x9e3779b97f4a7c15 ^ uint64(uint32(t.Timer))<<32 ^ uint64(t.Msg)
	}
	return h
}

// The sequences off the heap (a search's sleep sets) number each distinct
// one once, in order, give back what was stored past many blocks and index
// growths, and can be read through a view while more are numbered.
func TestSeqsNumberDistinctSequences(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ss := NewSeqs(hashMoves)
	defer ss.Free()
	if ss.ID(nil) != 0 || ss.At(0) != nil {
		t.Fatal("the empty set is not number 0")
	}
	want := map[string]int32{}
	var sets [][]move
	randSet := func() []move {
		ts := make([]move, 1+rng.IntN(6))
		for i := range ts {
			ts[i] = move{Kind: uint8(rng.IntN(3)), Node: int16(1 + rng.IntN(4)), From: int16(rng.IntN(4)), K: int16(rng.IntN(2)), Timer: rng.Int32N(3), Msg: rng.Uint32N(500)}
		}
		return ts
	}
	for range 60_000 {
		ts := randSet()
		if rng.IntN(3) == 0 && len(sets) > 0 { // a set seen before, in a fresh slice
			ts = append([]move(nil), sets[rng.IntN(len(sets))]...)
		}
		id := ss.ID(ts)
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
	v := ss.View()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // reads through the view while the sets grow
		defer wg.Done()
		for i, ts := range sets {
			if got := v.At(int32(i + 1)); !slices.Equal(got, ts) {
				t.Errorf("view: set %d = %v, want %v", i+1, got, ts)
				return
			}
		}
	}()
	for range 20_000 {
		ss.ID(randSet())
	}
	wg.Wait()
	for i, ts := range sets {
		if got := ss.At(int32(i + 1)); !slices.Equal(got, ts) {
			t.Fatalf("set %d = %v, want %v", i+1, got, ts)
		}
	}
}
