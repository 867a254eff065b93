package run

import (
	"context"
	"fmt"

	"ringlab/internal/live"
	"ringlab/internal/node"
	"ringlab/internal/trace"
)

func runLive(ctx context.Context, spec Spec, opts Options, script []node.Action, sink func(*trace.Event), messages bool, skip trace.Kinds) (stats, error) {
	res, err := live.Run(ctx, live.Config{
		Nodes: spec.Nodes, Factory: spec.Factory, Script: script, React: spec.React,
		Tick: opts.Tick, Sink: sink, Messages: messages, Skip: skip, Timeout: opts.Timeout,
		VectorClocks: opts.VectorClocks,
	})
	st := stats{
		terminated: res.Quiescent, now: res.Elapsed.Nanoseconds() + res.Skipped.Nanoseconds(), steps: res.Steps,
		messages: res.Messages, byType: res.ByType,
	}
	if res.Exhausted {
		st.why = fmt.Sprintf("still running after --timeout %v", opts.Timeout)
	}
	return st, err
}
