package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"ringlab/internal/amqp"
	"ringlab/internal/check"
	"ringlab/internal/cliutil"
	"ringlab/internal/engine"
	"ringlab/internal/run"
	"ringlab/internal/trace"
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

// recorded is a saved run as a runtime: it feeds the log's events to the
// observer in their merged order (a streamed log as it reads it: an
// invalid one is a usage error of --from) instead of stepping nodes.
// Messages and their types are counted from its send events; termination
// is the logged run's (a log without a summary is taken as a run that
// ended by itself). Each logged message is typed through the System's
// message registry, as a run's are, so properties see one representation:
// a message the registry does not decode is a usage error of --from. A
// cancelled ctx stops it with the events judged so far.
type recorded struct {
	rec     *Recorded
	runtime string // the logged run's runtime, which its times are in
}

func (r recorded) Name() string { return r.runtime }

func (r recorded) Run(ctx context.Context, sys engine.System, obs engine.Observer) (engine.Result, error) {
	rec := r.rec
	res := engine.Result{End: engine.Quiescent, ByType: map[string]int64{}}
	if rec.used {
		return res, fmt.Errorf("a recorded run can be judged once")
	}
	rec.used = true
	codec := amqp.NewCodec(sys.Messages...)
	var undecoded error
	err := rec.Log.Each(ctx, func(e *trace.Event) error {
		switch e.Kind {
		case trace.KindSend:
			res.Messages++
			if e.Msg != nil {
				res.ByType[e.Msg.Type()]++
			}
		case trace.KindDrop:
			res.Dropped++
		case trace.KindDup:
			res.Duplicated++
		}
		res.T = max(res.T, e.T-rec.Log.Origin)
		c := *e // the properties may keep nothing, but the log stays intact
		m, err := decodeMsg(codec, c.Msg)
		if err != nil {
			undecoded = cliutil.Usagef("--from: the %s event of node %d (seq %d): %v", c.Kind, c.Node, c.Seq, err)
			return undecoded
		}
		c.Msg = m
		obs(&c)
		return nil
	})
	if undecoded != nil {
		return res, undecoded
	}
	var in *trace.Interrupted
	switch {
	case errors.As(err, &in): // Ctrl-C: judge what was read so far
		res.End, res.Why = engine.Interrupted, "interrupted"
		return res, nil
	case err != nil: // a streamed log that is not a run's history
		return res, cliutil.FlagUsagef("from", "--from %v", err)
	}
	if s := rec.Log.Summary; s != nil {
		res.Steps, res.Unapplied = s.Steps, s.Unapplied
		for _, v := range s.Verdicts {
			if check.ID(v.Property) == check.IDTermination && !v.OK {
				res.End, res.Why = engine.Exhausted, v.Detail
			}
		}
	}
	return res, nil
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
