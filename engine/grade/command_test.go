package grade_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/engine/grade"
)

// cmd runs `ringlab grade ARGS` with stdin and returns its exit code,
// stdout and error text.
func cmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out bytes.Buffer
	cmds := []*ucli.Command{grade.Command()}
	cliutil.Prepare(cmds)
	app := &ucli.App{Name: "ringlab", Commands: cmds, Reader: strings.NewReader(stdin), Writer: &out, ErrWriter: &out,
		ExitErrHandler: func(*ucli.Context, error) {}}
	err := app.Run(append([]string{"ringlab", "grade"}, args...))
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	return cliutil.Code(err), out.String(), msg
}

func TestCommand(t *testing.T) {
	pf := writeFile(t, "points", points)
	code, out, msg := cmd(t, stream, "--points", pf)
	if code != 0 || msg != "" {
		t.Fatalf("exit %d: %s", code, msg)
	}
	if err := grade.Validate([]byte(out)); err != nil || !strings.Contains(out, `"score": 1,`) {
		t.Fatalf("stdout is not the results (%v):\n%s", err, out)
	}

	from := writeFile(t, "stream.json", stream)
	dest := filepath.Join(t.TempDir(), "results.json")
	code, out, msg = cmd(t, "", "--points", pf, "--from", from, "--out", dest)
	if code != 0 || msg != "" || out != "" {
		t.Fatalf("--out: exit %d, stdout %q: %s", code, out, msg)
	}
	b, err := os.ReadFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	if err := grade.Validate(b); err != nil {
		t.Fatal(err)
	}
}

// TestCommandRefusesBadInput: one line naming the flag, exit 2, and no
// results file written.
func TestCommandRefusesBadInput(t *testing.T) {
	pf := writeFile(t, "points", points)
	bad := writeFile(t, "bad-points", "TestA lots\n")
	dir := t.TempDir()
	dest := filepath.Join(dir, "results.json")
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{stream, []string{"--points", bad, "--out", dest}, `--points ` + bad + `: line 1: points "lots"`},
		{stream, []string{"--points", filepath.Join(dir, "none"), "--out", dest}, "--points: open "},
		{"PASS\nok\n", []string{"--points", pf, "--out", dest}, "stdin: line 1: not a go test -json event"},
		{"", []string{"--points", pf, "--from", filepath.Join(dir, "none"), "--out", dest}, "--from: open "},
		{stream, []string{"--out", dest}, "--points is required"},
		{stream, []string{"--points", pf, "extra"}, `unexpected argument "extra"`},
		{stream, []string{"--points", pf, "--out", pf}, "--out " + pf + " is an input of this command"},
	} {
		code, out, msg := cmd(t, c.stdin, c.args...)
		if code != 2 || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q (stdout %q)", c.args, code, msg, c.want, out)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("bad input left files behind: %v", entries)
	}
	if b, _ := os.ReadFile(pf); string(b) != points {
		t.Errorf("the points file was overwritten")
	}
}
