package quiz

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// lockStep is one step of a goroutine in the two-locks model: take or
// release lock 1 or 2.
type lockStep struct {
	take bool
	lock int // 1 or 2
}

// lockProgram is what one goroutine does once: nested, it takes first,
// then second, and releases them in reverse; unnested, it takes and
// releases each in turn.
func lockProgram(first, second int, nested bool) []lockStep {
	if nested {
		return []lockStep{{true, first}, {true, second}, {false, second}, {false, first}}
	}
	return []lockStep{{true, first}, {false, first}, {true, second}, {false, second}}
}

// deadlocks reports whether some interleaving of the two programs reaches
// a state where neither can move and not both are done: every schedule is
// explored (a few dozen states), a state being where each goroutine is in
// its program and which goroutine (1 or 2, 0 for none) holds each lock.
func deadlocks(a, b []lockStep) bool {
	type state struct {
		pc     [2]int
		holder [3]int // holder[l]: who holds lock l
	}
	progs := [2][]lockStep{a, b}
	seen := map[state]bool{}
	var stuck func(s state) bool
	stuck = func(s state) bool {
		if seen[s] {
			return false
		}
		seen[s] = true
		moved := false
		for g, prog := range progs {
			if s.pc[g] == len(prog) {
				continue
			}
			st := prog[s.pc[g]]
			if st.take && s.holder[st.lock] != 0 {
				continue // waits for a lock the other holds
			}
			next := s
			next.pc[g]++
			next.holder[st.lock] = 0
			if st.take {
				next.holder[st.lock] = g + 1
			}
			moved = true
			if stuck(next) {
				return true
			}
		}
		return !moved && (s.pc[0] < len(a) || s.pc[1] < len(b))
	}
	return stuck(state{})
}

// twoLocks asks whether two goroutines taking two locks in drawn orders,
// nested or not, can deadlock: the model's every interleaving answers, and
// the two-locks exercise shows it.
func twoLocks(_ context.Context, r *rand.Rand) (item, error) {
	nested := r.IntN(3) > 0
	o1, o2 := 1+r.IntN(2), 1+r.IntN(2) // each goroutine's first lock
	a, b := lockProgram(o1, 3-o1, nested), lockProgram(o2, 3-o2, nested)
	ans, replay, evidence, exit := "no", "exercises two-locks --loops 1", `final c1=2 c2=2`, 0
	if nested && o1 == o2 {
		replay += " --nested --ordered-locks"
	}
	if deadlocks(a, b) {
		ans, replay, evidence, exit = "yes", "exercises two-locks --loops 1 --nested", `watchdog: deadlock`, 4
	}
	how := both{"takes lock%d, releases it, then takes lock%d and releases it", "pega o lock%d, solta, depois pega o lock%d e solta"}
	if nested {
		how = both{"takes lock%d and, still holding it, lock%d, then releases both", "pega o lock%d e, ainda com ele, o lock%d, depois solta os dois"}
	}
	expl := map[string]both{
		"yes": {"Yes: T1 can hold one lock while T2 holds the other, each waiting for the lock the other holds: a cycle, so neither ever moves. One global lock order (--ordered-locks) is the fix.",
			"Sim: T1 pode segurar um lock enquanto T2 segura o outro, cada um esperando o lock que o outro tem: um ciclo, e nenhum anda mais. Uma ordem global dos locks (--ordered-locks) é a correção."},
		"no": {"No: no goroutine waits for a lock while holding one the other wants (one order for both, or never two locks at once), so no cycle of waits can form.",
			"Não: nenhuma goroutine espera por um lock enquanto segura um que a outra quer (a mesma ordem para as duas, ou nunca dois locks ao mesmo tempo), então nenhum ciclo de espera se forma."},
	}[ans]
	return item{
		text: both{
			fmt.Sprintf("Goroutine T1 "+how.en+"; goroutine T2 "+how.en+". Both run at once. Can they deadlock? (yes/no)", o1, 3-o1, o2, 3-o2),
			fmt.Sprintf("A goroutine T1 "+how.pt+"; a goroutine T2 "+how.pt+". As duas rodam ao mesmo tempo. Elas podem entrar em deadlock? (sim/não)", o1, 3-o1, o2, 3-o2),
		},
		answer: ans, form: formYesNo, explanation: expl,
		replay: replay, evidence: evidence, replayExit: exit,
	}, nil
}
