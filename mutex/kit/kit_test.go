package kit_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"

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

// TestMain fails the package's tests if one leaves a goroutine running
// (the checks run workers).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// tokenServer is a node of a token server: node 1 holds the one TOKEN
// and lends it to the nodes that ASK, one at a time, first come, first
// served; a node gives it back on leaving the critical section.
type tokenServer struct {
	id    int
	has   bool  // this node holds the token
	in    bool  // node 1: it is in the critical section
	queue []int // node 1: who waits for the token
	lend  func(*tokenServer) bool
}

// TokenID names the token, as "one token" follows it.
func (lockMsg) TokenID() string { return "1" }

func (s *tokenServer) Step(in node.Input, out *node.Output) {
	switch {
	case in.Kind == node.InCmd && in.Cmd == node.CmdStart:
		s.has = true
		out.Note("token 1 created")
	case in.Kind == node.InCmd && in.Cmd == node.CmdRequest && s.id == 1:
		s.ask(1, out)
	case in.Kind == node.InCmd && in.Cmd == node.CmdRequest:
		out.Send(1, lockMsg{"ASK"})
	case in.Kind == node.InCmd && in.Cmd == node.CmdRelease:
		out.ExitCS()
		if s.id != 1 {
			s.has = false
			out.Send(1, lockMsg{"TOKEN"})
		} else {
			s.in = false
			s.next(out)
		}
	case in.Kind == node.InMsg && in.Msg == lockMsg{"ASK"}:
		s.ask(in.From, out)
	case in.Kind == node.InMsg && in.Msg == lockMsg{"TOKEN"} && s.id == 1:
		s.has = true
		s.next(out)
	case in.Kind == node.InMsg && in.Msg == lockMsg{"TOKEN"}:
		s.has = true
		out.EnterCS()
	}
}

// ask queues node j and lends the token if the server may.
func (s *tokenServer) ask(j int, out *node.Output) {
	s.queue = append(s.queue, j)
	if s.lend(s) {
		s.next(out)
	}
}

// next gives the token to the first node waiting: node 1 enters, another
// gets it by message.
func (s *tokenServer) next(out *node.Output) {
	if len(s.queue) == 0 {
		return
	}
	j := s.queue[0]
	s.queue = s.queue[1:]
	if j == 1 {
		s.in = true
		out.EnterCS()
		return
	}
	s.has = false
	out.Send(j, lockMsg{"TOKEN"})
}

func (s *tokenServer) Clone() node.Node {
	c := *s
	c.queue = slices.Clone(s.queue)
	return &c
}

func (s *tokenServer) AppendKey(b []byte) []byte {
	return node.AppendInts(node.AppendBool(node.AppendBool(b, s.has), s.in), s.queue)
}

// A Token algorithm of another package is judged by one token too: the
// right token server keeps one token over every state; one that lends a
// token it does not hold (it is out) makes a second, which "one token"
// counts at each event of a run (the explorer's first seed finds it) and
// at every state the checker reaches, with requests for ever too: there
// it is the first violation, three steps before two nodes are in the
// critical section at once.
func TestTheKitCountsTheTokens(t *testing.T) {
	for _, c := range []struct {
		name string
		lend func(*tokenServer) bool
		args []string
		code int
		want string
	}{
		{"lent only when held", func(s *tokenServer) bool { return s.has && !s.in },
			[]string{"check", "lock", "--requests", "2"}, cliutil.ExitOK, "proved: mutual exclusion, one token, grant order, no deadlock, no starvation, termination, over all 743 states"},
		{"lent only when held, explored", func(s *tokenServer) bool { return s.has && !s.in },
			[]string{"explore", "lock", "--requests", "2", "--seed", "1"}, cliutil.ExitOK, "no violation in 1000 schedules"},
		{"lent when out", func(s *tokenServer) bool { return !s.in },
			[]string{"explore", "lock", "--requests", "2", "--seed", "1"}, cliutil.ExitViolation, "✗ one token: up to 2 tokens at once"},
		{"lent when out, checked without end", func(s *tokenServer) bool { return !s.in },
			[]string{"check", "lock", "--requests", "0"}, cliutil.ExitViolation, "one token violated: 2 tokens exist at once: 1 and 1 (t=3) (replay: lock check lock --requests 0 --path c2,d2-1,c1)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			newNode := func(_, i int) node.Node { return &tokenServer{id: i, lend: c.lend} }
			alg := kit.Algorithm("lock", kit.Token, newNode, lockMsg{"TOKEN"}, lockMsg{"ASK"})
			code, out := command(t, alg, c.args...)
			if code != c.code || !strings.Contains(out, c.want) {
				t.Errorf("exit %d, want %d with %q:\n%s", code, c.code, c.want, out)
			}
		})
	}
}
