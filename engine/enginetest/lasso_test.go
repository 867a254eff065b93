package enginetest_test

import (
	"regexp"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/enginetest"
	"ringlab/engine/node"
	"ringlab/mutex/kit"
)

// baton is a message passed round a ring: holding it lets a node in.
type baton struct{}

func (baton) Type() string { return "BATON" }

// snub passes the baton round the ring; every node that wants the
// critical section enters with it, except node 2, which passes it on:
// with a workload that asks for ever, node 2 waits on a cycle.
type snub struct {
	N, I       int
	Wants, Has bool
}

func (s *snub) Step(in node.Input, out *node.Output) {
	switch {
	case in.Kind == node.InCmd && in.Cmd == node.CmdStart:
		out.Note("token baton created")
		out.Send(s.I%s.N+1, baton{})
	case in.Kind == node.InCmd && in.Cmd == node.CmdRequest:
		s.Wants = true
	case in.Kind == node.InCmd && in.Cmd == node.CmdRelease && s.Has:
		s.Has = false
		out.ExitCS()
		out.Send(s.I%s.N+1, baton{})
	case in.Kind == node.InMsg && s.Wants && s.I != 2:
		s.Wants, s.Has = false, true
		out.EnterCS()
	case in.Kind == node.InMsg:
		out.Send(s.I%s.N+1, baton{})
	}
}

// snubAlgorithm is snub through the mutex kit, a token algorithm: node 1
// is started, and creates the baton.
func snubAlgorithm() engine.Algorithm {
	return kit.Algorithm("snub", kit.Token, func(n, i int) node.Node { return &snub{N: n, I: i} }, baton{})
}

// TestExhaustWithLivenessFindsALasso: a workload without end has no
// terminal state, so only the liveness pass sees node 2 starved; it
// reports the lasso and its replay, and the replay of that lasso walks
// it without an error.
func TestExhaustWithLivenessFindsALasso(t *testing.T) {
	p := snubAlgorithm().ForCheck().Defaults()
	if err := p.Give("requests", 0); err != nil {
		t.Fatal(err)
	}
	if err := p.Give("nodes", 2); err != nil {
		t.Fatal(err)
	}
	r := record(t)
	enginetest.ExhaustWith(r, snubAlgorithm(), p, enginetest.Options{})
	if len(r.errs) != 0 {
		t.Fatalf("without liveness: want no report, got %v", r.errs)
	}
	r = record(t)
	enginetest.ExhaustWith(r, snubAlgorithm(), p, enginetest.Options{Liveness: true})
	if len(r.errs) != 1 {
		t.Fatalf("with liveness: want one report, got %v and %v", r.errs, r.logs)
	}
	contains(t, "the report", r.errs[0], "snub: no progress: no starvation never kept (a lasso: the prefix, then a cycle that repeats for ever): ",
		"lasso: c1,", "replay (prints the run): RINGLAB_PATH='c1,", "|", "' go test -run '^TestExhaustWithLivenessFindsALasso$' ./engine/enginetest",
		"the lasso in words", "send  BATON")
	lasso := regexp.MustCompile(`\nlasso: (\S+)`).FindStringSubmatch(r.errs[0])[1]

	t.Setenv(enginetest.PathEnv, lasso)
	r = record(t)
	enginetest.ExhaustWith(r, snubAlgorithm(), p, enginetest.Options{Liveness: true})
	if len(r.errs) != 0 || len(r.logs) != 1 {
		t.Fatalf("the replay of %s: want one log, got %v and %v", lasso, r.errs, r.logs)
	}
	contains(t, "the replay", r.logs[0], "snub, path "+strings.Replace(lasso, "|", ",", 1), "recv  BATON")
}
