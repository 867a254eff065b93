// Package trace is ringlab's one canonical event stream: what every runtime
// emits, what the checkers read, and what the renderers draw.
//
// On the wire an event is one NDJSON line:
//
//	{"v":1,"seq":N,"t":T,"node":I,"kind":K,...,"lc":L}
//
// where t is virtual time (sim) or nanoseconds since the start (live), node
// is the 1-based index of the node it happened at, and lc is that node's
// Lamport clock after the event. vc, the vector clock, is present only when
// the run asked for it (it costs O(n) per event). The last line of a run is a
// Summary ({"kind":"summary",...}).
package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"ringlab/engine/node"
)

// Version is the schema version written in every event's "v".
const Version = 1

// Event kinds.
const (
	KindSend      = "send"      // From sent Msg to To (node = From)
	KindRecv      = "recv"      // To received Msg from From (node = To)
	KindDrop      = "drop"      // the network lost Msg from From to To
	KindDup       = "dup"       // the network duplicated Msg from From to To
	KindCrash     = "crash"     // the node stopped
	KindRecover   = "recover"   // the node restarted with its state reset
	KindCmd       = "cmd"       // a local command was given to the node (Cmd)
	KindState     = "state"     // the node's protocol state is now State
	KindEnterCS   = "enter_cs"  // the node entered the critical section
	KindExitCS    = "exit_cs"   // the node left the critical section
	KindLeader    = "leader"    // the node now takes Leader (an id) as leader
	KindNote      = "note"      // a free-form line (Note)
	KindViolation = "violation" // a checker found Property broken (Detail)
)

// Event is one thing that happened in a run.
type Event struct {
	V        int      `json:"v"`                  // the schema version, Version
	Seq      int64    `json:"seq"`                // the event's position in the run, from 1
	T        int64    `json:"t"`                  // ticks (sim) or nanoseconds since the start (live, amqp)
	Node     int      `json:"node"`               // the 1-based index of the node it happened at
	Kind     string   `json:"kind"`               // one of the Kind constants
	From     int      `json:"from,omitempty"`     // send, recv, drop, dup: the sender
	To       int      `json:"to,omitempty"`       // send, recv, drop, dup: the receiver
	Msg      *Msg     `json:"msg,omitempty"`      // send, recv, drop, dup: the message
	Cmd      string   `json:"cmd,omitempty"`      // cmd: the command
	Arg      int      `json:"arg,omitempty"`      // the command's parameter (node.Action.Arg)
	State    string   `json:"state,omitempty"`    // state: the node's new protocol state
	Leader   *int     `json:"leader,omitempty"`   // leader: the leader's algorithm id
	Round    int      `json:"round,omitempty"`    // a leader event's rounds (node.Event.Round)
	Note     string   `json:"note,omitempty"`     // note (and a detail on other kinds)
	Property string   `json:"property,omitempty"` // violation: the property's ID
	Detail   string   `json:"detail,omitempty"`   // violation: what broke it
	LC       int64    `json:"lc"`                 // the node's Lamport clock after the event
	VC       []uint32 `json:"vc,omitempty"`       // the node's vector clock, when the run asked for it
}

// Command is a cmd event's command as traces show it: "request", or
// "request@115" with its parameter.
func (e *Event) Command() string {
	if e.Arg == 0 {
		return e.Cmd
	}
	return e.Cmd + "@" + strconv.Itoa(e.Arg)
}

// splitCommand reads a v1 log's cmd event that carries its parameter
// inside the command, as Command writes it ("request@115"), into Cmd and
// Arg, so that it reads as the same event with its Arg.
func (e *Event) splitCommand() {
	if e.Kind != KindCmd || e.Arg != 0 {
		return
	}
	c, a, ok := strings.Cut(e.Cmd, "@")
	if n, err := strconv.Atoi(a); ok && err == nil && n > 0 && c != "" && strconv.Itoa(n) == a {
		e.Cmd, e.Arg = c, n
	}
}

// LeaderID returns the event's leader id, or 0 if it carries none.
func (e *Event) LeaderID() int {
	if e.Leader == nil {
		return 0
	}
	return *e.Leader
}

// Msg wraps an algorithm message for the log. In a live run it holds the
// node.Msg itself; read back from a file it holds the type and the raw
// fields. On the wire it is {"type": T, ...fields}.
type Msg struct {
	Value  node.Msg        // set when the event came from a runtime
	type_  string          // set when the event was decoded
	fields json.RawMessage // the decoded object, "type" included
}

// WrapMsg wraps m for an Event.
func WrapMsg(m node.Msg) *Msg { return &Msg{Value: m} }

// Type is the message's type name.
func (m *Msg) Type() string {
	if m.Value != nil {
		return m.Value.Type()
	}
	return m.type_
}

// Fields returns the message's fields as a JSON object without "type"
// ("{}" when it has none).
func (m *Msg) Fields() json.RawMessage {
	var raw json.RawMessage
	if m.Value != nil {
		b, err := json.Marshal(m.Value)
		if err != nil || len(b) == 0 || b[0] != '{' {
			return json.RawMessage("{}")
		}
		raw = b
	} else {
		raw = m.fields
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return json.RawMessage("{}")
	}
	delete(obj, "type")
	b, _ := json.Marshal(obj) // map keys come out sorted: stable bytes
	return b
}

// JSON returns the message as the log carries it, {"type":T,...fields}:
// for a message read back, the bytes read (do not modify them).
func (m *Msg) JSON() ([]byte, error) {
	if m.Value == nil && m.fields != nil {
		return m.fields, nil
	}
	return m.MarshalJSON()
}

