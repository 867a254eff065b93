package vet_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/vet"
)

// sundial reads the wall clock in its Step. The clock check reads this
// file alone (sundial is defined in a test), so nothing else in it may
// call a clock.
type sundial struct{ late bool }

func (s *sundial) Step(in node.Input, out *node.Output) {
	s.late = time.Now().Year() > 3000
	out.Done = true
}

func (s *sundial) Clone() node.Node          { c := *s; return &c }
func (s *sundial) AppendKey(b []byte) []byte { return node.AppendBool(b, s.late) }

func TestAClockReadIsCaught(t *testing.T) {
	alg := engine.Algorithm{Name: "sundial", Build: func(engine.Params, engine.Env) (engine.System, error) {
		return engine.System{Nodes: 1, Factory: func(int) (node.Node, error) { return &sundial{}, nil },
			Script: []node.Action{{Node: 1, Cmd: node.CmdStart}}}, nil
	}}
	fs, err := vet.Check(context.Background(), alg, alg.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || fs[0].Check != vet.CheckClock || fs[0].Method != "time.Now" ||
		!strings.HasPrefix(fs[0].Detail, "clock_test.go:") || !strings.Contains(fs[0].Detail, "calls time.Now: a node takes time from its timers") {
		t.Fatalf("findings %v, want one clock finding: clock_test.go:N calls time.Now", fs)
	}
}

// Source flags every way out of the node's inputs, by file and line, and
// nothing else: not time's types, not a test file.
func TestSourceFlagsClocksRandomnessAndTheEnvironment(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", `package a

import (
	"math/rand/v2"
	"os"
	tm "time"
)

type T struct{ d tm.Duration }

func (t *T) f(out *Out) int {
	_ = tm.Since(tm.Time{})
	_ = os.Getenv("HOME")
	_ = os.Args
	_ = out.Now
	return rand.IntN(3)
}

type Out struct{ Now int64 }
`)
	write("b.go", `package a

import (
	crand "crypto/rand"
	. "time"
)

var _ = crand.Reader
var _ Duration
`)
	write("a_test.go", `package a

import "time"

var _ = time.Now()
`)
	fs, err := vet.Source(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		got = append(got, f.Method+" "+f.Detail[:strings.Index(f.Detail, ": ")])
	}
	want := []string{
		"time.Since " + filepath.Join(dir, "a.go") + ":12",
		"os.Getenv " + filepath.Join(dir, "a.go") + ":13",
		".Now " + filepath.Join(dir, "a.go") + ":15",
		"math/rand/v2.IntN " + filepath.Join(dir, "a.go") + ":16",
		"time " + filepath.Join(dir, "b.go") + ":5",
		"crypto/rand.Reader " + filepath.Join(dir, "b.go") + ":8",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := vet.Source(filepath.Join(dir, "missing")); err != nil {
		t.Errorf("a folder without Go files: %v, want no error", err)
	}
	write("c.go", "package a\nfunc {")
	if _, err := vet.Source(dir); err == nil {
		t.Error("a file that does not parse: no error")
	}
}
