package statespace

// Orbits counts, by brute force, the states reachable from cfg's initial
// state (breadth first, no reduction, no symmetry) and their orbits under
// every permutation of cfg.Symmetry's group: all n rotations, or all k!
// permutations of the k interchangeable nodes (small k only). An orbit is
// counted once, by the least key among its members' renamings.
func Orbits(cfg Config) (reachable, orbits int, err error) {
	cfg.POR = false
	m, s0, err := newMachine(cfg, nil, nil)
	if err != nil {
		return 0, 0, err
	}
	if m.shifting = shiftable(cfg); m.shifting {
		s0 = m.shift(s0)
	}
	y, err := newSymm(m, s0, cfg.Symmetry)
	if err != nil {
		return 0, 0, err
	}
	group := y.Rotations
	if group == nil {
		var permute func(k int, p []int)
		permute = func(k int, p []int) {
			if k == len(y.Interchangeable) {
				g := make([]int, m.n+1)
				for i := range g {
					g[i] = i
				}
				for j, i := range y.Interchangeable {
					g[i] = y.Interchangeable[p[j]]
				}
				group = append(group, g)
				return
			}
			for j := k; j < len(p); j++ {
				p[k], p[j] = p[j], p[k]
				permute(k+1, p)
				p[k], p[j] = p[j], p[k]
			}
		}
		p := make([]int, len(y.Interchangeable))
		for j := range p {
			p[j] = j
		}
		permute(0, p)
	}
	seen := map[string]bool{string(s0.appendKey(nil, m.in)): true}
	least := map[string]bool{}
	level := []*state{s0}
	for d := 0; len(level) > 0; d++ {
		var next []*state
		for _, s := range level {
			var min string
			for k, g := range group {
				r, err := y.rename(s, g)
				if err != nil {
					return 0, 0, err
				}
				if key := string(r.appendKey(nil, m.in)); k == 0 || key < min {
					min = key
				}
			}
			least[min] = true
			if !m.within(s) {
				continue
			}
			for _, t := range m.enabled(s, nil) {
				m.now = int64(d)
				c, _, err := m.step(s, t)
				if err != nil {
					return 0, 0, err
				}
				if m.shifting {
					c = m.shift(c)
				}
				if k := string(c.appendKey(nil, m.in)); !seen[k] {
					seen[k] = true
					next = append(next, c)
				}
			}
		}
		level = next
	}
	return len(seen), len(least), nil
}
