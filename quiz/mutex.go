package quiz

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"ringlab/engine/cliutil"
	"ringlab/mutex/quorum"
)

// violating returns the shortest schedule that breaks mutual exclusion in
// `mutex check CONFIG`, as the exhaustive checker prints it.
func violating(ctx context.Context, config string) (string, error) {
	if p, ok := shortest.Load(config); ok {
		return p.(string), nil
	}
	line := "mutex check " + config + " --property mutual-exclusion --format json"
	code, out, errs := lab(ctx, line)
	var res struct {
		Path string `json:"path"`
	}
	if code != cliutil.ExitViolation || json.Unmarshal([]byte(out), &res) != nil || res.Path == "" {
		return "", fmt.Errorf("ringlab %s: exit %d, no violating path: %s", line, code, strings.TrimSpace(errs))
	}
	shortest.Store(config, res.Path)
	return res.Path, nil
}

// shortest memoizes violating: the checker's shortest path is a function
// of the configuration, and a sheet asks about few configurations.
var shortest sync.Map

// mutexPath asks whether a schedule breaks mutual exclusion: the shortest
// violating one the checker finds, one step shorter, or (for Lamport's
// algorithm) the same steps on FIFO links. Replaying the path answers.
func mutexPath(ctx context.Context, r *rand.Rand) (item, error) {
	config := "lamport --nodes 2 --policy random"
	if r.IntN(2) == 0 {
		config = fmt.Sprintf("central --nodes 3 --grant-timeout %d", 1+r.IntN(3))
	}
	path, err := violating(ctx, config)
	if err != nil {
		return item{}, err
	}
	switch r.IntN(3) {
	case 1:
		path = path[:strings.LastIndex(path, ",")]
	case 2:
		config = strings.Replace(config, "random", "fifo", 1) // Lamport's links made FIFO; central's stay as they are
	}
	ans, mark, code, line, err := replayPath(ctx, config, path)
	if err != nil {
		return item{}, err
	}
	legend := both{
		"cI: node I asks to enter; dI-J: the link from I to J delivers a message; tI:K: node I's timer fires",
		"cI: o nó I pede para entrar; dI-J: o canal de I para J entrega uma mensagem; tI:K: o temporizador do nó I dispara",
	}
	expl := map[string]both{
		"yes": {"Yes: replayed, the schedule ends with two nodes in the critical section at once (the checker's ✗ mutual exclusion).",
			"Sim: reexecutado, o escalonamento termina com dois nós na seção crítica ao mesmo tempo (o ✗ mutual exclusion do verificador)."},
		"no": {"No: replayed, the schedule never has two nodes inside at once (✓ mutual exclusion); it may stop before the run ends.",
			"Não: reexecutado, o escalonamento nunca tem dois nós dentro ao mesmo tempo (✓ mutual exclusion); ele pode parar antes de a execução terminar."},
	}[ans]
	return item{
		text: both{
			fmt.Sprintf("In the system `ringlab mutex check %s`, take the schedule %s (%s). Does it break mutual exclusion? (yes/no)", config, path, legend.en),
			fmt.Sprintf("No sistema `ringlab mutex check %s`, tome o escalonamento %s (%s). Ele viola a exclusão mútua? (sim/não)", config, path, legend.pt),
		},
		answer: ans, form: formYesNo, explanation: expl,
		replay: line, evidence: mark + " mutual exclusion", replayExit: code,
	}, nil
}

// replayPath replays path in `mutex check CONFIG` and says whether it
// breaks mutual exclusion ("yes" or "no"), with the verdict's mark in the
// replay's output, the replay's exit code and its command line.
func replayPath(ctx context.Context, config, path string) (ans, mark string, code int, line string, err error) {
	line = fmt.Sprintf("mutex check %s --property mutual-exclusion --path %s", config, path)
	code, out, errs := lab(ctx, line)
	switch {
	case code == cliutil.ExitViolation:
		return "yes", "✗", code, line, nil
	case (code == cliutil.ExitOK || code == cliutil.ExitNoTermination) && strings.Contains(out+errs, "✓ mutual exclusion"):
		return "no", "✓", code, line, nil
	}
	return "", "", code, line, fmt.Errorf("ringlab %s: exit %d: %s", line, code, strings.TrimSpace(errs))
}

