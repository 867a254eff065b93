package mutex

import (
	"encoding/json"
	"strings"
	"testing"

	"ringlab/engine/node"
	"ringlab/engine/trace"
	"ringlab/mutex/kit"
	"ringlab/mutex/lamport"
	"ringlab/mutex/ricart"
)

// roundTrip writes e as a log line and reads it back, as `ringlab check`
// does: the message is typed again through the algorithm's registry.
func roundTrip(t *testing.T, e *trace.Event, registry []node.Msg) *trace.Event {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var back *trace.Event
	err = trace.Read(strings.NewReader(string(b)), func(e *trace.Event) error { back = e; return nil }, nil)
	if err != nil || back == nil || back.Msg == nil || back.Msg.Value != nil {
		t.Fatalf("read back %s: %v", b, err)
	}
	raw, _ := back.Msg.MarshalJSON()
	m, err := trace.NewCodec(registry...).Decode(raw)
	if err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
	back.Msg = trace.WrapMsg(m)
	return back
}

// The strict grant order keys a request by the (T, id) on its message; a
// message read back from a log gives the same key as the live value.
func TestStampOrderKeysFromALog(t *testing.T) {
	for _, c := range []struct {
		typ      string
		msg      trace.Msg
		registry []node.Msg
	}{
		{string(ricart.MsgRequest), *trace.WrapMsg(ricart.Msg{Kind: ricart.MsgRequest, T: 7, ID: 3}), ricart.MessageTypes()},
		{string(lamport.MsgAcquire), *trace.WrapMsg(lamport.Msg{Kind: lamport.MsgAcquire, T: 7, ID: 3}), lamport.MessageTypes()},
	} {
		e := &trace.Event{V: 1, Kind: trace.KindSend, Node: 2, From: 2, To: 1, Msg: &c.msg}
		i, k, ok := stampOrder(c.typ).Key(e)
		j, l, ok2 := stampOrder(c.typ).Key(roundTrip(t, e, c.registry))
		if !ok || !ok2 || i != j || k != l || k != (kit.Key{7, 3}) {
			t.Fatalf("%s: live key %v %v %v, from the log %v %v %v", c.typ, i, k, ok, j, l, ok2)
		}
	}
}

// Over a log, a grant that overtakes an earlier (timestamp, id) request is
// a strict grant-order violation.
func TestStrictGrantOrderOverALog(t *testing.T) {
	req := func(node, ts int) *trace.Event {
		m := trace.WrapMsg(ricart.Msg{Kind: ricart.MsgRequest, T: ts, ID: node})
		return roundTrip(t, &trace.Event{V: 1, Kind: trace.KindSend, Node: node, From: node, To: 3, Msg: m}, ricart.MessageTypes())
	}
	g := &kit.GrantOrder{Order: stampOrder(string(ricart.MsgRequest)), Strict: true, Promise: "(timestamp, id) order"}
	var found string
	for _, e := range []*trace.Event{req(1, 1), req(2, 2), {V: 1, Kind: trace.KindEnterCS, Node: 2, T: 5}} {
		if d := g.Observe(e); d != "" {
			found = d
		}
	}
	if !strings.Contains(found, "node 2 entered with request (2, 2) while node 1 waited with the earlier (1, 1)") {
		t.Fatalf("overtaking not found over a log: %q", found)
	}
}
