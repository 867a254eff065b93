package run

import (
	"context"
	"fmt"
	"slices"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// Violation is the error of a run that broke a property: at an event, or
// in its end-of-run verdict. The verdict of a liveness property (a
// check.Eventually: no deadlock, no starvation) failed where the run ends
// with its promise still owed says the run stopped short of its work
// rather than that it did something wrong.
type Violation struct {
	Property string // the property's ID ("mutual exclusion")
	Detail   string // what broke it, in words
	Liveness bool   // the run stopped short of its work: a promise of the property is owed (Outcome.Owed)
	Replay   string // the command line that repeats the run
}

// Error names the property, the detail and the replay, prefixed with
// "no progress: " for a liveness property.
func (v *Violation) Error() string {
	s := fmt.Sprintf("%s violated: %s (replay: %s)", v.Property, v.Detail, v.Replay)
	if v.Liveness {
		return "no progress: " + s
	}
	return s
}

// NoTermination is the error of a run that did not end by itself within
// its budget.
type NoTermination struct {
	Why    string // why the run ended ("still running after the step budget ...")
	Replay string // the command line that repeats the run
}

// Error says why the run did not end, with the replay.
func (e *NoTermination) Error() string {
	return fmt.Sprintf("no termination: %s (replay: %s)", e.Why, e.Replay)
}

// Err says what the outcome means, as a typed error: nil when every
// property held and the run ended by itself; context.Canceled when it was
// interrupted; a *Violation when a property was violated at an event
// (a safety violation is real however the run ended); a *NoTermination
// when it did not end (its end-of-run verdicts judge a run cut short, so
// they do not count); else a *Violation for the first failed verdict.
// Verdicts are taken in the properties' order, safety first by
// convention.
func (o Outcome) Err() error {
	if o.Result.End == engine.Interrupted {
		return context.Canceled
	}
	for _, v := range o.Summary.Verdicts {
		if !v.OK && slices.ContainsFunc(o.Violations, func(e trace.Event) bool { return e.Property == v.Property }) {
			return o.violation(v)
		}
	}
	if o.Result.End != engine.Quiescent {
		return &NoTermination{Why: why(o.Result), Replay: o.Summary.Replay}
	}
	for _, v := range o.Summary.Verdicts {
		if !v.OK {
			return o.violation(v)
		}
	}
	return nil
}

func (o Outcome) violation(v trace.Verdict) *Violation {
	live := slices.Contains(o.Owed, check.ID(v.Property))
	return &Violation{Property: v.Property, Detail: v.Detail, Replay: o.Summary.Replay, Liveness: live}
}

// UnknownProperty is the error of Options.Only naming no property of the
// System; Err lists the properties there are.
type UnknownProperty struct {
	Err error // check.Select's error, which names the properties there are
}

// Error returns Err's text.
func (e *UnknownProperty) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *UnknownProperty) Unwrap() error { return e.Err }
