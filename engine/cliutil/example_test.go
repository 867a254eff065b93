package cliutil_test

import (
	"context"
	"errors"
	"fmt"

	"ringlab/engine/cliutil"
	"ringlab/engine/run"
)

// Code maps the error a command returns to the process's exit status, in
// one place: bad input is 2, a violated property 3, a run that did not end
// 4, an interruption 130, anything else 1.
func ExampleCode() {
	for _, err := range []error{
		nil,
		cliutil.FlagUsagef("nodes", "--nodes 0: want at least 2"),
		&run.Violation{Property: "mutual exclusion", Detail: "node 1 and node 2 inside at once", Replay: "toy --seed 3"},
		&run.NoTermination{Why: "still running after the step budget", Replay: "toy --seed 4"},
		fmt.Errorf("running: %w", context.Canceled),
		errors.New("disk full"),
	} {
		fmt.Println(cliutil.Code(err), err)
	}
	// Output:
	// 0 <nil>
	// 2 --nodes 0: want at least 2
	// 3 mutual exclusion violated: node 1 and node 2 inside at once (replay: toy --seed 3)
	// 4 no termination: still running after the step budget (replay: toy --seed 4)
	// 130 running: context canceled
	// 1 disk full
}
