package store

// FPSet maps 64-bit fingerprints to record numbers (or, made without
// values, only holds them): open addressing with linear probing, 12 bytes
// a slot (8 without values), at most 3/4 full, in 256 shards chosen by the
// fingerprint's top byte. Each shard grows alone (growth.go), so growing
// holds at most one shard twice, never the whole table; big shards live off the Go
// heap (slab.go). Fingerprint 0 marks an empty slot, so a state whose
// fingerprint is 0 is stored as 1 (one more way to collide, as rare as
// any other).
type FPSet struct {
	shards [256]fpShard
	vals   bool
	n      int
}

type fpShard struct {
	keys Block[uint64]
	vals Block[uint32]
	n    int
}

const shardSlots = 16 // a shard's first size

// NewFPSet makes an empty set, with record numbers if vals is set.
func NewFPSet(vals bool) *FPSet {
	f := &FPSet{vals: vals}
	for i := range f.shards {
		f.shards[i].alloc(shardSlots, vals)
	}
	return f
}

func (sh *fpShard) alloc(n int, vals bool) {
	sh.keys = NewBlock[uint64](n)
	if vals {
		sh.vals = NewBlock[uint32](n)
	}
}

// Get returns fp's record number (0 in a set without values) and
// whether fp is in the set.
func (f *FPSet) Get(fp uint64) (int32, bool) {
	fp = max(fp, 1)
	sh := &f.shards[fp>>56]
	keys := sh.keys.S
	for i := Home(fp, len(keys)); ; i++ {
		if i == len(keys) {
			i = 0
		}
		switch keys[i] {
		case fp:
			if f.vals {
				return int32(sh.vals.S[i]), true
			}
			return 0, true
		case 0:
			return 0, false
		}
	}
}

// Put stores fp (not in the set) with v (dropped without values).
func (f *FPSet) Put(fp uint64, v int32) {
	fp = max(fp, 1)
	sh := &f.shards[fp>>56]
	if 4*(sh.n+1) > 3*len(sh.keys.S) {
		old, oldv := sh.keys, sh.vals
		sh.alloc(grown(len(old.S)), f.vals)
		for i, k := range old.S {
			if k != 0 {
				var w uint32
				if f.vals {
					w = oldv.S[i]
				}
				sh.insert(k, w)
			}
		}
		old.Free()
		oldv.Free()
	}
	sh.insert(fp, uint32(v))
	sh.n++
	f.n++
}

func (sh *fpShard) insert(fp uint64, v uint32) {
	keys := sh.keys.S
	i := Home(fp, len(keys))
	for keys[i] != 0 {
		if i++; i == len(keys) {
			i = 0
		}
	}
	keys[i] = fp
	if sh.vals.S != nil {
		sh.vals.S[i] = v
	}
}

// Free gives the table's memory back.
func (f *FPSet) Free() {
	for i := range f.shards {
		f.shards[i].keys.Free()
		f.shards[i].vals.Free()
	}
}

// Chunked is a slice of T kept in chunks of 64 Ki elements: growing it
// copies nothing and never holds two copies at once, as append's
// doubling does (the records of 20 million states are 640 MB).
type Chunked[T any] struct {
	chunks [][]T
	n      int
}

const chunkLen = 1 << 16

// Push appends v and returns its index.
func (c *Chunked[T]) Push(v T) int {
	if c.n%chunkLen == 0 {
		c.chunks = append(c.chunks, make([]T, 0, chunkLen))
	}
	last := len(c.chunks) - 1
	c.chunks[last] = append(c.chunks[last], v)
	c.n++
	return c.n - 1
}

// At is element i.
func (c *Chunked[T]) At(i int) *T { return &c.chunks[i/chunkLen][i%chunkLen] }

// Len is the elements pushed.
func (c *Chunked[T]) Len() int { return c.n }
