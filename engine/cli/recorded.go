package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/run"
)

// saved is a log to judge, and the properties to judge it by (by name;
// none: every property of the run).
type saved struct {
	log  *run.Log
	only []string
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

// recorded is a saved log as a runtime (run.Recorded), whose errors are
// the --from flag's.
type recorded struct {
	log     *run.Log
	runtime string // the logged run's runtime, which its times are in
}

func (r recorded) Name() string { return r.runtime }

func (r recorded) Run(ctx context.Context, sys engine.System, obs engine.Observer) (engine.Result, error) {
	res, err := run.Recorded{Log: r.log, Runtime: r.runtime}.Run(ctx, sys, obs)
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
