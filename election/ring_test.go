package election

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"ringlab/engine/trace"
)

// `ringlab election ring --lang pt` on the default configuration prints the
// ring-election specification's expected output byte for byte, verdict lines
// included. testdata/ring_expected_pt.txt is the specification's block,
// copied verbatim (not rewritten by -update).
func TestExpectedOutput(t *testing.T) {
	want, err := os.ReadFile("testdata/ring_expected_pt.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range []string{"sim"} {
		r := runCLI(t, "ring", "--lang", "pt", "--runtime", rt)
		r.want(t, 0)
		if r.out != string(want) {
			t.Errorf("%s: stdout is not the specification's expected output:\n--- got\n%s\n--- want\n%s", rt, r.out, want)
		}
		if !strings.Contains(r.errb, "messages: 13 (ELECTED 5, ELECTION 8)") || !strings.Contains(r.errb, "✓ acordo") {
			t.Errorf("%s: the figures are not on stderr:\n%s", rt, r.errb)
		}
	}
	r := runCLI(t, "ring", "--seed", "1")
	r.want(t, 0)
	checkGolden(t, "ring_default_en.golden", r.out)
}

// summary runs a command with --format json and returns its summary line.
func summary(t *testing.T, code int, args ...string) trace.Summary {
	t.Helper()
	r := runCLI(t, append(args, "--format", "json", "--seed", "1")...)
	r.want(t, code)
	lines := strings.Split(strings.TrimSpace(r.out), "\n")
	var s trace.Summary
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil || s.Kind != "summary" {
		t.Fatalf("last line is not a summary (%v): %s", err, lines[len(lines)-1])
	}
	return s
}

// The four required test cases of the ring-election specification, one
// initiator each:
// the leader and exactly d + n ELECTION and n ELECTED messages, all four
// verdicts true, and the text transcript as a golden file.
func TestRingRequiredCases(t *testing.T) {
	tests := []struct {
		name, ids, initiator string
		leaderID, election   int64
	}{
		{"ring_5_3_7", "5,3,7", "1", 3, 1 + 3},
		{"ring_5_3_7_1_4", "5,3,7,1,4", "1", 1, 3 + 5},
		{"ring_worst_5_4_3_2_1", "5,4,3,2,1", "1", 1, 4 + 5}, // initiator: the node with id 5
		{"ring_100_42_7_999_13", "100,42,7,999,13", "1", 7, 2 + 5},
	}
	for _, tt := range tests {
		s := summary(t, 0, "ring", "--ids", tt.ids, "--initiators", tt.initiator)
		n := int64(strings.Count(tt.ids, ",") + 1)
		if s.ByType["ELECTION"] != tt.election || s.ByType["ELECTED"] != n {
			t.Errorf("%s: %v, want %d ELECTION and %d ELECTED", tt.name, s.ByType, tt.election, n)
		}
		for _, v := range s.Verdicts {
			if !v.OK {
				t.Errorf("%s: %s failed: %s", tt.name, v.Property, v.Detail)
			}
			if v.Property == "correctness" && !strings.Contains(v.Detail, "leader should be id "+itoa(tt.leaderID)) {
				t.Errorf("%s: %s", tt.name, v.Detail)
			}
		}
		r := runCLI(t, "ring", "--ids", tt.ids, "--initiators", tt.initiator, "--lang", "pt", "--seed", "1")
		r.want(t, 0, "✓ Líder eleito", "(ID="+itoa(tt.leaderID)+")")
		checkGolden(t, tt.name+".golden", r.out)
	}
}

// Several initiators: the rules as written make rule 4 fire at
// the minimum once per initiator (35 ELECTION, 25 ELECTED for the default
// ring); the run says so and shows the fixed count beside it, and with
// --fix extinction rule 4 fires once (11 ELECTION, 5 ELECTED).
func TestSeveralInitiatorsCountedBothWays(t *testing.T) {
	s := summary(t, 0, "ring", "--initiators", "all")
	if s.ByType["ELECTION"] != 35 || s.ByType["ELECTED"] != 25 {
		t.Errorf("as written: %v, want 35 ELECTION and 25 ELECTED", s.ByType)
	}
	if got := s.Extra["rule 4 fired"]; !strings.HasPrefix(got.(string), "5 time(s), at N1 (node 4)") {
		t.Errorf("rule 4: %v", got)
	}
	if got := s.Extra["with --fix extinction"]; !strings.HasPrefix(got.(string), "11 ELECTION, 5 ELECTED, rule 4 fired 1 time(s)") {
		t.Errorf("the fix's count: %v", got)
	}
	s = summary(t, 0, "ring", "--initiators", "all", "--fix", "extinction")
	if s.ByType["ELECTION"] != 11 || s.ByType["ELECTED"] != 5 || !strings.HasPrefix(s.Extra["rule 4 fired"].(string), "1 time(s)") {
		t.Errorf("with the fix: %v, %v", s.ByType, s.Extra)
	}
	r := runCLI(t, "ring", "--initiators", "all", "--seed", "1")
	r.want(t, 0, "[Node 4] rule 4 fired again (several initiators)", "rule 4 fired: 5 time(s)")
}

func itoa(v int64) string { b, _ := json.Marshal(v); return string(b) }
