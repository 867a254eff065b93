// Package grade turns the output of `go test -json` and a teacher's points
// file into the results.json that Gradescope's autograder reads
// (https://gradescope-autograders.readthedocs.io/en/latest/specs/): a
// top-level score and one entry per graded test with its score, its
// maximum, its status, its visibility and its output, which holds the
// failure and the replay command the test printed.
//
// The points file has one graded test a line, with its points and,
// optionally, its visibility (visible, hidden, after_due_date or
// after_published; visible by default); a # at the start of a line or
// after a space starts a comment (inside a name it is part of it, as in
// TestX/case#01, go test's name for a second subtest named case):
//
//	# test                        points  visibility
//	TestVet                        1
//	TestSweep                      2      visible
//	TestHiddenExhaustTwoRequests   4      hidden
//
// A name is a test's full name as go test prints it (TestX, or TestX/sub
// for a subtest); every package in the stream that ran it must have passed
// it for its points.
package grade

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Visibilities a points file may give a test, Gradescope's: hidden is
// never shown to students, after_due_date and after_published once the
// due date has passed or the grades are published, visible always.
// Gradescope means hidden for tests that carry no points (students with a
// hidden test cannot see their total, it says); a graded test the students
// must not see before the due date is after_due_date.
const (
	Visible        = "visible"
	Hidden         = "hidden"
	AfterDueDate   = "after_due_date"
	AfterPublished = "after_published"
)

// visibilities lists them.
var visibilities = []string{Visible, Hidden, AfterDueDate, AfterPublished}

// Statuses of a graded test.
const (
	Passed = "passed"
	Failed = "failed"
)

// Points is one graded test of a points file.
type Points struct {
	Name       string  // the test's name, as go test names it: TestX or TestX/sub
	Points     float64 // what passing it is worth
	Visibility string  // one of the Visibilities: Visible, Hidden, AfterDueDate, AfterPublished
}

// maxPoints bounds a test's points: a larger figure is a typing mistake.
const maxPoints = 1e6

// ParsePoints reads a points file. Its errors name the line. A byte order
// mark at its start is skipped, and -0 points are 0.
func ParsePoints(r io.Reader) ([]Points, error) {
	var ps []Points
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 {
			line = strings.TrimPrefix(line, bom)
		}
		f := strings.Fields(uncomment(line))
		if len(f) == 0 {
			continue
		}
		if len(f) > 3 {
			return nil, fmt.Errorf("line %d: want NAME POINTS [VISIBILITY], got %d fields", n, len(f))
		}
		if len(f) < 2 {
			return nil, fmt.Errorf("line %d: %q has no points: want NAME POINTS [VISIBILITY]", n, f[0])
		}
		if !validName(f[0]) {
			return nil, fmt.Errorf("line %d: %q is not a test's name (TestX or TestX/sub)", n, f[0])
		}
		pts, err := strconv.ParseFloat(f[1], 64)
		if err != nil || math.IsNaN(pts) || pts < 0 || pts > maxPoints {
			return nil, fmt.Errorf("line %d: points %q: want a number from 0 to %g", n, f[1], float64(maxPoints))
		}
		pts += 0 // -0 is 0: results.json must not say -0
		vis := Visible
		if len(f) == 3 {
			vis = f[2]
			if !slices.Contains(visibilities, vis) {
				return nil, fmt.Errorf("line %d: visibility %q: want visible, hidden, after_due_date or after_published", n, vis)
			}
		}
		if prev, dup := seen[f[0]]; dup {
			return nil, fmt.Errorf("line %d: %s is graded already on line %d", n, f[0], prev)
		}
		seen[f[0]] = n
		ps = append(ps, Points{Name: f[0], Points: pts, Visibility: vis})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, errors.New("no graded test: want lines NAME POINTS [VISIBILITY]")
	}
	return ps, nil
}

// bom is the byte order mark some editors start a file with.
const bom = "\uFEFF"

// uncomment cuts a line at its comment: a # at its start or after a space
// or tab.
func uncomment(line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			return line[:i]
		}
	}
	return line
}

// validName reports whether s is a test's name as go test prints it:
// Test, Example or Fuzz and the rest, with subtests after slashes, no
// space (go test writes a subtest's spaces as underscores).
func validName(s string) bool {
	top, _, _ := strings.Cut(s, "/")
	if !strings.HasPrefix(top, "Test") && !strings.HasPrefix(top, "Example") && !strings.HasPrefix(top, "Fuzz") {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r == 0x7f {
			return false
		}
	}
	return !strings.HasSuffix(s, "/") && !strings.Contains(s, "//")
}

