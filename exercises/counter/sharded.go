package counter

import "sync/atomic"

// CacheLine is the cache-line size assumed for padding (64 bytes on amd64
// and most arm64 cores).
const CacheLine = 64

// Sharded is one logical counter split into shards that parallel goroutines
// increment separately; Value adds them up. Its shards sit next to each other,
// so eight of them share one cache line and the CPUs still fight over it
// (false sharing). Used by BenchmarkCounter to compare with PaddedSharded.
type Sharded struct{ shards []atomic.Int64 }

// NewSharded returns a counter with n shards.
func NewSharded(n int) *Sharded { return &Sharded{shards: make([]atomic.Int64, n)} }

// Inc adds one to shard i (mod the shard count).
func (s *Sharded) Inc(i int) { s.shards[i%len(s.shards)].Add(1) }

// Value returns the sum of the shards; exact once all Inc calls returned.
func (s *Sharded) Value() int64 {
	var sum int64
	for i := range s.shards {
		sum += s.shards[i].Load()
	}
	return sum
}

// PaddedSharded is Sharded with every shard padded to a cache line of its
// own, so goroutines on different shards never touch the same line.
type PaddedSharded struct{ shards []paddedShard }

type paddedShard struct {
	n atomic.Int64
	_ [CacheLine - 8]byte // padding: the next shard starts on the next line
}

// NewPaddedSharded returns a counter with n padded shards.
func NewPaddedSharded(n int) *PaddedSharded { return &PaddedSharded{shards: make([]paddedShard, n)} }

// Inc adds one to shard i (mod the shard count).
func (s *PaddedSharded) Inc(i int) { s.shards[i%len(s.shards)].n.Add(1) }

// Value returns the sum of the shards; exact once all Inc calls returned.
func (s *PaddedSharded) Value() int64 {
	var sum int64
	for i := range s.shards {
		sum += s.shards[i].n.Load()
	}
	return sum
}
