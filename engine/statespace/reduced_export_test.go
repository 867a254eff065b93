package statespace

import (
	"fmt"
	"strings"

	"ringlab/engine/node"
)

// Reduced follows path from cfg's initial state as a reduced search does
// (each state shifted and renamed as it is reached) and returns the
// reduced states it passes through after each prefix in ends (numbers of
// steps), as their keys and their live nodes' snapshots; with noStamps,
// without renumbering low timestamps (node.Values.Stamp).
func Reduced(cfg Config, path []Trans, ends []int, noStamps bool) (keys []string, nodes [][]node.Snapshot, err error) {
	off := ""
	if noStamps {
		off = "stamps"
	}
	return ReducedWithout(cfg, path, ends, off)
}

// ReducedWithout is Reduced with the parts of the reduction named in off
// turned off (as ShiftSpacesWithout names them).
func ReducedWithout(cfg Config, path []Trans, ends []int, off string) (keys []string, nodes [][]node.Snapshot, err error) {
	m, s, err := newMachine(cfg, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	if !shiftable(cfg) {
		return nil, nil, fmt.Errorf("the configuration is not reduced")
	}
	parts := strings.Split(off, ",")
	m.shifting = true
	partsOff(m, parts)
	s = m.shift(s)
	want := map[int]bool{}
	for _, e := range ends {
		want[e] = true
	}
	for k := 0; k <= len(path); k++ {
		if want[k] {
			keys = append(keys, string(s.appendKey(nil, m.in)))
			var ns []node.Snapshot
			for _, id := range s.nodes {
				ns = append(ns, m.nodeAt(id).(node.Snapshot))
			}
			nodes = append(nodes, ns)
		}
		if k == len(path) {
			break
		}
		t, ok := m.find(s, path[k])
		if !ok {
			return nil, nil, fmt.Errorf("step %d (%s) is not enabled", k+1, path[k])
		}
		if s, _, err = m.step(s, t); err != nil {
			return nil, nil, err
		}
		s = m.shift(s)
	}
	return keys, nodes, nil
}