// Event is one line of `go test -json` (cmd/test2json's TestEvent), the
// fields grading reads.
type Event struct {
	Action  string // run, pass, fail, skip, output, build-fail, ...
	Package string // the package's import path
	Test    string // the test's name ("": the package as a whole)
	Output  string // a line of output (Action "output")
	// ImportPath is the package a build-output or build-fail event is
	// about.
	ImportPath string
}

// Run is what a stream says of one test in one package.
type run struct {
	action string // pass, fail or skip ("": no verdict: the binary died)
	output clipped
}

// Stream is a `go test -json` stream, read.
type Stream struct {
	runs     map[string]map[string]*run // test name → package → run
	packages map[string]string          // package → its verdict (pass, fail, skip)
	pkgOut   map[string]*clipped
	order    []string        // packages in the order they first appear
	ran      map[string]bool // packages in which some test ran
	graded   map[string]bool // the tests whose runs are kept (nil: all)
}

// maxLine bounds one line of the stream.
const maxLine = 16 << 20

// ReadStream reads the output of `go test -json`: one JSON object a line,
// each with an Action. Its errors name the line. A byte order mark at its
// start is skipped. It keeps every test's verdict and at most maxOutput
// bytes of each test's output (its first and last parts).
func ReadStream(r io.Reader) (*Stream, error) {
	return ReadGraded(r, nil)
}

