// Package central is mutual exclusion by a central coordinator whose
// timeout takes the permission back from a holder that does not release:
// a submission with a student's classic mistake, for the grading test:
// the coordinator never takes a grant back, for fear of a slow holder.
//
// Node 1 is the coordinator; nodes 2..N are participants. A participant
// sends RequestAccess, waits for ResponseOK, uses the critical section
// (CS) and sends RequestFree. The coordinator queues requests and,
// whenever the resource is free and the queue is not empty, grants the
// first one (ResponseOK) and marks the resource busy.
//
// The timeout: on every grant the coordinator arms a timer of Timeout
// ticks; if the holder has not released when it fires, the coordinator
// takes the permission back and grants the next. That is right when the
// holder is dead (the queue moves on) and wrong when it is only slow
// (two participants in the CS): in an asynchronous system a dead process
// and a slow one look the same. A RequestFree from a participant whose
// permission was taken back does not free the resource: it is not the
// process the coordinator authorized now.
package central

import (
	"slices"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/mutex/kit"
)

// Kind is a message kind, named as in the chapter.
type Kind string

// Message kinds.
const (
	MsgRequestAccess Kind = "RequestAccess" // participant -> coordinator: I want the CS
	MsgResponseOK    Kind = "ResponseOK"    // coordinator -> participant: go in
	MsgRequestFree   Kind = "RequestFree"   // participant -> coordinator: I left the CS
)

// Msg is a message between a participant and the coordinator.
type Msg struct {
	Kind Kind `json:"kind"`
}

// Type names the message kind.
func (m Msg) Type() string { return string(m.Kind) }

// MessageTypes lists one value of every message type a node sends.
func MessageTypes() []node.Msg {
	return []node.Msg{Msg{Kind: MsgRequestAccess}, Msg{Kind: MsgResponseOK}, Msg{Kind: MsgRequestFree}}
}

// States: a participant's, and the coordinator's resource.
const (
	StateReleased = "RELEASED"
	StateWanted   = "WANTED"
	StateHeld     = "HELD"
	StateFree     = "FREE"
	StateBusy     = "BUSY"
)

// grantTimer is the coordinator's timer on the current holder.
const grantTimer = 1

// Coordinator is the coordinator's index.
const Coordinator = 1

// Node is the coordinator or a participant.
type Node struct {
	id      int   // this node
	timeout int64 // the coordinator's: ticks a holder may keep the permission; 0: for ever

	state string // a participant's: RELEASED, WANTED or HELD

	busy   bool  // the coordinator's: the resource is granted
	holder int   // ... to this participant
	queue  []int // ... and these wait, first served first
}

// New builds node i; the coordinator takes the permission back after
// timeout ticks (0: never).
func New(i int, timeout int64) node.Node { return &Node{id: i, timeout: timeout, state: StateReleased} }

// Algorithm is the lab's algorithm value, for every tool: the
// mutual-exclusion kit gives it the workload (participants only) and the
// properties; --timeout is the coordinator's.
func Algorithm() engine.Algorithm {
	return kit.Spec{
		Name:     "central-lab",
		Usage:    "a central coordinator that takes back a grant after a timeout",
		MinNodes: 2,
		Params:   []engine.Param{{Name: "timeout", Default: int64(30), Usage: "ticks before the coordinator takes the permission back (0: never)"}},
		Plan: func(p engine.Params, n, _ int) (kit.Plan, error) {
			participants := make([]int, 0, n-1)
			for i := 2; i <= n; i++ {
				participants = append(participants, i)
			}
			timeout := p.Int64("timeout")
			return kit.Plan{Kind: kit.Permission, Nodes: n, Messages: MessageTypes(), Requesters: participants,
				Factory: func(i int) (node.Node, error) { return New(i, timeout), nil }}, nil
		},
	}.Algorithm()
}

// Step handles one input.
func (nd *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		switch in.Cmd {
		case node.CmdRequest:
			nd.request(out)
		case node.CmdRelease:
			nd.release(out)
		}
	case node.InMsg:
		m, ok := in.Msg.(Msg)
		switch {
		case !ok:
		case m.Kind == MsgRequestAccess:
			nd.onRequestAccess(in.From, out)
		case m.Kind == MsgResponseOK:
			nd.onResponseOK(out)
		case m.Kind == MsgRequestFree:
			nd.onRequestFree(in.From, out)
		}
	case node.InTick:
		if in.Timer == grantTimer {
			nd.onTimeout(out)
		}
	}
}

// request: a RELEASED participant asks the coordinator.
func (nd *Node) request(out *node.Output) {
	if nd.id == Coordinator || nd.state != StateReleased {
		return
	}
	nd.setState(StateWanted, out)
	out.Send(Coordinator, Msg{Kind: MsgRequestAccess})
}

// onResponseOK: the permission; a WANTED participant enters.
func (nd *Node) onResponseOK(out *node.Output) {
	if nd.state != StateWanted {
		return
	}
	nd.setState(StateHeld, out)
	out.EnterCS()
}

// release: a HELD participant leaves and tells the coordinator.
func (nd *Node) release(out *node.Output) {
	if nd.state != StateHeld {
		return
	}
	out.ExitCS()
	nd.setState(StateReleased, out)
	out.Send(Coordinator, Msg{Kind: MsgRequestFree})
}

// onRequestAccess: the coordinator queues the request (once) and grants
// if it can.
func (nd *Node) onRequestAccess(from int, out *node.Output) {
	if !slices.Contains(nd.queue, from) && !(nd.busy && nd.holder == from) {
		nd.queue = slices.Concat(nd.queue, []int{from})
	}
	nd.grant(out)
}

// onRequestFree: the release of the holder frees the resource; a late
// one, from a participant whose permission was taken back, does not.
func (nd *Node) onRequestFree(from int, out *node.Output) {
	if !nd.busy || nd.holder != from {
		out.Note("RequestFree ignored: node %d does not hold the permission", from)
		return
	}
	out.StopTimer(grantTimer)
	nd.free(out)
	nd.grant(out)
}

// onTimeout: the holder kept the permission too long; the coordinator
// takes it back and grants the next.
func (nd *Node) onTimeout(out *node.Output) {
	if nd.busy { // the bug: safe, but a dead holder keeps the permission for ever
		out.Note("timeout ignored: node %d may only be slow", nd.holder)
	}
}

// grant serves the first in the queue while the resource is free.
func (nd *Node) grant(out *node.Output) {
	if nd.busy || len(nd.queue) == 0 {
		return
	}
	nd.busy, nd.holder = true, nd.queue[0]
	nd.queue = slices.Clone(nd.queue[1:])
	out.State(StateBusy)
	out.Send(nd.holder, Msg{Kind: MsgResponseOK})
	if nd.timeout > 0 {
		out.SetTimer(grantTimer, nd.timeout)
	}
}

// free marks the resource free.
func (nd *Node) free(out *node.Output) {
	nd.busy, nd.holder = false, 0
	out.State(StateFree)
}

func (nd *Node) setState(s string, out *node.Output) {
	nd.state = s
	out.State(s)
}
