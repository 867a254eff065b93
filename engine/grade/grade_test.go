package grade_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ringlab/engine/grade"
)

// stream is go test -json output of a package with a passing test, a
// failing one (with a subtest) and a skipped one, as go test writes it.
const stream = `{"Action":"start","Package":"ex/ricart"}
{"Action":"run","Package":"ex/ricart","Test":"TestVet"}
{"Action":"output","Package":"ex/ricart","Test":"TestVet","Output":"=== RUN   TestVet\n"}
{"Action":"output","Package":"ex/ricart","Test":"TestVet","Output":"--- PASS: TestVet (0.00s)\n"}
{"Action":"pass","Package":"ex/ricart","Test":"TestVet","Elapsed":0}
{"Action":"run","Package":"ex/ricart","Test":"TestSweep"}
{"Action":"output","Package":"ex/ricart","Test":"TestSweep","Output":"=== RUN   TestSweep\n"}
{"Action":"run","Package":"ex/ricart","Test":"TestSweep/three"}
{"Action":"output","Package":"ex/ricart","Test":"TestSweep/three","Output":"=== RUN   TestSweep/three\n"}
{"Action":"output","Package":"ex/ricart","Test":"TestSweep/three","Output":"    ricart_test.go:9: ricart-agrawala, seed 1 of 1..200: no progress: every request granted violated\n"}
{"Action":"output","Package":"ex/ricart","Test":"TestSweep/three","Output":"        replay (prints the run): RINGLAB_SEED=1 go test -run '^TestSweep$/^three$' ./ricart\n"}
{"Action":"output","Package":"ex/ricart","Test":"TestSweep/three","Output":"    --- FAIL: TestSweep/three (0.00s)\n"}
{"Action":"fail","Package":"ex/ricart","Test":"TestSweep/three","Elapsed":0}
{"Action":"output","Package":"ex/ricart","Test":"TestSweep","Output":"--- FAIL: TestSweep (0.00s)\n"}
{"Action":"fail","Package":"ex/ricart","Test":"TestSweep","Elapsed":0}
{"Action":"run","Package":"ex/ricart","Test":"TestSkipped"}
{"Action":"output","Package":"ex/ricart","Test":"TestSkipped","Output":"--- SKIP: TestSkipped (0.00s)\n"}
{"Action":"skip","Package":"ex/ricart","Test":"TestSkipped","Elapsed":0}
{"Action":"output","Package":"ex/ricart","Output":"FAIL\n"}
{"Action":"fail","Package":"ex/ricart","Elapsed":0.01}
`

const points = `# NAME POINTS [VISIBILITY]
TestVet      1
TestSweep    2   visible
TestSkipped  1.5 after_due_date
TestMissing  3   hidden   # never ran
`

