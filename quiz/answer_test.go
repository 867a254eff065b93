package quiz

import (
	"strconv"
	"testing"
)

// The spellings the documentation promises are one reply.
func TestNormalization(t *testing.T) {
	for _, c := range []struct {
		f          form
		reply, ans string
		right      bool
	}{
		{formInt, "P3", "3", true}, {formInt, " node 3 ", "3", true}, {formInt, "N3", "3", true}, {formInt, "id 3", "3", true},
		{formInt, "Nó 3", "3", true}, {formInt, "33", "3", false}, {formInt, "3.0", "3", false}, {formInt, "", "3", false},
		{formYesNo, "Sim", "yes", true}, {formYesNo, "NÃO", "no", true}, {formYesNo, "y", "no", false}, {formYesNo, "maybe", "no", false},
		{formFloat, "0,657", "0.657", true}, {formFloat, "65.7%", "0.657", true}, {formFloat, "0.65", "0.657", false},
		{formFloat, "1e-10", "1e-10", true}, {formFloat, "NaN", "0.657", false}, {formFloat, "7.75", "7.75", true},
	} {
		if got := c.f.same(c.reply, c.ans); got != c.right {
			t.Errorf("form %d: %q for %q: %v, want %v", c.f, c.reply, c.ans, got, c.right)
		}
	}
}

// FuzzReply: no reply panics the parser; a whole number the parser reads
// is right exactly for that number; a reply is right for the answer it is.
func FuzzReply(f *testing.F) {
	for _, s := range []string{"P3", "node 3", "sim", "65.7%", "0,657", "", "N", "nó-1", "1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		for _, fm := range []form{formInt, formYesNo, formFloat} {
			fm.same(reply, reply)
		}
		if v, ok := asInt(reply); ok {
			if !formInt.same(reply, strconv.FormatInt(v, 10)) || formInt.same(reply, strconv.FormatInt(v+1, 10)) {
				t.Errorf("%q reads as %d but is not judged so", reply, v)
			}
		}
		if v, ok := asFloat(reply); ok && v != 0 && !formFloat.same(reply, strconv.FormatFloat(v, 'g', -1, 64)) {
			t.Errorf("%q reads as %g but is not right for it", reply, v)
		}
	})
}