// perEntry asks how many messages an algorithm sends per critical-section
// entry at N nodes on one seeded run: the simulator measures it.
func perEntry(ctx context.Context, r *rand.Rand) (item, error) {
	algo := []string{"ricart-agrawala", "maekawa", "lamport", "central", "token-ring"}[r.IntN(5)]
	n, seed := 3+r.IntN(3), 1+r.IntN(20)
	ans, theory, line, err := perEntryOf(ctx, algo, n, seed)
	if err != nil {
		return item{}, err
	}
	return item{
		text: both{
			fmt.Sprintf("On the simulator, `ringlab mutex %s --nodes %d --seed %d` runs the %s algorithm with %d nodes, each entering the critical section a few times. How many messages does it send per entry, on average over that run?", algo, n, seed, algo, n),
			fmt.Sprintf("No simulador, `ringlab mutex %s --nodes %d --seed %d` executa o algoritmo %s com %d nós, cada um entrando na seção crítica algumas vezes. Quantas mensagens ele envia por entrada, em média nessa execução?", algo, n, seed, algo, n),
		},
		answer: ans, form: formFloat,
		explanation: both{
			fmt.Sprintf("%s messages per entry: the run's messages divided by its entries; the chapter's figure is %s.", ans, theory),
			fmt.Sprintf("%s mensagens por entrada: as mensagens da execução divididas pelas entradas; a conta do capítulo dá %s.", ans, theory),
		},
		replay: line + " --format none", evidence: "messages per entry: " + regexp.QuoteMeta(ans) + " ",
	}, nil
}

// perEntryOf runs `mutex ALGO --nodes N --seed S` on the simulator and
// returns its messages per entry as the run's summary states them, the
// chapter's bound, and the run's command line.
func perEntryOf(ctx context.Context, algo string, n, seed int) (ans, theory, line string, err error) {
	line = fmt.Sprintf("mutex %s --nodes %d --seed %d", algo, n, seed)
	code, out, errs := lab(ctx, line+" --format json")
	if code != cliutil.ExitOK {
		return "", "", line, fmt.Errorf("ringlab %s: exit %d: %s", line, code, strings.TrimSpace(errs))
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum struct {
		Extra map[string]any `json:"extra"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		return "", "", line, err
	}
	figure, _ := sum.Extra["messages per entry"].(string) // "7.75 (theory ...)"
	ans, theory, ok := strings.Cut(figure, " ")
	if _, err := strconv.ParseFloat(ans, 64); err != nil || !ok {
		return "", "", line, fmt.Errorf("ringlab %s: no messages per entry in %q", line, figure)
	}
	theory = strings.TrimSuffix(strings.TrimPrefix(theory, "(theory "), ")")
	return ans, theory, line, nil
}

// quorumProbability asks the chance that amnesia breaks a quorum: the
// lab's formula (mutex/quorum) computes it.
func quorumProbability(_ context.Context, r *rand.Rand) (item, error) {
	n := 3 + r.IntN(7)
	m := n/2 + 1 + r.IntN(n-n/2)
	p := []float64{0.01, 0.05, 0.1, 0.2, 0.3}[r.IntN(5)]
	ans := quorumAnswer(n, m, p)
	return item{
		text: both{
			fmt.Sprintf("A participant enters the critical section once it holds m = %d votes out of n = %d coordinators. Each coordinator crashes and recovers, forgetting its vote, with probability P = %g within the window. What is the probability that a second participant also collects m votes (mutual exclusion broken)? Three significant digits.", m, n, p),
			fmt.Sprintf("Um participante entra na seção crítica quando tem m = %d votos de n = %d coordenadores. Cada coordenador falha e se recupera, esquecendo o voto, com probabilidade P = %g dentro da janela. Qual a probabilidade de um segundo participante também juntar m votos (exclusão mútua violada)? Três algarismos significativos.", m, n, p),
		},
		answer: ans, form: formFloat,
		explanation: both{
			fmt.Sprintf("%s: at least 2m-n = %d of the m coordinators that voted for the first must forget, so P_v = sum over k = %d..%d of C(%d,k) P^k (1-P)^(%d-k).", ans, 2*m-n, 2*m-n, m, m, m),
			fmt.Sprintf("%s: pelo menos 2m-n = %d dos m coordenadores que votaram no primeiro precisam esquecer, então P_v = soma para k = %d..%d de C(%d,k) P^k (1-P)^(%d-k).", ans, 2*m-n, 2*m-n, m, m, m),
		},
		replay:   fmt.Sprintf("mutex quorum-probability --n %d --m %d --p %g", n, m, p),
		evidence: `(?m)^P_v = .* = ` + regexp.QuoteMeta(ans) + `$`,
	}, nil
}

// quorumAnswer is the probability that amnesia breaks a quorum of m out of
// n, P being one coordinator's chance, to three significant digits as
// `mutex quorum-probability` prints it.
func quorumAnswer(n, m int, p float64) string {
	return fmt.Sprintf("%.3g", quorum.ViolationProbability(n, m, p))
}
