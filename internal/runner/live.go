package runner

import (
	"context"
	"fmt"

	"ringlab/internal/live"
	"ringlab/internal/node"
	"ringlab/internal/trace"
)

func runLive(ctx context.Context, spec Spec, opts Options, script []node.Action, sink func(*trace.Event), messages bool, skip trace.Kinds, bar *progress) (stats, error) {
	cfg := live.Config{
		Nodes: spec.Nodes, Factory: spec.Factory, Script: script, React: spec.React,
		Tick: opts.Tick, Sink: sink, Messages: messages, Skip: skip, Timeout: opts.Timeout,
		VectorClocks: opts.VectorClocks,
	}
	if bar != nil {
		cfg.Progress = func(p live.Progress) {
			bar.describe(fmt.Sprintf("%d in flight, nodes not done", p.InFlight))
			bar.set(p.NotDone)
		}
	}
	res, err := live.Run(ctx, cfg)
	st := stats{
		terminated: res.Quiescent, now: res.Elapsed.Nanoseconds() + res.Skipped.Nanoseconds(), steps: res.Steps,
		messages: res.Messages, byType: res.ByType,
	}
	if res.Exhausted {
		st.why = fmt.Sprintf("still running after --timeout %v", opts.Timeout)
	}
	return st, err
}
