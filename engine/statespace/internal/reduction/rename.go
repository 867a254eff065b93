package reduction

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"ringlab/engine/node"
	"ringlab/engine/reduce"
)

// The identifiers' renaming: a state whose live nodes and messages all
// declare their values (node.Valuer) is replaced by its canonical
// renaming, where each owner's identifiers the state holds are renumbered
// 1..k in their order (and the values no one depends on are made
// canonical), so that a participant that numbers its requests for ever
// leaves a finite space.
//
// Why it is exact: write ρ(σ) for σ with its identifiers renamed by ρ, one
// to one and keeping the order, owner by owner. By the contract of node.Values.ID
// ρ(σ) enables the same transitions as σ (the same labels: under FIFO a
// delivery is named by its link alone, and a command or timer carries no
// identifier), and each leads to ρ'(step(σ, t)), ρ' being ρ extended to the
// identifiers the step made up, with the same events but for the
// identifiers they carry; the environment (workload and properties) holds
// no identifier, so it moves alike and judges alike. The canonical
// renaming of σ is ρ_σ(σ), ρ_σ the ranking of σ's identifiers, and any
// order-keeping ρ has ρ_{ρ(σ)}∘ρ = ρ_σ, so σ and ρ(σ) have the same
// canonical renaming. By induction along a path, the full search reaches σ
// exactly when the reduced one reaches its canonical renaming (with dead
// values made canonical); terminal states map to terminal states, and a
// path replayed from the real initial state passes through the real
// states, so every counterexample replays.
//
// It applies where the clock shift does (shiftable: FIFO links, under the
// random policy a link's messages are ordered by their canonical encoding,
// which a renaming changes; and no state constraint).

// renamer is what one search keeps to rename states: scratch space and the
// renamed node and message numbers already computed, by the number and
// the renaming.
type renamer struct {
	ids  []node.ID
	rank []int
	remap
}

func cmpID(a, b node.ID) int {
	if c := cmp.Compare(a.Owner, b.Owner); c != 0 {
		return c
	}
	return cmp.Compare(a.N, b.N)
}

// renameIDs returns s with its identifiers renamed canonically (s itself
// where the renaming does not apply). s is not changed.
func (r *Reducer) renameIDs(s *State) *State {
	rn := &r.sh.ids
	if !r.declared(s) {
		return s
	}
	ids := rn.ids[:0]
	for k, id := range s.Nodes {
		if s.alive(k + 1) {
			ids = append(ids, r.NodeFacts(id).IDs...)
		}
	}
	for _, it := range s.Net {
		ids = append(ids, r.MsgFacts(it.ID).IDs...)
	}
	slices.SortFunc(ids, cmpID)
	ids = slices.Compact(ids)
	rn.ids = ids
	// the renaming, and the key that names it: the identifiers it moves
	rn.rank = rn.rank[:0]
	rn.begin()
	moved := false
	for k, id := range ids {
		n := 1
		if k > 0 && ids[k-1].Owner == id.Owner {
			n = rn.rank[k-1] + 1
		}
		rn.rank = append(rn.rank, n)
		if n != id.N {
			moved = true
			rn.key = binary.AppendVarint(binary.AppendVarint(binary.AppendVarint(rn.key, int64(id.Owner)), int64(id.N)), int64(n))
		}
	}
	rename := func(id node.ID) int {
		k, ok := slices.BinarySearchFunc(ids, id, cmpID)
		if !ok {
			// The state is wrong from here: the search stops at this step
			// (Space.Broken), not here, where no error can be returned.
			r.sp.Broken(fmt.Sprintf("a node renamed the identifier %d of owner %d, which it did not declare (node.Values.ID)", id.N, id.Owner))
			return id.N
		}
		return rn.rank[k]
	}
	if !moved {
		// the shift, under the same condition, cleared the unused values
		return s
	}
	return rn.apply(r, s, true, reduce.Mapping{ID: rename, Dead: true})
}
