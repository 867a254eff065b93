package scaffold

import (
	"slices"
	"testing"
)

// FuzzParseGoMod: no go.mod makes parseGoMod panic, and what it reads from
// one it reads again, the same, from the go.mod a skeleton writes.
func FuzzParseGoMod(f *testing.F) {
	f.Add([]byte("module ringlab\n\ngo 1.26.0\n\nrequire (\n\tgithub.com/a/b v1.2.3\n\tx.org/y v0.0.0-2024 // indirect\n)\n\nrequire z.io/w v2.0.0+incompatible\n\ntoolchain go1.26.1\n"))
	f.Add([]byte("module m\nrequire (\n)\nreplace a => ../a\n"))
	f.Add([]byte("module \"m\"\nrequire a"))
	f.Add([]byte("require (\n\tx\n"))
	f.Fuzz(func(t *testing.T, mod []byte) {
		var r Ringlab
		if _, err := r.parseGoMod(mod); err != nil {
			return
		}
		var again Ringlab
		path, err := again.parseGoMod(Skeleton{Name: "m", Ringlab: r}.goMod("m"))
		if err != nil || path != "m" || again.Go != r.Go || !slices.Equal(again.Requires, append([]string{"ringlab v0.0.0"}, r.Requires...)) {
			t.Fatalf("%q reads as go %q, %q; the skeleton's go.mod as %q, go %q, %q: %v", mod, r.Go, r.Requires, path, again.Go, again.Requires, err)
		}
	})
}
