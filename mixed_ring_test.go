package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"ringlab/engine/amqp/amqptest"
)

// syncBuffer is a strings.Builder safe for one writer and a later reader.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// The specification's four cases, each on a ring that mixes `ringlab node
// --mixed` processes with nodes played by specNode (specnode_test.go, the
// specification's text alone: plain JSON, no ringlab header, no watcher).
// The initiator (node 1) and the leader are of either kind across the
// cases. Every node, of either kind, prints exactly its own lines of the
// specification's expected output (the election goldens), and every
// ringlab process ends by its rules, exit 0: with one initiator a single
// message is in flight at a time, so no timing changes these lines.
func TestMixedRings(t *testing.T) {
	url := amqptest.BrokerURL(t)
	bin := binary(t)
	setupRing(t, bin, url)
	for _, tc := range []struct {
		golden string
		ids    []int
		spec   []int // the nodes specNode plays
	}{
		{"ring_5_3_7_1_4", []int{5, 3, 7, 1, 4}, []int{2, 5}},          // ringlab initiator and leader
		{"ring_5_3_7", []int{5, 3, 7}, []int{1}},                       // a spec initiator, a ringlab leader
		{"ring_worst_5_4_3_2_1", []int{5, 4, 3, 2, 1}, []int{1, 3, 5}}, // spec initiator and leader
		{"ring_100_42_7_999_13", []int{100, 42, 7, 999, 13}, []int{3}}, // ringlab initiator, spec leader
	} {
		t.Run(tc.golden, func(t *testing.T) {
			b, err := os.ReadFile("election/testdata/" + tc.golden + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			lines, _, _ := strings.Cut(string(b), "\n\n")                // the verdicts follow
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // a bound on a hang
			defer cancel()
			ids := strings.Trim(strings.ReplaceAll(fmt.Sprint(tc.ids), " ", ","), "[]")
			dir := t.TempDir()
			outs := map[int]func() string{}
			errs := make(chan error, len(tc.spec))
			var procs []*nodeProc
			for i := len(tc.ids); i >= 1; i-- { // the initiator last
				if slices.Contains(tc.spec, i) {
					out := &syncBuffer{}
					outs[i] = out.String
					s := specNode{URL: url, Prefix: testPrefix, Index: i, N: len(tc.ids), ID: tc.ids[i-1], Initiator: i == 1, Out: out}
					go func() { errs <- s.run(ctx) }()
					continue
				}
				p := startNodeW(t, bin, url, dir, i, nil, nil, "--timeout", "1m", "--algo", "ring", "--ids", ids, "--lang", "pt", "--mixed")
				outs[i] = p.out.String
				procs = append(procs, p)
			}
			for range tc.spec {
				if err := <-errs; err != nil {
					t.Errorf("spec node: %v", err)
				}
			}
			for _, p := range procs {
				if err := p.cmd.Wait(); err != nil || !strings.Contains(p.err.String(), "its rules ended it") {
					t.Errorf("ringlab node %d: %v\n%s%s", p.index, err, p.out.String(), p.err.String())
				}
			}
			for i := 1; i <= len(tc.ids); i++ {
				var want strings.Builder
				for _, l := range strings.Split(lines, "\n") {
					if strings.HasPrefix(l, fmt.Sprintf("[Node %d] ", i)) {
						want.WriteString(l + "\n")
					}
				}
				kind := "ringlab"
				if slices.Contains(tc.spec, i) {
					kind = "spec"
				}
				if got := outs[i](); got != want.String() {
					t.Errorf("%s node %d printed:\n%swant:\n%s", kind, i, got, want.String())
				}
			}
		})
	}
	// no process watched, so none published a report for one
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		t.Fatal(err)
	}
	if q, err := ch.QueueDeclarePassive(testPrefix+"leader.election.ring.monitor", false, false, false, false, nil); err != nil || q.Messages != 0 {
		t.Errorf("the monitor queue after the mixed rings: %+v, %v; want it empty", q, err)
	}
}
