package trace

import (
	"math"
	"slices"
	"unicode/utf8"
)

// The SVG's labels are placed by a small greedy placer: each label has a
// few candidate positions, in order of preference; a candidate whose box
// meets a label already placed is refused, and among the others the one
// that crosses the fewest node lines, arrows and event dots wins. A label
// with no free candidate is left out (its arrow keeps the text as a
// tooltip). Boxes are estimated as the tests estimate them: a character
// is 0.62 of the font size wide, and a line of text spans 0.8 of the font
// size above its baseline and 0.2 below.

// textWidth is the estimated width of s in a font of size font.
func textWidth(s string, font float64) float64 {
	return float64(utf8.RuneCountInString(s)) * font * 0.62
}

// box is an axis-aligned rectangle: x0 < x1, y0 < y1.
type box struct{ x0, y0, x1, y1 float64 }

// textBox is the box of a text of width w and font size font, with its
// baseline at y and its left edge at x.
func textBox(x, y, w, font float64) box {
	return box{x, y - 0.8*font, x + w, y + 0.2*font}
}

func (a box) meets(b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }

// pad grows a by d on every side.
func (a box) pad(d float64) box { return box{a.x0 - d, a.y0 - d, a.x1 + d, a.y1 + d} }

// segment is an arrow or a line of the drawing, from (x1, y1) to (x2, y2).
type segment struct{ x1, y1, x2, y2 float64 }

// crosses reports whether s passes through the inside of b (Liang-Barsky
// clipping of the segment to the box).
func (s segment) crosses(b box) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := s.x2-s.x1, s.y2-s.y1
	for _, c := range [4][2]float64{{-dx, s.x1 - b.x0}, {dx, b.x1 - s.x1}, {-dy, s.y1 - b.y0}, {dy, b.y1 - s.y1}} {
		p, q := c[0], c[1]
		if p == 0 {
			if q <= 0 {
				return false
			}
			continue
		}
		r := q / p
		if p < 0 {
			t0 = max(t0, r)
		} else {
			t1 = min(t1, r)
		}
		if t0 >= t1 {
			return false
		}
	}
	return true
}

// placer remembers the labels placed so far and what they should not
// hide. Everything it holds is filed by x in columns svgCell wide, so a
// candidate is checked only against what stands in its columns: a wide
// picture with thousands of labels is placed in linear time.
type placer struct {
	bounds box // labels stay inside
	// the nodes' lines: y = rowTop + k*rowStep for k < rows
	rowTop, rowStep float64
	rows            int

	items []placed      // labels, arrows and marks
	cells map[int][]int // column -> indices into items
	seen  []int         // per item: the query that last counted it
	query int
}

// svgCell is the width of a placer's column.
const svgCell = 96

// what a placed item is
const (
	itemLabel = iota // text or a mark that text must not cover
	itemArrow        // a message's line
	itemDot          // an event's mark
)

type placed struct {
	kind int
	b    box     // its box (an arrow's: around the segment)
	s    segment // an arrow's segment
}

func (p *placer) add(it placed) {
	if p.cells == nil {
		p.cells = map[int][]int{}
	}
	for c := cell(it.b.x0); c <= cell(it.b.x1); c++ {
		p.cells[c] = append(p.cells[c], len(p.items))
	}
	p.items = append(p.items, it)
	p.seen = append(p.seen, 0)
}

func cell(x float64) int { return int(math.Floor(x / svgCell)) }

// addLabel files a box no label may overlap.
func (p *placer) addLabel(b box) { p.add(placed{kind: itemLabel, b: b}) }

// addArrow files a message's line.
func (p *placer) addArrow(s segment) {
	p.add(placed{kind: itemArrow, s: s, b: box{min(s.x1, s.x2), min(s.y1, s.y2), max(s.x1, s.x2), max(s.y1, s.y2)}})
}

// addDot files an event's mark.
func (p *placer) addDot(b box) { p.add(placed{kind: itemDot, b: b}) }

// cost of a label at b: -1 when it cannot go there, else how much it
// hides (a node line counts most, then an arrow, then an event mark); the
// label's own arrows do not count.
func (p *placer) cost(b box, own []segment) float64 {
	if b.x0 < p.bounds.x0 || b.x1 > p.bounds.x1 || b.y0 < p.bounds.y0 || b.y1 > p.bounds.y1 {
		return -1
	}
	c := 0.0
	if p.rowStep > 0 && p.rows > 0 {
		lo := max(0, int(math.Ceil((b.y0-1-p.rowTop)/p.rowStep)))
		hi := min(p.rows-1, int(math.Floor((b.y1+1-p.rowTop)/p.rowStep)))
		for k := lo; k <= hi; k++ {
			if y := p.rowTop + float64(k)*p.rowStep; b.y0 < y+1 && y-1 < b.y1 {
				c += 8
			}
		}
	}
	p.query++
	for col := cell(b.x0); col <= cell(b.x1); col++ {
		for _, i := range p.cells[col] {
			if p.seen[i] == p.query {
				continue
			}
			p.seen[i] = p.query
			it := &p.items[i]
			switch it.kind {
			case itemLabel:
				if b.meets(it.b) {
					return -1
				}
			case itemArrow:
				if !slices.Contains(own, it.s) && it.s.crosses(b) {
					c += 2
				}
			case itemDot:
				if b.meets(it.b) {
					c++
				}
			}
		}
	}
	return c
}

// place picks the best of the candidate boxes (ties go to the earlier
// one), records it, and returns its index; -1 when none is free.
func (p *placer) place(cands []box) int { return p.placeAt(cands, nil) }

// placeBeside is place for the label of the arrows own.
func (p *placer) placeBeside(cands []box, own []segment) int { return p.placeAt(cands, own) }

func (p *placer) placeAt(cands []box, own []segment) int {
	best, bestCost := -1, 0.0
	for i, b := range cands {
		c := p.cost(b.pad(1), own)
		if c < 0 || best >= 0 && c >= bestCost {
			continue
		}
		best, bestCost = i, c
		if c == 0 {
			break
		}
	}
	if best >= 0 {
		p.addLabel(cands[best])
	}
	return best
}
