package vet_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/vet"
)

// The faults pinger can be built with, each breaking one part of the
// node contract that one check guards.
const (
	clean        = ""
	nondet       = "nondeterministic" // Step reads a package-level counter
	shallow      = "shallow-clone"    // Clone shares the seen slice
	shortKey     = "incomplete-key"   // AppendKey leaves out count, which Pong carries
	unexported   = "unexported-field" // pings are Hidden, whose secret JSON drops
	iface        = "interface-field"  // pings are Boxed, whose Payload reads back as float64
	unregistered = "unregistered"     // pings are Stray, which System.Messages does not list
	appending    = "append-clone"     // Clone shares got, which Step appends to in its spare capacity
	muffled      = "lossy-string"     // pings are Muffled, whose String drops N and whose JSON drops secret
	quiet        = "quiet-string"     // pings are Quiet, whose String drops N (the codec keeps it)
	forgetful    = "forgetful-clone"  // Clone leaves out trail, which no step reads
	nilKey       = "nil-key"          // AppendKey tells a nil got from an empty one, which a PONG's parity sets
)

// Ping asks for a Pong.
type Ping struct{ N int }

func (Ping) Type() string { return "PING" }

// Pong answers a ping: N is how many pings its sender had when it answered.
type Pong struct{ N int }

func (Pong) Type() string { return "PONG" }

// Hidden is a ping with an unexported field.
type Hidden struct {
	N      int
	secret int
}

func (Hidden) Type() string { return "HIDDEN" }

// Boxed is a ping with an interface field.
type Boxed struct {
	N       int
	Payload any
}

func (Boxed) Type() string { return "BOXED" }

// Muffled is Hidden with a String that prints every value alike.
type Muffled struct {
	N      int
	secret int
}

func (Muffled) Type() string   { return "MUFFLED" }
func (Muffled) String() string { return "muffled" }

// Quiet is a ping whose String prints every value alike; its codec is
// faithful.
type Quiet struct{ N int }

func (Quiet) Type() string   { return "QUIET" }
func (Quiet) String() string { return "quiet" }

// Stray is a ping no registry lists.
type Stray struct{ N int }

func (Stray) Type() string { return "STRAY" }

// calls is the package-level state the nondeterministic pinger reads.
var calls int

// pinger: node 1, told to start, sends node 2 two pings (N 1 and 2); node
// 2 answers each with the pings it has had. seen[j] is the N of the last
// ping from node j. With a fault it breaks the contract as its name says.
type pinger struct {
	fault string
	count int
	seen  []int
	got   []int // append-clone: the N of every ping, in the order they came (room for 4)
	trail []int // forgetful-clone: the N of every ping, which no step reads
}

func (p *pinger) Step(in node.Input, out *node.Output) {
	switch {
	case in.Kind == node.InCmd && in.Cmd == node.CmdStart:
		out.Send(2, p.ping(1))
		out.Send(2, p.ping(2))
	case in.Kind == node.InMsg && in.Msg.Type() == "PONG" && p.fault == nilKey:
		p.got = nil // the same value as empty, which an even N leaves
		if in.Msg.(Pong).N%2 == 0 {
			p.got = []int{}
		}
	case in.Kind == node.InMsg && in.Msg.Type() != "PONG":
		p.count++
		p.seen[in.From] = pingN(in.Msg)
		if p.fault == appending {
			p.got = append(p.got, pingN(in.Msg))
		}
		if p.fault == forgetful {
			p.trail = append(slices.Clip(p.trail), pingN(in.Msg))
		}
		n := p.count
		if p.fault == nondet {
			calls++
			n += calls
		}
		out.Send(in.From, Pong{N: n})
	}
	out.Done = true
}

func (p *pinger) ping(n int) node.Msg {
	switch p.fault {
	case unexported:
		return Hidden{N: n, secret: n}
	case iface:
		return Boxed{N: n, Payload: n}
	case unregistered:
		return Stray{N: n}
	case muffled:
		return Muffled{N: n, secret: n}
	case quiet:
		return Quiet{N: n}
	}
	return Ping{N: n}
}

func pingN(m node.Msg) int {
	switch m := m.(type) {
	case Ping:
		return m.N
	case Hidden:
		return m.N
	case Boxed:
		return m.N
	case Stray:
		return m.N
	case Muffled:
		return m.N
	case Quiet:
		return m.N
	}
	return 0
}

