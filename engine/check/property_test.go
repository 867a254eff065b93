package check

import (
	"strings"
	"testing"
)

func TestPropertyName(t *testing.T) {
	for in, want := range map[string]ID{
		"mutual-exclusion": "mutual exclusion", "Mutual_Exclusion": "mutual exclusion",
		"mutual exclusion": "mutual exclusion", "  MUTUAL--exclusion ": "mutual exclusion",
		"uniqueness": "uniqueness", "no_deadlock": "no deadlock",
	} {
		if got, err := PropertyName(in); err != nil || got != want {
			t.Errorf("PropertyName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", " - ", "mutual.exclusion", "mutual/exclusion", "a,b", "x\n"} {
		if got, err := PropertyName(in); err == nil {
			t.Errorf("PropertyName(%q) = %q, want an error", in, got)
		}
	}
}

func TestSelect(t *testing.T) {
	cs := []Property{MessageBound{}, Termination{}, &MutualExclusion{}}
	got, err := Select(cs, []string{"Mutual_Exclusion", "termination"})
	if err != nil || len(got) != 2 || got[0].ID() != "termination" || got[1].ID() != "mutual exclusion" {
		t.Fatalf("Select = %v, %v", got, err)
	}
	_, err = Select(cs, []string{"termination", "agreemnt"})
	if err == nil || !strings.Contains(err.Error(), `"agreemnt"`) || !strings.HasSuffix(err.Error(), "want one of: message-bound, termination, mutual-exclusion") {
		t.Fatalf("an unknown name: %v", err)
	}
	if all, err := Select(cs, nil); err != nil || len(all) != 3 {
		t.Fatalf("no names: %v, %v", all, err)
	}
}

// FuzzPropertyName: a name it accepts is lower-case words joined by one
// space, reads back to itself, and its flag spelling reads back to it.
func FuzzPropertyName(f *testing.F) {
	for _, s := range []string{"mutual-exclusion", "Mutual_Exclusion", "a  b", "", "-", "x.y", "é_Ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := PropertyName(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") && !strings.Contains(s, "\n") {
				t.Fatalf("%q: a multi-line error %q", s, err)
			}
			return
		}
		p := string(id)
		if p == "" || strings.Contains(p, "  ") || strings.TrimSpace(p) != p || strings.ContainsAny(p, "-_\t") {
			t.Fatalf("%q: accepted as %q", s, p)
		}
		if again, err := PropertyName(p); err != nil || again != id {
			t.Fatalf("%q: %q reads back as %q, %v", s, p, again, err)
		}
		if again, err := PropertyName(PropertyFlag(id)); err != nil || again != id {
			t.Fatalf("%q: flag spelling %q reads back as %q, %v", s, PropertyFlag(id), again, err)
		}
	})
}
