package store

import (
	"slices"
	"unsafe"
)

// Seqs numbers distinct sequences of T, a type without pointers whose
// size is a multiple of 8 bytes: the sleep sets of a search (T its
// transition), so that a state's record holds a number (4 bytes), not a
// slice (24 bytes and an allocation), and the many states with the same
// sleep set share one copy. Number 0 is the empty sequence. The sequences
// live off the Go heap (Slab), their elements one after another, with an
// open-addressing index by their hash: about
// 8 + 16k + 8 bytes a set of k transitions, where a map from the set's
// encoding to its number and a slice of each set on the heap took about
// 140 for k = 2, and the collector let the heap grow to twice that. At 10
// million states of ricart-agrawala --nodes 4 --requests 1 with the
// reduction the sets on the heap were 65 MB of its 88 MB live.
type Seqs[T comparable] struct {
	hash  func([]T) uint64 // a sequence's hash
	words int              // a T's 8-byte words
	meta  Slab[uint64]     // by number: the set's first word in data << 16 | its length
	data  []Block[uint64]  // the elements; a set never straddles two blocks
	used  int              // the words used of the last block of data
	index Block[uint32]    // set numbers by hash (0: an empty slot), at most 3/4 full
	n     int              // the sets in the index
}

// NewSeqs returns an empty Seqs that hashes a sequence with hash.
func NewSeqs[T comparable](hash func([]T) uint64) *Seqs[T] {
	var t T
	if unsafe.Sizeof(t)%8 != 0 {
		panic("store: Seqs of a type whose size is not a multiple of 8 bytes")
	}
	ss := &Seqs[T]{hash: hash, words: int(unsafe.Sizeof(t)) / 8, index: NewBlock[uint32](1 << 10)}
	ss.meta.Push(0) // the empty set
	return ss
}

// At is the sequence numbered id, which its caller must not change. It
// may be called while ID is called for others only through a View.
func (ss *Seqs[T]) At(id int32) []T {
	return SeqsView[T]{ss.meta.Blocks, ss.data}.At(id)
}

// SeqsView reads the sequences numbered so far while more are numbered
// (by another goroutine): it holds copies of the block lists, and no
// sequence is written after it is numbered.
type SeqsView[T comparable] struct {
	meta []Block[uint64]
	data []Block[uint64]
}

// View is a SeqsView of ss as it is now.
func (ss *Seqs[T]) View() SeqsView[T] { return SeqsView[T]{ss.meta.Blocks, ss.data} }

// At is the sequence numbered id, which the caller must not change.
func (v SeqsView[T]) At(id int32) []T {
	m := v.meta[int(id)/SlabLen].S[int(id)%SlabLen]
	k := int(m & 0xffff)
	if k == 0 {
		return nil
	}
	w := int(m >> 16)
	b := v.data[w/SlabLen].S[w%SlabLen:]
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), k)
}

// ID returns the number of the sequence ts, which it copies.
func (ss *Seqs[T]) ID(ts []T) int32 {
	if len(ts) == 0 {
		return 0
	}
	h := ss.hash(ts)
	idx := ss.index.S
	i := Home(h, len(idx))
	for ; idx[i] != 0; i = (i + 1) % len(idx) {
		if slices.Equal(ss.At(int32(idx[i])), ts) {
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
func (ss *Seqs[T]) add(ts []T) int {
	if ss.words*len(ts) > SlabLen {
		// A sleep set holds transitions enabled in one state.
		panic("store: a sequence longer than a block")
	}
	words := ss.words * len(ts)
	if len(ss.data) == 0 || ss.used+words > SlabLen {
		ss.data = append(ss.data, NewBlock[uint64](SlabLen))
		ss.used = 0
	}
	w := (len(ss.data)-1)*SlabLen + ss.used
	b := ss.data[len(ss.data)-1].S[ss.used:]
	copy(unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(ts)), ts)
	ss.used += words
	return ss.meta.Push(uint64(w)<<16 | uint64(len(ts)))
}

// regrow doubles the index.
func (ss *Seqs[T]) regrow() {
	old := ss.index
	ss.index = NewBlock[uint32](2 * len(old.S))
	idx := ss.index.S
	for _, id := range old.S {
		if id != 0 {
			i := Home(ss.hash(ss.At(int32(id))), len(idx))
			for idx[i] != 0 {
				i = (i + 1) % len(idx)
			}
			idx[i] = id
		}
	}
	old.Free()
}

// Free gives the sequences' memory back.
func (ss *Seqs[T]) Free() {
	ss.meta.Free()
	for i := range ss.data {
		ss.data[i].Free()
	}
	ss.data = nil
	ss.index.Free()
}
