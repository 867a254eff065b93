package election

import (
	"bufio"
	"fmt"
	"io"
	"slices"

	"ringlab/election/smallestid"
	"ringlab/engine/check"
	"ringlab/engine/lang"
	"ringlab/engine/trace"
)

// words are the output lines of the ring-election specification
// this command reproduces, in one language.
type words struct {
	start, sent, received, ownID, leader, recognise, complete string
	again, dropped, ignored                                   string
	elected, noLeader                                         string
	ok, bad                                                   map[check.ID]string // verdict lines by property
}

var ringWords = map[lang.Lang]words{
	lang.PT: {
		start: "ID=%d iniciando eleição", sent: "Enviou ELECTION(%d) para Node %d",
		received: "ID=%d recebeu ELECTION(%d)", ownID: " - próprio ID!",
		leader: "SOU O LÍDER! Enviando ELECTED(%d)", recognise: "Reconheço líder ID=%d",
		complete: "Eleição completa!", again: "regra 4 disparou de novo (vários iniciadores)",
		dropped: "descartou uma ELECTION já vencida (extinção)", ignored: "início ignorado: não está ASLEEP",
		elected: "Líder eleito: Node %d (ID=%d)", noLeader: "Nenhum líder eleito",
		ok: map[check.ID]string{check.IDTermination: "Terminação garantida", IDUniqueness: "Unicidade garantida",
			IDCorrectness: "Correção garantida (menor ID)"},
		bad: map[check.ID]string{check.IDTermination: "Terminação não alcançada", IDUniqueness: "Unicidade violada",
			IDCorrectness: "Correção violada"},
	},
	lang.EN: {
		start: "ID=%d starting election", sent: "Sent ELECTION(%d) to Node %d",
		received: "ID=%d received ELECTION(%d)", ownID: " - own ID!",
		leader: "I AM THE LEADER! Sending ELECTED(%d)", recognise: "I recognise leader ID=%d",
		complete: "Election complete!", again: "rule 4 fired again (several initiators)",
		dropped: "dropped an ELECTION it already beat (extinction)", ignored: "start ignored: not ASLEEP",
		elected: "Leader elected: Node %d (ID=%d)", noLeader: "No leader elected",
		ok: map[check.ID]string{check.IDTermination: "Termination guaranteed", IDUniqueness: "Uniqueness guaranteed",
			IDCorrectness: "Correctness guaranteed (smallest ID)"},
		bad: map[check.ID]string{check.IDTermination: "Termination not reached", IDUniqueness: "Uniqueness violated",
			IDCorrectness: "Correctness violated"},
	},
}

// ringText renders a ring run as the specification prints it: one line per
// rule applied, then the specification's verdict lines. Everything else — the message
// counts, agreement, rule 4's count, the replay command — goes to stderr
// as the engine's summary, so stdout stays the specification's text.
type ringText struct {
	w, errw *bufio.Writer
	ids     []int
	words   words
	lang    lang.Lang // the engine's summary's language
	leader  int       // node index of the last node that took itself as leader
}

func newSeedText(stdout, stderr io.Writer, ids []int, l lang.Lang) *ringText {
	return &ringText{w: bufio.NewWriter(stdout), errw: bufio.NewWriter(stderr), ids: ids, words: ringWords[l], lang: l}
}

func (r *ringText) line(i int, format string, args ...any) error {
	_, err := fmt.Fprintf(r.w, "[Node %d] "+format+"\n", append([]any{i}, args...)...)
	return err
}

func (r *ringText) Event(e *trace.Event) error {
	i, wd := e.Node, r.words
	id := r.ids[i-1]
	switch e.Kind {
	case trace.KindSend:
		if m, ok := msgValue(e).(smallestid.Election); ok {
			return r.line(i, wd.sent, m.CandidateID, e.To)
		}
	case trace.KindRecv:
		if m, ok := msgValue(e).(smallestid.Election); ok {
			suffix := ""
			if m.CandidateID == id {
				suffix = wd.ownID
			}
			return r.line(i, wd.received+"%s", id, m.CandidateID, suffix)
		}
	case trace.KindLeader:
		if e.LeaderID() == id {
			r.leader = i
			return r.line(i, wd.leader, id)
		}
		return r.line(i, wd.recognise, e.LeaderID())
	case trace.KindNote:
		switch e.Note {
		case smallestid.NoteStarted:
			return r.line(i, wd.start, id)
		case smallestid.NoteComplete:
			return r.line(i, "%s", wd.complete)
		case smallestid.NoteRule4:
			return r.line(i, "%s", wd.again)
		case smallestid.NoteDropped:
			return r.line(i, "%s", wd.dropped)
		case smallestid.NoteNotAsleep:
			return r.line(i, "%s", wd.ignored)
		}
	case trace.KindCrash, trace.KindRecover, trace.KindDrop, trace.KindDup, trace.KindViolation:
		return r.line(i, "%s", trace.Describe(e))
	}
	return nil
}

// msgValue is the algorithm's message of a send or recv event.
func msgValue(e *trace.Event) any {
	if e.Msg == nil {
		return nil
	}
	return e.Msg.Value
}

// Summary writes the specification's verdict lines to stdout and the engine's
// summary to stderr.
func (r *ringText) Summary(s *trace.Summary) error {
	wd := r.words
	fmt.Fprintln(r.w)
	cut := slices.ContainsFunc(s.Verdicts, func(v trace.Verdict) bool { return v.NotReached })
	switch {
	case r.leader > 0:
		fmt.Fprintf(r.w, "✓ "+wd.elected+"\n", r.leader, r.ids[r.leader-1])
	case cut: // a checker's path that stops before the run ends: none yet
		fmt.Fprintf(r.w, "– %s\n", wd.noLeader)
	default:
		fmt.Fprintf(r.w, "✗ %s\n", wd.noLeader)
	}
	for _, p := range []check.ID{check.IDTermination, IDUniqueness, IDCorrectness} {
		for _, v := range s.Verdicts {
			switch {
			case check.ID(v.Property) != p:
			case v.NotReached: // a checker's path that stops short
				fmt.Fprintln(r.w, trace.VerdictLine(v))
			case v.OK:
				fmt.Fprintf(r.w, "✓ %s\n", wd.ok[p])
			default:
				fmt.Fprintf(r.w, "✗ %s: %s\n", wd.bad[p], v.Detail)
			}
		}
	}
	tr, _ := trace.NewRenderer("text", r.errw)
	tr = trace.InLang(tr, r.lang)
	if err := tr.Summary(s); err != nil {
		return err
	}
	return tr.Flush()
}

func (r *ringText) Flush() error {
	if err := r.w.Flush(); err != nil {
		return err
	}
	return r.errw.Flush()
}
