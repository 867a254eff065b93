package statespace

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/reduce"
	"ringlab/engine/sim"
	"ringlab/engine/statespace/internal/reduction"
)

// symm canonicalises states under Config.Symmetry: the search stores and
// dedups the canonical representative of each state's orbit (the form
// reduction.Group describes), and rebuilds a concrete path from the
// initial state when it reports one (concrete).
type symm struct {
	m   *machine
	n   int
	sym *engine.Symmetry
	*reduction.Group
	kb, kc []byte   // scratch: keys of the best and the candidate
	locals []string // scratch: the interchangeable nodes' local keys
}

// newSymm validates sym for cfg and checks that the initial state's nodes,
// workload and properties can be renamed.
func newSymm(m *machine, s0 *state, sym *engine.Symmetry) (*symm, error) {
	g, err := reduction.NewGroup(m.n, sym)
	if err != nil {
		return nil, err
	}
	y := &symm{m: m, n: m.n, sym: sym, Group: g}
	for i, id := range s0.nodes {
		if nd := m.nodeAt(id); s0.alive(i + 1) {
			if m.nodeFacts(id) == nil {
				return nil, fmt.Errorf("symmetry: node %d (%T) does not declare its node indices (node.Valuer)", i+1, nd)
			}
		}
	}
	if s0.env != 0 {
		e := m.envAt(s0.env)
		if _, ok := e.work.(check.NodeRenamer); e.work != nil && !ok {
			return nil, fmt.Errorf("symmetry: the workload (%T) does not implement check.NodeRenamer", e.work)
		}
		for _, p := range e.props {
			if _, ok := p.(check.NodeRenamer); !ok {
				return nil, fmt.Errorf("symmetry: property %s (%T) keeps a state and does not implement check.NodeRenamer", p.ID(), p)
			}
		}
	}
	return y, nil
}

// symmetryConfig checks that cfg's other options allow its Symmetry and
// turns the partial-order reduction off: the sleep sets name transitions
// of a state as reached, which a renaming into its representative would
// have to rename too (left undone: symmetry replaces the reduction).
func symmetryConfig(cfg *Config) error {
	switch {
	case cfg.Liveness:
		return errors.New("symmetry: refused with liveness (a fair cycle of the quotient need not be one of the system: symmetry can hide a liveness violation)")
	case cfg.Goal != nil:
		return errors.New("symmetry: refused with a goal (a goal may name a particular node)")
	case len(cfg.From) > 0:
		return errors.New("symmetry: refused with a staged start (From)")
	case cfg.CheckClones:
		return errors.New("symmetry: refused with CheckClones (which compares the concrete states)")
	}
	cfg.POR = false
	return nil
}

// canon returns the canonical representative of s and the permutation
// that renames s into it.
func (y *symm) canon(s *state) (*state, []int, error) {
	if y.Rotations != nil {
		return y.canonRotations(s)
	}
	return y.canonSorted(s)
}

func (y *symm) canonRotations(s *state) (*state, []int, error) {
	best, bestPerm := s, y.Rotations[0]
	y.kb = s.appendKey(y.kb[:0], y.m.in)
	for _, p := range y.Rotations[1:] {
		c, err := y.rename(s, p)
		if err != nil {
			return nil, nil, err
		}
		y.kc = c.appendKey(y.kc[:0], y.m.in)
		if bytes.Compare(y.kc, y.kb) < 0 {
			best, bestPerm = c, p
			y.kb, y.kc = y.kc, y.kb
		}
	}
	return best, bestPerm, nil
}

// canonSorted renames the interchangeable nodes in the order of their
// local keys (ties in index order).
func (y *symm) canonSorted(s *state) (*state, []int, error) {
	y.locals = y.locals[:0]
	for _, i := range y.Interchangeable {
		y.locals = append(y.locals, y.local(s, i))
	}
	p, same := y.Sort(y.locals)
	if same {
		return s, p, nil
	}
	c, err := y.rename(s, p)
	return c, p, err
}

// local is node i's own part of s, without its index: what the sort of
// interchangeable nodes compares.
func (y *symm) local(s *state, i int) string {
	b := y.kc[:0]
	switch {
	case !s.alive(i):
		b = append(b, 0)
	case s.done&(1<<(i-1)) != 0:
		b = append(b, 2)
	default:
		b = append(b, 1)
	}
	if s.alive(i) {
		b = y.m.in.ops.AppendKey(b, y.m.nodeAt(s.nodes[i-1]))
	}
	lo, hi := s.pendOf(i)
	for _, p := range s.pend[lo:hi] {
		b = binary.AppendVarint(append(b, p.kind), int64(p.val))
	}
	// the messages on its links, by direction and the node at the other
	// end where that one stays in place (in the net's order: a link's
	// messages in sending order, the links by number)
	for _, it := range s.net {
		from, to := int(it.link)/y.n+1, int(it.link)%y.n+1
		var dir byte
		other := 0
		switch {
		case from == i && to == i:
			dir = 3
		case from == i:
			dir, other = 1, to
		case to == i:
			dir, other = 2, from
		default:
			continue
		}
		if _, moved := slices.BinarySearch(y.Interchangeable, other); moved {
			other = 0
		}
		b = binary.AppendUvarint(binary.AppendUvarint(append(b, dir), uint64(other)), uint64(it.id))
	}
	y.kc = b
	return string(b)
}

