package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"ringlab/internal/check"
	"ringlab/internal/cliutil"
	"ringlab/internal/engine"
	"ringlab/internal/run"
)

// Recorded is a saved run handed to Execute in place of a runtime: the
// command that made the log rebuilds the run's Spec (its checkers, its
// figures), and Execute feeds the logged events to them instead of running
// the nodes. It is how `ringlab check` re-judges a log with the very
// checkers and exit codes of the run.
type Recorded struct {
	Log        *run.Log
	Properties []string // restrict the checkers to these (by name); none means all
	used       bool
}

type recordedKey struct{}

// WithRecorded returns a context under which Execute replays rec instead of
// running a runtime. Execute takes it once: a command that would call
// Execute twice gets an error the second time.
func WithRecorded(ctx context.Context, rec *Recorded) context.Context {
	return context.WithValue(ctx, recordedKey{}, rec)
}

// Used reports whether a command judged rec.
func (rec *Recorded) Used() bool { return rec.used }

func recordedFrom(ctx context.Context) *Recorded {
	rec, _ := ctx.Value(recordedKey{}).(*Recorded)
	return rec
}

// restrict keeps the checkers named in props (check.Select); an unknown
// name is a usage error of --property listing the properties this run
// checks.
func restrict(cs []check.Property, props []string) ([]check.Property, error) {
	out, err := check.Select(cs, props)
	if err != nil {
		return nil, cliutil.FlagUsagef("property", "--property: %v", err)
	}
	return out, nil
}

// recorded is rec as a runtime (run.Recorded), which takes rec once.
type recorded struct {
	rec     *Recorded
	runtime string // the logged run's runtime, which its times are in
}

func (r recorded) Name() string { return r.runtime }

func (r recorded) Run(ctx context.Context, sys engine.System, obs engine.Observer) (engine.Result, error) {
	if r.rec.used {
		return engine.Result{}, fmt.Errorf("a recorded run can be judged once")
	}
	r.rec.used = true
	res, err := run.Recorded{Log: r.rec.Log, Runtime: r.runtime}.Run(ctx, sys, obs)
	var bad *run.BadLog
	switch {
	case errors.As(err, &bad) && bad.Stream:
		return res, cliutil.FlagUsagef("from", "--from %v", bad.Err)
	case errors.As(err, &bad):
		return res, cliutil.Usagef("--from: %v", bad.Err)
	}
	return res, err
}

// SplitCommand splits a command line as Replay writes it (and as a POSIX
// shell would split it): words separated by blanks, '...' quoting anything
// but a quote, "..." quoting anything but a quote or a backslash (which
// escapes a dollar, a backquote, a quote or a backslash there), and a
// backslash escaping the next character outside quotes.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord, escaped := false, false
	var quote rune // the open quote, or 0
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case escaped:
			w.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				w.WriteRune(r)
			}
		case quote == '"':
			switch {
			case r == '"':
				quote = 0
			case r == '\\' && i+1 < len(rs) && strings.ContainsRune("$`\"\\", rs[i+1]):
				i++
				w.WriteRune(rs[i])
			default:
				w.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '\\':
			escaped, inWord = true, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, fmt.Errorf("unterminated quote or escape in %q", s)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

type dryRunKey struct{}

// WithDryRun returns a context under which a command checks its flags and
// builds its run but runs nothing: Execute returns at once with no output,
// and explore tries no schedule. Tests use it to check that documented
// command lines parse.
func WithDryRun(ctx context.Context) context.Context {
	return context.WithValue(ctx, dryRunKey{}, true)
}

func dryRun(ctx context.Context) bool { return ctx.Value(dryRunKey{}) != nil }
