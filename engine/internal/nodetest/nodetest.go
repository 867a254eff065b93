// Package nodetest holds two tiny algorithms the engine's own tests and
// benchmarks run on every runtime: a token passed around a ring a fixed
// number of hops, and a flood over any graph. They are the conformance
// workloads of engine/sim and engine/live, not lessons; BenchPass is the
// Pass benchmark both runtimes run.
package nodetest

import "ringlab/engine/node"

// Token is the message of Pass.
type Token struct {
	Hop int `json:"hop"`
}

// Type implements node.Msg.
func (Token) Type() string { return "TOKEN" }

// Pass passes one token around a ring of N nodes: node 1 sends it on
// CmdStart, and each holder forwards it to its successor until it has made
// Hops hops. Every node is Done when it has seen the last hop or passed the
// token for the last time it will ever be asked to (it knows from the hop
// count), so runtimes can tell the run has ended.
type Pass struct {
	self, n, hops int
	next, last    int // successor, and the last hop that reaches this node (worked out once)
}

// PassFactory returns the factory of a Pass ring of n nodes and `hops` hops.
func PassFactory(n, hops int) node.Factory {
	return func(i int) (node.Node, error) {
		p := &Pass{self: i, n: n, hops: hops, next: i%n + 1}
		p.last = p.lastVisit()
		return p, nil
	}
}

// Step implements node.Node.
func (p *Pass) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		if in.Cmd == node.CmdStart && p.self == 1 && p.hops > 0 {
			out.Send(p.next, Token{Hop: 1})
		}
	case node.InMsg:
		t := in.Msg.(Token)
		if t.Hop < p.hops {
			out.Send(p.next, Token{Hop: t.Hop + 1})
		} else {
			out.Note("token stopped after %d hops", t.Hop)
		}
	}
	// The node is done once no later hop can reach it.
	if p.last <= p.seen(in) {
		out.Done = true
	}
}

// seen is the hop number this input brought (0 for a command).
func (p *Pass) seen(in node.Input) int {
	if t, ok := in.Msg.(Token); ok {
		return t.Hop
	}
	return 0
}

// lastVisit is the last hop that arrives at this node (0 if none does):
// hop h arrives at node h mod n + 1.
func (p *Pass) lastVisit() int {
	r := (p.self - 1) % p.n
	if p.hops < r {
		return 0
	}
	h := p.hops - (p.hops-r)%p.n
	if h < 1 {
		return 0
	}
	return h
}

// Wave is the message of Flood.
type Wave struct{}

// Type implements node.Msg.
func (Wave) Type() string { return "WAVE" }

// Flood sends a wave from node 1 over a topology: each node forwards the
// first wave it sees to every neighbour but the sender. Over a connected
// graph with m edges it sends exactly 2m - (n - 1) messages.
type Flood struct {
	self int
	topo node.Topology
	seen bool
}

// FloodFactory returns the factory of a flood over topo.
func FloodFactory(topo node.Topology) node.Factory {
	return func(i int) (node.Node, error) { return &Flood{self: i, topo: topo}, nil }
}

// Step implements node.Node.
func (f *Flood) Step(in node.Input, out *node.Output) {
	from := 0
	switch {
	case in.Kind == node.InCmd && in.Cmd == node.CmdStart && f.self == 1:
	case in.Kind == node.InMsg:
		from = in.From
	default:
		return
	}
	if f.seen {
		return
	}
	f.seen = true
	out.State("reached")
	for _, w := range f.topo.Neighbors(f.self) {
		if w != from {
			out.Send(w, Wave{})
		}
	}
}

// MessageTypes lists one value of every message type Pass and Flood send:
// their message registry.
func MessageTypes() []node.Msg { return []node.Msg{Token{}, Wave{}} }
