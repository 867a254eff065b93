package mutants

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	rcli "ringlab/engine/cli"
)

// The ways a mutant is caught (a mutant's "caught:" line names one).
const (
	caughtViolation = "violation" // exit 3, and the printed --path replayed exits 3 again
	caughtVet       = "vet"       // a vet command reports findings (exit 3)
	caughtRefusal   = "refusal"   // exit 2: the input is refused, nothing run
)

// commandTimeout bounds one command of the corpus: a mutant that makes a
// search endless is reported as not caught instead of hanging CI.
const commandTimeout = 2 * time.Minute

// mutant is one planted bug of testdata/mutants.txt.
type mutant struct {
	line   int      // where its entry starts in the corpus
	name   string   // short, unique
	what   string   // the student's mistake, in words
	file   string   // the source file it changes, from the module root
	old    string   // text that occurs exactly once in file
	new    string   // what replaces it
	run    []string // the ringlab command that must catch it (without "ringlab")
	caught string   // caughtViolation, caughtVet or caughtRefusal
}

// parseCorpus reads the corpus: entries of "key: value" lines separated by
// blank lines, '#' lines are comments. A value in double quotes is a Go
// string literal (for text with tabs or newlines); any other value is taken
// as it stands, trimmed.
func parseCorpus(data []byte) ([]mutant, error) {
	var (
		ms   []mutant
		cur  map[string]string
		at   int
		line int
	)
	flush := func() error {
		if cur == nil {
			return nil
		}
		m := mutant{line: at, name: cur["name"], what: cur["what"], file: cur["file"],
			old: cur["old"], new: cur["new"], run: strings.Fields(cur["run"]), caught: cur["caught"]}
		for _, k := range []string{"name", "what", "file", "old", "new", "run", "caught"} {
			if cur[k] == "" {
				return fmt.Errorf("line %d: mutant %q has no %s", at, m.name, k)
			}
		}
		ms, cur = append(ms, m), nil
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line++
		text := sc.Text()
		switch {
		case strings.HasPrefix(text, "#"):
			continue
		case strings.TrimSpace(text) == "":
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		}
		key, value, ok := strings.Cut(text, ":")
		if !ok {
			return nil, fmt.Errorf("line %d: want key: value, got %q", line, text)
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch key {
		case "name", "what", "file", "old", "new", "run", "caught":
		default:
			return nil, fmt.Errorf("line %d: unknown key %q", line, key)
		}
		if strings.HasPrefix(value, `"`) {
			v, err := strconv.Unquote(value)
			if err != nil {
				return nil, fmt.Errorf("line %d: %s: %v", line, key, err)
			}
			value = v
		}
		if cur == nil {
			cur, at = map[string]string{}, line
		}
		if _, dup := cur[key]; dup {
			return nil, fmt.Errorf("line %d: %s given twice", line, key)
		}
		cur[key] = value
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return ms, sc.Err()
}

// checkCorpus refuses a corpus that would stop mutating silently: a
// mutant whose text no longer occurs exactly once in its file, a repeated
// name, an unknown kind of catch, a vet catch expected from a command that
// is not vet.
func checkCorpus(root string, ms []mutant) error {
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[m.name] {
			return fmt.Errorf("line %d: mutant name %q repeated", m.line, m.name)
		}
		seen[m.name] = true
		switch m.caught {
		case caughtViolation, caughtRefusal:
		case caughtVet:
			if len(m.run) < 2 || m.run[1] != "vet" {
				return fmt.Errorf("line %d: mutant %s expects a vet finding from %q, which is not a vet command", m.line, m.name, strings.Join(m.run, " "))
			}
		default:
			return fmt.Errorf("line %d: mutant %s: caught %q, want violation, vet or refusal", m.line, m.name, m.caught)
		}
		if m.old == m.new {
			return fmt.Errorf("line %d: mutant %s changes nothing", m.line, m.name)
		}
		src, err := os.ReadFile(filepath.Join(root, m.file))
		if err != nil {
			return fmt.Errorf("line %d: mutant %s: %v", m.line, m.name, err)
		}
		if n := strings.Count(string(src), m.old); n != 1 {
			return fmt.Errorf("line %d: mutant %s: its old text occurs %d times in %s, want exactly once (the source drifted: update the corpus)", m.line, m.name, n, m.file)
		}
	}
	return nil
}

// outcome is what one command did.
type outcome struct {
	code           int // exit code; -1 when it did not exit on its own
	stdout, stderr string
}

// last is the line that tells how the command ended: a check's "result:"
// line when it exits 0 (else the last line of its output), or the last
// non-empty line of the error output.
func (o outcome) last() string {
	outputs := []string{o.stderr, o.stdout}
	if o.code == 0 {
		for _, l := range strings.Split(o.stdout, "\n") {
			if strings.HasPrefix(l, "result: ") {
				return l
			}
		}
		outputs = []string{o.stdout, o.stderr}
	}
	for _, s := range outputs {
		if s = strings.TrimSpace(s); s != "" {
			return s[strings.LastIndex(s, "\n")+1:]
		}
	}
	return "(no output)"
}

// runCommand runs bin with args under the corpus's timeout.
func runCommand(bin string, args []string) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	o := outcome{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		o.code, o.stderr = -1, o.stderr+fmt.Sprintf("\nno answer within %v", commandTimeout)
	case errors.As(err, &exit):
		o.code = exit.ExitCode()
	default:
		o.code, o.stderr = -1, o.stderr+"\n"+err.Error()
	}
	return o
}

