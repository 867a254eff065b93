package reduction

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
func (rm *remap) apply(r *Reducer, s *State, msgs bool, mp reduce.Mapping) *State {
	sp := r.sp
	c := r.shallow(s)
	for k, id := range c.Nodes {
		if !c.alive(k + 1) {
			continue
		}
		binary.LittleEndian.PutUint32(rm.key, id)
		nid, ok := rm.nodes[string(rm.key)]
		if !ok {
			nid = sp.InternNode(k+1, MapNode(sp.Node(id), mp))
			rm.nodes[string(rm.key)] = nid
		}
		c.Nodes[k] = nid
	}
	if msgs && len(c.Net) > 0 {
		net := c.ownNet()
		for k, it := range net {
			binary.LittleEndian.PutUint32(rm.key, it.ID)
			mid, ok := rm.msgs[string(rm.key)]
			if !ok {
				mid = sp.InternMsg(MapMsg(sp.Msg(it.ID), mp), "a renaming of values")
				rm.msgs[string(rm.key)] = mid
			}
			net[k] = Item{Link: it.Link, ID: mid}
		}
		c.Net = net
	}
	return c
}
