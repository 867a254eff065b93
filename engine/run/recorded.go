package run

import (
	"context"
	"errors"
	"fmt"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Recorded is a saved run as a runtime: it feeds the log's events to the
// observer in their merged order (a streamed log as it reads it) instead
// of stepping nodes, so run.Run judges a log by the very properties of a
// run. Messages and their types are counted from its send events;
// termination is the logged run's (a log without a summary is taken as a
// run that ended by itself). Each logged message is typed through the
// System's message registry, as a run's are, so properties see one
// representation. A cancelled ctx stops it with the events judged so far.
type Recorded struct {
	Log     *Log   // the saved run, as ReadLog returns it
	Runtime string // the logged run's runtime, which its times are in
}

// Name is the logged run's runtime.
func (r Recorded) Name() string { return r.Runtime }

// Run replays the log; see engine.Runtime. A log that is not a run's
// history, or a message the registry does not decode, is a *BadLog.
func (r Recorded) Run(ctx context.Context, sys engine.System, obs engine.Observer) (engine.Result, error) {
	res := engine.Result{End: engine.Quiescent, ByType: map[string]int64{}}
	codec := trace.NewCodec(sys.Messages...)
	var undecoded error
	err := r.Log.Each(ctx, func(e *trace.Event) error {
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
		res.T = max(res.T, e.T-r.Log.Origin)
		c := *e // the properties may keep nothing, but the log stays intact
		m, err := DecodeMsg(codec, c.Msg)
		if err != nil {
			undecoded = &BadLog{Err: fmt.Errorf("the %s event of node %d (seq %d): %v", c.Kind, c.Node, c.Seq, err)}
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
		return res, &BadLog{Err: err, Stream: true}
	}
	if s := r.Log.Summary; s != nil {
		res.Steps, res.Unapplied = s.Steps, s.Unapplied
		for _, v := range s.Verdicts {
			if check.ID(v.Property) == check.IDTermination && !v.OK {
				res.End, res.Why = engine.Exhausted, v.Detail
			}
		}
	}
	return res, nil
}

// BadLog is the error of a saved log that cannot be judged: its events are
// not a run's history (found as a streamed log is read), or a message in
// it is of no type the registry lists.
type BadLog struct {
	Err    error // what is wrong, naming the file and line where it can
	Stream bool  // found while the log streamed
}

// Error returns Err's text.
func (e *BadLog) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *BadLog) Unwrap() error { return e.Err }

// DecodeMsg types a message read back as JSON (from a log, or from
// another node process's report) through the algorithm's registry; a
// message that already holds its value is returned as it is.
func DecodeMsg(codec *trace.Codec, m *trace.Msg) (*trace.Msg, error) {
	if m == nil || m.Value != nil {
		return m, nil
	}
	b, err := m.JSON()
	if err == nil {
		var v node.Msg
		if v, err = codec.Decode(b); err == nil {
			return trace.WrapMsg(v), nil
		}
	}
	return m, err
}