// buildRingLab builds the ringlab command (without -race: the corpus
// tests the lab, not the build) into bin, with the overlay file given.
func buildRingLab(root, bin, overlay string) error {
	args := []string{"build", "-o", bin}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// plant builds ringlab with m applied through an overlay in dir and
// returns the binary's path.
func plant(root, dir string, m mutant) (string, error) {
	src, err := os.ReadFile(filepath.Join(root, m.file))
	if err != nil {
		return "", err
	}
	mutated := filepath.Join(dir, filepath.Base(m.file))
	if err := os.WriteFile(mutated, []byte(strings.Replace(string(src), m.old, m.new, 1)), 0o644); err != nil {
		return "", err
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(root, m.file): mutated}})
	if err != nil {
		return "", err
	}
	ofile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ofile, overlay, 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "ringlab")
	return bin, buildRingLab(root, bin, ofile)
}

// verdict is how a mutant was caught, or why not.
type verdict struct {
	ran    bool   // the mutant was planted (a -run pattern may leave some out)
	kind   string // caughtViolation, caughtVet, caughtRefusal, or "" when not caught
	detail string // the property violated, the vet check, or the refusal; why not caught
	steps  int    // a violation's path length
}

// judge runs m's command on the mutated binary and tells how it ended.
func judge(bin string, m mutant) verdict {
	o := runCommand(bin, m.run)
	vet := len(m.run) > 1 && m.run[1] == "vet"
	switch {
	case o.code == 3 && vet:
		return verdict{kind: caughtVet, detail: vetFinding(o)}
	case o.code == 3:
		args, ok := replayArgs(o.stdout)
		if !ok {
			return verdict{detail: "exit 3 without a replay line with --path: " + o.last()}
		}
		path := flagValue(args, "--path")
		r := runCommand(bin, args)
		if r.code != 3 {
			return verdict{detail: fmt.Sprintf("the violation does not replay: --path %s exits %d: %s", path, r.code, r.last())}
		}
		return verdict{kind: caughtViolation, detail: violated(o), steps: pathSteps(path)}
	case o.code == 2:
		return verdict{kind: caughtRefusal, detail: o.last()}
	}
	return verdict{detail: fmt.Sprintf("exit %d: %s", o.code, o.last())}
}

// replayArgs finds the last "replay: ringlab ..." line of a check's output
// and splits it into arguments as a shell would (cli.SplitCommand).
func replayArgs(stdout string) ([]string, bool) {
	var line string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "replay: ringlab ") {
			line = strings.TrimPrefix(l, "replay: ringlab ")
		}
	}
	args, err := rcli.SplitCommand(line)
	return args, err == nil && flagValue(args, "--path") != ""
}

// flagValue is the word after name in args, or "".
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

// pathSteps counts the labels of a path (a lasso's prefix and cycle both).
func pathSteps(path string) int {
	n := 0
	for _, l := range strings.FieldsFunc(path, func(r rune) bool { return r == ',' || r == '|' }) {
		if l != "" {
			n++
		}
	}
	return n
}

