package ringspec_test

import (
	"strings"
	"testing"

	"example.com/ringlab-examples/labs/ringelection/ringspec"
	"ringlab/engine"
	"ringlab/engine/node"
)

// quiet is a node that does nothing: Build needs one.
type quiet struct{}

func (*quiet) Step(node.Input, *node.Output) {}

// TestExpectedGivesTheFourRings: the specification's output is there for
// its four rings started by node 1, and for nothing else.
func TestExpectedGivesTheFourRings(t *testing.T) {
	for ids, n := range map[string]int{"5,3,7": 13, "5,3,7,1,4": 23, "5,4,3,2,1": 25, "100,42,7,999,13": 21} {
		parsed, err := ringspec.ParseIDs(ids)
		if err != nil {
			t.Fatal(err)
		}
		lines, ok := ringspec.Expected(parsed, []int{1})
		if !ok || len(lines) != n || !strings.HasPrefix(lines[0], "[Node 1] ID=") {
			t.Errorf("%s: %d lines (%v), want %d from [Node 1]", ids, len(lines), ok, n)
		}
		if _, ok := ringspec.Expected(parsed, []int{2}); ok {
			t.Errorf("%s started by node 2: the specification gives no output", ids)
		}
	}
	if _, ok := ringspec.Expected([]int{3, 5, 7}, []int{1}); ok {
		t.Error("ids 3,5,7: the specification gives no output")
	}
}

// TestBuildRefusesBadParameters: each bad parameter is an error naming it.
func TestBuildRefusesBadParameters(t *testing.T) {
	alg := ringspec.Algorithm("lab", func([]int, int) node.Node { return &quiet{} })
	for _, c := range []struct{ param, value, want string }{
		{"ids", "5,x,7", `ids: "x" is not an id`},
		{"ids", "5,3,5", "ids: id 5 appears twice"},
		{"ids", "5", "ids: a ring needs at least 2 nodes"},
		{"initiators", "4", `initiators: "4" is not a node index 1..3`},
		{"properties", "safety", `properties: unknown property "safety"`},
		{"properties", "transcript", "properties: the specification gives no transcript for ids [5 3 7] started by [1 2 3]"},
	} {
		p := alg.Defaults()
		for name, v := range map[string]string{"ids": "5,3,7", "initiators": "all"} {
			if err := p.Give(name, v); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.Give(c.param, c.value); err != nil {
			t.Fatal(err)
		}
		_, err := alg.Build(p, engine.Env{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--%s %s: %v, want %q", c.param, c.value, err, c.want)
		}
	}
}