func (p *pinger) Clone() node.Node {
	c := *p
	if p.fault != shallow {
		c.seen = slices.Clone(p.seen)
	}
	if p.fault != appending && p.got != nil {
		c.got = append(make([]int, 0, 4), p.got...)
	}
	if p.fault == forgetful {
		c.trail = nil
	}
	return &c
}

func (p *pinger) AppendKey(b []byte) []byte {
	b = node.AppendInts(node.AppendInts(b, p.seen), p.got)
	if p.fault == nilKey {
		b = node.AppendBool(b, p.got == nil)
	}
	if p.fault != shortKey {
		b = node.AppendInt(b, p.count)
	}
	return b
}

// pingAlgorithm is pinger as a user would describe it; --fault picks its
// fault.
func pingAlgorithm() engine.Algorithm {
	return engine.Algorithm{
		Name:   "ping",
		Params: []engine.Param{{Name: "fault", Usage: "the fault to build in", Default: ""}},
		Build: func(p engine.Params, _ engine.Env) (engine.System, error) {
			fault := p.String("fault")
			return engine.System{
				Name: "ping", Nodes: 2,
				Factory: func(i int) (node.Node, error) {
					return &pinger{fault: fault, seen: make([]int, 3), got: make([]int, 0, 4)}, nil
				},
				Messages: []node.Msg{Ping{}, Pong{}, Hidden{}, Boxed{}, Muffled{}, Quiet{}},
				Script:   []node.Action{{Node: 1, Cmd: node.CmdStart}},
			}, nil
		},
	}
}

func params(t *testing.T, fault string) engine.Params {
	t.Helper()
	ps := pingAlgorithm().Defaults()
	if err := ps.Give("fault", fault); err != nil {
		t.Fatal(err)
	}
	return ps
}

func TestACleanNodeHasNoFindings(t *testing.T) {
	r, err := vet.Run(context.Background(), pingAlgorithm(), params(t, clean), vet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) > 0 || len(r.Skipped) > 0 {
		t.Fatalf("findings %v, skipped %v; want none", r.Findings, r.Skipped)
	}
	// The search met the start, both pings in either order, and the pongs;
	// the codec saw the four registered types and the values sent.
	if r.States < 5 || r.Inputs < 5 || r.Messages < 6 {
		t.Errorf("the vet looked at %d states, %d inputs, %d messages: too few to have checked anything", r.States, r.Inputs, r.Messages)
	}
}

// Each fault is caught by its check, with a message that names the
// method, the input and what differed.
func TestEachFaultIsCaught(t *testing.T) {
	for _, tc := range []struct {
		fault, check string
		want         []string
		skipped      string // a check that must say it was skipped
	}{
		{nondet, vet.CheckDeterminism, []string{"determinism: node 2: Step on message PING {N:", "two clones of one state gave different outputs", "send PONG"}, vet.CheckKey},
		{shallow, vet.CheckClone, []string{"clone: node 2: Clone on message PING", "stepping a clone of the *vet_test.pinger changed the original's field seen", "shares a slice"}, vet.CheckKey},
		// The original's key and length stay as they were: only the
		// array past them changes.
		{appending, vet.CheckClone, []string{"clone: node 2: Clone on message PING", "changed the original's field got", "spare capacity"}, vet.CheckKey},
		// Told apart by how they print, the values sent were the
		// prototype Muffled{}, which comes back whole.
		{muffled, vet.CheckCodec, []string{"field secret was 1, came back 0 (it is unexported"}, ""},
		// Two pings print alike: nothing else is wrong with them.
		{quiet, vet.CheckCodec, []string{`codec: String on message QUIET quiet: vet_test.Quiet{N:1} prints as "QUIET quiet", as does the different message vet_test.Quiet{N:0}`, "leaves out a field"}, ""},
		{shortKey, vet.CheckKey, []string{"key: node 2: AppendKey on message PING {N:1} from node 1", "behave differently", "send PONG {N:2} to 1", "send PONG {N:3} to 1", "leaves out a field"}, ""},
		{unexported, vet.CheckCodec, []string{"field secret was 1, came back 0 (it is unexported"}, ""},
		{iface, vet.CheckCodec, []string{"field Payload was int(1), came back float64(1) (it is an interface"}, ""},
		// No step reads trail: only the derived value shows the clone
		// short of it.
		{forgetful, vet.CheckClone, []string{"clone: node 2: Clone: a clone of the *vet_test.pinger differs from its original (field trail)"}, ""},
		{nilKey, vet.CheckKey, []string{"key: node 1: AppendKey: two states of one value", "the key depends on something besides the state"}, ""},
		{unregistered, vet.CheckCodec, []string{`codec: amqp codec on message STRAY {N:1}: encoding: a message of type "STRAY"`, "does not list"}, ""},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			r, err := vet.Run(context.Background(), pingAlgorithm(), params(t, tc.fault), vet.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var text []string
			for _, f := range r.Findings {
				if f.Check != tc.check {
					t.Errorf("a %s finding for a node whose fault is %s: %s", f.Check, tc.fault, f)
				}
				text = append(text, f.String())
			}
			all := strings.Join(text, "\n")
			if len(r.Findings) == 0 {
				t.Fatalf("no finding for %s", tc.fault)
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("no %q in the findings:\n%s", w, all)
				}
			}
			if tc.skipped != "" && !slices.ContainsFunc(r.Skipped, func(s vet.Skip) bool { return s.Check == tc.skipped }) {
				t.Errorf("skipped %v, want the %s check skipped", r.Skipped, tc.skipped)
			}
		})
	}
}

