package quiz

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// ringDraw is a drawn ring: ids in ring order and the 1-based positions of
// the nodes that start.
type ringDraw struct {
	ids        []int
	initiators []int
}

// drawRing draws a ring of 3 to 5 nodes with ids 1..n in some order and a
// non-empty set of initiators.
func drawRing(r *rand.Rand) ringDraw {
	n := 3 + r.IntN(3)
	d := ringDraw{ids: make([]int, n)}
	for i, p := range r.Perm(n) {
		d.ids[i] = p + 1
	}
	for i := 1; i <= n; i++ {
		if r.IntN(2) == 0 {
			d.initiators = append(d.initiators, i)
		}
	}
	if len(d.initiators) == 0 {
		d.initiators = []int{1 + r.IntN(n)}
	}
	return d
}

// flags are d as command-line flags.
func (d ringDraw) flags() string {
	return fmt.Sprintf("--ids %s --initiators %s", joinInts(d.ids), joinInts(d.initiators))
}

// joinInts writes xs comma-separated.
func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// byType writes a summary's messages by type: "ELECTED 4, ELECTION 6".
func byType(m map[string]int64) string {
	var ts []string
	for t := range m {
		ts = append(ts, t)
	}
	slices.Sort(ts)
	for i, t := range ts {
		ts[i] = fmt.Sprintf("%s %d", t, m[t])
	}
	return strings.Join(ts, ", ")
}

// ringCount runs algo on ring d on the simulator and returns the messages
// it sent, their breakdown, and the run's command line.
func ringCount(ctx context.Context, algo string, d ringDraw) (int64, string, string, error) {
	line := fmt.Sprintf("election %s %s --seed 1", algo, d.flags())
	evs, err := runLog(ctx, line)
	if err != nil {
		return 0, "", "", err
	}
	s := evs[len(evs)-1]
	return s.Messages, byType(s.ByType), line, nil
}

// changRobertsMessages asks how many messages Chang-Roberts sends on a
// drawn ring with drawn initiators: the simulator counts them.
func changRobertsMessages(ctx context.Context, r *rand.Rand) (item, error) {
	d := drawRing(r)
	return ringMessagesOf(ctx, "chang-roberts", d,
		both{"Chang-Roberts", "O algoritmo de Chang-Roberts"},
		both{"the largest id wins; a node swallows a smaller id than its own and forwards a larger one",
			"o maior id vence; um nó descarta um id menor que o seu e repassa um maior"})
}

// ringMessages asks the same of the specification's ring election.
func ringMessages(ctx context.Context, r *rand.Rand) (item, error) {
	d := drawRing(r)
	return ringMessagesOf(ctx, "ring", d,
		both{"The specification's ring election (rules 1-6 as written)", "A eleição em anel da especificação (regras 1 a 6 como escritas)"},
		both{"the smallest id wins; rule 4 fires at the smallest once per initiator, so every initiator's candidacy that reaches it costs a full ELECTED round",
			"o menor id vence; a regra 4 dispara no menor uma vez por iniciador, e cada candidatura que chega a ele custa uma volta inteira de ELECTED"})
}

// ringMessagesOf is the question of a ring algorithm's message count.
func ringMessagesOf(ctx context.Context, algo string, d ringDraw, name, rule both) (item, error) {
	total, types, line, err := ringCount(ctx, algo, d)
	if err != nil {
		return item{}, err
	}
	return item{
		text: both{
			fmt.Sprintf("%s runs on the ring with ids %s (in ring order, each node sends to the next), started by the nodes at positions %s, on the simulator with FIFO links. How many messages does it send in all?",
				name.en, joinInts(d.ids), joinInts(d.initiators)),
			fmt.Sprintf("%s roda no anel com ids %s (na ordem do anel, cada nó envia ao seguinte), com início nos nós das posições %s, no simulador com canais FIFO. Quantas mensagens são enviadas ao todo?",
				name.pt, joinInts(d.ids), joinInts(d.initiators)),
		},
		answer: strconv.FormatInt(total, 10), form: formInt,
		explanation: both{
			fmt.Sprintf("%d messages (%s): %s. The replay's summary counts them.", total, types, rule.en),
			fmt.Sprintf("%d mensagens (%s): %s. O resumo do replay as conta.", total, types, rule.pt),
		},
		replay: line + " --format none", evidence: fmt.Sprintf(`messages: %d \(`, total),
	}, nil
}

