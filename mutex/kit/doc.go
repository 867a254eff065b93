// Package kit is the mutual-exclusion kit: what every mutual-exclusion
// algorithm is run and judged with, whatever module it lives in. An
// algorithm names its kind (Permission or Token) and gets:
//
//   - the workload, the course chapter's "processes that try": each node
//     asks for the critical section --requests times (0 in an exhaustive
//     check: for ever, asking again after every exit), stays --cs-time
//     ticks inside and thinks --think-time ticks between two requests;
//   - the properties: mutual exclusion (check.MutualExclusion), one token
//     (Token), the grant order, no deadlock, no starvation ("every request
//     granted") and termination (a workload without end asks for none);
//   - the promises `check --liveness` judges over every fair cycle: no
//     deadlock, no starvation, and eventually one token where lost tokens
//     are regenerated. Each is a check.Eventually, the engine's one notion
//     of a liveness property: a run that ends owing its promise made no
//     progress (exit 4).
//
// Algorithm registers one from a function that builds its nodes; Spec
// describes one with parameters of its own (ringlab's shipped algorithms
// are Specs). A node answers node.CmdRequest and node.CmdRelease with
// EnterCS and ExitCS, must not report Done under the workload, and is a
// node.Snapshot for the exhaustive checker.
//
// A request is a "cmd" event whose command is node.CmdRequest, whatever its
// Arg (the workload's and the scenarios' requests); a grant is an "enter_cs" event of
// the same node. A node that crashes forgets its outstanding requests: a
// dead node is not starved.
package kit
