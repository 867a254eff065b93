package node

// Shower is an optional method of a Node: how its state shows to a person
// who explores the system (`check --serve`), in the algorithm's own words.
// A node that does not implement it is shown by its fields, read by
// reflection (explore.Show): the field that names its state, the others
// by name, configuration (fields tagged `ringlab:"fixed"`) left out.
//
// Show must not change the node. name names node i as the system does
// ("P2"), so that a field holding a node index can say whom it means.
type Shower interface {
	// Show returns the node's state in the algorithm's words; name(i) is
	// how the system names node i.
	Show(name func(i int) string) Shown
}

// Shown is a node's state as a person reads it.
type Shown struct {
	// State is the state's name as the algorithm says it ("BUSY",
	// "Candidate"): the node's label and colour in the explorer.
	State string
	// Mark is what the node is doing that the explorer marks on it.
	Mark Mark
	// Fields are the node's other variables, in the order to show them.
	Fields []Field
}

// Field is one named variable of a node's state, its value in words.
type Field struct {
	Name  string // "holder"
	Value string // "P2"
}

// Mark is a mark the explorer draws on a node.
type Mark uint8

// The marks: a ring around a node in its critical section, a star on a
// leader.
const (
	MarkNone Mark = iota
	MarkCS
	MarkLeader
)

// String is the mark's name in the explorer's JSON: "", "cs", "leader".
func (m Mark) String() string {
	switch m {
	case MarkCS:
		return "cs"
	case MarkLeader:
		return "leader"
	}
	return ""
}
