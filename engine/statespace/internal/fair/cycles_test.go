package fair

import "testing"

// Count counts the components with a cycle: a self-step and a round of
// two states count, a diamond (paths of two lengths to one state, as a
// breadth-first search's steps back to a shallower state make) does not.
func TestCyclesCount(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		steps [][2]int32
		want  int64
	}{
		{"diamond", 4, [][2]int32{{0, 1}, {0, 2}, {1, 3}, {2, 1}, {2, 3}}, 0},
		{"self-step", 3, [][2]int32{{0, 1}, {1, 1}, {1, 2}}, 1},
		{"two rounds", 6, [][2]int32{{0, 1}, {1, 2}, {2, 1}, {0, 3}, {3, 4}, {4, 5}, {5, 3}}, 2},
		{"none", 1, nil, 0},
	} {
		g := &Cycles{}
		for _, st := range c.steps {
			g.Step(st[0], st[1])
		}
		if got := g.Count(c.n); got != c.want {
			t.Errorf("%s: %d components with a cycle, want %d", c.name, got, c.want)
		}
	}
}
