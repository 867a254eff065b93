package enginetest

import (
	"fmt"
	"slices"
	"testing"

	"ringlab/engine"
	"ringlab/engine/statespace"
)

// reportLasso says what a liveness search found: a promise never kept on
// a fair cycle, with the lasso (prefix|cycle), the command that replays
// it and its steps in words, the prefix then one turn of the cycle.
func reportLasso(t testing.TB, name string, sys engine.System, sc statespace.Config, l *statespace.Lasso) {
	t.Helper()
	labels := l.String()
	replay := fmt.Sprintf("%s='%s' %s", PathEnv, labels, goTest(t))
	sc.Liveness = false // the replay walks the steps; it judges no cycle
	words, _ := replayPath(t.Context(), sys, sc, slices.Concat(l.Prefix, l.Cycle), replay)
	t.Errorf("%s: no progress: %s never kept (a lasso: the prefix, then a cycle that repeats for ever): %s\nlasso: %s\nreplay (prints the run): %s\nin the browser: %s\nthe lasso in words (the prefix, then one turn of the cycle):\n%s",
		name, l.Property, l.Detail, labels, replay, browse(replay), indent(words))
}
