package enginetest_test

import (
	"errors"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// relay is a token passed round a ring of n nodes for a number of hops;
// the holder enters the critical section and leaves it before passing the
// token on. With greedy, the last node also enters when told to start,
// without the token, and leaves only when released: two nodes may be
// inside at once, which Sweep and Exhaust must find.
type relay struct {
	i, n, left int
	greedy     bool
	inCS       bool
	forgetful  bool // Clone forgets left: the clone is another node
	forever    bool // pass the token on without counting the hop: it never stops
}

// Token is relay's one message: the hops it has left.
type Token struct{ Left int }

func (Token) Type() string { return "TOKEN" }

func (r *relay) Step(in node.Input, out *node.Output) {
	switch {
	case in.Kind == node.InCmd && in.Cmd == node.CmdStart && r.i == 1:
		r.pass(out, r.left)
	case in.Kind == node.InCmd && in.Cmd == node.CmdStart && r.greedy:
		out.EnterCS()
		r.inCS = true
	case in.Kind == node.InCmd && in.Cmd == node.CmdRelease && r.inCS:
		out.ExitCS()
		r.inCS = false
	case in.Kind == node.InMsg:
		r.pass(out, in.Msg.(Token).Left)
	}
	out.Done = !r.inCS
}

func (r *relay) pass(out *node.Output, left int) {
	out.EnterCS()
	out.ExitCS()
	switch {
	case r.forever:
		out.Send(r.i%r.n+1, Token{Left: left})
	case left > 0:
		out.Send(r.i%r.n+1, Token{Left: left - 1})
	}
}

func (r *relay) Clone() node.Node {
	c := *r
	if r.forgetful {
		c.left = 0
	}
	return &c
}
func (r *relay) AppendKey(b []byte) []byte {
	return node.AppendBool(b, r.inCS)
}

// relayAlgorithm describes relay to every tool.
func relayAlgorithm() engine.Algorithm {
	return engine.Algorithm{
		Name:  "relay",
		Usage: "a token round a ring",
		Params: []engine.Param{
			{Name: "nodes", Default: 3, Check: func(v any) error {
				if n := v.(int); n < 2 || n > 64 {
					return errors.New("must be between 2 and 64")
				}
				return nil
			}},
			{Name: "hops", Default: 4},
			{Name: "greedy", Default: false},
			{Name: "forgetful", Default: false},
			{Name: "forever", Default: false},
		},
		Build: func(p engine.Params, _ engine.Env) (engine.System, error) {
			n, hops := p.Int("nodes"), p.Int("hops")
			if n < 2 {
				return engine.System{}, errors.New("relay needs at least 2 nodes")
			}
			script := []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}}
			var release engine.Workload
			if p.Bool("greedy") {
				script = append(script, node.Action{At: 0, Node: n, Cmd: node.CmdStart})
				release = engine.ReactFunc(func(i int, ev node.Event, _ int64) []node.Action {
					if ev.Kind == node.EvEnterCS && i == n {
						return []node.Action{{At: 15, Node: n, Cmd: node.CmdRelease}}
					}
					return nil
				})
			}
			return engine.System{
				Name: "relay", Nodes: n, Topology: trace.TopoRing,
				Factory: func(i int) (node.Node, error) {
					return &relay{i: i, n: n, left: hops, greedy: p.Bool("greedy"), forgetful: p.Bool("forgetful"), forever: p.Bool("forever")}, nil
				},
				Messages:   []node.Msg{Token{}},
				Script:     script,
				Workload:   release,
				Properties: []check.Property{&check.MutualExclusion{}, check.Termination{}},
			}, nil
		},
	}
}

// params are relay's defaults with the given changes.
func params(give map[string]any) engine.Params {
	p := relayAlgorithm().Defaults()
	for k, v := range give {
		if err := p.Give(k, v); err != nil {
			panic(err)
		}
	}
	return p
}