// bullyLeader asks which node Bully elects after drawn crashes: the
// simulator runs it, and the last leader announced is the answer.
func bullyLeader(ctx context.Context, r *rand.Rand) (item, error) {
	n := 4 + r.IntN(2)
	crashes, tick := 1+r.IntN(2), []int{0, 8}[r.IntN(2)]
	var crashed []int
	for _, i := range r.Perm(3)[:crashes] {
		crashed = append(crashed, n-i) // among the three highest ids
	}
	slices.Sort(crashed)
	leader, line, err := bullyRun(ctx, n, crashed, tick)
	if err != nil {
		return item{}, err
	}
	when := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(crashed)), ","), "[]")
	ans := strconv.Itoa(leader)
	return item{
		text: both{
			fmt.Sprintf("Bully runs on %d nodes with ids 1..%d; node 1 starts an election at tick 0, and these ids crash at tick %[4]d: %[3]s. Which id is the leader at the end?",
				n, n, when, tick),
			fmt.Sprintf("O Bully roda com %d nós de ids 1..%d; o nó 1 inicia uma eleição no tick 0, e estes ids falham no tick %[4]d: %[3]s. Qual id é o líder no final?",
				n, n, when, tick),
		},
		answer: ans, form: formInt,
		explanation: both{
			fmt.Sprintf("Id %s: the highest id still alive. A crashed node never answers ELECTION, so its lower neighbours time out and the highest live one sends COORD; the replay's last \"leader is id\" and its correctness verdict show it.", ans),
			fmt.Sprintf("Id %s: o maior id ainda vivo. Um nó que falhou nunca responde ao ELECTION, então os menores esgotam o tempo e o maior vivo envia COORD; o último \"leader is id\" do replay e o veredito de correção mostram isso.", ans),
		},
		replay: line, evidence: fmt.Sprintf(`✓ correctness: leader should be id %s\b`, ans),
	}, nil
}

// bullyRun runs Bully on n nodes with ids 1..n, node 1 starting, the ids
// crashed crashing at tick, and returns the last leader announced and the
// run's command line.
func bullyRun(ctx context.Context, n int, crashed []int, tick int) (int, string, error) {
	line := fmt.Sprintf("election bully --nodes %d", n)
	for _, c := range crashed {
		line += fmt.Sprintf(" --crash %d@%d", c, tick)
	}
	line += " --seed 1"
	evs, err := runLog(ctx, line)
	if err != nil {
		return 0, "", err
	}
	leader := 0
	for _, e := range evs {
		if e.Kind == "leader" {
			leader = e.Leader
		}
	}
	return leader, line, nil
}

// lamportClock asks the Lamport clock of a node's "leader" event in a
// drawn Chang-Roberts run: the run's log carries every event's clock.
func lamportClock(ctx context.Context, r *rand.Rand) (item, error) {
	d := drawRing(r)
	line := fmt.Sprintf("election chang-roberts %s --seed 1", d.flags())
	evs, err := runLog(ctx, line)
	if err != nil {
		return item{}, err
	}
	names := evs[0].Names
	var firsts []event // each node's first leader event
	seen := map[int]bool{}
	for _, e := range evs {
		if e.Kind == "leader" && !seen[e.Node] {
			seen[e.Node] = true
			firsts = append(firsts, e)
		}
	}
	if len(firsts) == 0 {
		return item{}, fmt.Errorf("no node learnt a leader")
	}
	e := firsts[r.IntN(len(firsts))]
	name, ans := names[e.Node-1], strconv.FormatInt(e.LC, 10)
	return item{
		text: both{
			fmt.Sprintf("Chang-Roberts runs on the ring with ids %s, started by the nodes at positions %s, on the simulator (seed 1). Every event (a command, a state change, a send, a receive, learning the leader) ticks its node's Lamport clock. What is the Lamport clock of the event where %s learns that the leader is id %d?",
				joinInts(d.ids), joinInts(d.initiators), name, e.Leader),
			fmt.Sprintf("O algoritmo de Chang-Roberts roda no anel com ids %s, com início nos nós das posições %s, no simulador (semente 1). Todo evento (um comando, uma mudança de estado, um envio, uma recepção, saber o líder) avança o relógio de Lamport do seu nó. Qual é o relógio de Lamport do evento em que %s fica sabendo que o líder é o id %d?",
				joinInts(d.ids), joinInts(d.initiators), name, e.Leader),
		},
		answer: ans, form: formInt,
		explanation: both{
			fmt.Sprintf("lc=%s. Lamport's rule: a node adds one to its clock at each event, and a receive first takes the larger of its clock and the message's. Follow the chain of messages that leads to %s; the replay prints lc= on every event.", ans, name),
			fmt.Sprintf("lc=%s. A regra de Lamport: o nó soma um ao relógio a cada evento, e uma recepção antes toma o maior entre o seu relógio e o da mensagem. Siga a cadeia de mensagens que leva a %s; o replay mostra lc= em cada evento.", ans, name),
		},
		replay: line + " --vc", evidence: fmt.Sprintf(`%s +leader is id %d +lc=%s `, regexp.QuoteMeta(name), e.Leader, ans),
	}, nil
}
