package statespace

import (
	"fmt"
	"slices"
	"strings"
)

// ShiftSpaces searches cfg's graph breadth first, with no reduction but
// the clock shift, up to depth (0: none) or limit states: once with states
// as they are (full) and once shifted (shifted), with one interner so that
// their keys compare. Each map takes a state's key (in full, the key of
// its shift) to what the search sees of it: whether it is terminal, and
// each transition's label, violation and successor's key (in full, the
// key of the successor's shift). For full it is an error if two states
// with the same shift are seen differently. The shift is exact when the
// two maps are equal.
func ShiftSpaces(cfg Config, depth, limit int) (full, shifted map[string]string, err error) {
	return shiftSpaces(cfg, depth, limit, "")
}

// ShiftSpacesWithout is ShiftSpaces with parts of the reduction off, named
// in off, comma-separated: "forget" (node.Forgetter), "stamps"
// (node.Values.Stamp), "gaps" (node.Climber); "" keeps every part. What a part
// merges is the difference. "narrow-1" keeps every part but narrows each
// gap to one less than the bound: a reduction broken on purpose.
func ShiftSpacesWithout(cfg Config, depth, limit int, off string) (full, shifted map[string]string, err error) {
	return shiftSpaces(cfg, depth, limit, off)
}

func shiftSpaces(cfg Config, depth, limit int, off string) (full, shifted map[string]string, err error) {
	m, s0, err := newMachine(cfg, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	parts := strings.Split(off, ",")
	m.shifting = true
	partsOff(m, parts)
	bfs := func(shift bool) (map[string]string, error) {
		canon := func(s *state) *state {
			if shift {
				return s
			}
			return m.shift(s)
		}
		start := s0
		if shift {
			start = m.shift(s0)
		}
		seen := map[string]bool{string(start.appendKey(nil, m.in)): true}
		out := map[string]string{}
		level := []*state{start}
		for d := 0; len(level) > 0 && (depth == 0 || d <= depth); d++ {
			var next []*state
			for _, s := range level {
				var b strings.Builder
				fmt.Fprintf(&b, "terminal=%v;", m.terminal(s))
				ts := m.enabled(s, nil)
				var lines []string
				for _, t := range ts {
					m.now = int64(d)
					c, viol, err := m.step(s, t)
					if err != nil {
						return nil, err
					}
					if shift {
						c = m.shift(c)
					}
					v := ""
					if viol != nil {
						v = string(viol.Property)
					}
					lines = append(lines, fmt.Sprintf("%s %s %x", t, v, canon(c).appendKey(nil, m.in)))
					if k := string(c.appendKey(nil, m.in)); !seen[k] && (depth == 0 || d < depth) {
						seen[k] = true
						next = append(next, c)
					}
				}
				slices.Sort(lines)
				b.WriteString(strings.Join(lines, ";"))
				k := string(canon(s).appendKey(nil, m.in))
				if old, ok := out[k]; ok && old != b.String() {
					return nil, fmt.Errorf("two states with the same shift differ:\n%s\n%s", old, b.String())
				}
				out[k] = b.String()
				if len(seen) > limit {
					return nil, fmt.Errorf("more than %d states", limit)
				}
			}
			level = next
		}
		return out, nil
	}
	if full, err = bfs(false); err != nil {
		return nil, nil, err
	}
	shifted, err = bfs(true)
	return full, shifted, err
}

// partsOff turns off the parts of m's reduction named in parts (as
// ShiftSpacesWithout names them).
func partsOff(m *machine, parts []string) {
	r := m.reducer()
	r.NoForget, r.NoStamps, r.NoGaps = slices.Contains(parts, "forget"), slices.Contains(parts, "stamps"), slices.Contains(parts, "gaps")
	if slices.Contains(parts, "narrow-1") {
		r.GapSlack = -1
	}
}
