package statespace

import (
	"sync/atomic"
	"unsafe"
)

// mapped is the bytes the tables of every running search hold off the Go
// heap (slab_linux.go): the memory bound and the figures count them with
// the heap.
var mapped atomic.Int64

// slabMin is the size from which a table is mapped off the heap; smaller
// ones are made on it (a small search maps nothing it does not touch).
const slabMin = 64 << 10

// block is a pointer-free table of n T's, zeroed.
type block[T uint8 | uint16 | uint32 | uint64] struct {
	s   []T
	raw []byte // when mapped
}

func newBlock[T uint8 | uint16 | uint32 | uint64](n int) block[T] {
	size := n * int(unsafe.Sizeof(T(0)))
	if size < slabMin {
		return block[T]{s: make([]T, n)}
	}
	raw, ok := mapSlab(size)
	s := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(raw))), n)
	if !ok {
		return block[T]{s: s}
	}
	mapped.Add(int64(size))
	return block[T]{s: s, raw: raw}
}

// free gives a mapped table back to the OS; the block is empty after.
func (b *block[T]) free() {
	if b.raw != nil {
		mapped.Add(-int64(len(b.raw)))
		unmapSlab(b.raw)
	}
	*b = block[T]{}
}

// slab is a growing array of T kept in blocks of 64 Ki elements off the
// heap: growing it copies nothing and never holds two copies at once.
type slab[T uint8 | uint16 | uint32 | uint64] struct {
	blocks []block[T]
	n      int
}

const slabLen = 1 << 16

func (c *slab[T]) push(v T) int {
	if c.n%slabLen == 0 {
		c.blocks = append(c.blocks, newBlock[T](slabLen))
	}
	c.blocks[c.n/slabLen].s[c.n%slabLen] = v
	c.n++
	return c.n - 1
}

func (c *slab[T]) at(i int) *T { return &c.blocks[i/slabLen].s[i%slabLen] }

func (c *slab[T]) free() {
	for i := range c.blocks {
		c.blocks[i].free()
	}
	*c = slab[T]{}
}
