package election

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// shuffle must give rand.Shuffle's permutation exactly: a random layout is
// a pure function of the seed, and recorded runs replay with it.
func TestShuffleIsRandShuffle(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 63, 64, 65, 66, 129, 1000, 12345} {
		for seed := range uint64(4) {
			want, got := make([]int, n), make([]int, n)
			for i := range want {
				want[i], got[i] = i+1, i+1
			}
			rand.New(rand.NewPCG(seed, 7)).Shuffle(n, func(i, j int) { want[i], want[j] = want[j], want[i] })
			shuffle(rand.New(rand.NewPCG(seed, 7)), got)
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d seed=%d: shuffle differs from rand.Shuffle", n, seed)
			}
		}
	}
}
