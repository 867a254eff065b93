// Package store holds the tables an exhaustive search (engine/statespace)
// sits on, apart from the search itself: the fingerprints of the states
// seen (FPSet), what is kept of every state (Records: its parent link,
// depth and sleep set, the links mostly on disk), a BFS level (Queue,
// spilled to a file past SpillAt), the sleep sets by number (Seqs),
// growing arrays that never copy
// (Chunked, and Slab and Block off the Go heap), and the GC headroom a
// search holds while its live heap is small (HoldHeadroom). None of it
// knows what a state or a transition is.
package store
