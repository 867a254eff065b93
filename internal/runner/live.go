package runner

import (
	"context"
	"fmt"

	"ringlab/internal/engine"
	"ringlab/internal/live"
	"ringlab/internal/node"
	"ringlab/internal/trace"
)

func runLive(ctx context.Context, spec Spec, opts Options, script []node.Action, sink func(*trace.Event), messages bool, skip trace.Kinds, bar *progress) (stats, error) {
	rt := live.Runtime{
		Scheduler: opts.Scheduler, Tick: opts.Tick, Timeout: opts.Timeout,
		Messages: messages, Skip: skip, VectorClocks: opts.VectorClocks,
	}
	if bar != nil {
		rt.Progress = func(p live.Progress) {
			bar.describe(fmt.Sprintf("%d in flight, nodes not done", p.InFlight))
			bar.set(p.NotDone)
		}
	}
	res, err := rt.Run(ctx, spec.system(script), sink)
	st := statsOf(res, res.Now*opts.Tick.Nanoseconds())
	if res.End == engine.TimedOut {
		st.why = fmt.Sprintf("still running after --timeout %v", opts.Timeout)
	}
	return st, err
}
