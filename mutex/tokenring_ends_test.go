package mutex

import (
	"encoding/json"
	"slices"
	"testing"
)

// The token ring's runs end: each node finishes its one entry and the
// token, counting the nodes finished, tells the last that all are done,
// as the simulator ends the run after 3 messages. The checker told
// tokens apart by how they print (origin and generation, not Finished),
// so it merged a token that ends the run with one that does not: 112
// states, none terminal, and the properties judged at a run's end never
// judged. One token is judged at every state, no deadlock at the end.
func TestTokenRingRunsEnd(t *testing.T) {
	out, errb, code := runCLI(t, "check", "token-ring", "--nodes", "3", "--format", "json", "--extremes=false")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	var r struct {
		Distinct, Terminal int64
		Exhausted          bool
		JudgedAtEnds       []string `json:"judged_at_ends"`
		NotJudged          []string `json:"not_judged"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !r.Exhausted || r.Distinct != 110 || r.Terminal != 1 || len(r.NotJudged) > 0 ||
		slices.Contains(r.JudgedAtEnds, "one token") || !slices.Contains(r.JudgedAtEnds, "no deadlock") {
		t.Errorf("token-ring --nodes 3: %+v; want exhausted, 110 states, 1 terminal, no deadlock judged at the end (one token at every state)\n%s", r, out)
	}
}
