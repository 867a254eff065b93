package explore

import (
	"fmt"
	"slices"
	"testing"

	"ringlab/engine/node"
)

type phase uint8

func (p phase) String() string { return [...]string{"Idle", "Candidate", "Elected"}[p] }

type entry struct{ T, ID int }

type shownNode struct {
	cfg     struct{ N int } `ringlab:"fixed"`
	index   int             `ringlab:"fixed"`
	state   phase
	replied [4]bool // indexed by node, for a run of 3
	queue   []entry
	name    func(int) string
}

type ownShow struct{ busy bool }

func (o *ownShow) Show(name func(int) string) node.Shown {
	if o.busy {
		return node.Shown{State: "BUSY", Fields: []node.Field{{Name: "holder", Value: name(3)}}}
	}
	return node.Shown{State: "FREE"}
}

func (o *ownShow) Step(node.Input, *node.Output) {}

// wrapper is an adapter that holds the algorithm's node in an unexported
// field and says what it wraps, as the registries' adapters do.
type wrapper struct {
	nd   *ownShow
	done bool
}

func (w wrapper) Step(in node.Input, out *node.Output) { w.nd.Step(in, out) }
func (w wrapper) Unwrap() node.Node                    { return w.nd }

// The default view names the state by its String, hides the
// configuration and functions, cuts an array indexed by node to the run,
// writes structs and lists without Go's brackets, and marks a leader.
func TestShowDefault(t *testing.T) {
	nd := &shownNode{cfg: struct{ N int }{3}, name: func(int) string { return "" }, index: 1, state: 2, replied: [4]bool{false, true, false, true}, queue: []entry{{1, 2}, {3, 1}}}
	got := Show(nd, 3, func(i int) string { return fmt.Sprint("P", i) })
	want := node.Shown{State: "Elected", Mark: node.MarkLeader, Fields: []node.Field{
		{Name: "replied", Value: "true, false, true"},
		{Name: "queue", Value: "(T=1 ID=2), (T=3 ID=1)"},
	}}
	if got.State != want.State || got.Mark != want.Mark || !slices.Equal(got.Fields, want.Fields) {
		t.Errorf("Show = %+v\nwant %+v", got, want)
	}
	if got := Show(&shownNode{}, 5, nil); got.State != "Idle" || got.Mark != node.MarkNone || got.Fields[0].Value != "false, false, false, false" || got.Fields[1].Value != "none" {
		t.Errorf("Show in a run of 5 = %+v", got)
	}
}

// A node that implements node.Shower shows as it says, through an
// adapter that wraps it; its mark, when it gives none, comes from its
// state's name.
func TestShowOwn(t *testing.T) {
	name := func(i int) string { return fmt.Sprint("P", i) }
	got := Show(wrapper{nd: &ownShow{busy: true}, done: true}, 3, name)
	if got.State != "BUSY" || len(got.Fields) != 1 || got.Fields[0] != (node.Field{Name: "holder", Value: "P3"}) {
		t.Errorf("Show = %+v", got)
	}
	if got := Show(struct{ state string }{"HELD"}, 2, name); got.State != "HELD" || got.Mark != node.MarkCS {
		t.Errorf("a HELD node: %+v", got)
	}
}
