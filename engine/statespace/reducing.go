package statespace

import (
	"slices"

	"ringlab/engine/node"
	"ringlab/engine/reduce"
	"ringlab/engine/sim"
	"ringlab/engine/statespace/internal/reduction"
)

// The state reductions (the clock shift, forgetting, the gaps narrowed,
// the low timestamps renumbered, the identifiers renamed) live in
// internal/reduction, each with why it is exact. A machine hands them a
// state as a reduction.State and serves them its interner as a
// reduction.Space.

// shiftable reports whether cfg's searches reduce states: only where the
// reductions' argument holds (FIFO links: under the random policy a link's
// messages are ordered by their canonical encoding, which a reduction
// changes; and no state constraint, since Config.Within bounds absolute
// clocks).
func shiftable(cfg Config) bool {
	return !cfg.NoShift && cfg.Within == nil && cfg.Policy == sim.PolicyFIFO
}

// reducing is what a machine keeps to reduce states: its Reducer and
// scratch for the state handed to it.
type reducing struct {
	r  *reduction.Reducer
	in reduction.State
}

// reducer is m's Reducer, made on first use.
func (m *machine) reducer() *reduction.Reducer {
	if m.red == nil {
		m.red = &reducing{r: reduction.New((*space)(m))}
	}
	return m.red.r
}

// shift returns the state a reduced search keeps for s (s itself if no
// reduction changes it): a new state, copied out of the Reducer's, that
// shares with s the slices the reductions leave as they are. s is not
// changed.
func (m *machine) shift(s *state) *state {
	r := m.reducer()
	in := &m.red.in
	*in = reduction.State{Nodes: s.nodes, Crashed: s.crashed, Net: in.Net[:0], Env: s.env,
		Restarting: int(s.restarts) < m.cfg.Restarts}
	for _, p := range s.pend {
		if p.kind == pendCmd && m.cmdAt(p.val).arg != 0 {
			in.ArgPending = true
		}
	}
	for _, it := range s.net {
		in.Net = append(in.Net, reduction.Item{Link: it.link, ID: it.id})
	}
	out := r.Reduce(in)
	sameNodes, sameNet := slices.Equal(out.Nodes, s.nodes), slices.Equal(out.Net, in.Net)
	if sameNodes && sameNet && out.Env == s.env {
		return s
	}
	c := *s
	c.env = out.Env
	if !sameNodes {
		c.nodes = slices.Clone(out.Nodes)
	}
	if !sameNet {
		c.net = make([]item, len(out.Net))
		for k, it := range out.Net {
			c.net[k] = item{link: it.Link, id: it.ID}
		}
	}
	return &c
}

// nodeFacts is what node number id declares (nil: nothing), read once.
func (m *machine) nodeFacts(id uint32) *reduce.Facts { return m.reducer().NodeFacts(id) }

// msgFacts is what message number id declares (nil: nothing), read once.
func (m *machine) msgFacts(id uint32) *reduce.Facts { return m.reducer().MsgFacts(id) }

// mapNode is node nd rewritten by mp; mapMsg is message msg rewritten
// (the symmetry's renaming).
var mapNode, mapMsg = reduction.MapNode, reduction.MapMsg

// space is a machine as the reductions see it (reduction.Space).
type space machine

func (sp *space) Node(id uint32) node.Node { return (*machine)(sp).nodeAt(id) }
func (sp *space) Msg(id uint32) node.Msg   { return (*machine)(sp).msgAt(id) }

func (sp *space) InternNode(i int, nd node.Node) uint32 {
	return (*machine)(sp).internNode(i, nd)
}

func (sp *space) InternMsg(msg node.Msg, how string) uint32 {
	return (*machine)(sp).derivedID(msg, how)
}

func (sp *space) EnvStamps(env uint32, ts []int) []int {
	return (*machine)(sp).stampsOfEnv(env, ts)
}

func (sp *space) RenameEnvStamps(env uint32, rename func(int) int) uint32 {
	return (*machine)(sp).renameEnvStamps(env, rename)
}

// Broken keeps the first broken contract a reduction met: the step fails
// with it (takeBroken).
func (sp *space) Broken(what string) {
	if sp.broken == "" {
		sp.broken = what
	}
}
