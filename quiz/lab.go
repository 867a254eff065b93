package quiz

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"ringlab/election"
	"ringlab/engine/cliutil"
	"ringlab/mutex"
)

// lab runs one ringlab command line (without the program name) in-process,
// over the election and mutex areas, and returns its exit code and what it
// wrote to standard output and standard error. Every answer the quiz gives
// comes from such a run, or from a function of the lab called directly.
func lab(ctx context.Context, line string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	cmds := []*cli.Command{election.Command(), mutex.Command()}
	cliutil.Prepare(cmds)
	app := &cli.App{
		Name: "ringlab", Commands: cmds, Writer: &out, ErrWriter: &errb,
		HideVersion: true, ExitErrHandler: func(*cli.Context, error) {},
	}
	err := app.RunContext(ctx, append([]string{"ringlab"}, strings.Fields(line)...))
	if err != nil {
		fmt.Fprintf(&errb, "ringlab: %v\n", err)
	}
	return cliutil.Code(err), out.String(), errb.String()
}

// event is the part of an NDJSON log line (a run's --format json) that
// the questions read: an event, the header or the closing summary.
type event struct {
	Kind     string           `json:"kind"`
	Node     int              `json:"node"`
	From     int              `json:"from"`
	To       int              `json:"to"`
	LC       int64            `json:"lc"`
	Leader   int              `json:"leader"`
	Names    []string         `json:"names"`
	Messages int64            `json:"messages"`
	ByType   map[string]int64 `json:"by_type"`
	Verdicts []struct {
		Property string `json:"property"`
		OK       bool   `json:"ok"`
	} `json:"verdicts"`
}

// runLog runs a command line with --format json appended and returns its
// events, header first and summary last. A run that does not exit 0 is an
// error: the quiz asks only about runs that kept every property.
func runLog(ctx context.Context, line string) ([]event, error) {
	code, out, errs := lab(ctx, line+" --format json")
	if code != cliutil.ExitOK {
		return nil, fmt.Errorf("ringlab %s: exit %d: %s", line, code, strings.TrimSpace(errs))
	}
	var evs []event
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var e event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			return nil, fmt.Errorf("ringlab %s: %w", line, err)
		}
		evs = append(evs, e)
	}
	if len(evs) < 2 || evs[0].Kind != "header" || evs[len(evs)-1].Kind != "summary" {
		return nil, fmt.Errorf("ringlab %s: no header and summary in its log", line)
	}
	return evs, nil
}
