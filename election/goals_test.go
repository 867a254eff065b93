package election

import (
	"encoding/json"
	"testing"

	"ringlab/engine/cliutil"
)

// Chang-Roberts' goals: two participants at once takes two starts; with
// node 4 (id 1) the only initiator on the descending ring, its start and
// the delivery of its ELECTION(1) to node 1 (id 4), who replaces it with
// its own and becomes the second participant. Within one step neither is
// reached (a shortest witness).
func TestChangRobertsGoals(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		steps int
	}{
		{[]string{"--nodes", "4", "--layout", "descending"}, 2},
		{[]string{"--nodes", "4", "--layout", "descending", "--initiators", "4"}, 2},
	} {
		for _, depth := range []string{"", "1"} {
			args := append([]string{"check", "chang-roberts", "--goal", "two-participants", "--format", "json"}, tc.args...)
			if depth != "" {
				args = append(args, "--max-depth", "1")
			}
			r := runCLI(t, args...)
			var g struct {
				Reached bool
				Steps   int
			}
			if err := json.Unmarshal([]byte(r.out), &g); err != nil {
				t.Fatalf("%v: %v\n%s\n%s", args, err, r.out, r.errb)
			}
			switch {
			case depth == "" && (r.code != 0 || !g.Reached || g.Steps != tc.steps):
				t.Errorf("%v: exit %d %+v, want reached in %d steps", args, r.code, g, tc.steps)
			case depth != "" && (r.code != cliutil.ExitNoTermination || g.Reached):
				t.Errorf("%v: exit %d %+v, want not reached within one step", args, r.code, g)
			}
		}
	}
}
