package raymond_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"example.com/ringlab-examples/raymond"
	"ringlab/engine/cli"
	"ringlab/engine/cliutil"
)

// Example runs the program's run command in process: seven nodes on the
// binary tree, each asking twice, on the simulator. Under this load the
// token tours the tree, crossing each of its 6 edges about twice per
// round of 7 entries: 23 PRIVILEGEs for 14 entries, each the answer to
// one REQUEST, about 3.3 messages per entry where a lone request on
// this tree costs up to 2·D = 8.
func Example() {
	args := []string{"raymond", "raymond", "--nodes", "7", "--tree", "binary", "--requests", "2", "--seed", "1", "--format", "none"}
	cli.Run(context.Background(), args, os.Stdout, os.Stdout, raymond.Algorithm())
	// Output:
	// raymond on sim, 7 nodes, seed 1: 75 steps, t=53
	// messages: 46 (PRIVILEGE 23, REQUEST 23)
	// ✓ mutual exclusion: never two nodes inside at once, in the order the events happened
	// ✓ one token
	// ✓ grant order: 3 of 14 grants overtook an earlier request (each node's own queue order; no order is promised)
	// ✓ no deadlock
	// ✓ no starvation: every request granted (14 entries); longest wait 20, node 2
	// ✓ termination
	// replay: raymond raymond --nodes 7 --requests 2 --tree binary --format none --seed 1
}

// Under the same load the line and the star cost what the binary tree
// costs: the token tours each tree, crossing each edge about twice a round.
// A tree the program does not know is bad input naming its flag.
func TestLoadToursEveryTree(t *testing.T) {
	for _, tree := range []string{"line", "star", "binary"} {
		code, out := run(raymond.Algorithm(), "raymond", "--nodes", "7", "--tree", tree, "--requests", "2", "--seed", "1", "--format", "none")
		if code != 0 || !strings.Contains(out, "\nmessages: 46 (PRIVILEGE 23, REQUEST 23)\n") {
			t.Fatalf("--tree %s: exit %d\n%s", tree, code, out)
		}
	}
	code, out := run(raymond.Algorithm(), "raymond", "--tree", "ring")
	if code != cliutil.ExitUsage || !strings.Contains(out, `--tree must be line, star or binary, got "ring"`) {
		t.Fatalf("--tree ring: exit %d\n%s", code, out)
	}
}
