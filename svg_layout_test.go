package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"ringlab/engine/trace"
)

// The space-time diagrams must read on a slide: no label over another,
// and the critical sections drawn to the time axis. These tests judge the
// SVG files themselves, as a reader's eye would, with text boxes estimated
// from each text's font size and number of characters (a character 0.62
// of the font size wide; a line 0.8 of it above the baseline, 0.2 below).

// svgLabel is one <text> element: what it says and the box it covers.
type svgLabel struct {
	text           string
	x0, y0, x1, y1 float64
}

// svgLabels returns every <text> of an SVG (tspans included, titles not)
// with its estimated box, translations of enclosing groups and a rotation
// of the text itself applied.
func svgLabels(t *testing.T, svg []byte) []svgLabel {
	t.Helper()
	type frame struct {
		dx, dy float64
		name   string
	}
	var stack []frame
	var out []svgLabel
	var cur *svgLabel
	var attrs map[string]string
	var text strings.Builder
	inTitle := 0
	num := func(s string) float64 {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			t.Fatalf("not a number: %q", s)
		}
		return f
	}
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			f := frame{name: tk.Name.Local}
			if len(stack) > 0 {
				f.dx, f.dy = stack[len(stack)-1].dx, stack[len(stack)-1].dy
			}
			a := map[string]string{}
			for _, at := range tk.Attr {
				a[at.Name.Local] = at.Value
			}
			if tr, ok := strings.CutPrefix(a["transform"], "translate("); ok && tk.Name.Local != "text" {
				xy := strings.Fields(strings.TrimSuffix(tr, ")"))
				f.dx += num(xy[0])
				f.dy += num(xy[1])
			}
			stack = append(stack, f)
			switch tk.Name.Local {
			case "text":
				cur, attrs = &svgLabel{}, a
				text.Reset()
			case "title":
				inTitle++
			}
		case xml.CharData:
			if cur != nil && inTitle == 0 {
				text.Write(tk)
			}
		case xml.EndElement:
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch tk.Name.Local {
			case "title":
				inTitle--
			case "text":
				cur.text = text.String()
				font := 16.0
				if s, ok := attrs["font-size"]; ok {
					font = num(s)
				}
				w := float64(utf8.RuneCountInString(cur.text)) * font * 0.62
				x, y := num(attrs["x"])+f.dx, num(attrs["y"])+f.dy
				switch attrs["text-anchor"] {
				case "middle":
					x -= w / 2
				case "end":
					x -= w
				}
				top, bottom := y-0.8*font, y+0.2*font
				if attrs["dominant-baseline"] == "middle" {
					top, bottom = y-font/2, y+font/2
				}
				cur.x0, cur.y0, cur.x1, cur.y1 = x, top, x+w, bottom
				if rot, ok := strings.CutPrefix(attrs["transform"], "rotate("); ok {
					r := strings.Fields(strings.TrimSuffix(rot, ")"))
					rotate(cur, num(r[0]), num(r[1])+f.dx, num(r[2])+f.dy)
				}
				out = append(out, *cur)
				cur = nil
			}
		}
	}
}

