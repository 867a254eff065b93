package cli

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/internal/nodetest"
	"ringlab/engine/node"
	"ringlab/engine/run"
	"ringlab/engine/trace"
)

// msgLog is a log of one message sent and received: msg is its JSON.
func msgLog(msg string) []byte {
	return []byte(`{"v":1,"kind":"header","algorithm":"demo pass","nodes":2,"replay":"ringlab demo"}` + "\n" +
		`{"v":1,"seq":1,"t":0,"node":1,"kind":"send","from":1,"to":2,"msg":` + msg + `,"lc":1}` + "\n" +
		`{"v":1,"seq":2,"t":1,"node":2,"kind":"recv","from":1,"to":2,"msg":` + msg + `,"lc":2}` + "\n")
}

// judgeLog reads log (streamed when stream is set) and hands its events to
// the checkers' sink, as `ringlab check --from` does; it returns the
// messages the sink saw.
func judgeLog(t *testing.T, log []byte, stream bool, registry []node.Msg) ([]*trace.Msg, error) {
	t.Helper()
	l, err := run.ReadLog(t.Context(), run.ReadOptions{Stream: stream}, run.Source{Name: "run.ndjson", R: bytes.NewReader(log)})
	if err != nil {
		return nil, err
	}
	var msgs []*trace.Msg
	rt := recorded{l, "sim"}
	_, err = rt.Run(t.Context(), engine.System{Messages: registry}, func(e *trace.Event) {
		if e.Msg != nil {
			msgs = append(msgs, e.Msg)
		}
	})
	return msgs, err
}

// The checkers of a saved log see each message as a run's checkers do:
// the algorithm's typed value, decoded through its message registry.
func TestRecordedMessagesAreTyped(t *testing.T) {
	for _, stream := range []bool{true, false} {
		msgs, err := judgeLog(t, msgLog(`{"type":"TOKEN","hop":3}`), stream, nodetest.MessageTypes())
		if err != nil || len(msgs) != 2 {
			t.Fatalf("stream %v: %d messages, %v", stream, len(msgs), err)
		}
		for _, m := range msgs {
			if !reflect.DeepEqual(m.Value, nodetest.Token{Hop: 3}) {
				t.Errorf("stream %v: the checkers see %#v, want nodetest.Token{Hop: 3}", stream, m.Value)
			}
		}
	}
}

// A logged message of a type the algorithm's registry does not list is a
// one-line usage error of --from naming the type and the event.
func TestRecordedUnknownTypeIsRefused(t *testing.T) {
	_, err := judgeLog(t, msgLog(`{"type":"NOPE","hop":3}`), true, nodetest.MessageTypes())
	want := `--from: the send event of node 1 (seq 1): a message of type "NOPE", which the algorithm's message registry does not list`
	if err == nil || err.Error() != want || cliutil.Code(err) != cliutil.ExitUsage {
		t.Fatalf("err = %v (exit %d), want the usage error %q", err, cliutil.Code(err), want)
	}
}

// FuzzRecordedMessage: whatever message a log carries, the checkers get
// a typed value of a registered type, or the judgement stops with a
// one-line usage error.
func FuzzRecordedMessage(f *testing.F) {
	for _, s := range []string{`{"type":"TOKEN","hop":3}`, `{"type":"WAVE"}`, `{"type":"TOKEN","hop":"x"}`,
		`{"type":"TOKEN","hop":1e99}`, `{"type":"X"}`, `{"type":"WAVE","extra":[1,2]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		msgs, err := judgeLog(t, msgLog(msg), true, nodetest.MessageTypes())
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		for _, m := range msgs {
			switch m.Value.(type) {
			case nodetest.Token, nodetest.Wave:
			default:
				t.Fatalf("%s: the checkers see %s", msg, fmt.Sprintf("%#v", m.Value))
			}
		}
	})
}

// A node process with nothing to do until a message arrives says whom it
// waits for from the topology alone: on a ring its two neighbours (one,
// on a ring of two), elsewhere any node.
func TestWaitingFor(t *testing.T) {
	for _, c := range []struct {
		topo     string
		n, i     int
		contains string
	}{
		{trace.TopoRing, 5, 2, "from node 1 or node 3, its neighbours on the ring"},
		{trace.TopoRing, 5, 1, "from node 5 or node 2, its neighbours on the ring"},
		{trace.TopoRing, 5, 5, "from node 4 or node 1, its neighbours on the ring"},
		{trace.TopoRing, 2, 2, "from node 1, its neighbour on the ring"},
		{trace.TopoComplete, 5, 3, "from another node"},
		{trace.TopoRing, 1, 1, "from another node"},
	} {
		if got := waitingFor(&engine.System{Topology: c.topo, Nodes: c.n}, c.i); !strings.Contains(got, c.contains) {
			t.Errorf("%s of %d, node %d: %q, want %q in it", c.topo, c.n, c.i, got, c.contains)
		}
	}
}
