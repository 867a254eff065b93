package reduction

import (
	"ringlab/engine/node"
	"ringlab/engine/reduce"
)

// The reductions read what nodes and messages declare (node.Valuer,
// engine/reduce) and rewrite it: each collects one class of values from
// every live node and message in flight of a state (values), computes a
// map, and applies it (remap.apply, or the shift's own cache).

// NodeFacts is what node number id declares (nil: nothing), read once.
func (r *Reducer) NodeFacts(id uint32) *reduce.Facts {
	sh := &r.sh
	if int(id) < len(sh.nodeFacts) && sh.nodeFacts[id] != nil {
		return known(sh.nodeFacts[id])
	}
	return remember(&sh.nodeFacts, id, r.sp.Node(id))
}

// MsgFacts is what message number id declares (nil: nothing), read once.
func (r *Reducer) MsgFacts(id uint32) *reduce.Facts {
	sh := &r.sh
	if int(id) < len(sh.msgFacts) && sh.msgFacts[id] != nil {
		return known(sh.msgFacts[id])
	}
	return remember(&sh.msgFacts, id, r.sp.Msg(id))
}

// undeclared marks, in a cache of facts, a number that declares nothing.
var undeclared = new(reduce.Facts)

func known(f *reduce.Facts) *reduce.Facts {
	if f == undeclared {
		return nil
	}
	return f
}

// remember reads what x, number id, declares into the cache.
func remember(cache *[]*reduce.Facts, id uint32, x any) *reduce.Facts {
	if int(id) >= len(*cache) {
		*cache = append(*cache, make([]*reduce.Facts, int(id)+1-len(*cache))...)
	}
	f, ok := reduce.Read(x)
	if !ok {
		(*cache)[id] = undeclared
		return nil
	}
	(*cache)[id] = &f
	return &f
}

// declared reports whether s may be reduced: every live node and every
// message in flight declares its values, every node exactly, and no
// command with an Arg (which may be an absolute clock floor) is pending.
func (r *Reducer) declared(s *State) bool {
	if s.ArgPending {
		return false
	}
	for k, id := range s.Nodes {
		if f := r.NodeFacts(id); s.alive(k+1) && (f == nil || !f.Exact) {
			return false
		}
	}
	for _, it := range s.Net {
		if r.MsgFacts(it.ID) == nil {
			return false
		}
	}
	return true
}

// values appends to vs the values that class picks from what the live
// nodes and the messages in flight of s declare (s declared).
func (r *Reducer) values(s *State, vs []int, class func(f *reduce.Facts, vs []int) []int) []int {
	for k, id := range s.Nodes {
		if s.alive(k + 1) {
			vs = class(r.NodeFacts(id), vs)
		}
	}
	for _, it := range s.Net {
		vs = class(r.MsgFacts(it.ID), vs)
	}
	return vs
}

// The classes values picks.
func clocksAndStamps(f *reduce.Facts, vs []int) []int { return f.Values(vs) }
func stampsOnly(f *reduce.Facts, vs []int) []int      { return append(vs, f.Stamps...) }

// MapNode is node nd rewritten by mp (what it declares, node.Valuer).
func MapNode(nd node.Node, mp reduce.Mapping) node.Node {
	return reduce.Map(nd, mp).(node.Node)
}

// MapMsg is message msg rewritten by mp (what it declares, node.Valuer).
func MapMsg(msg node.Msg, mp reduce.Mapping) node.Msg { return reduce.Map(msg, mp).(node.Msg) }

// minus is the map v -> v-d.
func minus(d int) func(int) int { return func(v int) int { return v - d } }
