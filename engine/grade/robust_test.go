package grade_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"ringlab/engine/grade"
)

// TestCommandOutRefusesNonRegular: grade runs as root in autograders, and
// --out renames a file over its target: a symlink, a FIFO or a directory
// there is refused (exit 2) and left as it was. (A device is refused as a
// FIFO is; the test makes none, since on the code before the fix it would
// replace it: run as root, --out /dev/null did.)
func TestCommandOutRefusesNonRegular(t *testing.T) {
	pf := writeFile(t, "points", points)
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, want string }{
		{link, "is a symbolic link"},
		{fifo, "is not a regular file but a FIFO"},
		{sub, "is a directory"},
	} {
		before, _ := os.Lstat(c.out)
		code, _, msg := cmd(t, stream, "--points", pf, "--out", c.out)
		if code != 2 || !strings.Contains(msg, "--out "+c.out+" "+c.want) || strings.Contains(msg, "\n") {
			t.Errorf("--out %s: exit %d, %q; want exit 2 and one line with %q", c.out, code, msg, c.want)
		}
		after, err := os.Lstat(c.out)
		if err != nil || after.Mode() != before.Mode() {
			t.Errorf("--out %s: its mode went from %v to %v (%v)", c.out, before.Mode(), after.Mode(), err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the symlink's target was written: %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 4 {
		t.Errorf("a refused --out left files behind: %v", entries)
	}
}

// TestParsePointsNamesWithHash: go test names a repeated subtest
// TestX/case#01, so a # inside a name is part of it; a comment starts at
// a # at the start of a line or after a space.
func TestParsePointsNamesWithHash(t *testing.T) {
	ps, err := grade.ParsePoints(strings.NewReader("TestX/case#01 2 hidden # the second case\n#TestY 1\nTestZ 1 #\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0] != (grade.Points{Name: "TestX/case#01", Points: 2, Visibility: "hidden"}) || ps[1].Name != "TestZ" {
		t.Fatalf("got %+v", ps)
	}
	s, err := grade.ReadStream(strings.NewReader(`{"Action":"pass","Package":"p","Test":"TestX/case#01"}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if res := grade.Grade(s, ps[:1]); res.Score != 2 {
		t.Errorf("TestX/case#01 passed, scored %v", res.Score)
	}
}

// TestBOM: an editor on Windows starts a file with a byte order mark; the
// points file and the stream read the same with it or without it.
func TestBOM(t *testing.T) {
	ps, err := grade.ParsePoints(strings.NewReader("\uFEFFTestVet 1\n"))
	if err != nil || len(ps) != 1 || ps[0].Name != "TestVet" {
		t.Fatalf("points with a BOM: %+v, %v", ps, err)
	}
	s, err := grade.ReadStream(strings.NewReader("\uFEFF" + `{"Action":"pass","Package":"p","Test":"TestVet"}` + "\n"))
	if err != nil {
		t.Fatalf("a stream with a BOM: %v", err)
	}
	if res := grade.Grade(s, ps); res.Score != 1 {
		t.Errorf("TestVet passed, scored %v", res.Score)
	}
}

// TestNegativeZeroPoints: -0 points is 0 points (a test worth nothing),
// and results.json says 0, not -0.
func TestNegativeZeroPoints(t *testing.T) {
	ps, err := grade.ParsePoints(strings.NewReader("TestA -0\nTestB -0.0 hidden\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Points != 0 || math.Signbit(p.Points) {
			t.Errorf("%s: %v points, want 0", p.Name, p.Points)
		}
	}
	s, _ := grade.ReadStream(strings.NewReader(`{"Action":"pass","Package":"p","Test":"TestA"}` + "\n"))
	var b bytes.Buffer
	if err := grade.Grade(s, ps).Write(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "-0") {
		t.Errorf("results.json has a -0:\n%s", b.String())
	}
}

// TestHiddenBuildFailure: a hidden test package that does not build must
// not show its files and identifiers to students: the top-level output
// and the visible tests' outputs leave the compiler's lines about test
// files out; a hidden test's output keeps them for the teacher.
func TestHiddenBuildFailure(t *testing.T) {
	const broken = `{"ImportPath":"ex/ricart [ex/ricart.test]","Action":"build-output","Output":"# ex/ricart [ex/ricart.test]\n"}
{"ImportPath":"ex/ricart [ex/ricart.test]","Action":"build-output","Output":"./ricart.go:9:2: undefined: nd\n"}
{"ImportPath":"ex/ricart [ex/ricart.test]","Action":"build-output","Output":"./hidden_test.go:14:9: undefined: ricart.SecretQuorumSize\n"}
{"ImportPath":"ex/ricart [ex/ricart.test]","Action":"build-output","Output":"./hidden_test.go:20:3: cannot use x (variable of type int) as string value in argument to checkWitness:\n\thave (int)\n\twant (string)\n"}
{"ImportPath":"ex/ricart [ex/ricart.test]","Action":"build-fail"}
{"Action":"start","Package":"ex/ricart"}
{"Action":"output","Package":"ex/ricart","Output":"FAIL\tex/ricart [build failed]\n"}
{"Action":"fail","Package":"ex/ricart","Elapsed":0,"FailedBuild":"ex/ricart [ex/ricart.test]"}
`
	ps, _ := grade.ParsePoints(strings.NewReader("TestVet 1\nTestAfter 1 after_due_date\nTestHidden 3 hidden\n"))
	s, err := grade.ReadStream(strings.NewReader(broken))
	if err != nil {
		t.Fatal(err)
	}
	res := grade.Grade(s, ps)
	secret := []string{"hidden_test.go", "SecretQuorumSize", "checkWitness", "have (int)"}
	for what, out := range map[string]string{"the top-level output": res.Output, "TestVet's output": res.Tests[0].Output} {
		for _, w := range secret {
			if strings.Contains(out, w) {
				t.Errorf("%s shows %q:\n%s", what, w, out)
			}
		}
		if !strings.Contains(out, "undefined: nd") || !strings.Contains(out, "4 lines about test files left out") {
			t.Errorf("%s lost the student's own error or the count left out:\n%s", what, out)
		}
	}
	for _, i := range []int{1, 2} {
		for _, w := range secret {
			if !strings.Contains(res.Tests[i].Output, w) {
				t.Errorf("%s (%s) lost %q:\n%s", res.Tests[i].Name, res.Tests[i].Visibility, w, res.Tests[i].Output)
			}
		}
	}
}

// bigStream generates a go test -json stream of n lines of output for a
// graded TestBig whose subtests nest depth deep, then many ungraded tests
// with output of their own, without holding it in memory.
type bigStream struct {
	n, depth, ungraded int
	i                  int
	buf                bytes.Buffer
}

func (g *bigStream) Read(p []byte) (int, error) {
	for g.buf.Len() < len(p) && g.i < g.n+g.ungraded+2 {
		switch name := "TestBig" + strings.Repeat("/sub", g.depth); {
		case g.i == 0:
			for d := 0; d <= g.depth; d++ {
				fmt.Fprintf(&g.buf, `{"Action":"run","Package":"p","Test":"TestBig%s"}`+"\n", strings.Repeat("/sub", d))
			}
		case g.i <= g.n:
			fmt.Fprintf(&g.buf, `{"Action":"output","Package":"p","Test":%q,"Output":"line %d %s\n"}`+"\n", name, g.i, strings.Repeat("x", 900))
		case g.i <= g.n+g.ungraded:
			fmt.Fprintf(&g.buf, `{"Action":"output","Package":"p","Test":"TestOther%d","Output":"%s\n"}`+"\n", g.i, strings.Repeat("y", 900))
			fmt.Fprintf(&g.buf, `{"Action":"pass","Package":"p","Test":"TestOther%d"}`+"\n", g.i)
		default:
			fmt.Fprintf(&g.buf, `{"Action":"fail","Package":"p","Test":"TestBig"}`+"\n")
		}
		g.i++
	}
	if g.buf.Len() == 0 {
		return 0, io.EOF
	}
	return g.buf.Read(p)
}

// TestStreamMemoryBounded: each graded test's output is cut to 64 KiB, so
// what reading a stream keeps must not grow with the stream: 9 MB of a
// subtest's output nested 30 deep and 9 MB of ungraded tests' output
// leave well under 4 MB on the heap.
func TestStreamMemoryBounded(t *testing.T) {
	ps, _ := grade.ParsePoints(strings.NewReader("TestBig 1\nTestBig/sub/sub 1 hidden\n"))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := grade.ReadGraded(&bigStream{n: 10000, depth: 30, ungraded: 10000}, ps)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	res := grade.Grade(s, ps)
	runtime.KeepAlive(s)
	if kept := int64(after.HeapAlloc) - int64(before.HeapAlloc); kept > 4<<20 {
		t.Errorf("reading the stream kept %d MB on the heap, want under 4", kept>>20)
	}
	out := res.Tests[0].Output
	if len(out) > 70<<10 || !strings.Contains(out, "line 1 ") || !strings.Contains(out, "line 10000 ") || !strings.Contains(out, "bytes left out") {
		t.Errorf("TestBig's output (%d bytes) is not its first and last parts", len(out))
	}
}
