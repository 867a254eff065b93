package main

// The screenshots of engine/serve's README "The four cases, in English and
// Portuguese": the explorer opened on each case of #35, in each language,
// by headless Chromium. Taking them costs a browser and a few seconds a
// shot, so TestScreenshots runs only when asked (RINGLAB_SCREENSHOTS=1, or
// RINGLAB_UPDATE=1 as for the other pictures); TestREADMEImages checks on
// every run that each PNG a README shows is there and valid.

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// screenCase is one of the four cases a student is asked to schedule.
type screenCase struct {
	name      string   // the file's stem: case-NAME-LANG.png
	args      []string // the check command the explorer serves, without --serve
	violation bool     // the shot shows a violation: the state check's shortest path reaches
	path      string   // otherwise the state shown
}

var screenCases = []screenCase{
	{name: "lamport", violation: true,
		args: []string{"mutex", "check", "lamport", "--nodes", "2", "--policy", "random", "--property", "mutual-exclusion"}},
	{name: "central", violation: true,
		args: []string{"mutex", "check", "central", "--nodes", "3", "--grant-timeout", "10", "--property", "mutual-exclusion"}},
	{name: "anonymous", violation: true,
		args: []string{"election", "check", "anonymous", "--nodes", "3", "--initiators", "all"}},
	// P1 in the critical section, P2 and P3 waiting, their replies deferred
	{name: "ricart-agrawala", path: "c1,c2,c3,d1-2,d1-3,d2-1,d2-3,d3-1,d3-2,d2-1,d3-1",
		args: []string{"mutex", "check", "ricart-agrawala", "--nodes", "3"}},
}

// screenLangs are the page's languages, each with its <html lang>.
var screenLangs = []struct{ flag, html string }{{"en", "en"}, {"pt", "pt-BR"}}

// screenWidth and screenHeight are the viewport of a shot: readable, and
// small enough that a PNG stays under TestREADMEImages' bound.
const screenWidth, screenHeight = 1000, 1000

func screenshotFile(name, lang string) string {
	return filepath.Join("engine", "serve", "testdata", "case-"+name+"-"+lang+".png")
}

// TestScreenshots opens the explorer on each case in each language and
// writes engine/serve/testdata/case-NAME-LANG.png. The Portuguese shots
// are skipped, saying so, while `check` has no --lang or the page is not
// in Portuguese.
func TestScreenshots(t *testing.T) {
	if os.Getenv("RINGLAB_SCREENSHOTS") != "1" && os.Getenv("RINGLAB_UPDATE") != "1" {
		t.Skip("retakes engine/serve's screenshots only when asked: RINGLAB_SCREENSHOTS=1 go test . -run TestScreenshots (TestREADMEImages checks the files on every run)")
	}
	readme, err := os.ReadFile(filepath.Join("engine", "serve", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)
	for _, c := range screenCases {
		path := c.path
		if c.violation {
			path = shortestPathOf(t, c.args)
		}
		for _, lang := range screenLangs {
			t.Run(c.name+"/"+lang.flag, func(t *testing.T) {
				args := c.args
				if lang.flag != "en" {
					if !takesFlag(t, c.args, "--lang") {
						t.Skipf("ringlab %s has no --lang yet: no %s shot", strings.Join(c.args, " "), lang.flag)
					}
					args = append(slices.Clone(args), "--lang", lang.flag)
				}
				base := explorerServer(t, args...)
				tab, cancel := chromedp.NewContext(ctx)
				defer cancel()
				do(t, tab, chromedp.EmulateViewport(screenWidth, screenHeight))
				openAt(t, tab, base, path)
				if got := eval[string](t, tab, `document.documentElement.lang`); got != lang.html {
					if lang.flag != "en" {
						t.Skipf("the page says <html lang=%q> with --lang %s: not translated yet, no shot", got, lang.flag)
					}
					t.Fatalf("<html lang=%q>, want %q", got, lang.html)
				}
				if banner := eval[bool](t, tab, `!document.getElementById("banner").hidden`); banner != c.violation {
					t.Fatalf("at %s the violation banner shows: %v, want %v", path, banner, c.violation)
				}
				// the pointer in a corner, so no tooltip hides the page
				do(t, tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, screenWidth-5, screenHeight-5))
				file := screenshotFile(c.name, lang.flag)
				shoot(t, tab, file)
				if name := "(testdata/" + filepath.Base(file) + ")"; !bytes.Contains(readme, []byte(name)) {
					t.Errorf("took %s, but engine/serve/README.md does not show it: add it to \"The four cases, in English and Portuguese\"", file)
				}
			})
		}
	}
}

// shortestPathOf runs `ringlab ARGS` (a check that finds a violation) and
// returns the shortest path it prints.
func shortestPathOf(t *testing.T, args []string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	_, out, errs := runCLI(t, ctx, args...)
	for _, l := range strings.Split(out, "\n") {
		if p, ok := strings.CutPrefix(l, "path: "); ok {
			return p
		}
	}
	t.Fatalf("ringlab %s printed no path:\n%s%s", strings.Join(args, " "), out, errs)
	return ""
}

// takesFlag reports whether the command ARGS lists flag in its help.
func takesFlag(t *testing.T, args []string, flag string) bool {
	t.Helper()
	_, out, errs := runCLI(t, t.Context(), append(slices.Clone(args), "--help")...)
	return strings.Contains(out+errs, flag+" ")
}

// shoot captures the viewport and writes it to file, refusing a shot that
// is not a readable PNG within TestREADMEImages' bounds.
func shoot(t *testing.T, ctx context.Context, file string) {
	t.Helper()
	b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != screenWidth || h != screenHeight || len(b) > maxPNGBytes {
		t.Fatalf("%s: %dx%d, %d KB; want %dx%d within %d KB", file, w, h, len(b)>>10, screenWidth, screenHeight, maxPNGBytes>>10)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
