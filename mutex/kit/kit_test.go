package kit_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/mutex/kit"
)

// lockAlgorithm is the Example's lock server, its nodes built by nodeOf
// (a planted bug wraps the right one).
func lockAlgorithm(nodeOf func(*lock) node.Node) engine.Algorithm {
	newNode := func(n, i int) node.Node { return nodeOf(newLock(n, i).(*lock)) }
	return kit.Algorithm("lock", kit.Permission, newNode, lockMsg{"ASK"}, lockMsg{"GRANT"}, lockMsg{"FREE"})
}

// command runs one command line of a program made of alg, as its main
// would (cli.Main), and returns its exit code and output.
func command(t *testing.T, alg engine.Algorithm, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code := cli.Run(context.Background(), append([]string{"lock"}, args...), &out, &out, alg)
	return code, out.String()
}

// twice grants the lock on every ASK, held or not.
type twice struct{ *lock }

func (l twice) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InMsg && in.Msg == (lockMsg{"ASK"}) {
		l.grant(in.From, out)
		return
	}
	l.lock.Step(in, out)
}

func (l twice) Clone() node.Node { return twice{l.lock.Clone().(*lock)} }

// forgets frees the lock without granting it to the nodes waiting.
type forgets struct{ *lock }

func (l forgets) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InMsg && in.Msg == (lockMsg{"FREE"}) {
		l.holder = 0
		return
	}
	l.lock.Step(in, out)
}

func (l forgets) Clone() node.Node { return forgets{l.lock.Clone().(*lock)} }

// lifo serves the node that asked last first: every request is granted
// where requests end, but under requests without end a node can wait for
// ever while the others take turns.
type lifo struct{ *lock }

func (l lifo) Step(in node.Input, out *node.Output) {
	free := in.Kind == node.InMsg && in.Msg == (lockMsg{"FREE"})
	if in.Kind == node.InCmd && in.Cmd == node.CmdRelease && l.id == 1 {
		out.ExitCS()
		free = true
	}
	if !free {
		l.lock.Step(in, out)
		return
	}
	l.holder = 0
	if last := len(l.queue) - 1; last >= 0 {
		j := l.queue[last]
		l.queue = l.queue[:last]
		l.grant(j, out)
	}
}

func (l lifo) Clone() node.Node { return lifo{l.lock.Clone().(*lock)} }

// An algorithm of another package, registered through the kit alone, gets
// the workload (--requests N, 0 for ever in a check), every property of a
// permission algorithm and --liveness: the right lock server is proved
// with requests that end and, over every fair cycle, without end; each
// planted bug is caught by the property it breaks, with its exit code.
func TestTheKitJudgesAnAlgorithmOfAnotherPackage(t *testing.T) {
	right := func(l *lock) node.Node { return l }
	for _, c := range []struct {
		name   string
		nodeOf func(*lock) node.Node
		args   []string
		code   int
		want   []string
	}{
		{"a run", right, []string{"lock", "--requests", "2", "--seed", "1", "--format", "none"}, cliutil.ExitOK,
			[]string{"✓ mutual exclusion", "✓ grant order", "✓ no deadlock", "✓ no starvation: every request granted (6 entries)", "✓ termination"}},
		{"a check", right, []string{"check", "lock", "--requests", "2"}, cliutil.ExitOK,
			[]string{"proved: mutual exclusion, grant order, no deadlock, no starvation, termination, over all 715 states"}},
		{"a check without end", right, []string{"check", "lock", "--requests", "0", "--liveness"}, cliutil.ExitOK,
			[]string{"liveness: ✓ no deadlock, no starvation: on every fair infinite schedule every promise is eventually kept",
				"termination is not asked, as with --requests 0 no run ends"}},
		{"a grant to a holder's rival", func(l *lock) node.Node { return twice{l} }, []string{"check", "lock"}, cliutil.ExitViolation,
			[]string{"mutual exclusion violated", "are in the critical section at once"}},
		{"a queue forgotten", func(l *lock) node.Node { return forgets{l} }, []string{"check", "lock"}, cliutil.ExitViolation,
			[]string{"no deadlock violated", "nothing is left that could let them in"}},
		{"last come, first served, requests that end", func(l *lock) node.Node { return lifo{l} }, []string{"check", "lock", "--requests", "2"}, cliutil.ExitOK,
			[]string{"proved: mutual exclusion, grant order, no deadlock, no starvation, termination"}},
		{"last come, first served, without end", func(l *lock) node.Node { return lifo{l} }, []string{"check", "lock", "--requests", "0", "--liveness"}, cliutil.ExitViolation,
			[]string{"no starvation", "stays owed for ever"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := command(t, lockAlgorithm(c.nodeOf), c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d", code, c.code)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in\n%s", w, out)
				}
			}
		})
	}
}
