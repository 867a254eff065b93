package run

import (
	"context"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/explore"
	"ringlab/engine/statespace"
)

// Path is a path of the exhaustive checker, or a lasso, as a runtime: it
// takes exactly the path's transitions from the initial state (the
// checker's own, statespace.Replay) and reports their events to the
// observer, so Run judges the path by the very properties of a run. It is
// how `check --path`, a check's counterexample and enginetest's failures
// are shown. A transition the path cannot take is a *BadPath.
type Path struct {
	Config statespace.Config  // the search the path is of
	Steps  []statespace.Trans // the path, from the initial state
	Cycle  []statespace.Trans // a lasso's cycle, taken once after Steps (nil: none)
	// Refutes, Refuted and RefutesOwed are what a lasso's cycle refutes,
	// as check.End's fields of those names.
	Refutes     check.ID
	Refuted     string
	RefutesOwed bool
}

// Name is "check": a path's times are the checker's steps.
func (Path) Name() string { return "check" }

// JudgeEnd implements PathEnd: a path that stops short of a terminal
// state, or one turn of a lasso's cycle, is cut, so what is judged only
// where a run ends is not reached; the lasso's cycle refutes its property.
func (p Path) JudgeEnd(end *check.End) {
	end.Cut = !end.Terminated
	end.Refutes, end.Refuted, end.RefutesOwed = p.Refutes, p.Refuted, p.RefutesOwed
}

// Run replays the path; see engine.Runtime. Its time is its steps; it
// ends Quiescent where the path ends in a terminal state, else Stopped,
// cut (explore.PathCut, LassoCut).
func (p Path) Run(_ context.Context, _ engine.System, obs engine.Observer) (engine.Result, error) {
	var rr statespace.ReplayResult
	var err error
	if p.Cycle != nil {
		rr, err = statespace.ReplayLasso(p.Config, p.Steps, p.Cycle, obs)
	} else {
		rr, err = statespace.Replay(p.Config, p.Steps, obs)
	}
	if err != nil {
		return engine.Result{}, &BadPath{Err: err}
	}
	res := engine.Result{End: engine.Quiescent, Now: rr.Steps, T: rr.Steps, Steps: rr.Steps, Messages: rr.Messages,
		Dropped: rr.Dropped, ByType: rr.ByType}
	switch {
	case len(p.Cycle) > 0: // an empty cycle stutters where the run ends
		res.End, res.Why = engine.Stopped, explore.LassoCut
	case !rr.Terminated:
		res.End, res.Why = engine.Stopped, explore.PathCut
	}
	return res, nil
}

// BadPath is the error of a path that cannot be replayed: a transition
// not enabled where it comes.
type BadPath struct {
	Err error // which transition, and why
}

// Error returns Err's text.
func (e *BadPath) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *BadPath) Unwrap() error { return e.Err }
