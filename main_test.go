package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// runCLI runs one command line in-process and returns its exit code and output.
func runCLI(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(ctx, append([]string{"ringlab"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestRingSeedIsReproducible(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		code1, out1, _ := runCLI(t, t.Context(), "ring", "--delay", "0", "--seed", "7", "--format", format)
		code2, out2, _ := runCLI(t, t.Context(), "ring", "--delay", "0", "--seed", "7", "--format", format)
		if code1 != 0 || code2 != 0 || out1 != out2 {
			t.Fatalf("%s: exit %d/%d, outputs equal: %v", format, code1, code2, out1 == out2)
		}
		golden := filepath.Join("testdata", "ring-seed7."+format+".golden")
		if os.Getenv("RINGLAB_UPDATE") == "1" {
			if err := os.WriteFile(golden, []byte(out1), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (RINGLAB_UPDATE=1 go test . writes it)", err)
		}
		if out1 != string(want) {
			t.Fatalf("%s output differs from %s", format, golden)
		}
	}
}

func TestRingJSONContract(t *testing.T) {
	code, out, _ := runCLI(t, t.Context(), "ring", "--delay", "0", "--nodes", "3", "--message", "abC", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{
		`{"kind":"hop","hop":1,"node":1,"received":"abC","sent":"AbC","changed":0}`,
		`{"kind":"hop","hop":2,"node":2,"received":"AbC","sent":"ABC","changed":1}`,
		`{"kind":"hop","hop":3,"node":3,"received":"ABC","sent":"ABC","changed":-1}`,
		`{"kind":"hop","hop":4,"node":1,"received":"ABC","sent":"ABC","changed":-1}`,
		`{"kind":"done","hops":4,"message":"ABC"}`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("NDJSON:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
	for _, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("not JSON: %s", l)
		}
	}
}

func TestBadInputExits2(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"ring", "--nodes", "0"}, "--nodes must be between 1 and"},
		{[]string{"ring", "--nodes", "-5"}, "--nodes must be between 1 and"},
		{[]string{"ring", "--nodes", "99999999999"}, "--nodes must be between 1 and"},
		{[]string{"ring", "--nodes", "abc"}, "invalid value"},
		{[]string{"ring", "--length", "0"}, "--length must be between 1 and"},
		{[]string{"ring", "--length", "-1"}, "--length must be between 1 and"},
		{[]string{"ring", "--delay", "-1s"}, "--delay must be 0 or more"},
		{[]string{"ring", "--delay", "soon"}, "invalid value"},
		{[]string{"ring", "--impl", "mutex"}, "--impl: unknown implementation"},
		{[]string{"ring", "--format", "xml"}, "--format: unknown format"},
		{[]string{"ring", "--message", "123 456"}, "must contain at least one letter"},
		{[]string{"ring", "--message", ""}, "--message must not be empty"},
		{[]string{"ring", "--message", "abc", "--length", "5"}, "exclude each other"},
		{[]string{"ring", "--message", "abc", "--seed", "5"}, "exclude each other"},
		{[]string{"ring", "extra", "--nodes", "3"}, `unexpected argument "extra"`},
		{[]string{"ring", "--no-such-flag"}, "flag provided but not defined"},
		{[]string{"ring", "--impl", "racy", "--nodes", "5000"}, "for --impl racy"},
		{[]string{"nosuchcommand"}, `unknown command "nosuchcommand"`},
		{[]string{"exercises", "nosuchlesson"}, `unknown subcommand "nosuchlesson"`},
	}
	for _, tc := range cases {
		code, out, errOut := runCLI(t, t.Context(), tc.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tc.args, code, errOut)
			continue
		}
		if !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: stderr %q does not say %q", tc.args, errOut, tc.want)
		}
		if strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: error is not one line: %q", tc.args, errOut)
		}
		if out != "" {
			t.Errorf("%v: printed output before failing: %q", tc.args, out)
		}
	}
}

func TestInterruptExits130(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel() // as if Ctrl-C came before the first hop finished
	code, out, errOut := runCLI(t, ctx, "ring", "--seed", "1")
	if code != 130 {
		t.Fatalf("exit %d, want 130; stderr %q", code, errOut)
	}
	if !strings.Contains(out, "interrupted after") {
		t.Fatalf("no report of where the message got to: %q", out)
	}
}

func TestHelpHasExamples(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"ring", "--help"}, {"exercises", "--help"}} {
		code, out, _ := runCLI(t, t.Context(), args...)
		if code != 0 || !strings.Contains(out, "Example") {
			t.Errorf("%v: exit %d, help without an example:\n%s", args, code, out)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, t.Context(), "version")
	if code != 0 || !strings.HasPrefix(out, "ringlab ") {
		t.Fatalf("version: exit %d, %q", code, out)
	}
}