// rename returns s with node i renamed perm[i]: the nodes' states moved
// and renamed, the links and messages renamed, the pending inputs and
// the environment's state renamed.
func (y *symm) rename(s *state, perm []int) (*state, error) {
	m, n := y.m, y.n
	y.Begin(perm)
	c := &state{nodes: make([]uint32, n), crashes: s.crashes, drops: s.drops, restarts: s.restarts}
	rename := reduce.Mapping{Index: func(i int) int { return perm[i] }}
	for i := 1; i <= n; i++ {
		j := perm[i]
		if !s.alive(i) {
			c.crashed |= 1 << (j - 1)
			continue
		}
		if s.done&(1<<(i-1)) != 0 {
			c.done |= 1 << (j - 1)
		}
		id, err := y.Node(s.nodes[i-1], func(id uint32) (uint32, error) {
			if m.nodeFacts(id) == nil {
				return 0, fmt.Errorf("symmetry: node %d (%T) does not declare its node indices (node.Valuer)", i, m.nodeAt(id))
			}
			return m.internNode(j, mapNode(m.nodeAt(id), rename)), nil
		})
		if err != nil {
			return nil, err
		}
		c.nodes[j-1] = id
	}
	if len(s.pend) > 0 {
		c.pend = slices.Clone(s.pend)
		for k := range c.pend {
			c.pend[k].node = uint8(perm[c.pend[k].node])
		}
		slices.SortStableFunc(c.pend, func(a, b pend) int { return cmp.Compare(a.node, b.node) })
	}
	if len(s.net) > 0 {
		c.net = slices.Clone(s.net)
		for k, it := range c.net {
			from, to := int(it.link)/n+1, int(it.link)%n+1
			id, err := y.Msg(it.id, func(id uint32) (uint32, error) {
				if m.msgFacts(id) == nil {
					return 0, fmt.Errorf("symmetry: message %s (%T) does not declare its node indices (node.Valuer)", m.msgAt(id).Type(), m.msgAt(id))
				}
				return m.msgID(mapMsg(m.msgAt(id), rename))
			})
			if err != nil {
				return nil, err
			}
			c.net[k] = item{link: uint32((perm[from]-1)*n + perm[to] - 1), id: id}
		}
		random := m.cfg.Policy == sim.PolicyRandom
		slices.SortStableFunc(c.net, func(a, b item) int {
			if a.link != b.link || !random {
				return cmp.Compare(a.link, b.link)
			}
			return m.in.compare(a, b)
		})
	}
	if s.env != 0 {
		id, err := y.Env(s.env, func(id uint32) (uint32, error) {
			e := m.envAt(id).clone()
			if e.work != nil {
				e.work.(check.NodeRenamer).RenameNodes(perm)
			}
			for _, p := range e.props {
				p.(check.NodeRenamer).RenameNodes(perm)
			}
			for _, p := range e.proms {
				r, ok := p.(check.NodeRenamer)
				if !ok {
					return 0, fmt.Errorf("symmetry: promise %T does not implement check.NodeRenamer", p)
				}
				r.RenameNodes(perm)
			}
			return m.internEnv(e, nil), nil
		})
		if err != nil {
			return nil, err
		}
		c.env = id
	}
	return c, nil
}

// concrete rebuilds the concrete path that the canonical path canon
// stands for: from the concrete initial state, at each step the first
// enabled transition whose successor, renamed by the permutation that
// renames the concrete state into the canonical one, is the canonical
// path's successor. It has canon's length, so a shortest path stays one.
// viol is what the last concrete step reported: a violation as the
// concrete path names its nodes.
func (s *searcher) concrete(canon []Trans) (out []Trans, viol *Violation, err error) {
	y, m := s.sym, s.m
	x, c, sigma := s.x0, s.c0, slices.Clone(s.pi0)
	out = make([]Trans, 0, len(canon))
	var want []byte
	for k, t := range canon {
		sn, _, err := s.stepRaw(c, int32(k), t)
		if err != nil {
			return nil, nil, err
		}
		want = sn.appendKey(want[:0], m.in)
		found := false
		for _, u := range m.enabled(x, nil) {
			xn, v, err := s.stepRaw(x, int32(k), u)
			if err != nil {
				return nil, nil, err
			}
			r, err := y.rename(xn, sigma)
			if err != nil {
				return nil, nil, err
			}
			if y.kc = r.appendKey(y.kc[:0], m.in); bytes.Equal(y.kc, want) {
				out, x, viol, found = append(out, u), xn, v, true
				break
			}
		}
		if !found {
			return nil, nil, fmt.Errorf("symmetry: step %d of the path (%s) has no counterpart in the concrete state: the system is not symmetric under %s", k+1, t, y.sym)
		}
		cn, pi, err := y.canon(sn)
		if err != nil {
			return nil, nil, err
		}
		for i := range sigma {
			sigma[i] = pi[sigma[i]]
		}
		c = cn
	}
	return out, viol, nil
}

