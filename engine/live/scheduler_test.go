package live

import (
	"testing"
)

// FuzzParseScheduler: --scheduler accepts exactly the two names, and a
// scheduler's name reads back as itself.
func FuzzParseScheduler(f *testing.F) {
	for _, s := range []string{"plain", "turns", "", "Plain", "turns ", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sc, err := ParseScheduler(s)
		if ok := s == "plain" || s == "turns"; ok != (err == nil) {
			t.Fatalf("ParseScheduler(%q) = %v, %v", s, sc, err)
		}
		if err == nil && sc.String() != s {
			t.Fatalf("ParseScheduler(%q).String() = %q", s, sc.String())
		}
	})
}
