package election

import "ringlab/engine/node"

// starts gives CmdStart at tick 0 to every starter. startsPlain is the
// plain version; this one fills the script in chunks of startChunk, each
// by a call that is not inlined.
//
// Why: with --initiators all at a million nodes the script is 40 MB of
// actions that each hold a pointer (Cmd is a string). Allocating it often
// starts a garbage collection, which must then stop this goroutine to scan
// its stack. A loop of pointer stores is almost all write-barrier code,
// where the runtime cannot preempt it, so the collector signals it every
// 10 µs for the whole loop. A function call is a point where it stops at
// once. Measured on a 2-core machine: go test -bench Starts -count 8
// ./election gives plain 7.9 ms ± 20%, chunked 5.5 ms ± 2% an op (-30%,
// benchstat); the README's million-node Chang-Roberts run on sim took
// 0.79–0.86 s as a whole process with the plain loop and 0.60–0.64 s with
// this one (five interleaved runs each).
func starts(s setup) []node.Action {
	acts := make([]node.Action, len(s.starters))
	for lo := 0; lo < len(acts); lo += startChunk {
		hi := min(lo+startChunk, len(acts))
		fillStarts(acts[lo:hi], s.starters[lo:hi])
	}
	return acts
}

const startChunk = 4096

//go:noinline
func fillStarts(acts []node.Action, starters []int) {
	for k, i := range starters {
		acts[k] = node.Action{At: 0, Node: i, Cmd: node.CmdStart}
	}
}

// startsPlain is starts written plainly: one loop over the starters.
func startsPlain(s setup) []node.Action {
	acts := make([]node.Action, len(s.starters))
	for k, i := range s.starters {
		acts[k] = node.Action{At: 0, Node: i, Cmd: node.CmdStart}
	}
	return acts
}
