// Run: go test -run '^$' -bench . -benchmem ./election/smallestid
// Compare two versions with benchstat old.txt new.txt.

package smallestid

import (
	"fmt"
	"testing"

	"ringlab/engine/node"
)

// BenchmarkElection runs the specification's worst single-initiator election (ids
// decreasing along the ring, initiator the largest: 2n-1 ELECTION and n
// ELECTED) on rings up to a million nodes, one message in flight at a time.
func BenchmarkElection(b *testing.B) {
	for _, n := range []int{1000, 1_000_000} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			nodes := make([]Node, n+1)
			var out node.Output
			msgs := 0
			for b.Loop() {
				for i := 1; i <= n; i++ {
					nd, _ := New(Config{Index: i, N: n, ID: n + 1 - i})
					nodes[i] = *nd
				}
				out.Reset()
				nodes[1].Step(node.Input{Kind: node.InCmd, Cmd: node.CmdStart}, &out)
				for len(out.Sends) > 0 {
					s := out.Sends[0]
					msgs++
					out.Reset()
					nodes[s.To].Step(node.Input{Kind: node.InMsg, Msg: s.Msg}, &out)
				}
				if nodes[n].state != StateLeader || !nodes[n].complete {
					b.Fatalf("node %d is %v", n, nodes[n].state)
				}
			}
			b.ReportMetric(float64(msgs)/float64(b.N), "msgs/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(msgs), "ns/msg")
		})
	}
}
