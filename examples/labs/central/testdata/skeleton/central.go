// Package central is mutual exclusion by a central coordinator whose
// timeout takes the permission back from a holder that does not release:
// the skeleton of the central coordinator lab, its handlers left for
// the student to write.
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
	// TODO: a participant (not the coordinator) that is RELEASED goes
	// WANTED (nd.setState) and sends RequestAccess to the Coordinator.
}

// onResponseOK: the permission; a WANTED participant enters.
func (nd *Node) onResponseOK(out *node.Output) {
	// TODO: a WANTED participant goes HELD and enters (out.EnterCS).
}

// release: a HELD participant leaves and tells the coordinator.
func (nd *Node) release(out *node.Output) {
	// TODO: a HELD participant leaves (out.ExitCS), goes RELEASED and
	// sends RequestFree to the Coordinator.
}

// onRequestAccess: the coordinator queues the request (once) and grants
// if it can.
func (nd *Node) onRequestAccess(from int, out *node.Output) {
	// TODO: queue the sender, unless it is queued already or holds the
	// permission (a duplicate), then grant if the resource is free. The
	// queue is a slice: a new one each time (slices.Concat, slices.Clone)
	// is what the exhaustive checker's copy of the state expects.
}

// onRequestFree: the release of the holder frees the resource; a late
// one, from a participant whose permission was taken back, does not.
func (nd *Node) onRequestFree(from int, out *node.Output) {
	// TODO: only the release of the current holder frees the resource: stop
	// the timer (out.StopTimer(grantTimer)), free it, grant the next. A
	// RequestFree from anybody else (a holder whose permission was taken
	// back) is noted and ignored.
}

// onTimeout: the holder kept the permission too long; the coordinator
// takes it back and grants the next.
func (nd *Node) onTimeout(out *node.Output) {
	// TODO: the timer fired while the resource is busy: the holder may be
	// dead, or only slow, and the coordinator cannot tell. The lab's rule:
	// take the permission back (a note naming the holder), free the
	// resource and grant the next.
}

// grant serves the first in the queue while the resource is free.
func (nd *Node) grant(out *node.Output) {
	// TODO: while the resource is free and somebody waits: the first in
	// the queue becomes the holder, the resource BUSY (out.State), the
	// holder gets ResponseOK, and, with a timeout, the timer is armed
	// (out.SetTimer(grantTimer, nd.timeout)).
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