// ReadGraded is ReadStream keeping only the runs of the tests the points
// grade: what it holds is bounded by the number of graded tests and of
// packages, however long the stream (an empty points list keeps all).
func ReadGraded(r io.Reader, points []Points) (*Stream, error) {
	s := &Stream{runs: map[string]map[string]*run{}, packages: map[string]string{}, pkgOut: map[string]*clipped{}, ran: map[string]bool{}}
	if len(points) > 0 {
		s.graded = map[string]bool{}
		for _, p := range points {
			s.graded[p.Name] = true
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	lines := 0
	for n := 1; sc.Scan(); n++ {
		b := bytes.TrimSpace(sc.Bytes())
		if n == 1 {
			b = bytes.TrimPrefix(b, []byte(bom))
		}
		if len(b) == 0 {
			continue
		}
		lines++
		var e Event
		if b[0] != '{' {
			return nil, fmt.Errorf("line %d: not a go test -json event (a JSON object): %.40q", n, b)
		}
		if err := json.Unmarshal(b, &e); err != nil {
			return nil, fmt.Errorf("line %d: not a go test -json event: %v", n, err)
		}
		if e.Action == "" {
			return nil, fmt.Errorf("line %d: an event without an Action", n)
		}
		s.add(e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the test stream: %w", err)
	}
	if lines == 0 {
		return nil, errors.New("the test stream is empty: want the output of go test -json")
	}
	return s, nil
}

func (s *Stream) add(e Event) {
	pkg := e.Package
	if pkg == "" {
		pkg = e.ImportPath
	}
	if _, ok := s.pkgOut[pkg]; !ok {
		s.pkgOut[pkg] = &clipped{}
		s.order = append(s.order, pkg)
	}
	if e.Test == "" {
		switch e.Action {
		case "output", "build-output":
			s.pkgOut[pkg].WriteString(e.Output)
		case "pass", "fail", "skip":
			s.packages[pkg] = e.Action
		case "build-fail":
			s.packages[pkg] = "fail"
		}
		return
	}
	s.ran[pkg] = true
	if s.graded == nil || s.graded[e.Test] {
		byPkg := s.runs[e.Test]
		if byPkg == nil {
			byPkg = map[string]*run{}
			s.runs[e.Test] = byPkg
		}
		r := byPkg[pkg]
		if r == nil {
			r = &run{}
			byPkg[pkg] = r
		}
		switch e.Action {
		case "output":
			if !framing(e.Output) {
				r.output.WriteString(e.Output)
			}
		case "pass", "fail", "skip":
			r.action = e.Action
		}
	}
	if e.Action != "output" || framing(e.Output) {
		return
	}
	// a subtest's output belongs to its parents too: a graded TestX shows
	// why its TestX/sub failed
	for name := e.Test; ; {
		i := strings.LastIndexByte(name, '/')
		if i < 0 {
			break
		}
		name = name[:i]
		if p := s.runs[name][pkg]; p != nil {
			p.output.WriteString(e.Output)
		}
	}
}

// clipped is a test's or a package's output cut as clip cuts it, kept as
// it grows: the first maxOutput/2 bytes, and enough of the last ones.
// However long the output, it holds at most 2·maxOutput bytes.
type clipped struct {
	head []byte // the first bytes, all of them while total ≤ maxOutput
	tail []byte // once head is full, the last bytes (at least maxOutput/2)
	n    int    // bytes written
}

// WriteString appends text.
func (c *clipped) WriteString(text string) {
	const half = maxOutput / 2
	c.n += len(text)
	if c.n <= maxOutput { // all of it so far: as clip would keep it
		c.head = append(c.head, text...)
		return
	}
	if len(c.head) < half { // the first write past maxOutput completes the head
		k := min(half-len(c.head), len(text))
		c.head, text = append(c.head, text[:k]...), text[k:]
	}
	if len(c.head) > half { // or passes what it holds beyond the head to the tail
		c.tail = append(c.tail, c.head[half:]...)
		c.head = c.head[:half:half]
	}
	if len(text) > half {
		text = text[len(text)-half:]
	}
	if len(c.tail)+len(text) > 2*half { // keep the last half, with text
		keep := half - len(text)
		c.tail = append(c.tail[:0], c.tail[len(c.tail)-keep:]...)
	}
	c.tail = append(c.tail, text...)
}

// String is the output, cut as clip cuts it.
func (c *clipped) String() string {
	if c.n <= maxOutput {
		return string(c.head)
	}
	const half = maxOutput / 2
	return string(c.head) + fmt.Sprintf("\n… %d bytes left out …\n", c.n-2*half) + string(c.tail[len(c.tail)-half:])
}

// framing reports whether a line of output is go test's own marking of a
// test's start or pause, which says nothing a student needs.
func framing(line string) bool {
	l := strings.TrimLeft(line, " ")
	return strings.HasPrefix(l, "=== RUN") || strings.HasPrefix(l, "=== PAUSE") || strings.HasPrefix(l, "=== CONT") ||
		strings.HasPrefix(l, "=== NAME")
}

// Results is Gradescope's results.json, the fields this package writes.
type Results struct {
	Score float64 `json:"score"` // the sum of the tests' scores
	// Output is text about the whole submission: the packages that did
	// not build or whose test binary failed outside any test.
	Output string       `json:"output,omitempty"`
	Tests  []TestResult `json:"tests"`
}

// TestResult is one graded test of Results.
type TestResult struct {
	Name       string  `json:"name"`       // the test, as the points file names it
	Score      float64 `json:"score"`      // its points if it passed, else 0
	MaxScore   float64 `json:"max_score"`  // its points
	Status     string  `json:"status"`     // "passed" or "failed"
	Output     string  `json:"output"`     // what the student sees: the failure and its replay command
	Visibility string  `json:"visibility"` // visible, hidden, after_due_date or after_published
}

// maxOutput bounds one test's output in the results: Gradescope shows a
// page of it, and a test that logs a whole trace for every seed would
// otherwise make a results file of megabytes.
const maxOutput = 64 << 10

// Grade grades the stream by the points: a test scores its points when it
// passed in every package that ran it, and nothing when it failed, was
// skipped, or never ran (then its output says so, with the output of the
// package that did not build or whose binary died).
func Grade(s *Stream, points []Points) Results {
	res := Results{Tests: []TestResult{}}
	for _, p := range points {
		t := TestResult{Name: p.Name, MaxScore: p.Points, Visibility: p.Visibility, Status: Failed}
		byPkg := s.runs[p.Name]
		var out strings.Builder
		passed := len(byPkg) > 0
		for _, pkg := range s.order {
			r, ok := byPkg[pkg]
			if !ok {
				continue
			}
			out.WriteString(r.output.String())
			switch r.action {
			case "pass":
			case "skip":
				passed = false
				fmt.Fprintf(&out, "%s was skipped: a skipped test scores nothing\n", p.Name)
			case "fail":
				passed = false
			default:
				passed = false
				fmt.Fprintf(&out, "%s never finished: the test binary of %s died during it\n%s", p.Name, pkg, s.pkgOut[pkg].String())
			}
		}
		if len(byPkg) == 0 {
			fmt.Fprintf(&out, "%s did not run", p.Name)
			if failed := s.failedPackages(p.Visibility != Visible); failed != "" {
				out.WriteString(": " + failed)
			} else {
				out.WriteString(": no package in the test stream has it\n")
			}
		}
		if passed {
			t.Status, t.Score = Passed, p.Points
		}
		t.Output = clip(out.String())
		res.Score += t.Score
		res.Tests = append(res.Tests, t)
	}
	res.Output = clip(s.failedPackages(false))
	return res
}

// failedPackages says which packages failed outside their tests (a build
// error, a panic at init), with their output; "" if none did. Unless
// withTests, the lines about test files are left out: students see the
// top-level output and the visible tests', and a hidden test package that
// does not build must not show them its files and identifiers.
func (s *Stream) failedPackages(withTests bool) string {
	var b strings.Builder
	for _, pkg := range s.order {
		if s.packages[pkg] != "fail" || s.anyTestRan(pkg) {
			continue
		}
		out := s.pkgOut[pkg].String()
		if !withTests {
			out = withoutTestFiles(out)
		}
		fmt.Fprintf(&b, "package %s failed before any test ran:\n%s", pkg, out)
	}
	return b.String()
}

// withoutTestFiles leaves out of a build's output the lines that name a
// _test.go file, with the indented lines that continue them, and says how
// many it left out.
func withoutTestFiles(out string) string {
	var b strings.Builder
	left, dropping := 0, false
	for line := range strings.Lines(out) {
		if dropping && strings.HasPrefix(line, "\t") || strings.Contains(line, "_test.go") {
			left++
			dropping = true
			continue
		}
		dropping = false
		b.WriteString(line)
	}
	if left > 0 {
		fmt.Fprintf(&b, "(%d lines about test files left out: the hidden tests' files are not shown)\n", left)
	}
	return b.String()
}

func (s *Stream) anyTestRan(pkg string) bool { return s.ran[pkg] }

// clip keeps the first and last parts of an output longer than maxOutput.
func clip(s string) string {
	if len(s) <= maxOutput {
		return s
	}
	half := maxOutput / 2
	return s[:half] + fmt.Sprintf("\n… %d bytes left out …\n", len(s)-2*half) + s[len(s)-half:]
}

// Write writes res as indented JSON.
func (res Results) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}

// Validate checks a results.json against the fields Gradescope documents
// for it, and requires those this package always writes: a numeric
// top-level score, and a tests array whose entries have a string name, a
// numeric score and max_score, a status of "passed" or "failed", a string
// output and a visibility of "hidden", "after_due_date",
// "after_published" or "visible". The optional fields it knows
// (execution_time, number, tags, extra_data, the top-level output and
// visibilities) must, where present, be of their documented types.
func Validate(b []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return fmt.Errorf("results.json is not a JSON object: %v", err)
	}
	var score float64
	if err := field(top, "score", &score, true); err != nil {
		return err
	}
	for _, f := range []string{"output", "visibility", "stdout_visibility", "output_format"} {
		var s string
		if err := field(top, f, &s, false); err != nil {
			return err
		}
	}
	if err := visibility(top, "visibility"); err != nil {
		return err
	}
	if err := visibility(top, "stdout_visibility"); err != nil {
		return err
	}
	var secs float64
	if err := field(top, "execution_time", &secs, false); err != nil {
		return err
	}
	var extra map[string]any
	if err := field(top, "extra_data", &extra, false); err != nil {
		return err
	}
	var tests []map[string]json.RawMessage
	if err := field(top, "tests", &tests, true); err != nil {
		return err
	}
	for i, t := range tests {
		var name, status, output string
		var s, max float64
		for _, f := range []struct {
			name string
			v    any
		}{{"name", &name}, {"score", &s}, {"max_score", &max}, {"status", &status}, {"output", &output}} {
			if err := field(t, f.name, f.v, true); err != nil {
				return fmt.Errorf("tests[%d]: %w", i, err)
			}
		}
		var number string
		var tags []string
		var extra map[string]any
		for _, f := range []struct {
			name string
			v    any
		}{{"number", &number}, {"tags", &tags}, {"extra_data", &extra}} {
			if err := field(t, f.name, f.v, false); err != nil {
				return fmt.Errorf("tests[%d]: %w", i, err)
			}
		}
		if status != Passed && status != Failed {
			return fmt.Errorf("tests[%d] (%s): status %q: want passed or failed", i, name, status)
		}
		if err := visibility(t, "visibility"); err != nil {
			return fmt.Errorf("tests[%d] (%s): %w", i, name, err)
		}
		if _, ok := t["visibility"]; !ok {
			return fmt.Errorf("tests[%d] (%s): no visibility", i, name)
		}
		if s < 0 || max < 0 {
			return fmt.Errorf("tests[%d] (%s): a negative score", i, name)
		}
	}
	return nil
}

// field decodes top[name] into v: an error if it is of another type, or
// missing and required.
func field(top map[string]json.RawMessage, name string, v any, required bool) error {
	raw, ok := top[name]
	if !ok {
		if required {
			return fmt.Errorf("no %q", name)
		}
		return nil
	}
	if string(raw) == "null" {
		return fmt.Errorf("%q is null", name)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%q: want %T: %v", name, v, err)
	}
	return nil
}

// visibility checks a visibility field, if present.
func visibility(top map[string]json.RawMessage, name string) error {
	var v string
	if err := field(top, name, &v, false); err != nil {
		return err
	}
	if _, ok := top[name]; !ok || slices.Contains(visibilities, v) {
		return nil
	}
	return fmt.Errorf("%q: %q is not hidden, after_due_date, after_published or visible", name, v)
}
