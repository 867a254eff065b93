package statespace

// fpSet maps 64-bit fingerprints to record numbers (or, made without
// values, only holds them): open addressing with linear probing, 12 bytes
// a slot (8 without values), at most 3/4 full, in 256 shards chosen by the
// fingerprint's top byte. Each shard grows alone (growth.go), so growing
// holds at most one shard twice, never the whole table; big shards live off the Go
// heap (slab.go). Fingerprint 0 marks an empty slot, so a state whose
// fingerprint is 0 is stored as 1 (one more way to collide, as rare as
// any other).
type fpSet struct {
	shards [256]fpShard
	vals   bool
	n      int
}

type fpShard struct {
	keys block[uint64]
	vals block[uint32]
	n    int
}

const shardSlots = 16 // a shard's first size

func newFPSet(vals bool) *fpSet {
	f := &fpSet{vals: vals}
	for i := range f.shards {
		f.shards[i].alloc(shardSlots, vals)
	}
	return f
}

func (sh *fpShard) alloc(n int, vals bool) {
	sh.keys = newBlock[uint64](n)
	if vals {
		sh.vals = newBlock[uint32](n)
	}
}

func (f *fpSet) get(fp uint64) (int32, bool) {
	fp = max(fp, 1)
	sh := &f.shards[fp>>56]
	keys := sh.keys.s
	for i := home(fp, len(keys)); ; i++ {
		if i == len(keys) {
			i = 0
		}
		switch keys[i] {
		case fp:
			if f.vals {
				return int32(sh.vals.s[i]), true
			}
			return 0, true
		case 0:
			return 0, false
		}
	}
}

// put stores fp (not in the set) with v (dropped without values).
func (f *fpSet) put(fp uint64, v int32) {
	fp = max(fp, 1)
	sh := &f.shards[fp>>56]
	if 4*(sh.n+1) > 3*len(sh.keys.s) {
		old, oldv := sh.keys, sh.vals
		sh.alloc(grown(len(old.s)), f.vals)
		for i, k := range old.s {
			if k != 0 {
				var w uint32
				if f.vals {
					w = oldv.s[i]
				}
				sh.insert(k, w)
			}
		}
		old.free()
		oldv.free()
	}
	sh.insert(fp, uint32(v))
	sh.n++
	f.n++
}

func (sh *fpShard) insert(fp uint64, v uint32) {
	keys := sh.keys.s
	i := home(fp, len(keys))
	for keys[i] != 0 {
		if i++; i == len(keys) {
			i = 0
		}
	}
	keys[i] = fp
	if sh.vals.s != nil {
		sh.vals.s[i] = v
	}
}

// free gives the table's memory back.
func (f *fpSet) free() {
	for i := range f.shards {
		f.shards[i].keys.free()
		f.shards[i].vals.free()
	}
}

// chunked is a slice of T kept in chunks of 64 Ki elements: growing it
// copies nothing and never holds two copies at once, as append's
// doubling does (the records of 20 million states are 640 MB).
type chunked[T any] struct {
	chunks [][]T
	n      int
}

const chunkLen = 1 << 16

func (c *chunked[T]) push(v T) int {
	if c.n%chunkLen == 0 {
		c.chunks = append(c.chunks, make([]T, 0, chunkLen))
	}
	last := len(c.chunks) - 1
	c.chunks[last] = append(c.chunks[last], v)
	c.n++
	return c.n - 1
}

func (c *chunked[T]) at(i int) *T { return &c.chunks[i/chunkLen][i%chunkLen] }

func (c *chunked[T]) len() int { return c.n }
