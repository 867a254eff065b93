package statespace

import (
	"fmt"

	"ringlab/engine/node"
)

// local is a worker's own view of a shared interner (the parallel
// search): the interner only ever appends, so a copy of its slices taken
// under its lock stays valid below its length, and is taken again only
// for a number beyond it; the maps remember what this worker looked up.
// The workers then read and intern without touching the lock (and its
// cache line) for what they have met before.
type local struct {
	nodeObj []node.Node
	msgs    []node.Msg
	envObj  []*env
	within  []bool
	cmds    []command
	nodeID  map[string]uint32
	ids     map[node.Msg]uint32
	envID   map[string]uint32
	cmdID   map[command]int
}

func newLocal() *local {
	return &local{nodeID: map[string]uint32{}, ids: map[node.Msg]uint32{}, envID: map[string]uint32{}, cmdID: map[command]int{}}
}

// refresh copies the interner's slices into l.
func (in *interner) refresh(l *local) {
	in.mu.RLock()
	l.nodeObj, l.msgs, l.envObj, l.within, l.cmds = in.nodeObj, in.msgs, in.envObj, in.within, in.cmds
	in.mu.RUnlock()
}

func (m *machine) nodeAt(id uint32) node.Node {
	if m.loc == nil {
		return m.in.nodeAt(id)
	}
	if int(id) >= len(m.loc.nodeObj) {
		m.in.refresh(m.loc)
	}
	return m.loc.nodeObj[id]
}

func (m *machine) msgAt(id uint32) node.Msg {
	if m.loc == nil {
		return m.in.msgAt(id)
	}
	if int(id) >= len(m.loc.msgs) {
		m.in.refresh(m.loc)
	}
	return m.loc.msgs[id]
}

func (m *machine) envAt(id uint32) *env {
	if m.loc == nil {
		return m.in.envAt(id)
	}
	if int(id) > len(m.loc.envObj) {
		m.in.refresh(m.loc)
	}
	return m.loc.envObj[id-1]
}

func (m *machine) isWithin(id uint32) bool {
	if m.loc == nil {
		return m.in.isWithin(id)
	}
	if int(id) >= len(m.loc.within) {
		m.in.refresh(m.loc)
	}
	return m.loc.within[id]
}

// internNode is interner.node for machine m.
func (m *machine) internNode(i int, nd node.Node) uint32 {
	if m.loc == nil {
		return m.in.nodeBuf(i, nd, &m.nkb)
	}
	m.nkb = m.in.ops.AppendKey(append(m.nkb[:0], byte(i)), nd)
	if id, ok := m.loc.nodeID[string(m.nkb)]; ok {
		return id
	}
	id := m.in.nodeBuf(i, nd, &m.nkb)
	m.loc.nodeID[string(m.nkb)] = id
	return id
}

// msgID is interner.id for machine m.
func (m *machine) msgID(msg node.Msg) (uint32, error) {
	if m.loc == nil || !isComparable(msg) {
		return m.in.id(msg)
	}
	if id, ok := m.loc.ids[msg]; ok {
		return id, nil
	}
	id, err := m.in.id(msg)
	if err == nil {
		m.loc.ids[msg] = id
	}
	return id, err
}

// derivedID is msgID for a message made from one already interned
// (a shift, Forget, a renaming), which is of an encodable type as
// the one it came from was: an error here is a broken contract of the
// method that made it, kept in m.broken (the step that made it fails,
// takeBroken); the number returned, 0, is then a stand-in.
func (m *machine) derivedID(msg node.Msg, how string) uint32 {
	id, err := m.msgID(msg)
	if err != nil && m.broken == "" {
		m.broken = fmt.Sprintf("%s returned a message that cannot be interned: %v", how, err)
	}
	return id
}

// internEnv is interner.env for machine m.
func (m *machine) internEnv(e *env, k []byte) uint32 {
	if m.loc == nil {
		return m.in.env(e, k)
	}
	if k == nil {
		k = e.appendKey(nil)
	}
	if id, ok := m.loc.envID[string(k)]; ok {
		return id
	}
	id := m.in.env(e, k)
	m.loc.envID[string(k)] = id
	return id
}

// cmdAt is interner.cmdAt for machine m.
func (m *machine) cmdAt(v int32) command {
	if m.loc == nil {
		return m.in.cmdAt(v)
	}
	if int(v) >= len(m.loc.cmds) {
		m.in.refresh(m.loc)
	}
	return m.loc.cmds[v]
}

// internCmd is interner.cmd for machine m: without the interner's lock
// for a command this worker met before (a node's command is interned at
// every step that queues one).
func (m *machine) internCmd(c command) int {
	if m.loc == nil {
		return m.in.cmd(c)
	}
	if id, ok := m.loc.cmdID[c]; ok {
		return id
	}
	id := m.in.cmd(c)
	m.loc.cmdID[c] = id
	return id
}
