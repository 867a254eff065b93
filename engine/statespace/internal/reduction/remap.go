package statespace

import (
	"encoding/binary"

	"ringlab/engine/reduce"
)

// remap is what a reduction that renames values inside nodes and messages
// (the identifiers' renaming, the low timestamps' renumbering) keeps: the
// renamed node and message numbers already computed, by the number and a
// key that names the renaming.
type remap struct {
	key   []byte // the renaming's key, after 4 bytes for the number
	nodes map[string]uint32
	msgs  map[string]uint32
}

// begin starts the key of a new renaming (the caller appends what names it).
func (r *remap) begin() {
	r.key = append(r.key[:0], 0, 0, 0, 0)
	if r.nodes == nil {
		r.nodes, r.msgs = map[string]uint32{}, map[string]uint32{}
	}
}

// apply returns a copy of s with every live node and, if msgs, every
// message in flight rewritten by mp (what they declare, node.Valuer), each computed once per (number,
// renaming) and interned.
func (r *remap) apply(m *machine, s *state, msgs bool, mp reduce.Mapping) *state {
	c := s.shallow()
	for k, id := range c.nodes {
		if !c.alive(k + 1) {
			continue
		}
		binary.LittleEndian.PutUint32(r.key, id)
		nid, ok := r.nodes[string(r.key)]
		if !ok {
			nid = m.internNode(k+1, mapNode(m.nodeAt(id), mp))
			r.nodes[string(r.key)] = nid
		}
		c.nodes[k] = nid
	}
	if msgs && len(c.net) > 0 {
		net := make([]item, len(c.net))
		for k, it := range c.net {
			binary.LittleEndian.PutUint32(r.key, it.id)
			mid, ok := r.msgs[string(r.key)]
			if !ok {
				mid = m.derivedID(mapMsg(m.msgAt(it.id), mp), "a renaming of values")
				r.msgs[string(r.key)] = mid
			}
			net[k] = item{link: it.link, id: mid}
		}
		c.net = net
	}
	return c
}