// violated is the property a failed check names on stderr ("ringlab:
// mutual exclusion violated: ..." or "ringlab: no termination: ...").
func violated(o outcome) string {
	for _, l := range strings.Split(o.stderr, "\n") {
		l = strings.TrimPrefix(l, "ringlab: ")
		if p, _, ok := strings.Cut(l, " violated:"); ok {
			return p
		}
		if strings.HasPrefix(l, "no termination:") {
			return "termination"
		}
	}
	return "a violation"
}

// vetFinding names the check of vet's first finding (a line "CHECK: node
// ..." that is not vet's progress or summary).
func vetFinding(o outcome) string {
	for _, l := range strings.Split(o.stdout+"\n"+o.stderr, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "vet: ") || strings.HasPrefix(l, "ringlab: ") {
			continue
		}
		if check, _, ok := strings.Cut(l, ":"); ok && !strings.Contains(check, " ") {
			return check
		}
	}
	return "a finding"
}

// table is the corpus's result as the README shows it.
func table(ms []mutant, vs []verdict, commands, clean int) string {
	var b strings.Builder
	w := 0
	for _, m := range ms {
		w = max(w, len(m.name))
	}
	fmt.Fprintf(&b, "%-*s  %-40s  %s\n", w, "mutant", "caught by", "steps")
	caught, ran := 0, 0
	for i, m := range ms {
		v := vs[i]
		if !v.ran {
			continue
		}
		ran++
		by, steps := v.kind+": "+v.detail, "-"
		switch {
		case v.kind == "":
			by = "NOT CAUGHT (" + v.detail + ")"
		case v.kind != m.caught:
			by = fmt.Sprintf("NOT AS EXPECTED (%s, want %s)", by, m.caught)
		default:
			caught++
		}
		if v.steps > 0 {
			steps = strconv.Itoa(v.steps)
		}
		fmt.Fprintf(&b, "%-*s  %-40s  %s\n", w, m.name, by, steps)
	}
	fmt.Fprintf(&b, "%d mutants, %d caught; the unmutated lab exits 0 under %d of the corpus's %d commands\n", ran, caught, clean, commands)
	return b.String()
}

// readmeCommand is the command engine/README.md gives for the table; the
// plain block after its ```sh block is the table as printed.
const readmeCommand = "go test ./internal/mutants/ -run TestMutants -v"

// update makes TestMutants write its table into engine/README.md.
var update = flag.Bool("update", false, "rewrite the table of planted bugs in engine/README.md")

// readmeTable finds the table engine/README.md shows under "Planted bugs":
// the README's text before the table, the table, and the text after it.
func readmeTable(root string) (before, table, after string, err error) {
	data, err := os.ReadFile(filepath.Join(root, "engine", "README.md"))
	if err != nil {
		return "", "", "", err
	}
	const open = "```sh\n" + readmeCommand + "\n```\n\n```\n"
	before, rest, ok := strings.Cut(string(data), open)
	if !ok {
		return "", "", "", fmt.Errorf("engine/README.md has no ```sh block of %q followed by a plain block", readmeCommand)
	}
	table, after, ok = strings.Cut(rest, "```\n")
	if !ok {
		return "", "", "", fmt.Errorf("engine/README.md: the table's block after %q is not closed", readmeCommand)
	}
	return before + open, table, "```\n" + after, nil
}

// checkREADME compares the README's table with out, or writes out there
// under -update.
func checkREADME(t *testing.T, root, out string) {
	before, shown, after, err := readmeTable(root)
	switch {
	case err != nil:
		t.Error(err)
	case *update:
		if err := os.WriteFile(filepath.Join(root, "engine", "README.md"), []byte(before+out+after), 0o644); err != nil {
			t.Error(err)
		}
	case shown != out:
		t.Errorf("engine/README.md's table of planted bugs is not the corpus's (go test ./internal/mutants/ -run TestMutants -update rewrites it); got:\n%s", out)
	}
}

// moduleRoot is the module's root directory, two levels above this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// loadCorpus reads, parses and checks testdata/mutants.txt.
func loadCorpus(t *testing.T, root string) []mutant {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "mutants.txt"))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := parseCorpus(data)
	if err == nil {
		err = checkCorpus(root, ms)
	}
	if err != nil {
		t.Fatalf("testdata/mutants.txt: %v", err)
	}
	return ms
}

