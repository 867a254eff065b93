// Package explore walks a system's state graph as a user who schedules
// does, and analyses it whole.
//
// An Explorer takes the same statespace.Config as the exhaustive search
// and steps the same real node code one choice at a time: At replays a
// path and shows the state it reaches (every node, every message in
// flight, each property's status) with every step enabled there, and the
// key of the state each leads to. The keys are those of the states the
// search keeps, reduced exactly (clocks shifted, identifiers renamed), so
// a workload with no end stays finite here too.
//
// Over the whole graph, explored without the partial-order reduction:
// Analyze gives every state its Fate (whether a violation is safe from
// it, reachable or unavoidable) and the fewest and most messages any
// continuation still sends; AnalyzeExtremes adds what is worst and best
// over every schedule (Extremes: messages in total and by type, in
// flight, the longest wait; PerEntry: messages per entry over the
// cycles), each figure with a path that attains it; Shortest finds the
// nearest violation from a state. NeverKept, Unkept and Refuted judge a
// lasso by the promises its cycle leaves owed for ever, UnfairCycle by
// the steps it leaves enabled and never takes.
//
// The package stands on statespace's exported API alone: a
// statespace.Machine steps the states, statespace.FairGroup says which
// steps fairness groups, and statespace.ReplayLasso replays a lasso. A
// user's package can walk a graph as this one does.
package explore
