package statespace

import "encoding/binary"

// sleepSets numbers the distinct sleep sets of a search: a state's record
// holds a number (4 bytes), not a slice (24 bytes and an allocation), and
// the many states with the same sleep set share one copy. Number 0 is the
// empty set.
type sleepSets struct {
	ids  map[string]int32
	sets [][]Trans
	buf  []byte
}

func newSleepSets() *sleepSets {
	return &sleepSets{ids: map[string]int32{}, sets: [][]Trans{nil}}
}

// id returns the number of the set ts (in that order), which it may keep.
func (ss *sleepSets) id(ts []Trans) int32 {
	if len(ts) == 0 {
		return 0
	}
	b := ss.buf[:0]
	for _, t := range ts {
		b = append(b, byte(t.Kind), byte(t.Node), byte(t.Node>>8), byte(t.From), byte(t.From>>8))
		b = binary.LittleEndian.AppendUint16(b, uint16(t.K))
		b = binary.LittleEndian.AppendUint32(b, uint32(t.Timer))
		b = binary.LittleEndian.AppendUint32(b, t.Msg)
	}
	ss.buf = b
	if id, ok := ss.ids[string(b)]; ok {
		return id
	}
	id := int32(len(ss.sets))
	ss.ids[string(b)] = id
	ss.sets = append(ss.sets, append([]Trans(nil), ts...))
	return id
}

// fpSet maps 64-bit fingerprints to record numbers: open addressing with
// linear probing, 12 bytes a slot, at most 3/4 full. Fingerprint 0 marks
// an empty slot, so a state whose fingerprint is 0 is stored as 1 (one
// more way to collide, as rare as any other).
type fpSet struct {
	keys []uint64
	vals []int32
	n    int
}

func newFPSet() *fpSet { return &fpSet{keys: make([]uint64, 1<<10), vals: make([]int32, 1<<10)} }

func (f *fpSet) get(fp uint64) (int32, bool) {
	fp = max(fp, 1)
	mask := uint64(len(f.keys) - 1)
	for i := fp & mask; ; i = (i + 1) & mask {
		switch f.keys[i] {
		case fp:
			return f.vals[i], true
		case 0:
			return 0, false
		}
	}
}

// put stores fp (not in the set) with v.
func (f *fpSet) put(fp uint64, v int32) {
	if 4*(f.n+1) > 3*len(f.keys) {
		old, oldv := f.keys, f.vals
		f.keys, f.vals = make([]uint64, 2*len(old)), make([]int32, 2*len(old))
		for i, k := range old {
			if k != 0 {
				f.insert(k, oldv[i])
			}
		}
	}
	f.insert(max(fp, 1), v)
	f.n++
}

func (f *fpSet) insert(fp uint64, v int32) {
	mask := uint64(len(f.keys) - 1)
	i := fp & mask
	for f.keys[i] != 0 {
		i = (i + 1) & mask
	}
	f.keys[i], f.vals[i] = fp, v
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
