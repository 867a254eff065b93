package mutex

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"ringlab/engine/cliutil"
	"ringlab/mutex/quorum"
)

// FuzzCounts covers compare's --nodes: counts in 2..256 that read back the
// same, or a one-line usage error.
func FuzzCounts(f *testing.F) {
	for _, s := range []string{"3,5,9,17", "1", "257", " 4 ", "", "3,,5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ns, err := parseCounts(s)
		if err != nil {
			if cliutil.Code(err) != cliutil.ExitUsage || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: %v is not a one-line usage error", s, err)
			}
			return
		}
		parts := make([]string, len(ns))
		for i, n := range ns {
			if n < 2 || n > 256 {
				t.Fatalf("%q: accepted %d", s, n)
			}
			parts[i] = fmt.Sprint(n)
		}
		if back, err := parseCounts(strings.Join(parts, ",")); err != nil || !slices.Equal(back, ns) {
			t.Fatalf("%q: does not round-trip", s)
		}
	})
}

// FuzzQuorum covers --coordinators and --quorum: an accepted pair is a
// majority quorum, and the quorum it builds is valid.
func FuzzQuorum(f *testing.F) {
	f.Add(3, 2)
	f.Add(4, 2)
	f.Add(0, 0)
	f.Add(5, 6)
	f.Fuzz(func(t *testing.T, n, m int) {
		if quorum.CheckQuorum(n, m) != nil {
			return
		}
		if n < 1 || 2*m <= n || m > n {
			t.Fatalf("accepted n=%d m=%d", n, m)
		}
	})
}
