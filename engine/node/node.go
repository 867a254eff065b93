// Package node is the contract every ringlab algorithm implements, and the
// only thing the runtimes (engine/sim, engine/live) know about an
// algorithm.
//
// A node is a deterministic state machine, in the manner of etcd-io/raft's
// Step: given one Input — a message from a peer, a local command, or a timer
// firing — it appends the messages to send, the timers to set and the events
// that happened to an Output, and returns. It never starts goroutines,
// sleeps, prints, reads the wall clock or draws random numbers; everything it
// needs (its index, its id, its peers, the current time) comes in through its
// constructor or the Input. That is what lets one algorithm run on goroutines
// for real, replay bit for bit in the simulator, and be broken on purpose.
//
// Nodes have 1-based indices 1..n (the position in the topology) and, where
// the algorithm needs them, separate algorithm ids (the ring election's
// default runs ids [5,3,7,1,4] on nodes 1..5).
//
// A node needs nothing but Step: its state is data, which the engine
// copies and keys from the Go value (a field it cannot, a func or a chan,
// is refused naming it, unless tagged `ringlab:"fixed"`; a slice, map or
// pointer that Step only replaces, never writes into, may be tagged
// `ringlab:"shared"` for the copies to share it). Snapshot is an
// optional fast path, checked by engine/vet against the derived copy and
// key.
package node

import "fmt"

// Msg is an algorithm's message: a small value type (no pointers into node
// state; slices are cloned before sending). Type names the message kind as
// the source does ("ELECTION", "REQUEST"); it keys the message counts. The
// exported fields, with their json tags, are what traces show.
type Msg interface {
	// Type returns the message's type name, the same for every value of
	// one Go type.
	Type() string
}

// Cmd is a local command given to a node by its environment: a user, a
// workload or a scenario script.
type Cmd string

// Commands shared by the algorithms. An algorithm may define more.
const (
	CmdStart   Cmd = "start"   // start an election / suspect the leader
	CmdRequest Cmd = "request" // want the critical section
	CmdRelease Cmd = "release" // leave the critical section
	CmdRecover Cmd = "recover" // the node has just restarted (after amnesia)
)

// InputKind says what an Input carries.
type InputKind uint8

const (
	InMsg  InputKind = iota + 1 // a message from a peer: From, Msg
	InCmd                       // a local command: Cmd
	InTick                      // a timer set by this node fired: Timer
)

// Input is one thing that happens to a node.
type Input struct {
	Kind  InputKind // which of the fields below are set
	From  int       // InMsg: sender's index
	Msg   Msg       // InMsg
	Cmd   Cmd       // InCmd
	Arg   int       // InCmd: the action's Arg
	Timer int       // InTick: the id the node gave the timer
}

// Send is a message to another node, by index.
type Send struct {
	To  int // the receiver's index, 1..n
	Msg Msg // the message, a value the node no longer changes
}

// Timer asks the runtime to deliver an InTick with this ID after After ticks.
// Setting an ID that is already pending replaces it; After < 0 cancels it.
type Timer struct {
	ID    int   // the node's own name for the timer, echoed in Input.Timer
	After int64 // ticks from now; negative cancels the pending timer ID
}

// EventKind is the kind of something that happened inside a node.
type EventKind uint8

const (
	EvState   EventKind = iota + 1 // the node's protocol state changed: State
	EvEnterCS                      // the node entered the critical section
	EvExitCS                       // the node left the critical section
	EvLeader                       // the node now takes Leader (an id) as leader
	EvNote                         // something worth a line in the trace: Note
)

var eventNames = [...]string{EvState: "state", EvEnterCS: "enter_cs", EvExitCS: "exit_cs", EvLeader: "leader", EvNote: "note"}

