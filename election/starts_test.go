package election

import (
	"runtime"
	"slices"
	"testing"

	"ringlab/engine/node"
)

func TestStartsInChunksIsPlain(t *testing.T) {
	for _, n := range []int{0, 1, startChunk - 1, startChunk, startChunk + 1, 3*startChunk + 7} {
		s := setup{starters: make([]int, n)}
		for k := range s.starters {
			s.starters[k] = n - k
		}
		if got, want := starts(s), startsPlain(s); !slices.Equal(got, want) {
			t.Fatalf("%d starters: chunked script differs from the plain one", n)
		}
	}
	if got := starts(setup{starters: []int{3, 1}}); !slices.Equal(got, []node.Action{{Node: 3, Cmd: node.CmdStart}, {Node: 1, Cmd: node.CmdStart}}) {
		t.Fatalf("starts = %v", got)
	}
}

// BenchmarkStarts builds the start script of a million initiators, plain
// and in chunks. Each op allocates 40 MB, so collections start inside the
// loop, as they do in a million-node run.
func BenchmarkStarts(b *testing.B) {
	s := setup{starters: make([]int, 1_000_000)}
	for k := range s.starters {
		s.starters[k] = k + 1
	}
	// A million small live objects, as a million-node run holds, so that
	// a collection takes as long to mark as it does there.
	live := make([]*[4]int, 1_000_000)
	for k := range live {
		live[k] = new([4]int)
	}
	defer runtime.KeepAlive(live)
	for _, v := range []struct {
		name  string
		build func(setup) []node.Action
	}{{"plain", startsPlain}, {"chunked", starts}} {
		b.Run(v.name, func(b *testing.B) {
			for b.Loop() {
				if len(v.build(s)) != len(s.starters) {
					b.Fatal("short script")
				}
			}
		})
	}
}
