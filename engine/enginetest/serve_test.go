package enginetest_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"ringlab/engine/enginetest"
)

// cancelled is a recorder whose context the test ends.
type cancelled struct {
	*recorder
	ctx context.Context
}

func (c cancelled) Context() context.Context { return c.ctx }

// TestExhaustServesThePathInTheBrowser: a failing search prints the
// command that opens its path in the explorer; with RINGLAB_SERVE beside
// RINGLAB_PATH, Exhaust serves the page at that path's state until the
// test's context ends, and the page's state is the path's.
func TestExhaustServesThePathInTheBrowser(t *testing.T) {
	greedy := params(map[string]any{"greedy": true})
	r := record(t)
	enginetest.Exhaust(r, relayAlgorithm(), greedy)
	if len(r.errs) != 1 {
		t.Fatalf("want one report, got %v", r.errs)
	}
	contains(t, "the report", r.errs[0], "in the browser: RINGLAB_SERVE=127.0.0.1:8080 RINGLAB_PATH=c1,c3,d1-2 go test -v -timeout 0 -run '^TestExhaustServesThePathInTheBrowser$' ./engine/enginetest")

	t.Setenv(enginetest.PathEnv, "c1,c3,d1-2")
	t.Setenv(enginetest.ServeEnv, "127.0.0.1:0")
	pr, pw := io.Pipe()
	defer enginetest.SetServeOut(enginetest.SetServeOut(pw))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c := cancelled{record(t), ctx}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer pw.Close()
		enginetest.Exhaust(c, relayAlgorithm(), greedy)
	}()
	var url string
	sc := bufio.NewScanner(pr)
	for url == "" && sc.Scan() {
		if m := regexp.MustCompile(`exploring relay at (\S+) \(Ctrl-C to stop\)`).FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
	}
	go io.Copy(io.Discard, pr) // whatever else it says
	if url == "" {
		cancel()
		<-done
		t.Fatalf("the explorer never said where it serves: %v", c.errs)
	}
	if !strings.HasSuffix(url, "/explore?path=c1,c3,d1-2") {
		t.Errorf("the page opens at %s, not the path's state", url)
	}
	base, _, _ := strings.Cut(url, "/explore")
	state := get(t, base+"/api/state?path=c1,c3,d1-2")
	cancel()
	<-done
	if len(c.errs) != 1 { // the replay's own verdict, and nothing from serving
		t.Fatalf("serving: want the replay's violation alone, got %v", c.errs)
	}
	contains(t, "the replay", c.errs[0], "relay, path c1,c3,d1-2: mutual exclusion violated")
	contains(t, "the state at c1,c3,d1-2", state, `"path":"c1,c3,d1-2"`, `"name":"node 3"`, `"inCS: true"`, `"id":"mutual exclusion"`)
}

// get returns the body of url's page, failing t unless it is served.
func get(t *testing.T, url string) string {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}} // no idle connection left behind
	res, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %v\n%s", url, res.Status, err, b)
	}
	return string(b)
}
