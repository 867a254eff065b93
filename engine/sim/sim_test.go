package sim

import (
	"bytes"
	"flag"
	"path/filepath"
	"testing"

	"ringlab/engine/internal/nodetest"
	"ringlab/engine/node"
	"ringlab/engine/trace"
	"ringlab/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// record runs cfg and returns its NDJSON log.
func record(t *testing.T, cfg config, format string) (result, []byte) {
	t.Helper()
	var buf bytes.Buffer
	r, err := trace.NewRenderer(format, &buf)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Sink = func(e *trace.Event) {
		if err := r.Event(e); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Messages = true
	res, err := run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Flush(); err != nil {
		t.Fatal(err)
	}
	return res, buf.Bytes()
}

func passConfig(n, hops int) config {
	return config{
		Nodes:   n,
		Factory: nodetest.PassFactory(n, hops),
		Script:  []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
	}
}

func TestPassCountsEveryHop(t *testing.T) {
	for _, tc := range []struct{ n, hops int }{{1, 5}, {2, 3}, {5, 5}, {5, 12}, {30, 100}} {
		res, err := run(passConfig(tc.n, tc.hops))
		if err != nil {
			t.Fatal(err)
		}
		if res.Messages != int64(tc.hops) || res.ByType["TOKEN"] != int64(tc.hops) {
			t.Errorf("n=%d hops=%d: %d messages (%v), want %d", tc.n, tc.hops, res.Messages, res.ByType, tc.hops)
		}
		if res.Now != int64(tc.hops) {
			t.Errorf("n=%d hops=%d: ended at t=%d, want %d (one tick per hop)", tc.n, tc.hops, res.Now, tc.hops)
		}
		if !res.Quiescent {
			t.Errorf("n=%d hops=%d: run did not end quiescent: %+v", tc.n, tc.hops, res)
		}
	}
}

func TestGoldenPass(t *testing.T) {
	_, got := record(t, passConfig(3, 4), "text")
	golden.Check(t, filepath.Join("testdata", "pass.golden"), got, *update)
}
