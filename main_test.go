package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"ringlab/engine/trace"
	"ringlab/internal/golden"
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
		{[]string{"node", "--algo", "chang-roberts", "--index", "1", "--lang", "pt"}, "--lang is not a flag of chang-roberts"},
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

var update = flag.Bool("update", false, "rewrite testdata/render/*")

// pictures are the runs whose pictures are golden files: the default
// election of the ring rules (ids 5,3,7,1,4) and the central coordinator
// whose timeout lets two nodes in.
var pictures = map[string][]string{
	"election-ring":      {"election", "ring", "--seed", "2"},
	"mutex-central-slow": {"mutex", "scenario", "central-slow"},
	"mutex-ra-seed001":   {"mutex", "scenario", "ra-seed001"},
}

var pictureExt = map[string]string{"mermaid": "mmd", "svg": "svg", "shiviz": "shiviz.log", "chrome-trace": "trace.json"}

// TestPictureGoldens compares the pictures of three small simulator runs
// with testdata/render (go test -update rewrites them).
func TestPictureGoldens(t *testing.T) {
	for name, args := range pictures {
		for format, ext := range pictureExt {
			_, out, errb := runCLI(t, t.Context(), append(args, "--format", format)...)
			if out == "" {
				t.Fatalf("%s --format %s wrote nothing: %s", name, format, errb)
			}
			golden.Check(t, filepath.Join("testdata", "render", name+"."+ext), []byte(out), *update)
		}
	}
}

// TestViolationMarked: the central-slow picture marks the violation where
// the checker flagged it, in red, in both diagrams.
func TestViolationMarked(t *testing.T) {
	code, svg, _ := runCLI(t, t.Context(), "mutex", "scenario", "central-slow", "--format", "svg")
	if code != 3 || !strings.Contains(svg, `<g class="violation">`) || !strings.Contains(svg, "✗ mutual exclusion") {
		t.Errorf("exit %d; the SVG does not mark the violation", code)
	}
	_, mmd, _ := runCLI(t, t.Context(), "mutex", "scenario", "central-slow", "--format", "mermaid")
	if !strings.Contains(mmd, "rect rgb(255, 190, 190)\n    Note over n1,n4: ✗ VIOLATION of mutual exclusion: P1 and P2 are in the critical section at once (t=12)") {
		t.Errorf("the Mermaid diagram does not mark the violation in red:\n%s", mmd)
	}
}

// TestSameNamesEverywhere: a node has one name in the text output, the
// verdicts, the log's header, the Mermaid diagram and the SVG.
func TestSameNamesEverywhere(t *testing.T) {
	for scenario, names := range map[string][]string{
		"ra-seed001":   {"N3", "N5", "N6", "N12", "N32", "N80"},
		"central-dead": {"coordinator", "P1", "P2", "P3"},
	} {
		args := []string{"mutex", "scenario", scenario}
		_, js, _ := runCLI(t, t.Context(), append(args, "--format", "json")...)
		first, _, _ := strings.Cut(js, "\n")
		var h trace.Header
		if err := json.Unmarshal([]byte(first), &h); err != nil || h.Kind != "header" {
			t.Fatalf("%s: first line %q is not a header: %v", scenario, first, err)
		}
		if strings.Join(h.Names, ",") != strings.Join(names, ",") {
			t.Errorf("%s: header names %v, want %v", scenario, h.Names, names)
		}
		_, text, _ := runCLI(t, t.Context(), args...)
		_, mmd, _ := runCLI(t, t.Context(), append(args, "--format", "mermaid")...)
		_, svg, _ := runCLI(t, t.Context(), append(args, "--format", "svg")...)
		l, err := trace.Load(strings.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		width := 8
		for _, name := range names {
			width = max(width, len(name))
		}
		for i, name := range names {
			nd := i + 1
			// Text: every event line of node nd starts with its name.
			for _, e := range l.Events {
				if e.Node != nd {
					continue
				}
				line := fmt.Sprintf("t=%-6d %-*s %s", e.T, width, name, trace.DescribeWith(&e, h.Name))
				if !strings.Contains(text, line) {
					t.Errorf("%s: text lacks %q", scenario, line)
				}
				break
			}
			if want := fmt.Sprintf("    participant n%d as %s (node %d)\n", nd, name, nd); !strings.Contains(mmd, want) {
				t.Errorf("%s: Mermaid lacks %q", scenario, want)
			}
			if want := fmt.Sprintf(">%s (node %d)</text>", name, nd); !strings.Contains(svg, want) {
				t.Errorf("%s: SVG lacks %q", scenario, want)
			}
		}
		// Verdicts name nodes by these names, never by index.
		index := regexp.MustCompile(`\bnodes? \d`)
		named := 0
		for _, v := range l.Summary.Verdicts {
			if index.MatchString(v.Detail) {
				t.Errorf("%s: verdict %q names a node by index", scenario, v.Detail)
			}
			for _, name := range names {
				if regexp.MustCompile(`\b` + name + `\b`).MatchString(v.Detail) {
					named++
					if !strings.Contains(text, v.Detail) || !strings.Contains(mmd, strings.ReplaceAll(v.Detail, ";", "#59;")) || !strings.Contains(svg, v.Detail) {
						t.Errorf("%s: verdict %q is not in the text, Mermaid and SVG alike", scenario, v.Detail)
					}
				}
			}
		}
		if named == 0 {
			t.Errorf("%s: no verdict names a node: %v", scenario, l.Summary.Verdicts)
		}
	}
}

// TestSavedLogsEveryFormat: a saved NDJSON log of a mutex run, an election
// and the capitalizing ring renders in every format, to a file.
func TestSavedLogsEveryFormat(t *testing.T) {
	dir := t.TempDir()
	for name, args := range map[string][]string{
		"mutex":    {"mutex", "ricart-agrawala", "--nodes", "3", "--requests", "1", "--seed", "1"},
		"election": {"election", "chang-roberts", "--seed", "1"},
		"ring":     {"ring", "--delay", "0", "--seed", "7", "--nodes", "5", "--length", "8"},
	} {
		code, log, errb := runCLI(t, t.Context(), append(args, "--format", "json")...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errb)
		}
		saved := filepath.Join(dir, name+".ndjson")
		if err := os.WriteFile(saved, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, format := range trace.Formats[:len(trace.Formats)-1] {
			out := filepath.Join(dir, name+"."+format)
			code, stdout, errb := runCLI(t, t.Context(), "render", "--from", saved, "--format", format, "--out", out)
			b, _ := os.ReadFile(out)
			if code != 0 || stdout != "" || len(b) == 0 {
				t.Errorf("%s as %s: exit %d, %d bytes, stdout %q, stderr %s", name, format, code, len(b), stdout, errb)
				continue
			}
			switch format {
			case "svg":
				if !bytes.HasPrefix(b, []byte("<?xml")) {
					t.Errorf("%s: svg starts %q", name, b[:20])
				}
			case "chrome-trace", "json":
				for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
					if format == "json" && !json.Valid(line) {
						t.Errorf("%s: json line %q", name, line)
					}
				}
				if format == "chrome-trace" && !json.Valid(b) {
					t.Errorf("%s: the chrome trace is not JSON", name)
				}
			case "mermaid":
				if !strings.Contains(string(b), "\nsequenceDiagram\n") {
					t.Errorf("%s: no sequence diagram", name)
				}
			}
		}
	}
}