// A codec finding for an interface field comes from both paths a message
// takes: the broker and the log.
func TestCodecFindingsNameBothPaths(t *testing.T) {
	fs, err := vet.Check(context.Background(), pingAlgorithm(), params(t, iface))
	if err != nil {
		t.Fatal(err)
	}
	var methods []string
	for _, f := range fs {
		methods = append(methods, f.Method)
	}
	slices.Sort(methods)
	if want := []string{"NDJSON log", "amqp codec"}; !slices.Equal(methods, want) {
		t.Errorf("codec findings in %v, want one in each of %v:\n%v", methods, want, fs)
	}
}

// recorder is a testing.TB that keeps what Test reports.
type recorder struct {
	testing.TB
	errors, logs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}
func (r *recorder) Logf(format string, a ...any) { r.logs = append(r.logs, fmt.Sprintf(format, a...)) }
func (r *recorder) Fatalf(format string, a ...any) {
	r.errors = append(r.errors, "FATAL "+fmt.Sprintf(format, a...))
}

func TestTestReportsEachFindingAsAnError(t *testing.T) {
	rec := &recorder{TB: t}
	vet.Test(rec, pingAlgorithm(), params(t, shortKey))
	if len(rec.errors) != 1 || !strings.HasPrefix(rec.errors[0], "vet ping: key: node 2: AppendKey on message PING") {
		t.Errorf("Test reported %q, want one key finding", rec.errors)
	}
	rec = &recorder{TB: t}
	vet.Test(rec, pingAlgorithm(), params(t, clean))
	if len(rec.errors) != 0 {
		t.Errorf("Test reported %q for a clean node", rec.errors)
	}
}

func TestABuildErrorIsAnError(t *testing.T) {
	alg := pingAlgorithm()
	alg.Build = func(engine.Params, engine.Env) (engine.System, error) {
		return engine.System{}, fmt.Errorf("no such thing")
	}
	if _, err := vet.Check(context.Background(), alg, alg.Defaults()); err == nil || err.Error() != "no such thing" {
		t.Errorf("err %v, want Build's", err)
	}
	alg = pingAlgorithm()
	build := alg.Build
	alg.Build = func(p engine.Params, env engine.Env) (engine.System, error) {
		sys, err := build(p, env)
		sys.Factory = func(int) (node.Node, error) { return &hooked{}, nil }
		return sys, err
	}
	want := "vet_test.hooked.hook: func values cannot be copied or compared"
	if _, err := vet.Check(context.Background(), alg, alg.Defaults()); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err %v, want one that names the func field: %q", err, want)
	}
}

// hooked is a node without Clone and AppendKey that holds a func.
type hooked struct{ hook func() }

func (*hooked) Step(node.Input, *node.Output) {}
