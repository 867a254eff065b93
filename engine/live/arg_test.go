package live

import (
	"fmt"
	"slices"
	"testing"
	"testing/synctest"

	"ringlab/engine/internal/nodetest"
	"ringlab/engine/trace"
)

// TestActionArg: a scripted or reacted Action's Arg reaches the node's
// Input and its cmd event, as the node's command parameter.
func TestActionArg(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := nodetest.NewArgs(3)
		var cmds []string
		_, err := runLive(t.Context(), config{Nodes: 3, Factory: a.Factory(), Script: nodetest.ArgScript(), React: nodetest.ArgReact,
			Sink: func(e *trace.Event) {
				if e.Kind == trace.KindCmd {
					cmds = append(cmds, fmt.Sprintf("%d:%s", e.Node, e.Command()))
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(cmds)
		if want := []string{"1:go@115", "2:go@110", "3:go@7"}; !slices.Equal(cmds, want) || fmt.Sprint(a.Got) != fmt.Sprint(nodetest.ArgWant()) {
			t.Errorf("cmd events %v (want %v), nodes got %v (want %v)", cmds, want, a.Got, nodetest.ArgWant())
		}
	})
}
