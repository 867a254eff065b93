package statespace

import (
	"context"
	"strings"
	"testing"

	"ringlab/engine/node"
)

// muted prints the same whoever sent it: a lossy String.
type muted struct{ From int }

func (muted) Type() string      { return "HELLO" }
func (muted) String() string    { return "hello" }
func (m muted) sender() int     { return m.From }
func (m mutedList) sender() int { return m.From[0] }

// mutedList is muted that is not comparable (a slice field): it is told
// apart by its encoding alone.
type mutedList struct{ From []int }

func (mutedList) Type() string   { return "HELLO" }
func (mutedList) String() string { return "hello" }

// mutedCollector is collector with a message of the test's choosing.
type mutedCollector struct {
	collector
	msg func(from int) node.Msg
}

func (c *mutedCollector) Step(in node.Input, out *node.Output) {
	switch {
	case in.Kind == node.InCmd && c.index != 1:
		out.Send(1, c.msg(c.index))
	case in.Kind == node.InMsg && c.index == 1:
		c.order = append(c.order, in.Msg.(interface{ sender() int }).sender())
	}
}

func (c *mutedCollector) Clone() node.Node {
	return &mutedCollector{*c.collector.Clone().(*collector), c.msg}
}

// A message is its value, not its text: the hand-counted system of
// TestSearchCountsEveryStateOfAHandCountedSystem, whose messages print
// alike, has its 38 states and 6 terminal ones (told apart by how they
// print, the three messages were one: 27 states, 1 terminal).
func TestMessagesThatPrintAlikeAreToldApart(t *testing.T) {
	for name, msg := range map[string]func(int) node.Msg{
		"comparable":     func(i int) node.Msg { return muted{i} },
		"not comparable": func(i int) node.Msg { return mutedList{[]int{i}} },
	} {
		for _, workers := range []int{1, 2} {
			cfg := collectors(3)
			cfg.Workers = workers
			cfg.Factory = func(i int) (node.Node, error) {
				return &mutedCollector{collector{index: i}, msg}, nil
			}
			res, err := Search(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Exhausted || res.Distinct != 38 || res.Terminal != 6 {
				t.Errorf("%s, %d workers: exhausted %v, %d states, %d terminal; want 38 and 6",
					name, workers, res.Exhausted, res.Distinct, res.Terminal)
			}
		}
	}
}

// funcMsg holds a func: it has no value to tell it apart by.
type funcMsg struct{ F func() }

func (funcMsg) Type() string { return "F" }
func (funcMsg) sender() int  { return 0 }

func TestAMessageWithoutAValueIsAnError(t *testing.T) {
	cfg := collectors(1)
	cfg.Factory = func(i int) (node.Node, error) {
		return &mutedCollector{collector{index: i}, func(int) node.Msg { return funcMsg{} }}, nil
	}
	_, err := Search(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "funcMsg).F") {
		t.Fatalf("err = %v, want one naming the field F of funcMsg", err)
	}
	if testing.Verbose() {
		t.Log(err)
	}
}
