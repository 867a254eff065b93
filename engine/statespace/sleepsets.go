package statespace

import (
	"unsafe"

	"ringlab/engine/statespace/internal/store"
)

// sleepSets numbers the distinct sleep sets of a search: a state's record
// holds a number (4 bytes), not a slice (24 bytes and an allocation), and
// the many states with the same sleep set share one copy. Number 0 is the
// empty set. The sets live off the Go heap (store.Slab), their transitions
// one after another, with an open-addressing index by their hash: about
// 8 + 16k + 8 bytes a set of k transitions, where a map from the set's
// encoding to its number and a slice of each set on the heap took about
// 140 for k = 2, and the collector let the heap grow to twice that. At 10
// million states of ricart-agrawala --nodes 4 --requests 1 with the
// reduction the sets on the heap were 65 MB of its 88 MB live.
type sleepSets struct {
	meta  store.Slab[uint64]    // by number: the set's first word in data << 16 | its length
	data  []store.Block[uint64] // the transitions, two words each; a set never straddles two blocks
	used  int                   // the words used of the last block of data
	index store.Block[uint32]   // set numbers by hash (0: an empty slot), at most 3/4 full
	n     int                   // the sets in the index
}

// transWords is the 8-byte words of a Trans (16 bytes, no pointers).
const transWords = int(unsafe.Sizeof(Trans{})) / 8

func newSleepSets() *sleepSets {
	ss := &sleepSets{index: store.NewBlock[uint32](1 << 10)}
	ss.meta.Push(0) // the empty set
	return ss
}

// at is the set numbered id, which its caller must not change. It may be
// called while id is called for other sets only through a view.
func (ss *sleepSets) at(id int32) []Trans {
	return sleepView{ss.meta.Blocks, ss.data}.at(id)
}

// sleepView reads the sets numbered so far while more are numbered (by
// another goroutine): it holds copies of the block lists, and no set is
// written after it is numbered.
type sleepView struct {
	meta []store.Block[uint64]
	data []store.Block[uint64]
}

func (ss *sleepSets) view() sleepView { return sleepView{ss.meta.Blocks, ss.data} }

func (v sleepView) at(id int32) []Trans {
	m := v.meta[int(id)/store.SlabLen].S[int(id)%store.SlabLen]
	k := int(m & 0xffff)
	if k == 0 {
		return nil
	}
	w := int(m >> 16)
	b := v.data[w/store.SlabLen].S[w%store.SlabLen:]
	return unsafe.Slice((*Trans)(unsafe.Pointer(unsafe.SliceData(b))), k)
}

// hashTrans is a hash of the set ts (in that order).
func hashTrans(ts []Trans) uint64 {
	h := uint64(len(ts))
	for _, t := range ts {
		for _, v := range [...]uint64{uint64(t.Kind)<<48 | uint64(uint16(t.Node))<<32 | uint64(uint16(t.From))<<16 | uint64(uint16(t.K)), uint64(uint32(t.Timer))<<32 | uint64(t.Msg)} {
			h ^= v
			h *= 0x9e3779b97f4a7c15
			h ^= h >> 29
		}
	}
	return h
}

// id returns the number of the set ts (in that order), which it copies.
func (ss *sleepSets) id(ts []Trans) int32 {
	if len(ts) == 0 {
		return 0
	}
	h := hashTrans(ts)
	idx := ss.index.S
	i := store.Home(h, len(idx))
	for ; idx[i] != 0; i = (i + 1) % len(idx) {
		if equalTrans(ss.at(int32(idx[i])), ts) {
			return int32(idx[i])
		}
	}
	id := int32(ss.add(ts))
	idx[i] = uint32(id)
	if ss.n++; 4*ss.n > 3*len(idx) {
		ss.regrow()
	}
	return id
}

// add stores ts as the next set and returns its number.
func (ss *sleepSets) add(ts []Trans) int {
	if transWords*len(ts) > store.SlabLen {
		// A sleep set holds transitions enabled in one state.
		panic("statespace: a sleep set of more than 32,768 transitions")
	}
	words := transWords * len(ts)
	if len(ss.data) == 0 || ss.used+words > store.SlabLen {
		ss.data = append(ss.data, store.NewBlock[uint64](store.SlabLen))
		ss.used = 0
	}
	w := (len(ss.data)-1)*store.SlabLen + ss.used
	b := ss.data[len(ss.data)-1].S[ss.used:]
	copy(unsafe.Slice((*Trans)(unsafe.Pointer(unsafe.SliceData(b))), len(ts)), ts)
	ss.used += words
	return ss.meta.Push(uint64(w)<<16 | uint64(len(ts)))
}

// regrow doubles the index.
func (ss *sleepSets) regrow() {
	old := ss.index
	ss.index = store.NewBlock[uint32](2 * len(old.S))
	idx := ss.index.S
	for _, id := range old.S {
		if id != 0 {
			i := store.Home(hashTrans(ss.at(int32(id))), len(idx))
			for idx[i] != 0 {
				i = (i + 1) % len(idx)
			}
			idx[i] = id
		}
	}
	old.Free()
}

func equalTrans(a, b []Trans) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// free gives the sets' memory back.
func (ss *sleepSets) free() {
	ss.meta.Free()
	for i := range ss.data {
		ss.data[i].Free()
	}
	ss.data = nil
	ss.index.Free()
}
