package enginetest

import (
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"ringlab/engine"
	"ringlab/engine/serve"
	"ringlab/engine/statespace"
)

// ServeEnv names the environment variable that, beside RINGLAB_PATH, makes
// Exhaust open the path in the browser explorer (`check --serve`): it
// serves, on the address the variable holds (127.0.0.1:0 picks a free
// port), the page where the student is the scheduler, opened at the state
// the path or lasso reaches, until the test is stopped with Ctrl-C. A
// failing search prints the command, with -timeout 0 so that go test lets
// it serve and -v so that go test shows at once where it serves:
//
//	RINGLAB_SERVE=127.0.0.1:8080 RINGLAB_PATH=c1,c2,d1-2 go test -v -timeout 0 -run '^TestMutex$' ./mymutex
const ServeEnv = "RINGLAB_SERVE"

// DefaultServeAddr is the address the printed command serves on.
const DefaultServeAddr = "127.0.0.1:8080"

// The explorer's whole-space analysis, which marks every step's fate, is
// bounded as `check --serve` bounds it by default.
const (
	exploreStates = 2_000_000
	exploreTime   = 20 * time.Second
)

// serveOut is where the explorer says where to look: the terminal, not the
// test's log, which go test shows only once the test ends.
var serveOut io.Writer = os.Stderr

// browse is the command that opens the path of replay (a RINGLAB_PATH
// command) in the browser.
func browse(replay string) string {
	return ServeEnv + "=" + DefaultServeAddr + " " + strings.Replace(replay, " go test ", " go test -v -timeout 0 ", 1)
}

// explore serves the explorer of sc's system on addr, opened at labels (a
// path or a lasso), until t's context is done; it reports what keeps it
// from serving.
func explore(t testing.TB, name string, sys engine.System, sc statespace.Config, labels, addr string) {
	t.Helper()
	ln, err := serve.Listen(addr, ServeEnv)
	if err != nil {
		t.Errorf("%s=%q: %v", ServeEnv, addr, err)
		return
	}
	spec := serve.ExploreSpec{Title: name, Topology: sys.Topology, Edges: sys.Edges, Command: goTest(t), Config: sc}
	for i := 1; i <= sys.Nodes; i++ {
		n := "node " + strconv.Itoa(i)
		if sys.Names != nil {
			n = sys.Names(i)
		}
		spec.Names = append(spec.Names, n)
	}
	e, err := serve.NewExplore(t.Context(), spec, exploreStates, exploreTime)
	if err != nil {
		ln.Close()
		t.Errorf("%s: the explorer: %v", name, err)
		return
	}
	if err := serve.RunExplore(t.Context(), e, ln, labels, serveOut); err != nil && t.Context().Err() == nil {
		t.Errorf("%s: the explorer: %v", name, err)
	}
}