// rotate replaces l's box by the box around it turned deg degrees about (cx, cy).
func rotate(l *svgLabel, deg, cx, cy float64) {
	s, c := math.Sincos(deg * math.Pi / 180)
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range [4][2]float64{{l.x0, l.y0}, {l.x1, l.y0}, {l.x0, l.y1}, {l.x1, l.y1}} {
		x := cx + (p[0]-cx)*c - (p[1]-cy)*s
		y := cy + (p[0]-cx)*s + (p[1]-cy)*c
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	l.x0, l.y0, l.x1, l.y1 = x0, y0, x1, y1
}

// overlaps lists the pairs of labels whose boxes overlap by more than half
// a pixel each way.
func overlaps(ls []svgLabel) [][2]svgLabel {
	var out [][2]svgLabel
	for i := range ls {
		for j := i + 1; j < len(ls); j++ {
			a, b := ls[i], ls[j]
			if min(a.x1, b.x1)-max(a.x0, b.x0) > 0.5 && min(a.y1, b.y1)-max(a.y0, b.y0) > 0.5 {
				out = append(out, [2]svgLabel{a, b})
			}
		}
	}
	return out
}

// TestSVGLabelOverlapCounter: the counter sees an overlap where there is
// one (two labels at one place, a rotated label over a flat one) and none
// where the labels stand apart.
func TestSVGLabelOverlapCounter(t *testing.T) {
	for _, c := range []struct {
		svg  string
		want int
	}{
		{`<svg><text x="10" y="20" font-size="10">REPLY(T=2)</text><text x="40" y="24" font-size="10">REQUEST</text></svg>`, 1},
		{`<svg><text x="10" y="20" font-size="10">REPLY(T=2)</text><text x="10" y="40" font-size="10">REQUEST</text></svg>`, 0},
		{`<svg><text x="10" y="20" font-size="10" transform="rotate(-28 10 20)">WANTED</text><text x="30" y="14" font-size="10">x</text></svg>`, 1},
		{`<svg><g transform="translate(100 0)"><text x="0" y="20" font-size="10">abc</text></g><text x="10" y="20" font-size="10">abc<title>a long tooltip that is not drawn</title></text></svg>`, 0},
		{`<svg><text x="100" y="20" font-size="10" text-anchor="end">abcdef</text><text x="90" y="20" font-size="10">a</text></svg>`, 1},
	} {
		if got := len(overlaps(svgLabels(t, []byte(c.svg)))); got != c.want {
			t.Errorf("%s: %d overlaps, want %d", c.svg, got, c.want)
		}
	}
}

// svgGoldens lists every SVG golden file of the repository.
func svgGoldens(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && strings.HasPrefix(e.Name(), ".") && p != "." {
			return filepath.SkipDir
		}
		if !e.IsDir() && strings.HasSuffix(p, ".svg") && strings.Contains(filepath.ToSlash(p), "testdata/") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 4 {
		t.Fatalf("found %d SVG goldens: %v", len(files), files)
	}
	return files
}

// TestSVGGoldensNoLabelOverlaps: in every SVG golden of the repository,
// no label covers another (message labels, labels at events, node names,
// times, legend, verdicts).
func TestSVGGoldensNoLabelOverlaps(t *testing.T) {
	for _, p := range svgGoldens(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ls := svgLabels(t, b)
		ov := overlaps(ls)
		for _, o := range ov {
			t.Errorf("%s: %q (%.0f,%.0f)-(%.0f,%.0f) overlaps %q (%.0f,%.0f)-(%.0f,%.0f)", p,
				o[0].text, o[0].x0, o[0].y0, o[0].x1, o[0].y1, o[1].text, o[1].x0, o[1].y0, o[1].x1, o[1].y1)
		}
		t.Logf("%s: %d labels, %d overlaps", p, len(ls), len(ov))
	}
}

// TestSVGCriticalSectionsOnTheTimeAxis: each critical-section bar of the
// pictured runs starts at the time label of its enter event and ends at
// that of its exit event, on its node's line.
func TestSVGCriticalSectionsOnTheTimeAxis(t *testing.T) {
	for _, name := range []string{"mutex-ra-seed001", "mutex-central-slow"} {
		args := pictures[name]
		_, js, _ := runCLI(t, t.Context(), append(args, "--format", "json")...)
		_, svg, _ := runCLI(t, t.Context(), append(args, "--format", "svg")...)
		l, err := trace.Load(strings.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		type interval struct {
			node       int
			enter, end int64
			open       bool
		}
		var want []interval
		inside := map[int]int{}
		for _, e := range l.Events {
			switch e.Kind {
			case trace.KindEnterCS:
				inside[e.Node] = len(want)
				want = append(want, interval{node: e.Node, enter: e.T, open: true})
			case trace.KindExitCS, trace.KindCrash:
				if k, ok := inside[e.Node]; ok {
					want[k].end, want[k].open = e.T, false
					delete(inside, e.Node)
				}
			}
		}
		tick := map[int64]float64{} // time -> x of its label on the axis
		nodeY := map[int]float64{}
		var bars [][4]float64 // x, y, width, height
		d := xml.NewDecoder(strings.NewReader(svg))
		for {
			tok, err := d.Token()
			if err != nil {
				break
			}
			se, ok := tok.(xml.StartElement)
			if !ok {
				continue
			}
			a := map[string]string{}
			for _, at := range se.Attr {
				a[at.Name.Local] = at.Value
			}
			f := func(k string) float64 { v, _ := strconv.ParseFloat(a[k], 64); return v }
			switch {
			case se.Name.Local == "line" && a["class"] == "node":
				nodeY[len(nodeY)+1] = f("y1")
			case se.Name.Local == "rect" && a["class"] == "cs":
				bars = append(bars, [4]float64{f("x"), f("y"), f("width"), f("height")})
			case se.Name.Local == "text": // a time label reads t=N
				var s string
				if err := d.DecodeElement(&s, &se); err != nil {
					t.Fatal(err)
				}
				if v, ok := strings.CutPrefix(s, "t="); ok {
					if n, err := strconv.ParseInt(v, 10, 64); err == nil {
						tick[n] = f("x")
					}
				}
			}
		}
		if len(bars) != len(want) || len(want) == 0 {
			t.Fatalf("%s: %d bars for %d critical sections", name, len(bars), len(want))
		}
		for k, w := range want {
			b := bars[k]
			x0, ok0 := tick[w.enter]
			x1, ok1 := tick[w.end]
			if !ok0 || !w.open && !ok1 {
				t.Errorf("%s: bar %d (node %d, t=%d..%d): the axis has no label for its times", name, k, w.node, w.enter, w.end)
				continue
			}
			if math.Abs(b[0]-x0) > 0.05 {
				t.Errorf("%s: bar %d (node %d) starts at x=%.1f, its enter time t=%d is at x=%.1f", name, k, w.node, b[0], w.enter, x0)
			}
			if !w.open && w.end > w.enter && math.Abs(b[0]+b[2]-x1) > 0.1 {
				t.Errorf("%s: bar %d (node %d) ends at x=%.1f, its exit time t=%d is at x=%.1f", name, k, w.node, b[0]+b[2], w.end, x1)
			}
			if mid := b[1] + b[3]/2; math.Abs(mid-nodeY[w.node]) > 0.05 {
				t.Errorf("%s: bar %d is centred on y=%.1f, node %d's line is at y=%.1f", name, k, mid, w.node, nodeY[w.node])
			}
		}
	}
}
