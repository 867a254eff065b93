package servers

import (
	"slices"
	"strings"
	"testing"

	"ringlab/engine/cliutil"
)

// FuzzArchs: --archs gives distinct known names that read back the same,
// or a one-line usage error.
func FuzzArchs(f *testing.F) {
	f.Add(strings.Join(Archs(), ","))
	f.Add("single,single")
	f.Add("")
	f.Add("pool,")
	f.Fuzz(func(t *testing.T, s string) {
		archs, err := parseArchs(s)
		if err != nil {
			if cliutil.Code(err) != cliutil.ExitUsage || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: %v is not a one-line usage error", s, err)
			}
			return
		}
		for i, a := range archs {
			if !slices.Contains(Archs(), a) || slices.Contains(archs[:i], a) {
				t.Fatalf("%q: accepted %v", s, archs)
			}
		}
		if back, err := parseArchs(strings.Join(archs, ",")); err != nil || !slices.Equal(back, archs) {
			t.Fatalf("%q: does not round-trip", s)
		}
	})
}