// TestCorpus checks, under -short too, that every mutant still applies:
// its old text occurs exactly once in its file (a source that drifted
// would otherwise leave a mutant that mutates nothing), and that the
// corpus keeps at least minMutants.
func TestCorpus(t *testing.T) {
	if ms := loadCorpus(t, moduleRoot(t)); len(ms) < minMutants {
		t.Errorf("the corpus has %d mutants, want at least %d", len(ms), minMutants)
	}
}

// minMutants is the least the corpus may hold (issue 33 asks for 30).
const minMutants = 32

// TestCheckCorpusRefusesDrift: a mutant whose old text is missing or
// occurs twice, or whose kind of catch is unknown, is refused.
func TestCheckCorpusRefusesDrift(t *testing.T) {
	r := moduleRoot(t)
	good := mutant{name: "m", file: "mutex/central/central.go", old: "if n.busy || len(n.queue) == 0 {", new: "if false {",
		run: []string{"mutex", "check", "central"}, caught: caughtViolation}
	if err := checkCorpus(r, []mutant{good}); err != nil {
		t.Fatalf("a good mutant is refused: %v", err)
	}
	for _, c := range []struct {
		why  string
		edit func(*mutant)
	}{
		{"old text missing", func(m *mutant) { m.old = "no such text in central.go" }},
		{"old text twice", func(m *mutant) { m.old = "return" }},
		{"unknown catch", func(m *mutant) { m.caught = "luck" }},
		{"vet from a check", func(m *mutant) { m.caught = caughtVet }},
		{"no change", func(m *mutant) { m.new = m.old }},
	} {
		m := good
		c.edit(&m)
		if err := checkCorpus(r, []mutant{m}); err == nil {
			t.Errorf("%s: accepted", c.why)
		}
	}
	if _, err := parseCorpus([]byte("name: a\nrun: x\n")); err == nil {
		t.Error("an entry without file, old, new, what and caught is accepted")
	}
}

// TestMutants plants every mutant of the corpus and asks the lab to catch
// it, and runs every command of the corpus on the unmutated lab, which must
// exit 0. It builds the lab once per mutant (about two seconds each: only
// the mutated package and those above it are compiled again), so it is
// skipped under -short only.
func TestMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the lab once per mutant")
	}
	root := moduleRoot(t)
	ms := loadCorpus(t, root)
	clean := filepath.Join(t.TempDir(), "ringlab")
	if err := buildRingLab(root, clean, ""); err != nil {
		t.Fatal(err)
	}
	var commands []string
	seen := map[string]bool{}
	for _, m := range ms {
		if c := strings.Join(m.run, " "); !seen[c] {
			seen[c] = true
			commands = append(commands, c)
		}
	}
	vs := make([]verdict, len(ms))
	exits := make([]int, len(commands)) // of the unmutated lab; -1: not run (a -run pattern)
	for i := range exits {
		exits[i] = -1
	}
	t.Run("corpus", func(t *testing.T) {
		for i, c := range commands {
			t.Run("unmutated "+c, func(t *testing.T) {
				t.Parallel()
				o := runCommand(clean, strings.Fields(c))
				if exits[i] = o.code; o.code != 0 {
					t.Errorf("the unmutated lab: ringlab %s exits %d, want 0 (a mutant caught by it proves nothing): %s", c, o.code, o.last())
				}
			})
		}
		for i, m := range ms {
			t.Run(m.name, func(t *testing.T) {
				t.Parallel()
				bin, err := plant(root, t.TempDir(), m)
				if err != nil {
					t.Fatalf("line %d: %v", m.line, err)
				}
				vs[i] = judge(bin, m)
				vs[i].ran = true
				switch v := vs[i]; {
				case v.kind == "":
					t.Errorf("mutant %s (%s, %s) is not caught by ringlab %s: %s", m.name, m.what, m.file, strings.Join(m.run, " "), v.detail)
				case v.kind != m.caught:
					t.Errorf("mutant %s is caught by a %s (%s), want a %s", m.name, v.kind, v.detail, m.caught)
				}
			})
		}
	})
	zero := 0
	for _, e := range exits {
		if e == 0 {
			zero++
		}
	}
	out := table(ms, vs, len(commands), zero)
	if all := !slices.ContainsFunc(vs, func(v verdict) bool { return !v.ran }); all {
		checkREADME(t, root, out)
	}
	if testing.Verbose() {
		fmt.Print(out)
	} else if t.Failed() {
		t.Log("\n" + out)
	}
}