func TestGrade(t *testing.T) {
	ps, err := grade.ParsePoints(strings.NewReader(points))
	if err != nil {
		t.Fatal(err)
	}
	s, err := grade.ReadStream(strings.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	res := grade.Grade(s, ps)
	if res.Score != 1 {
		t.Errorf("score %v, want 1 (TestVet alone passed)", res.Score)
	}
	want := []struct {
		name, status, vis string
		score, max        float64
		output            string
	}{
		{"TestVet", "passed", "visible", 1, 1, "--- PASS: TestVet"},
		{"TestSweep", "failed", "visible", 0, 2, "replay (prints the run): RINGLAB_SEED=1 go test -run '^TestSweep$/^three$' ./ricart"},
		{"TestSkipped", "failed", "after_due_date", 0, 1.5, "TestSkipped was skipped"},
		{"TestMissing", "failed", "hidden", 0, 3, "TestMissing did not run: no package in the test stream has it"},
	}
	if len(res.Tests) != len(want) {
		t.Fatalf("%d tests, want %d: %+v", len(res.Tests), len(want), res.Tests)
	}
	for i, w := range want {
		g := res.Tests[i]
		if g.Name != w.name || g.Status != w.status || g.Visibility != w.vis || g.Score != w.score || g.MaxScore != w.max || !strings.Contains(g.Output, w.output) {
			t.Errorf("tests[%d] = %+v, want %+v", i, g, w)
		}
		if strings.Contains(g.Output, "=== RUN") {
			t.Errorf("tests[%d]: go test's framing in the output: %q", i, g.Output)
		}
	}
	var b bytes.Buffer
	if err := res.Write(&b); err != nil {
		t.Fatal(err)
	}
	if err := grade.Validate(b.Bytes()); err != nil {
		t.Fatalf("results.json does not match Gradescope's fields: %v\n%s", err, b.String())
	}
}

// TestGradeABuildFailure: a package that does not build runs no test;
// every graded test fails with the compiler's words.
func TestGradeABuildFailure(t *testing.T) {
	const broken = `{"ImportPath":"ex/ricart [ex/ricart.test]","Action":"build-output","Output":"# ex/ricart\n"}
{"ImportPath":"ex/ricart [ex/ricart.test]","Action":"build-output","Output":"ricart/ricart.go:9:2: undefined: nd\n"}
{"ImportPath":"ex/ricart [ex/ricart.test]","Action":"build-fail"}
{"Action":"start","Package":"ex/ricart"}
{"Action":"output","Package":"ex/ricart","Output":"FAIL\tex/ricart [build failed]\n"}
{"Action":"fail","Package":"ex/ricart","Elapsed":0,"FailedBuild":"ex/ricart [ex/ricart.test]"}
`
	ps, _ := grade.ParsePoints(strings.NewReader("TestVet 1\n"))
	s, err := grade.ReadStream(strings.NewReader(broken))
	if err != nil {
		t.Fatal(err)
	}
	res := grade.Grade(s, ps)
	if res.Score != 0 || res.Tests[0].Status != "failed" || !strings.Contains(res.Tests[0].Output, "undefined: nd") ||
		!strings.Contains(res.Output, "failed before any test ran") {
		t.Fatalf("got %+v", res)
	}
}

func TestParsePointsRefuses(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "no graded test",
		"# only a comment\n":        "no graded test",
		"TestA\n":                   `line 1: "TestA" has no points`,
		"TestA 1 hidden extra\n":    "line 1: want NAME POINTS [VISIBILITY], got 4 fields",
		"TestA one\n":               `line 1: points "one"`,
		"TestA -1\n":                `line 1: points "-1"`,
		"TestA NaN\n":               `line 1: points "NaN"`,
		"TestA 1e9\n":               `line 1: points "1e9"`,
		"TestA 1 secret\n":          `line 1: visibility "secret"`,
		"TestA 1\nTestA 2\n":        "line 2: TestA is graded already on line 1",
		"Vet 1\n":                   `line 1: "Vet" is not a test's name`,
		"TestA/ 1\n":                `line 1: "TestA/" is not a test's name`,
		"TestA 1\n\nBenchmarkB 1\n": `line 3: "BenchmarkB" is not a test's name`,
	} {
		if _, err := grade.ParsePoints(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParsePoints(%q) = %v, want an error with %q", in, err, want)
		}
	}
}

func TestReadStreamRefuses(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "the test stream is empty",
		"\n\n":                      "the test stream is empty",
		"ok  \tex/ricart\t0.1s\n":   "line 1: not a go test -json event (a JSON object)",
		`{"Action":"pass"` + "\n":   "line 1: not a go test -json event",
		`{"Test":"TestA"}` + "\n":   "line 1: an event without an Action",
		`{"Action":"run"}` + "\n[]": "line 2: not a go test -json event (a JSON object)",
	} {
		if _, err := grade.ReadStream(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadStream(%q) = %v, want an error with %q", in, err, want)
		}
	}
}

