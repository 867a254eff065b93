package check

import (
	"strings"
	"testing"

	"ringlab/engine/trace"
)

// A violation's time is written as the run's text writes it: ticks as a
// number in the simulator, nanoseconds with a unit on the live and broker
// runtimes (a multi-process run judges times from its start).
func TestViolationTimesInTheRunsUnit(t *testing.T) {
	for _, tc := range []struct{ runtime, want string }{
		{"sim", "(t=1500000)"},
		{"live", "(t=1.5ms)"},
		{"amqp", "(t=1.5ms)"},
	} {
		m := &MutualExclusion{}
		s := NewSet(m)
		s.SetNames(func(i int) string { return "P" + string(rune('0'+i)) })
		s.SetTimes(tc.runtime)
		s.Observe(&trace.Event{Kind: trace.KindEnterCS, Node: 1, T: 1_000_000})
		vs := s.Observe(&trace.Event{Kind: trace.KindEnterCS, Node: 2, T: 1_500_000})
		if len(vs) != 1 || !strings.HasSuffix(vs[0].Detail, tc.want) || !strings.HasPrefix(vs[0].Detail, "P1 and P2 ") {
			t.Errorf("%s: %v, want P1 and P2 ... %s", tc.runtime, vs, tc.want)
		}
	}
}