// TestRenderUsage: usage errors are one line and exit 2, with nothing on
// stdout; a bare summary says it cannot be drawn.
func TestRenderUsage(t *testing.T) {
	dir := t.TempDir()
	bare := filepath.Join(dir, "bare.ndjson")
	os.WriteFile(bare, []byte(`{"v":1,"kind":"summary","verdicts":[]}`+"\n"), 0o644)
	other := filepath.Join(dir, "other.json")
	os.WriteFile(other, []byte(`{"name":"x"}`+"\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"render"}, "render needs --from FILE"},
		{[]string{"render", "--from", bare}, "only a summary line"},
		{[]string{"render", "--from", other}, `not a ringlab log line: kind "" and no schema version`},
		{[]string{"render", "--from", bare, "--format", "png"}, `unknown format "png"`},
		{[]string{"render", "--from", filepath.Join(dir, "nope")}, "no such file"},
	} {
		code, out, errb := runCLI(t, t.Context(), c.args...)
		if code != 2 || out != "" || !strings.Contains(errb, c.want) || strings.Count(errb, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, code, out, errb, c.want)
		}
	}
}

// mmdc finds the Mermaid CLI: $RINGLAB_MMDC, or mmdc on the PATH.
func mmdc(t *testing.T) string {
	if p := os.Getenv("RINGLAB_MMDC"); p != "" {
		return p
	}
	if p, err := exec.LookPath("mmdc"); err == nil {
		return p
	}
	t.Skip("the Mermaid CLI is not installed: run `bash .ci/browser.sh` and set RINGLAB_MMDC (bash .ci/run does both)")
	return ""
}

// TestMermaidCLI renders every Mermaid golden file with the real Mermaid
// CLI (mmdc exits 1 on a diagram it cannot parse), after checking that it
// does reject a malformed one.
func TestMermaidCLI(t *testing.T) {
	bin := mmdc(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "puppeteer.json")
	browser := os.Getenv("RINGLAB_CHROMIUM")
	if browser == "" {
		browser = "/usr/bin/chromium"
	}
	pj, _ := json.Marshal(map[string]any{"executablePath": browser, "args": []string{"--no-sandbox", "--disable-gpu"}})
	if err := os.WriteFile(cfg, pj, 0o644); err != nil {
		t.Fatal(err)
	}
	render := func(in string) error {
		out := filepath.Join(dir, filepath.Base(in)+".svg")
		b, err := exec.Command(bin, "-p", cfg, "-i", in, "-o", out, "-q").CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %s", err, b)
		}
		return nil
	}
	bad := filepath.Join(dir, "bad.mmd")
	os.WriteFile(bad, []byte("sequenceDiagram\n    participant n1 as A\n    n1->>: broken;\n    end end\n"), 0o644)
	if render(bad) == nil {
		t.Fatal("mmdc accepted a malformed diagram: this test could not fail")
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "render", "*.mmd"))
	more, _ := filepath.Glob(filepath.Join("engine", "trace", "testdata", "*.mmd"))
	files = append(files, more...)
	if len(files) < 4 {
		t.Fatalf("only %d Mermaid golden files: %v", len(files), files)
	}
	for _, f := range files {
		if err := render(f); err != nil {
			t.Errorf("mmdc rejects %s: %v", f, err)
		}
	}
}