// String returns the kind's name as event logs spell it ("enter_cs").
func (k EventKind) String() string {
	if int(k) < len(eventNames) && eventNames[k] != "" {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", k)
}

// Event is something that happened inside a node during one Step.
type Event struct {
	Kind   EventKind // which of the fields below are set
	State  string    // EvState
	Leader int       // EvLeader: the leader's algorithm id
	// Round is, in an EvLeader of an algorithm that runs in rounds, the
	// rounds the election took (0: the algorithm counts none), a figure
	// the tools read without parsing a note.
	Round int
	Note  string // EvNote (and an optional detail for the others)
}

// Output collects what one Step produced. The runtime owns it and resets it
// between steps, so a Step allocates nothing it does not have to.
type Output struct {
	// Sends, Timers and Events are what the step produced, in order;
	// append through Send, SetTimer, StopTimer and the event methods.
	Sends  []Send
	Timers []Timer
	Events []Event
	// Done reports whether this node has finished its part, as of this
	// step: runtimes count a node done while its last step said so, and
	// end a run when every live node is done and no message is in flight.
	// A node given work again (a Bully process told to suspect the
	// leader) says so by returning Done = false, and holds the run up.
	Done bool
	// Now is the runtime's clock as the step began, in ticks (virtual
	// in sim, elapsed on goroutines), set by the runtime before Step. A
	// Step must not base a decision on it: timeouts are timers, and the
	// exhaustive checker, which does not model time, is sound only for
	// nodes that ignore it. It is there for the runtimes' own tests, and
	// lives here, not in Input, so that an Input stays small enough to
	// pass in registers.
	Now int64
}

// Reset empties o for the next step, keeping its storage.
func (o *Output) Reset() {
	o.Sends, o.Timers, o.Events, o.Done = o.Sends[:0], o.Timers[:0], o.Events[:0], false
}

// Send appends a message to node `to`.
func (o *Output) Send(to int, m Msg) { o.Sends = append(o.Sends, Send{To: to, Msg: m}) }

// SetTimer asks for an InTick with id after `after` ticks (replacing any
// pending timer with that id).
func (o *Output) SetTimer(id int, after int64) {
	o.Timers = append(o.Timers, Timer{ID: id, After: after})
}

// StopTimer cancels the pending timer with id, if any.
func (o *Output) StopTimer(id int) { o.Timers = append(o.Timers, Timer{ID: id, After: -1}) }

// State records a protocol state change.
func (o *Output) State(s string) { o.Events = append(o.Events, Event{Kind: EvState, State: s}) }

// Leader records that the node now takes the node with algorithm id `id` as leader.
func (o *Output) Leader(id int) { o.Events = append(o.Events, Event{Kind: EvLeader, Leader: id}) }

// LeaderAfter records that the node takes `id` as leader after `rounds`
// rounds of an algorithm that runs in rounds.
func (o *Output) LeaderAfter(id, rounds int) {
	o.Events = append(o.Events, Event{Kind: EvLeader, Leader: id, Round: rounds})
}

// EnterCS records entry to the critical section.
func (o *Output) EnterCS() { o.Events = append(o.Events, Event{Kind: EvEnterCS}) }

// ExitCS records leaving the critical section.
func (o *Output) ExitCS() { o.Events = append(o.Events, Event{Kind: EvExitCS}) }

// Note records a free-form line for the trace.
func (o *Output) Note(format string, args ...any) {
	o.Events = append(o.Events, Event{Kind: EvNote, Note: fmt.Sprintf(format, args...)})
}

// NoteText records a fixed line for the trace; unlike Note it does not
// format, so a Step that only says fixed things does not allocate.
func (o *Output) NoteText(text string) { o.Events = append(o.Events, Event{Kind: EvNote, Note: text}) }

// Action is something a runtime does to a node at a time: give it a
// command, or crash it, or restart it. Scripts and workloads are lists of
// actions; both runtimes carry them out.
type Action struct {
	At   int64 // ticks (absolute in a script, relative to now in a React)
	Node int   // the node's index, 1..n
	Cmd  Cmd   // a command for the node, or CmdCrash / CmdRestart
	// Arg is a parameter of Cmd the node reads in Input.Arg (0: none):
	// the timestamp a Ricart-Agrawala request carries at least, say.
	Arg int
}

// Runtime-level commands in an Action; nodes never see them.
const (
	CmdCrash   Cmd = "crash"   // crash-stop the node: it receives nothing more
	CmdRestart Cmd = "restart" // rebuild it from the Factory (amnesia), then send it CmdRecover
)

// React lets a workload answer a node's events with actions (a mutex
// workload releases the CS some ticks after entering it). Runtimes call it
// for every event a node emits, from that node's step.
type React func(i int, ev Event, now int64) []Action

// Node is an algorithm's state machine for one node.
type Node interface {
	// Step handles one input and appends what it produces to out.
	Step(in Input, out *Output)
}

// Factory builds node i (1-based) of n in its initial state. Runtimes call
// it at start and again when a node recovers with amnesia.
type Factory func(i int) (Node, error)
