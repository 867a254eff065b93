package reduction

import (
	"cmp"
	"slices"

	"ringlab/engine"
)

// A Group is the symmetry a search canonicalises states under
// (engine.Symmetry): the renamings of node indices it tries, and the
// numbers of the nodes, messages and environments already renamed by each.
// The search renames a state's parts (it alone knows them all); the group
// says by which permutations, and remembers what each gave.
//
// Rotations: the representative is the rotation of least key (all n
// tried), one per orbit exactly. Interchangeable nodes: they are sorted
// by their local key (state, done, pending inputs, the messages on their
// links), ties kept in index order, and the state renamed accordingly: n
// log n, not k! renamings, but two states of one orbit whose tied nodes
// sit differently may keep two representatives. The form is sound (a
// representative is a renaming of the state, so no orbit is lost) but
// incomplete: the search may keep a few more states than there are
// orbits, never fewer.
type Group struct {
	// Rotations: Rotations[r] renames node i to (i-1+r) mod n + 1 (index
	// 0 unused); nil for interchangeable nodes.
	Rotations [][]int
	// Interchangeable lists the interchangeable nodes, ascending.
	Interchangeable []int
	n               int
	// Renamed interned numbers, by permutation (its bytes) then number.
	nodes, msgs, envs map[string]map[uint32]uint32
	pb                []byte // the permutation of the renaming under way
	order             []int  // scratch: the interchangeable nodes in sorted order
}

// NewGroup returns the group sym declares over n nodes, or why sym is not
// one.
func NewGroup(n int, sym *engine.Symmetry) (*Group, error) {
	if err := sym.Validate(n); err != nil {
		return nil, err
	}
	g := &Group{n: n, nodes: map[string]map[uint32]uint32{},
		msgs: map[string]map[uint32]uint32{}, envs: map[string]map[uint32]uint32{}}
	if sym.Rotations {
		for r := range n {
			p := make([]int, n+1)
			for i := 1; i <= n; i++ {
				p[i] = (i-1+r)%n + 1
			}
			g.Rotations = append(g.Rotations, p)
		}
	} else {
		g.Interchangeable = slices.Sorted(slices.Values(sym.Interchangeable))
	}
	return g, nil
}

// Sort returns the permutation that moves the interchangeable nodes into
// the order of their local keys (locals[k] is the key of the k-th of
// them; ties kept in index order), and whether it moves none.
func (g *Group) Sort(locals []string) (perm []int, same bool) {
	g.order = g.order[:0]
	for k := range g.Interchangeable {
		g.order = append(g.order, k)
	}
	slices.SortStableFunc(g.order, func(a, b int) int { return cmp.Compare(locals[a], locals[b]) })
	p := make([]int, g.n+1)
	for i := range p {
		p[i] = i
	}
	same = true
	for k, from := range g.order {
		p[g.Interchangeable[from]] = g.Interchangeable[k]
		same = same && from == k
	}
	return p, same
}

// Generators are the permutations (of 1..n, index 0 unused) that
// generate the group: the rotation by one, and the exchange of each two
// consecutive interchangeable nodes.
func (g *Group) Generators() [][]int {
	var gens [][]int
	if g.Rotations != nil {
		gens = append(gens, g.Rotations[1])
	}
	for k := 0; k+1 < len(g.Interchangeable); k++ {
		p := make([]int, g.n+1)
		for i := range p {
			p[i] = i
		}
		a, b := g.Interchangeable[k], g.Interchangeable[k+1]
		p[a], p[b] = b, a
		gens = append(gens, p)
	}
	return gens
}

// Begin starts a renaming by perm: the numbers below are those under it.
func (g *Group) Begin(perm []int) {
	g.pb = g.pb[:0]
	for _, j := range perm {
		g.pb = append(g.pb, byte(j))
	}
}

// Node is the number that node number id renames to under the
// permutation Begin set, remembered or made by do.
func (g *Group) Node(id uint32, do func(uint32) (uint32, error)) (uint32, error) {
	return g.renamed(g.nodes, id, do)
}

// Msg is Node for message numbers.
func (g *Group) Msg(id uint32, do func(uint32) (uint32, error)) (uint32, error) {
	return g.renamed(g.msgs, id, do)
}

// Env is Node for environment numbers.
func (g *Group) Env(id uint32, do func(uint32) (uint32, error)) (uint32, error) {
	return g.renamed(g.envs, id, do)
}

// renamed is the number id renames to under the current permutation, from
// cache (by permutation) or by do.
func (g *Group) renamed(cache map[string]map[uint32]uint32, id uint32, do func(uint32) (uint32, error)) (uint32, error) {
	byID, ok := cache[string(g.pb)]
	if !ok {
		byID = map[uint32]uint32{}
		cache[string(g.pb)] = byID
	}
	if r, ok := byID[id]; ok {
		return r, nil
	}
	r, err := do(id)
	if err != nil {
		return 0, err
	}
	byID[id] = r
	return r, nil
}
