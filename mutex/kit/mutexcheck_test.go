package kit

import (
	"strings"
	"testing"

	"ringlab/engine/check"
	"ringlab/engine/trace"
	"ringlab/mutex/tokenring"
)

// log reads a saved NDJSON log through the checkers, as `ringlab check
// --from` does: each message typed through the token ring's registry.
func log(t *testing.T, lines string, cs ...check.Property) (*check.Set, []trace.Verdict) {
	t.Helper()
	codec := trace.NewCodec(tokenring.MessageTypes()...)
	set := check.NewSet(cs...)
	err := trace.Read(strings.NewReader(lines), func(e *trace.Event) error {
		if e.Msg != nil {
			b, _ := e.Msg.MarshalJSON()
			m, err := codec.Decode(b)
			if err != nil {
				return err
			}
			e.Msg = trace.WrapMsg(m)
		}
		set.Observe(e)
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return set, set.Finish(check.End{Terminated: true})
}

func ev(s string) string { return `{"v":1,` + s + `,"lc":0}` + "\n" }

// A token regenerated while the old one is only slow makes two
// tokens (a violation); a lost token alone is reported, not a violation.
func TestOneToken(t *testing.T) {
	two := ev(`"t":0,"node":1,"kind":"note","note":"token 1.0 created"`) +
		ev(`"t":0,"node":1,"kind":"send","from":1,"to":2,"msg":{"type":"TOKEN","origin":1,"gen":0}`) +
		ev(`"t":5,"node":3,"kind":"note","note":"token 3.1 regenerated: no token seen for 5 ticks"`)
	set, vs := log(t, two, &OneToken{Type: "TOKEN"})
	if !set.Violated() || vs[0].OK || !strings.Contains(set.Violations[0].Detail, "1.0 and 3.1") {
		t.Fatalf("violations %v, verdicts %v", set.Violations, vs)
	}
	lost := ev(`"t":0,"node":1,"kind":"note","note":"token 1.0 created"`) +
		ev(`"t":0,"node":1,"kind":"send","from":1,"to":2,"msg":{"type":"TOKEN","origin":1,"gen":0}`) +
		ev(`"t":1,"node":2,"kind":"recv","from":1,"to":2,"msg":{"type":"TOKEN","origin":1,"gen":0}`) +
		ev(`"t":2,"node":2,"kind":"crash"`) +
		ev(`"t":9,"node":3,"kind":"note","note":"token 3.1 regenerated: no token seen for 5 ticks"`) +
		ev(`"t":9,"node":3,"kind":"note","note":"token 3.1 retired: every node is finished"`)
	set, vs = log(t, lost, &OneToken{Type: "TOKEN"})
	if set.Violated() || !vs[0].OK || vs[0].Detail != "1 token(s) lost, 1 regenerated" {
		t.Fatalf("violations %v, verdicts %v", set.Violations, vs)
	}
}

// OneToken as the exhaustive checker carries it: its key says where the
// copies are and whether a second was seen, not what they are named (the
// checker renames the generations a ring makes up); a clone is
// independent; the symmetry renames the holders; a node that passes on a
// token under another name gives up the one it holds (a relabelled token
// is not a second one).
func TestOneTokenSnapshot(t *testing.T) {
	at := func(notes ...string) *OneToken {
		o := &OneToken{Type: "TOKEN"}
		for _, n := range notes {
			node, note, _ := strings.Cut(n, ":")
			o.Observe(&trace.Event{Kind: trace.KindNote, Node: int(node[0] - '0'), Note: note})
		}
		return o
	}
	key := func(o *OneToken) string { return string(o.AppendKey(nil)) }
	if a, b := at("2:token 2.7 created"), at("2:token 2.1 created"); key(a) != key(b) {
		t.Error("the key names the token")
	}
	a := at("2:token 2.1 created")
	if key(a) == key(at("3:token 3.1 created")) || key(a) == key(at()) {
		t.Error("the key does not say who holds the token")
	}
	c := a.Clone().(*OneToken)
	tok := trace.WrapMsg(tokenring.Msg{Origin: 2, Gen: 1})
	c.Observe(&trace.Event{Kind: trace.KindSend, Node: 2, Msg: tok})
	if key(a) != key(at("2:token 2.1 created")) || key(c) == key(a) {
		t.Error("a clone's step changed its original, or the send changed nothing")
	}
	if !c.Concerns(&trace.Event{Kind: trace.KindRecv, Node: 3, Msg: tok}) ||
		c.Concerns(&trace.Event{Kind: trace.KindRecv, Node: 3, Msg: trace.WrapMsg(lockMsgOf("ASK"))}) ||
		a.Concerns(&trace.Event{Kind: trace.KindCrash, Node: 3}) || !a.Concerns(&trace.Event{Kind: trace.KindCrash, Node: 2}) {
		t.Error("Concerns: a token's receipt, not another message's nor the crash of a node without a token")
	}
	r := a.Clone().(*OneToken)
	r.RenameNodes([]int{0, 2, 3, 1})
	if key(r) != key(at("3:token 2.1 created")) {
		t.Error("RenameNodes: the holder 2 is not renamed 3")
	}
	relabel := at("2:token 2.1 created")
	relabel.Observe(&trace.Event{Kind: trace.KindSend, Node: 2, Msg: trace.WrapMsg(tokenring.Msg{Origin: 2, Gen: 2})})
	if len(relabel.tok.copies) != 1 || relabel.worst != 0 {
		t.Errorf("a token passed on under another name: %+v", relabel.tok)
	}
	if key(at("2:token 2.1 created", "3:token 3.1 regenerated: x", "3:token 3.1 retired: x")) == key(at("2:token 2.1 created")) {
		t.Error("a state with a second token seen and one without have the same key")
	}
}

// lockMsgOf is a message of another type than the token's.
type lockMsgOf string

func (m lockMsgOf) Type() string { return string(m) }

// A waiting node with nobody in the CS at the end is a deadlock
// and a starvation; a crashed requester is neither.
func TestLiveness(t *testing.T) {
	stuck := ev(`"t":0,"node":4,"kind":"cmd","cmd":"request"`) +
		ev(`"t":0,"node":5,"kind":"cmd","cmd":"request@7"`) +
		ev(`"t":1,"node":5,"kind":"enter_cs"`) + ev(`"t":2,"node":5,"kind":"exit_cs"`) +
		ev(`"t":3,"node":6,"kind":"cmd","cmd":"request"`) + ev(`"t":4,"node":6,"kind":"crash"`)
	_, vs := log(t, stuck, &Deadlock{}, &Starvation{})
	if vs[0].OK || !strings.Contains(vs[0].Detail, "node 4 still waiting") || vs[1].OK || !strings.Contains(vs[1].Detail, "1 request(s) of node 4") {
		t.Fatalf("verdicts %v", vs)
	}
	for _, p := range []check.Property{&Deadlock{}, &Starvation{}, &TokenEventually{}, &GrantOrder{}, &OneToken{}} {
		_, live := p.(check.Eventually)
		if want := p.ID() == IDNoDeadlock || p.ID() == IDNoStarvation || p.ID() == IDOneTokenEventually; want != live {
			t.Errorf("%s: a liveness property: %v, want %v", p.ID(), live, want)
		}
	}
}

// Ricart-Agrawala grants in (T, id) order; an entry while an
// earlier request waits is a violation under Strict and a count otherwise.
// Node 2's request carries its timestamp as a v1 log may write it,
// "request@115": it reads as a request with Arg 115.
func TestGrantOrder(t *testing.T) {
	key := func(e *trace.Event) (int, Key, bool) {
		if e.Kind != trace.KindCmd {
			return 0, Key{}, false
		}
		return e.Node, Key{int64(e.Arg), int64(e.Node)}, true
	}
	lines := ev(`"t":0,"node":1,"kind":"cmd","cmd":"request"`) + ev(`"t":0,"node":2,"kind":"cmd","cmd":"request@115"`) +
		ev(`"t":1,"node":2,"kind":"enter_cs"`)
	set, vs := log(t, lines, &GrantOrder{Order: Order{Key: key, Kinds: trace.KindsOf(trace.KindCmd)}, Strict: true, Promise: "(timestamp, id) order"})
	if !set.Violated() || vs[0].OK || !strings.Contains(set.Violations[0].Detail, "node 2 entered with request (115, 2) while node 1 waited with the earlier (0, 1)") {
		t.Fatalf("violations %v, verdicts %v", set.Violations, vs)
	}
	set, vs = log(t, lines, &GrantOrder{Order: RequestTime(), Promise: "ring order"})
	if set.Violated() || !vs[0].OK || !strings.HasPrefix(vs[0].Detail, "1 of 1 grants overtook") {
		t.Fatalf("violations %v, verdicts %v", set.Violations, vs)
	}
}
