package node

// Valuer is implemented by a node or a message (on its pointer, so that
// the checker can write through what it declares) that declares which of
// its values are clocks, timestamps, identifiers and node indices. The
// exhaustive checker uses the declaration to shift clocks, renumber low
// timestamps, narrow gaps, rename identifiers and rename nodes under a
// symmetry, and the node writes none of that code: Values lists the
// values, and the checker reads or rewrites them in a private copy.
//
// Values must declare each value once, the same ones whenever it is
// called on the same state, and only values the node's future reads (a value it keeps but no
// longer reads is reported as Unused). A node whose nodes and messages
// do not all implement Valuer is not reduced. What makes each reduction
// exact is in the doc of the Values method that declares its values.
type Valuer interface {
	// Values declares the values of the node (or message) to v.
	Values(v *Values)
}

// Values receives what a Valuer declares. The checker hands one to
// Values; a node only calls its methods, with pointers into itself.
type Values struct {
	// Clocks, Stamps, IDs, Indices and Dead are the values declared by
	// Clock, Stamp, ID, Index and Unused, in order (IDs with their owners
	// in Owners): what the checker reads.
	Clocks, Stamps, Indices []*int
	IDs                     []*int
	Owners                  []int
	Dead                    []any
	// NotExact is set by Inexact.
	NotExact bool
}

// Reset empties v for another declaration, keeping its storage.
func (v *Values) Reset() {
	clear(v.Dead)
	*v = Values{Clocks: v.Clocks[:0], Stamps: v.Stamps[:0], Indices: v.Indices[:0],
		IDs: v.IDs[:0], Owners: v.Owners[:0], Dead: v.Dead[:0]}
}

// Clock declares a Lamport clock: the node's own, or in a message the
// clock it brings its receiver (the value the receiver takes the max
// with). Clocks and timestamps matter only relative to one another: the
// checker shifts them all by the same amount, so that the least is 1.
// That is exact when a step only compares them with one another (<, =),
// takes their max and adds constants to them; it is not if a step
// compares one with a constant, or if something outside the nodes and
// messages (a command's Arg, the workload) holds one. A 0 that means
// "none" is not declared.
//
// A node's clock also bounds its timestamps (see Stamp): it never
// decreases, and every timestamp the node makes from now on is above it.
func (v *Values) Clock(p *int) { v.Clocks = append(v.Clocks, p) }

// Stamp declares a timestamp: a value compared only with the others (for
// order and equality) and fed to a clock only by max, never added to.
// Besides shifting it with the clocks, the checker renumbers the
// timestamps below every node's clock, keeping their order and
// equalities, to the values just below the least clock (a timestamp below
// every clock is below every one made later, and leaves a clock as it is
// when fed to it). A restart, which rebuilds a node with a lower clock, is
// outside the contract: the checker does not renumber while one may
// happen.
func (v *Values) Stamp(p *int) { v.Stamps = append(v.Stamps, p) }

// ID declares an identifier the node makes up (a request number, a
// token's generation): *n, one of owner's identifiers. The checker renames
// each owner's identifiers a state holds to 1..k in the same order. That
// is exact when a node compares an owner's identifiers only with one
// another (=, <) and makes up a new one only as one more than the greatest
// of the owner's the state holds (so the owner declares its latest one as
// long as it may make up another). A 0 means "none" and is never renamed.
func (v *Values) ID(owner int, n *int) {
	v.Owners = append(v.Owners, owner)
	v.IDs = append(v.IDs, n)
}

// Index declares a node index (1..n; 0 for none): the node's own, a
// neighbour's, an entry of a queue. Under a symmetry (engine.Symmetry)
// the checker renames node i to perm[i] and every index with it. A value
// that only names something (a token's name) is not an index.
func (v *Values) Index(p *int) { v.Indices = append(v.Indices, p) }

// Unused declares a value the node keeps but its future no longer reads
// (the timestamp of a request already granted): p points to it, and the
// checker clears it as Go's clear does for a map or a slice, and sets
// anything else to its zero value, so that states that differ only in it
// become one.
func (v *Values) Unused(p any) { v.Dead = append(v.Dead, p) }

// Inexact says the contracts do not hold for the node as it stands (an
// absolute clock floor pending, say): a state with such a node is not
// reduced.
func (v *Values) Inexact() { v.NotExact = true }
