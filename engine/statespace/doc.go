// Package statespace is ringlab's exhaustive checker: a breadth-first
// search of every state a small system of real node.Node machines can
// reach, branching on every choice the simulator would make at random —
// which message is delivered next (under FIFO the head of any link, under
// the random policy any message in flight), which pending timer fires,
// which command of the environment comes next, and, within budgets, where
// a crash, a restart or a lost message strikes.
//
// Time is not modelled: under TimersAny a pending timer may fire at any
// moment (the asynchronous model, where a slow node and a dead one look
// alike); under TimersQuiet only when no message is in flight (every
// timeout longer than any message delay). States are deduplicated by a
// canonical key (every node's key: its own AppendKey if it is a
// node.Snapshot, else derived from its value, engine/internal/derive; the
// links, the pending timers and commands, the environment, the budgets
// spent), stored as a
// 64-bit fingerprint or, with Exact, in full; node states, messages and
// environments are interned, so a state is a few small slices of numbers. The
// partial-order reduction (POR) takes, where it can, only one group of
// nodes' invisible steps (ample sets, which cut states) and skips the
// second order of steps at two different nodes (sleep sets, which cut
// transitions); this package's README.md argues its soundness.
//
// The environment is the run's own workload (an engine.Workload), which
// answers the nodes' events with commands. Safety is judged at every
// transition by the run's properties that snapshot themselves
// (check.Snapshot), carried in the state with the workload; every property,
// liveness included, at every terminal state, by replaying the path that
// reached it.
package statespace
