package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A lasso opened in the browser (`check --serve --path 'PREFIX|CYCLE'`):
// the cycle's twelve steps are highlighted, its first marked, a note says
// that the last step comes back to the cycle's start, and a last line of
// the path shows the way back, which a click follows to that state. A
// step taken from there is a plain path again: no cycle marked.
func TestBrowserExplorerLasso(t *testing.T) {
	ctx := browser(t)
	base := explorerServer(t, "mutex", "check", "central", "--nodes", "4", "--requests", "0", "--favour", "3", "--por=false")
	const prefix, cycle = "c2,c4,d2-1,d4-1", "c3,d1-2,c2,c2,d3-1,d2-1,d1-2,d1-3,c3,d2-1,d3-1,d1-3"
	do(t, ctx, chromedp.Navigate(base+"/explore?path="+prefix+"%7C"+cycle))
	waitPath(t, ctx, prefix+","+cycle)
	type lasso struct {
		Cycle []string `json:"cycle"`
		Start string   `json:"start"`
		Back  string   `json:"back"`
		Note  string   `json:"note"`
		URL   string   `json:"url"`
	}
	const read = `(() => ({
		cycle: [...document.querySelectorAll("#path li.cycle")].map(li => li.dataset.label),
		start: (document.querySelector("#path li.cyclestart") || {dataset: {}}).dataset.index || "",
		back: (document.querySelector("#path li.cycleback") || {}).textContent || "",
		note: document.getElementById("cycleNote").hidden ? "" : document.getElementById("cycleNote").textContent,
		url: location.search,
	}))()`
	got := eval[lasso](t, ctx, read)
	if len(got.Cycle) != 12 || got.Cycle[0] != "c3" || got.Start != "5" || !strings.Contains(got.Back, "back to the start: state 4") ||
		!strings.Contains(got.Note, "a cycle of 12") || !strings.Contains(got.URL, "%7C") {
		t.Fatalf("the lasso's page: %+v", got)
	}
	click(t, ctx, "#path li.cycleback", prefix)
	if got := eval[lasso](t, ctx, read); len(got.Cycle) != 0 || got.Note != "" || got.Back != "" {
		t.Errorf("after the way back, still a cycle: %+v", got)
	}
}
