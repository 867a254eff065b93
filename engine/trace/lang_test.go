package trace_test

import (
	"bytes"
	"strings"
	"testing"

	"ringlab/engine/lang"
	"ringlab/engine/trace"
)

// InLang makes the text's verdict lines and the svg picture's words
// Portuguese, and leaves English as it was: a run with a crash and lost
// messages drawn both ways.
func TestInLang(t *testing.T) {
	for _, c := range []struct {
		format string
		pt, en []string // in the Portuguese output; in the English, and not in the Portuguese
	}{
		{"svg", []string{">Legenda<", " nós, sim, semente 3<", ">mensagem perdida<", "tempo → em ticks"},
			[]string{">Legend<", " nodes, sim, seed 3<", ">lost message<", "time → in simulator ticks"}},
		{"text", []string{"✓ terminação\n"}, []string{"✓ termination\n"}},
	} {
		var pt, en bytes.Buffer
		floodInto(t, trace.InLang(mustRenderer(t, c.format, &pt), lang.PT), false, "ringlab test")
		floodInto(t, mustRenderer(t, c.format, &en), false, "ringlab test")
		for _, w := range c.pt {
			if !strings.Contains(pt.String(), w) {
				t.Errorf("%s in Portuguese lacks %q", c.format, w)
			}
		}
		for _, w := range c.en {
			if !strings.Contains(en.String(), w) || strings.Contains(pt.String(), w) {
				t.Errorf("%s: %q is not in the English only", c.format, w)
			}
		}
	}
}