// MarshalJSON writes {"type":T,...fields}.
func (m *Msg) MarshalJSON() ([]byte, error) {
	t, err := json.Marshal(m.Type())
	if err != nil {
		return nil, err
	}
	f := m.Fields()
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	b.Write(t)
	if len(f) > 2 {
		b.WriteByte(',')
		b.Write(f[1:])
	} else {
		b.WriteByte('}')
	}
	return b.Bytes(), nil
}

// UnmarshalJSON reads {"type":T,...fields}.
func (m *Msg) UnmarshalJSON(b []byte) error {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return err
	}
	if head.Type == "" {
		return fmt.Errorf("message without a type: %s", b)
	}
	m.Value, m.type_, m.fields = nil, head.Type, append(json.RawMessage(nil), b...)
	return nil
}

// Verdict is a checked property and what the check found.
type Verdict struct {
	Property string `json:"property"`         // the property's ID ("mutual exclusion")
	OK       bool   `json:"ok"`               // whether the run kept it
	Detail   string `json:"detail,omitempty"` // what was found, in words
	// NotReached marks the verdict of a property judged where a run ends
	// on a path that stops before (a checker's path or lasso): it was not
	// judged, so it is not OK, and not violated either. Detail says why.
	NotReached bool `json:"not_reached,omitempty"`
}

// Summary is the last line of a run's log.
type Summary struct {
	V          int              `json:"v"`                    // the schema version, Version
	Kind       string           `json:"kind"`                 // always "summary"
	Algorithm  string           `json:"algorithm"`            // the System's name
	Runtime    string           `json:"runtime"`              // "sim", "live" or "amqp"
	Seed       uint64           `json:"seed"`                 // the run's seed
	Nodes      int              `json:"nodes"`                // the number of nodes
	Time       int64            `json:"t"`                    // virtual time (sim) or ns (live) at the end
	Steps      int64            `json:"steps"`                // inputs handled by nodes
	Messages   int64            `json:"messages"`             // messages sent (drops and duplicates not included)
	ByType     map[string]int64 `json:"by_type"`              // messages sent, by message type
	Dropped    int64            `json:"dropped,omitempty"`    // messages lost to faults
	Duplicated int64            `json:"duplicated,omitempty"` // messages delivered twice
	Verdicts   []Verdict        `json:"verdicts"`             // one per property judged
	// Unapplied lists scripted faults that never happened because the run
	// ended before they were due (a partition window after the end, say).
	Unapplied []string       `json:"unapplied,omitempty"`
	Extra     map[string]any `json:"extra,omitempty"` // algorithm figures: rounds, ids carried, ...
	Replay    string         `json:"replay"`          // a command line that repeats the run
}

// Kinds is a set of event kinds, for a consumer to say which it needs
// (check.Wanter) and a runtime to skip building the others: a silent
// million-node election needs its leader events, not its state changes.
type Kinds uint16

// AllKinds is every kind of event a runtime emits.
const AllKinds Kinds = 1<<len(kindNames) - 1

// kindNames lists the runtime event kinds, each at its bit in Kinds
// (kindBit, nodeKinds).
var kindNames = [...]string{KindSend, KindRecv, KindDrop, KindDup, KindCrash, KindRecover,
	KindCmd, KindState, KindEnterCS, KindExitCS, KindLeader, KindNote}

// KindsOf is the set of the named kinds; it panics on a name that is not
// a runtime event kind (a programming error).
func KindsOf(kinds ...string) Kinds {
	var k Kinds
	for _, name := range kinds {
		b := kindBit(name)
		if b == 0 {
			panic(fmt.Sprintf("trace: %q is not a runtime event kind", name))
		}
		k |= b
	}
	return k
}

// Has reports whether kind is in k.
func (k Kinds) Has(kind string) bool { return k&kindBit(kind) != 0 }

func kindBit(kind string) Kinds {
	switch kind { // the order of kindNames
	case KindSend:
		return 1 << 0
	case KindRecv:
		return 1 << 1
	case KindDrop:
		return 1 << 2
	case KindDup:
		return 1 << 3
	case KindCrash:
		return 1 << 4
	case KindRecover:
		return 1 << 5
	case KindCmd:
		return 1 << 6
	case KindState:
		return 1 << 7
	case KindEnterCS:
		return 1 << 8
	case KindExitCS:
		return 1 << 9
	case KindLeader:
		return 1 << 10
	case KindNote:
		return 1 << 11
	}
	return 0
}

// NodeKind is the trace kind of a node event of kind k: what every
// runtime logs a node's event as (an unknown kind is a note).
func NodeKind(k node.EventKind) string {
	switch k {
	case node.EvState:
		return KindState
	case node.EvEnterCS:
		return KindEnterCS
	case node.EvExitCS:
		return KindExitCS
	case node.EvLeader:
		return KindLeader
	}
	return KindNote
}

// nodeKinds maps a node event's kind to its trace kind's bit.
var nodeKinds = [...]Kinds{
	node.EvState: kindBit(KindState), node.EvEnterCS: kindBit(KindEnterCS), node.EvExitCS: kindBit(KindExitCS),
	node.EvLeader: kindBit(KindLeader), node.EvNote: kindBit(KindNote),
}

// HasNode reports whether the trace kind of a node event of kind ev is in
// k (a node event of an unknown kind is a note).
func (k Kinds) HasNode(ev node.EventKind) bool {
	if int(ev) < len(nodeKinds) && nodeKinds[ev] != 0 {
		return k&nodeKinds[ev] != 0
	}
	return k&nodeKinds[node.EvNote] != 0
}
