package cli

import (
	"bytes"
	"flag"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/engine/vet"
)

// A vet's report: each finding a line on stdout and the count last, a
// skipped check named on stderr and left out of the checks that ran, and
// exit 3 with findings.
func TestVetReport(t *testing.T) {
	var out, errb bytes.Buffer
	app := &ucli.App{Writer: &out, ErrWriter: &errb}
	c := ucli.NewContext(app, flag.NewFlagSet("vet", flag.ContinueOnError), nil)
	r := vet.Report{
		Findings: []vet.Finding{{Check: vet.CheckCodec, Method: "amqp codec", Input: "message X {}", Detail: "decodes as Y"}},
		Skipped:  []vet.Skip{{Check: vet.CheckClock, Why: "no source"}},
		States:   7, Inputs: 3, Messages: 1,
	}
	err := vetReport(c, r)
	if cliutil.Code(err) != cliutil.ExitViolation {
		t.Errorf("err %v, want exit 3", err)
	}
	wantOut := "codec: amqp codec on message X {}: decodes as Y\n" +
		"vet: 1 findings (checks: determinism, clone, key, codec; skipped: clock)\n"
	wantErr := "vet: the clock check was skipped: no source\n" +
		"vet: 7 states searched, 3 (state, input) pairs stepped, 1 messages round-tripped\n"
	if out.String() != wantOut || errb.String() != wantErr {
		t.Errorf("stdout:\n%s\nstderr:\n%s\nwant:\n%s\n%s", out.String(), errb.String(), wantOut, wantErr)
	}
	out.Reset()
	errb.Reset()
	if err := vetReport(c, vet.Report{}); err != nil || out.String() != "vet: 0 findings (checks: determinism, clone, key, codec, clock)\n" {
		t.Errorf("a clean report: err %v, stdout %q", err, out.String())
	}
	// interrupted, the pairs were met, not all stepped
	out.Reset()
	errb.Reset()
	err = vetReport(c, vet.Report{States: 9, Inputs: 4, Interrupted: true, Skipped: []vet.Skip{{Check: vet.CheckKey, Why: "interrupted"}}})
	if cliutil.Code(err) != cliutil.ExitInterrupted || !bytes.Contains(errb.Bytes(), []byte("vet: 9 states searched, 4 (state, input) pairs met, 0 messages")) ||
		out.String() != "vet: interrupted after 9 states: 0 findings so far (checks: determinism, clone, codec, clock; skipped: key)\n" {
		t.Errorf("an interrupted report: exit %d\nstdout:\n%s\nstderr:\n%s", cliutil.Code(err), out.String(), errb.String())
	}
}
