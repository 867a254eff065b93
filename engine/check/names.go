package check

import (
	"slices"
	"strings"

	"ringlab/engine/trace"
)

// Namer is a Property whose texts name nodes: Set.SetNames gives it the
// run's display names so that a verdict says "P1 and P2", as the text
// output and the diagrams do, rather than indices.
type Namer interface {
	// SetNames gives the property node i's display name, name(i).
	SetNames(name func(int) string)
}

// Names is embedded by properties that name nodes; without SetNames a node
// is "node I".
type Names struct{ name func(int) string }

// SetNames sets the names.
func (n *Names) SetNames(name func(int) string) { n.name = name }

// Name is node i's display name.
func (n *Names) Name(i int) string {
	if n.name == nil {
		return trace.DefaultName(i)
	}
	return n.name(i)
}

// List names nodes: "P1", "P1 and P2", "P1, P2 and P3", in index order.
func (n *Names) List(ns []int) string {
	ns = slices.Sorted(slices.Values(ns))
	parts := make([]string, len(ns))
	for k, i := range ns {
		parts[k] = n.Name(i)
	}
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// ListSet names the nodes of a set (see List).
func (n *Names) ListSet(set map[int]bool) string {
	ns := make([]int, 0, len(set))
	for k := range set {
		ns = append(ns, k)
	}
	return n.List(ns)
}

// SetNames gives every property of s that names nodes the run's names.
func (s *Set) SetNames(name func(int) string) {
	for _, c := range s.Properties {
		if nm, ok := c.(Namer); ok {
			nm.SetNames(name)
		}
	}
}