// CheckSymmetry tests the promise of cfg.Symmetry (engine.Symmetry) on
// the first maxStates states reachable from cfg's initial state (breadth
// first, no reduction, no symmetry): for every state s and every
// generator g of the group (the rotation by one; the exchange of two
// consecutive interchangeable nodes), the successors of g(s) must be the
// g-images of the successors of s, each with the same property broken on
// the way, if any. The properties judged at the end of a run, by
// replaying its path, are not tested. It returns nil or the first
// counterexample: the path to s, the generator and the successors that
// differ.
func CheckSymmetry(ctx context.Context, cfg Config, maxStates int) error {
	if cfg.Symmetry == nil {
		return errors.New("symmetry: none declared")
	}
	cfg.POR = false
	m, s0, err := newMachine(cfg, nil, nil)
	if err != nil {
		return err
	}
	if m.shifting = shiftable(cfg); m.shifting {
		s0 = m.shift(s0)
	}
	y, err := newSymm(m, s0, cfg.Symmetry)
	if err != nil {
		return err
	}
	c := &symCheck{m: m, y: y}
	gens := y.Generators()
	type seen struct {
		parent string
		t      Trans
	}
	k0 := c.key(s0)
	visited := map[string]seen{k0: {}}
	level, depth := []*state{s0}, 0
	for len(level) > 0 && len(visited) < maxStates {
		var next []*state
		for _, x := range level {
			if err := ctx.Err(); err != nil {
				return err
			}
			kx := c.key(x)
			ts := m.enabled(x, nil)
			for _, g := range gens {
				images, direct, err := c.both(x, ts, depth, g)
				if err != nil {
					return err
				}
				if !slices.Equal(images, direct) {
					var path []Trans
					for k := kx; k != k0; k = visited[k].parent {
						path = append(path, visited[k].t)
					}
					slices.Reverse(path)
					return fmt.Errorf("symmetry: %s is not a symmetry: from the state the path %q reaches, renaming by %v then stepping gives %d distinct successors, stepping then renaming %d, and they differ",
						y.sym, FormatPath(path), g[1:], len(direct), len(images))
				}
			}
			for _, t := range ts {
				xn, _, err := c.step(x, depth, t)
				if err != nil {
					return err
				}
				k := c.key(xn)
				if _, ok := visited[k]; ok || len(visited) >= maxStates {
					continue
				}
				visited[k] = seen{parent: kx, t: t}
				next = append(next, xn)
			}
		}
		level, depth = next, depth+1
	}
	return nil
}

// symCheck is CheckSymmetry's machine and symmetry.
type symCheck struct {
	m *machine
	y *symm
}

// key is x's key.
func (c *symCheck) key(x *state) string { return string(x.appendKey(nil, c.m.in)) }

// step takes t from x at depth, shifted as the search would.
func (c *symCheck) step(x *state, depth int, t Trans) (*state, *Violation, error) {
	c.m.now = int64(depth)
	next, v, err := c.m.step(x, t)
	if err == nil && c.m.shifting {
		next = c.m.shift(next)
	}
	return next, v, err
}

// label is x's key and the property broken on the way to it, if any.
func (c *symCheck) label(x *state, v *Violation) string {
	k := c.key(x)
	if v != nil {
		k += "|" + string(v.Property)
	}
	return k
}

// both returns, sorted and without repeats, the labels of the g-images of
// x's successors by ts, and those of the successors of g(x).
func (c *symCheck) both(x *state, ts []Trans, depth int, g []int) (images, direct []string, err error) {
	for _, t := range ts {
		xn, v, err := c.step(x, depth, t)
		if err != nil {
			return nil, nil, err
		}
		r, err := c.y.rename(xn, g)
		if err != nil {
			return nil, nil, err
		}
		images = append(images, c.label(r, v))
	}
	gx, err := c.y.rename(x, g)
	if err != nil {
		return nil, nil, err
	}
	for _, t := range c.m.enabled(gx, nil) {
		xn, v, err := c.step(gx, depth, t)
		if err != nil {
			return nil, nil, err
		}
		direct = append(direct, c.label(xn, v))
	}
	slices.Sort(images)
	slices.Sort(direct)
	return slices.Compact(images), slices.Compact(direct), nil
}
