package statespace

import (
	"ringlab/engine/node"
	"ringlab/engine/reduce"
)

// A node or message that declares its values (node.Valuer) takes part in
// the reductions through valued, valuedClimber and valuedMsg, which give
// it the reductions' hooks from its declaration (engine/reduce).

// reducible is node number id as the reductions see it: the node itself,
// or its declaration's view.
func (m *machine) reducible(id uint32) node.Snapshot {
	nd := m.nodeAt(id)
	if w, ok := nd.(interface{ Unwrap() node.Node }); ok && !reduce.Declares(w.Unwrap()) {
		return nd // a wrapper of a node that does not declare (mutex's notDone)
	}
	f := m.factsOf(m.shifterOf().nodeFacts, id, nd)
	if f == nil {
		return nd
	}
	v := valued{nd, f}
	if _, ok := nd.(climbHook); ok {
		return valuedClimber{v}
	}
	return v
}

// reducibleMsg is message number id as the reductions see it.
func (m *machine) reducibleMsg(id uint32) node.Msg {
	msg := m.msgAt(id)
	if f := m.factsOf(m.shifterOf().msgFacts, id, msg); f != nil {
		return valuedMsg{msg, f}
	}
	return msg
}

// factsOf is what x, number id, declares (nil: nothing), read once.
func (m *machine) factsOf(cache map[uint32]*reduce.Facts, id uint32, x any) *reduce.Facts {
	if f, ok := cache[id]; ok {
		return f
	}
	var fp *reduce.Facts
	if f, ok := reduce.Read(x); ok {
		fp = &f
	}
	cache[id] = fp
	return fp
}

type climbHook interface {
	Climb(in int) (rise int, ok bool)
}
type forgetHook interface {
	Forget(from int, m node.Msg) (node.Msg, bool)
}

func minus(d int) func(int) int { return func(v int) int { return v - d } }

// valued gives a declared node the reductions' hooks.
type valued struct {
	node.Snapshot
	f *reduce.Facts
}

func (n valued) mapped(mp reduce.Mapping) node.Snapshot {
	return reduce.Map(n.Snapshot, mp).(node.Snapshot)
}

func (n valued) LeastClock() (int, bool, bool) {
	l, has := n.f.Least()
	return l, has, n.f.Exact
}

func (n valued) ShiftClocks(d int) node.Snapshot {
	return n.mapped(reduce.Mapping{Clock: minus(d), Stamp: minus(d), Dead: true})
}

func (n valued) Forget(from int, msg node.Msg) (node.Msg, bool) {
	if f, ok := n.Snapshot.(forgetHook); ok {
		return f.Forget(from, msg)
	}
	return msg, false
}

func (n valued) StampFloor() (int, bool) {
	floor, has := n.f.Floor()
	return floor, has && n.f.Exact
}

func (n valued) AppendStamps(ts []int) []int { return append(ts, n.f.Stamps...) }

func (n valued) RenameStamps(rename func(int) int) node.Snapshot {
	return n.mapped(reduce.Mapping{Stamp: rename, Dead: true})
}

func (n valued) AppendIDs(ids []node.ID) ([]node.ID, bool) {
	return append(ids, n.f.IDs...), n.f.Exact
}

func (n valued) RenameIDs(rename func(node.ID) int) node.Snapshot {
	return n.mapped(reduce.Mapping{ID: rename, Dead: true})
}

func (n valued) Rename(perm []int) node.Snapshot {
	return n.mapped(reduce.Mapping{Index: func(i int) int { return perm[i] }})
}

// valuedClimber is a declared node with a Climb hook.
type valuedClimber struct{ valued }

func (n valuedClimber) AppendValues(vs []int) ([]int, bool) { return n.f.Values(vs), n.f.Exact }

func (n valuedClimber) MapValues(f func(int) int) node.Snapshot {
	return n.mapped(reduce.Mapping{Clock: f, Stamp: f, Dead: true})
}

func (n valuedClimber) Climb(in int) (int, bool) { return n.Snapshot.(climbHook).Climb(in) }

// valuedMsg gives a declared message the reductions' hooks.
type valuedMsg struct {
	node.Msg
	f *reduce.Facts
}

func (m valuedMsg) mapped(mp reduce.Mapping) node.Msg { return reduce.Map(m.Msg, mp).(node.Msg) }

func (m valuedMsg) LeastClock() (int, bool) { return m.f.Least() }

func (m valuedMsg) ShiftClocks(d int) node.Msg {
	return m.mapped(reduce.Mapping{Clock: minus(d), Stamp: minus(d), Dead: true})
}

func (m valuedMsg) AppendStamps(ts []int) []int { return append(ts, m.f.Stamps...) }

func (m valuedMsg) RenameStamps(rename func(int) int) node.Msg {
	return m.mapped(reduce.Mapping{Stamp: rename, Dead: true})
}

func (m valuedMsg) AppendValues(vs []int) []int { return m.f.Values(vs) }

func (m valuedMsg) MapValues(f func(int) int) node.Msg {
	return m.mapped(reduce.Mapping{Clock: f, Stamp: f, Dead: true})
}

func (m valuedMsg) Clock() (int, bool) { return m.f.Brings() }

func (m valuedMsg) AppendIDs(ids []node.ID) []node.ID { return append(ids, m.f.IDs...) }

func (m valuedMsg) RenameIDs(rename func(node.ID) int) node.Msg {
	return m.mapped(reduce.Mapping{ID: rename, Dead: true})
}

func (m valuedMsg) Rename(perm []int) node.Msg {
	return m.mapped(reduce.Mapping{Index: func(i int) int { return perm[i] }})
}
