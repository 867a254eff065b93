package store

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A shard grows by half when it would pass 3/4 full, so every shard that
// has grown is 1/2 to 3/4 full, and its slot count follows 16, 24, 36...
func TestShardsGrowByHalf(t *testing.T) {
	if !growByHalf {
		t.Skip("growth by doubling")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	f := NewFPSet(false)
	defer f.Free()
	for range 400_000 {
		if fp := rng.Uint64(); fp > 1 {
			if _, ok := f.Get(fp); !ok {
				f.Put(fp, 0)
			}
		}
	}
	sizes := map[int]bool{}
	for n := shardSlots; n < 1<<20; n = grown(n) {
		sizes[n] = true
	}
	for i := range f.shards {
		sh := &f.shards[i]
		size := len(sh.keys.S)
		if !sizes[size] || size == shardSlots {
			t.Fatalf("shard %d: %d slots, not one of 16, 24, 36... past 16", i, size)
		}
		if 4*sh.n > 3*size || 2*sh.n < size-2 {
			t.Errorf("shard %d: %d states in %d slots, outside 1/2 to 3/4 full", i, sh.n, size)
		}
	}
	if grown(16) != 24 || grown(24) != 36 || grown(52597) != 78895 {
		t.Errorf("grown(16), grown(24), grown(52597) = %d, %d, %d", grown(16), grown(24), grown(52597))
	}
}

// Every fingerprint's home slot lies in the shard, spread over all of it.
func TestHomeInRange(t *testing.T) {
	for _, n := range []int{16, 24, 81, 52597} {
		if h := Home(math.MaxUint64, n); h != n-1 {
			t.Errorf("Home(max, %d) = %d, want %d", n, h, n-1)
		}
		if h := Home(1<<63, n); h != 0 {
			t.Errorf("Home(1<<63, %d) = %d: the top bits choose the shard, not the slot", n, h)
		}
		if h := Home(1<<31, n); h != n/2 {
			t.Errorf("Home(1<<31, %d) = %d, want %d", n, h, n/2)
		}
	}
}