// TestValidate: the validator refuses what Gradescope would not read, so
// that its approval of this package's files means something.
func TestValidate(t *testing.T) {
	good := `{"score":1,"execution_time":3,"stdout_visibility":"hidden","extra_data":{},"tests":[{"name":"TestA","score":1,"max_score":1,"status":"passed","output":"","visibility":"visible","number":"1.1","tags":["a"]}]}`
	if err := grade.Validate([]byte(good)); err != nil {
		t.Fatalf("a good file refused: %v", err)
	}
	for bad, want := range map[string]string{
		`[]`:                       "not a JSON object",
		`{"tests":[]}`:             `no "score"`,
		`{"score":"1","tests":[]}`: `"score": want *float64`,
		`{"score":1}`:              `no "tests"`,
		`{"score":1,"tests":[{"score":1,"max_score":1,"status":"passed","output":"","visibility":"visible"}]}`:              `tests[0]: no "name"`,
		`{"score":1,"tests":[{"name":"A","score":1,"max_score":1,"status":"ok","output":"","visibility":"visible"}]}`:       `status "ok"`,
		`{"score":1,"tests":[{"name":"A","score":1,"max_score":1,"status":"passed","output":"","visibility":"secret"}]}`:    `"secret" is not hidden`,
		`{"score":1,"tests":[{"name":"A","score":1,"max_score":1,"status":"passed","output":""}]}`:                          "no visibility",
		`{"score":1,"tests":[{"name":"A","score":1,"max_score":null,"status":"passed","output":"","visibility":"hidden"}]}`: `"max_score" is null`,
		`{"score":1,"tests":[{"name":"A","score":-1,"max_score":1,"status":"failed","output":"","visibility":"hidden"}]}`:   "a negative score",
		`{"score":1,"output":7,"tests":[]}`:                   `"output": want *string`,
		`{"score":1,"execution_time":"long","tests":[]}`:      `"execution_time": want *float64`,
		`{"score":1,"stdout_visibility":"always","tests":[]}`: `"always" is not hidden`,
		`{"score":1,"tests":[{"name":"A","score":1,"max_score":1,"status":"passed","output":"","visibility":"hidden","tags":"x"}]}`: `tests[0]: "tags": want *[]string`,
		`{"score":1,"tests":[{"name":"A","score":1,"max_score":1,"status":"passed","output":"","visibility":""}]}`:                  `"" is not hidden`,
	} {
		if err := grade.Validate([]byte(bad)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate(%s) = %v, want an error with %q", bad, err, want)
		}
	}
}

func FuzzParsePoints(f *testing.F) {
	f.Add(points)
	f.Add("TestA 1 hidden\nTestA/b 0.5 visible # c\n")
	f.Add("TestA 1e6\n")
	f.Add("\uFEFFTestX/case#01 -0 hidden #c\n#TestY 1\n")
	f.Fuzz(func(t *testing.T, in string) {
		ps, err := grade.ParsePoints(strings.NewReader(in))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, p := range ps {
			if p.Points < 0 || p.Points > 1e6 || p.Points != p.Points || math.Signbit(p.Points) || (!slices.Contains([]string{"visible", "hidden", "after_due_date", "after_published"}, p.Visibility)) ||
				seen[p.Name] || strings.ContainsAny(p.Name, " \t\n") || !strings.HasPrefix(p.Name, "Test") && !strings.HasPrefix(p.Name, "Example") && !strings.HasPrefix(p.Name, "Fuzz") {
				t.Fatalf("accepted a bad line: %+v from %q", p, in)
			}
			seen[p.Name] = true
		}
	})
}

func FuzzReadStream(f *testing.F) {
	f.Add(stream)
	f.Add(`{"Action":"output","Package":"p","Test":"TestA/b","Output":"x\n"}` + "\n")
	f.Add(`{"ImportPath":"p","Action":"build-fail"}` + "\n")
	f.Add("\uFEFF" + `{"Action":"output","Package":"p","Test":"TestSweep/a#01","Output":"x_test.go:1: y\n\tz\n"}` + "\n")
	ps, _ := grade.ParsePoints(strings.NewReader(points))
	f.Fuzz(func(t *testing.T, in string) {
		s, err := grade.ReadStream(strings.NewReader(in))
		if err != nil {
			return
		}
		res := grade.Grade(s, ps)
		// keeping only the graded tests' runs grades the same
		g, err := grade.ReadGraded(strings.NewReader(in), ps)
		if err != nil {
			t.Fatalf("ReadStream read it, ReadGraded did not: %v", err)
		}
		if res2 := grade.Grade(g, ps); !reflect.DeepEqual(res, res2) {
			t.Fatalf("ReadGraded grades %+v, ReadStream %+v", res2, res)
		}
		var b bytes.Buffer
		if err := res.Write(&b); err != nil {
			t.Fatal(err)
		}
		if err := grade.Validate(b.Bytes()); err != nil {
			t.Fatalf("a stream read gave an invalid results.json: %v\n%s", err, b.String())
		}
		var sum float64
		for _, tr := range res.Tests {
			if tr.Status == "passed" && tr.Score != tr.MaxScore || tr.Status == "failed" && tr.Score != 0 {
				t.Fatalf("inconsistent test result %+v", tr)
			}
			sum += tr.Score
		}
		if sum != res.Score {
			t.Fatalf("score %v, the tests' sum %v", res.Score, sum)
		}
	})
}

// writeFile writes a file in a temporary directory and returns its path.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
