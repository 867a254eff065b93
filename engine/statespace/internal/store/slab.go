package store

import (
	"sync/atomic"
	"unsafe"
)

// mapped is the bytes the tables of every running search hold off the Go
// heap (slab_linux.go): the memory bound and the figures count them with
// the heap.
var mapped atomic.Int64

// Mapped is the bytes the tables of every running search hold off the
// Go heap now.
func Mapped() uint64 { return uint64(mapped.Load()) }

// slabMin is the size from which a table is mapped off the heap; smaller
// ones are made on it (a small search maps nothing it does not touch).
const slabMin = 64 << 10

// Block is a pointer-free table of n T's, zeroed.
type Block[T uint8 | uint16 | uint32 | uint64] struct {
	S   []T    // the table
	raw []byte // when mapped
}

// NewBlock makes a block of n zeroes, off the Go heap from slabMin bytes
// on where the OS allows.
func NewBlock[T uint8 | uint16 | uint32 | uint64](n int) Block[T] {
	size := n * int(unsafe.Sizeof(T(0)))
	if size < slabMin {
		return Block[T]{S: make([]T, n)}
	}
	raw, ok := mapSlab(size)
	s := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(raw))), n)
	if !ok {
		return Block[T]{S: s}
	}
	mapped.Add(int64(size))
	return Block[T]{S: s, raw: raw}
}

// Free gives a mapped table back to the OS; the block is empty after.
func (b *Block[T]) Free() {
	if b.raw != nil {
		mapped.Add(-int64(len(b.raw)))
		unmapSlab(b.raw)
	}
	*b = Block[T]{}
}

// Slab is a growing array of T kept in blocks of 64 Ki elements off the
// heap: growing it copies nothing and never holds two copies at once.
type Slab[T uint8 | uint16 | uint32 | uint64] struct {
	Blocks []Block[T] // full but the last; element i is Blocks[i/SlabLen].S[i%SlabLen]
	n      int
}

// SlabLen is the elements of a Slab's block.
const SlabLen = 1 << 16

// Push appends v and returns its index.
func (c *Slab[T]) Push(v T) int {
	if c.n%SlabLen == 0 {
		c.Blocks = append(c.Blocks, NewBlock[T](SlabLen))
	}
	c.Blocks[c.n/SlabLen].S[c.n%SlabLen] = v
	c.n++
	return c.n - 1
}

// At is element i.
func (c *Slab[T]) At(i int) *T { return &c.Blocks[i/SlabLen].S[i%SlabLen] }

// Free gives the blocks back to the OS; the slab is empty after.
func (c *Slab[T]) Free() {
	for i := range c.Blocks {
		c.Blocks[i].Free()
	}
	*c = Slab[T]{}
}
