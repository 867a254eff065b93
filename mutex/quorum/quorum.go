// Package quorum is mutual exclusion by a quorum of coordinators, as the
// course chapter on mutual exclusion gives it.
//
// Nodes 1..n are coordinators and nodes n+1..n+p participants
// (Config.Coordinators = n, Config.Participants = p); a participant needs
// ResponseOK from m of the n coordinators, n/2 < m <= n (Config.M). Each
// coordinator runs the central coordinator of package central on requests identified by
// (participant, sequence number), except on a release: RequestFree for the
// request it authorized frees the resource (and grants the next); for a
// request in its queue removes it; otherwise it is ignored. A participant
// sends RequestAccess to all n, enters the critical section (CS) on the m-th
// ResponseOK of its current request, and on leaving sends RequestFree to all
// n. An entry costs n RequestAccess + between m and n ResponseOK + n
// RequestFree messages (3n when nobody competes).
//
// Decisions the chapter leaves open:
//   - No ResponseFree: the chapter's quorum diagrams have none, and request ids
//     make it unnecessary. A participant sends its next RequestAccess as soon
//     as it has sent RequestFree.
//   - A ResponseOK for a request the participant no longer waits for (it left
//     the CS, gave up, or it is an older request) is answered with
//     RequestFree for that request, so a coordinator that saw the release
//     before the request on a reordering link does not stay busy forever.
//   - A RequestAccess for a request already authorized or queued (a
//     duplicated message) is ignored.
//   - One request outstanding per participant; a CmdRequest while WANTED or
//     HELD is counted and served after the release.
//   - Amnesia: a coordinator rebuilt from the Factory (CmdRecover) forgets
//     the OKs it gave; this can let two participants in at once (the chapter's
//     worked example, reproduced by the tests). See ViolationProbability.
//   - Split votes: with several participants, coordinators may each grant a
//     different one so that nobody reaches m: a deadlock. Config.RetryTimeout
//     (ticks, 0 = never) breaks it: a participant that has waited that long
//     without m OKs sends RequestFree to all n and asks again (new sequence
//     number) after a deterministic backoff of k*RetryTimeout ticks, k being
//     its participant number 1..p. RetryTimeout should exceed the longest CS
//     plus a round trip, or waiting participants give up needlessly.
//
// States: participants RELEASED, WANTED, HELD; coordinators FREE and BUSY.
//
// The tests check: the chapter's successful n=3, m=2 run with its exact message
// counts, 3n messages per uncontended entry, mutual exclusion and progress
// over random delays (with retries), the amnesia violation of the worked
// example, the split-vote deadlock and its resolution by RetryTimeout, and
// ViolationProbability against the chapter's figure (~7.35e-59) and hand values.
package quorum

import (
	"fmt"
	"slices"

	"ringlab/engine/node"
)

// Kind is the kind of a message, named as in the chapter.
type Kind uint8

// Messages.
const (
	MsgRequestAccess Kind = iota + 1 // participant -> every coordinator
	MsgResponseOK                    // coordinator -> participant: my vote is yours
	MsgRequestFree                   // participant -> every coordinator: release (or give up)
)

