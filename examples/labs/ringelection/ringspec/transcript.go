package ringspec

import (
	"embed"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// IDTranscript names the transcript property.
const IDTranscript check.ID = "transcript"

// expected holds the specification's expected output for its four rings,
// each started by node 1: the "[Node i]" lines, in the order it prints them.
//
//go:embed testdata/*.txt
var expected embed.FS

// Expected returns the specification's lines for the ring ids started by
// the nodes starters, and whether it gives them: only for its four rings
// (5,3,7; 5,3,7,1,4; 5,4,3,2,1; 100,42,7,999,13), each started by node 1.
func Expected(ids, starters []int) ([]string, bool) {
	if !slices.Equal(starters, []int{1}) {
		return nil, false
	}
	name := make([]string, len(ids))
	for k, id := range ids {
		name[k] = strconv.Itoa(id)
	}
	b, err := expected.ReadFile("testdata/" + strings.Join(name, "_") + ".txt")
	if err != nil {
		return nil, false
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"), true
}

// Line is the specification's line for event e of a ring whose ids are
// ids, in Portuguese, and whether the event prints one:
//
//	rule 1, the note NoteStarted    [Node 1] ID=5 iniciando eleição
//	an ELECTION sent                [Node 1] Enviou ELECTION(5) para Node 2
//	an ELECTION received            [Node 2] ID=3 recebeu ELECTION(5)
//	  ... carrying the node's id    [Node 4] ID=1 recebeu ELECTION(1) - próprio ID!
//	rule 4, Leader(own id)          [Node 4] SOU O LÍDER! Enviando ELECTED(1)
//	rule 5, Leader(another id)      [Node 5] Reconheço líder ID=1
//	rule 6, the note NoteComplete   [Node 4] Eleição completa!
func Line(ids []int, e *trace.Event) (string, bool) {
	i := e.Node
	if i < 1 || i > len(ids) {
		return "", false
	}
	id := ids[i-1]
	var s string
	switch e.Kind {
	case trace.KindNote:
		switch e.Note {
		case NoteStarted:
			s = fmt.Sprintf("ID=%d iniciando eleição", id)
		case NoteComplete:
			s = "Eleição completa!"
		}
	case trace.KindSend, trace.KindRecv:
		m, ok := msgValue(e).(Election)
		switch {
		case !ok:
		case e.Kind == trace.KindSend:
			s = fmt.Sprintf("Enviou ELECTION(%d) para Node %d", m.CandidateID, e.To)
		case m.CandidateID == id:
			s = fmt.Sprintf("ID=%d recebeu ELECTION(%d) - próprio ID!", id, m.CandidateID)
		default:
			s = fmt.Sprintf("ID=%d recebeu ELECTION(%d)", id, m.CandidateID)
		}
	case trace.KindLeader:
		if e.LeaderID() == id {
			s = fmt.Sprintf("SOU O LÍDER! Enviando ELECTED(%d)", id)
		} else {
			s = fmt.Sprintf("Reconheço líder ID=%d", e.LeaderID())
		}
	}
	if s == "" {
		return "", false
	}
	return fmt.Sprintf("[Node %d] %s", i, s), true
}

// msgValue is the message of a send or receive event.
func msgValue(e *trace.Event) any {
	if e.Msg == nil {
		return nil
	}
	return e.Msg.Value
}

// Transcript is the property that every node prints the specification's
// lines, in its order: the lines Want gives for that node, no more, no
// fewer. Different schedules interleave the nodes' lines differently, so
// it compares them node by node, never the interleaving. It is judged
// where a run ends (the exhaustive checker judges it at every terminal
// state).
type Transcript struct {
	IDs  []int    // the ids in ring order
	Want []string // the specification's lines, every node's
	got  []string
}

// ID returns IDTranscript.
func (*Transcript) ID() check.ID { return IDTranscript }

// Wants is the events that print a line.
func (*Transcript) Wants() trace.Kinds {
	return trace.KindsOf(trace.KindNote, trace.KindSend, trace.KindRecv, trace.KindLeader)
}

// Observe notes the line e prints, if any.
func (t *Transcript) Observe(e *trace.Event) string {
	if s, ok := Line(t.IDs, e); ok {
		t.got = append(t.got, s)
	}
	return ""
}

// Finish compares each node's lines with the specification's and names
// the first that differs.
func (t *Transcript) Finish(check.End) trace.Verdict {
	v := trace.Verdict{Property: string(IDTranscript), OK: true, Detail: "every node printed the specification's lines"}
	for i := 1; i <= len(t.IDs); i++ {
		got, want := ofNode(t.got, i), ofNode(t.Want, i)
		if d := firstDifference(got, want); d != "" {
			v.OK, v.Detail = false, fmt.Sprintf("node %d (id %d): %s", i, t.IDs[i-1], d)
			return v
		}
	}
	return v
}

// ofNode keeps node i's lines.
func ofNode(lines []string, i int) []string {
	prefix := fmt.Sprintf("[Node %d] ", i)
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// firstDifference says where got first differs from want ("": nowhere).
func firstDifference(got, want []string) string {
	for k := range max(len(got), len(want)) {
		switch {
		case k >= len(got):
			return fmt.Sprintf("line %d: printed nothing, the specification prints %q", k+1, want[k])
		case k >= len(want):
			return fmt.Sprintf("line %d: printed %q, the specification prints no more", k+1, got[k])
		case got[k] != want[k]:
			return fmt.Sprintf("line %d: printed %q, the specification prints %q", k+1, got[k], want[k])
		}
	}
	return ""
}
