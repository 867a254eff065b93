package statespace

import (
	"ringlab/engine"
	"ringlab/engine/node"
)

// goal reports whether Config.Goal holds in s.
func (m *machine) goal(s *state) bool {
	g := engine.GlobalState{Nodes: make([]node.Node, m.n)}
	for k, id := range s.nodes {
		if s.alive(k + 1) {
			g.Nodes[k] = m.nodeAt(id)
		}
	}
	for _, it := range s.net {
		g.InFlight = append(g.InFlight, engine.InFlight{From: int(it.link)/m.n + 1, To: int(it.link)%m.n + 1, Msg: m.msgAt(it.id)})
	}
	if s.env != 0 {
		g.Monitor = m.envAt(s.env).mon
	}
	return m.cfg.Goal.Holds(g)
}