var kindNames = [...]string{MsgRequestAccess: "RequestAccess", MsgResponseOK: "ResponseOK", MsgRequestFree: "RequestFree"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// MarshalText makes traces show the kind by name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind by name, so that a message decodes in one
// call (a node process's codec, a log read back).
func (k *Kind) UnmarshalText(b []byte) error {
	for i, name := range kindNames {
		if name != "" && name == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown message kind %q", b)
}

// Msg is a message about request (Part, Seq): Part is the participant's node
// index and Seq counts its requests from 1.
type Msg struct {
	Kind Kind `json:"kind"`
	Part int  `json:"part"`
	Seq  int  `json:"seq"`
}

// Type returns the chapter's name of the message.
func (m Msg) Type() string { return m.Kind.String() }

// MessageTypes lists one value of every message type a node may send, under
// any schedule and fault: the registry a codec or a log reader decodes by.
func MessageTypes() []node.Msg {
	return []node.Msg{Msg{Kind: MsgRequestAccess}, Msg{Kind: MsgResponseOK}, Msg{Kind: MsgRequestFree}}
}

type reqID struct{ part, seq int }

// States.
const (
	StateReleased = "RELEASED" // participant: not interested
	StateWanted   = "WANTED"   // participant: collecting OKs (or backing off)
	StateHeld     = "HELD"     // participant: in the CS
	StateFree     = "FREE"     // coordinator: no vote given
	StateBusy     = "BUSY"     // coordinator: vote given to one request
)

// Participant timers.
const (
	timerRetry   = 1 // no quorum yet: give up
	timerBackoff = 2 // ask again
)

// Config configures a run; Index selects the node New builds.
type Config struct {
	Coordinators int   // n >= 1: nodes 1..n
	Participants int   // p >= 1: nodes n+1..n+p
	M            int   // quorum, n/2 < M <= n
	Index        int   // this node, 1..n+p (set by Factory)
	RetryTimeout int64 // ticks without a quorum before giving up and retrying; 0 = never
}

// CheckQuorum reports whether m is a valid quorum of n coordinators.
func CheckQuorum(n, m int) error {
	if n < 1 {
		return fmt.Errorf("need at least 1 coordinator, got %d", n)
	}
	if 2*m <= n || m > n {
		return fmt.Errorf("quorum m=%d: must be more than half of the %d coordinators and at most all: %d..%d", m, n, n/2+1, n)
	}
	return nil
}

func (c Config) validate() error {
	if err := CheckQuorum(c.Coordinators, c.M); err != nil {
		return err
	}
	if c.Participants < 1 {
		return fmt.Errorf("need at least 1 participant, got %d", c.Participants)
	}
	if c.RetryTimeout < 0 {
		return fmt.Errorf("retry timeout %d: must be 0 (never) or a positive number of ticks", c.RetryTimeout)
	}
	return nil
}

// Nodes is the number of nodes of a run: coordinators plus participants.
func (c Config) Nodes() int { return c.Coordinators + c.Participants }

// Factory validates cfg once and returns a node.Factory for its Nodes() nodes.
func Factory(cfg Config) (node.Factory, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return func(i int) (node.Node, error) {
		c := cfg
		c.Index = i
		return New(c)
	}, nil
}

// Node is a coordinator or a participant.
type Node struct {
	cfg Config `ringlab:"fixed"`

	// coordinator
	busy   bool
	holder reqID
	queue  []reqID // never changed in place, as oks: clones share them (Clone)

	// participant
	state   string
	seq     int
	oks     []bool // oks[c]: coordinator c voted for the current request
	nOK     int
	pending int
	backoff bool // gave up; waiting to ask again
}

// New builds node cfg.Index in its initial state.
func New(cfg Config) (*Node, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Index < 1 || cfg.Index > cfg.Nodes() {
		return nil, fmt.Errorf("node index %d: must be 1..%d", cfg.Index, cfg.Nodes())
	}
	return &Node{cfg: cfg, state: StateReleased, oks: make([]bool, cfg.Coordinators+1)}, nil
}

// IsCoordinator reports whether this node is one of the n coordinators.
func (n *Node) IsCoordinator() bool { return n.cfg.Index <= n.cfg.Coordinators }

// Step handles one input.
// TimerName says what the participant's timers mean (node.TimerNamer).
func (n *Node) TimerName(id int) string {
	switch id {
	case timerRetry:
		return "quorum timeout"
	case timerBackoff:
		return "backoff"
	}
	return ""
}

func (n *Node) Step(in node.Input, out *node.Output) {
	if n.IsCoordinator() {
		n.stepCoordinator(in, out)
		out.Done = !n.busy && len(n.queue) == 0
		return
	}
	n.stepParticipant(in, out)
	out.Done = n.state == StateReleased && n.pending == 0
}

func (n *Node) stepCoordinator(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InMsg:
		m, _ := in.Msg.(Msg)
		id := reqID{m.Part, m.Seq}
		switch m.Kind {
		case MsgRequestAccess:
			if (n.busy && n.holder == id) || slices.Contains(n.queue, id) {
				out.Note("RequestAccess %d.%d ignored: already authorized or queued", id.part, id.seq)
				break
			}
			n.queue = slices.Concat(n.queue, []reqID{id})
		case MsgRequestFree:
			n.onRequestFree(id, out)
		default:
			out.Note("coordinator: unexpected %v ignored", in.Msg)
		}
		n.grant(out)
	case node.InCmd:
		if in.Cmd == node.CmdRecover {
			out.Note("coordinator recovered with amnesia: forgot every OK it gave")
			return
		}
		out.Note("a coordinator does not use the CS: command %q ignored", in.Cmd)
	}
}

// onRequestFree is the chapter's release rule.
func (n *Node) onRequestFree(id reqID, out *node.Output) {
	if n.busy && n.holder == id {
		n.busy = false
		out.State(StateFree)
		return
	}
	for j, q := range n.queue {
		if q == id {
			n.queue = slices.Delete(slices.Clone(n.queue), j, j+1)
			return
		}
	}
	out.Note("RequestFree %d.%d ignored: neither authorized nor queued here", id.part, id.seq)
}

func (n *Node) grant(out *node.Output) {
	if n.busy || len(n.queue) == 0 {
		return
	}
	n.holder, n.queue = n.queue[0], n.queue[1:]
	n.busy = true
	out.Send(n.holder.part, Msg{Kind: MsgResponseOK, Part: n.holder.part, Seq: n.holder.seq})
	out.State(StateBusy)
}

// Status is a snapshot for checkers and tests.
type Status struct {
	State   string // participant state, or FREE/BUSY for a coordinator
	Seq     int    // participant: current request number
	OKs     int    // participant: votes for the current request
	Pending int    // participant: further requests queued locally
	Queue   int    // coordinator: queued requests
}

// Status returns a snapshot of the node.
func (n *Node) Status() Status {
	if n.IsCoordinator() {
		s := Status{State: StateFree, Queue: len(n.queue)}
		if n.busy {
			s.State = StateBusy
		}
		return s
	}
	return Status{State: n.state, Seq: n.seq, OKs: n.nOK, Pending: n.pending}
}
