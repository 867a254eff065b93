package main

// The stop table: every leaf command of the app, started as a real process
// with arguments that make it run long, is sent SIGINT (and SIGTERM) once it
// has really started, and must exit 130 with its partial result printed.
//
//	go test -run TestEveryCommandStops -v .      (one "stopped in" line per row)
//	go test -run '^$' -bench StopTime .           (the same figures as a benchmark)
//
// The verdict never depends on how fast the process stops: a deadline of
// stopDeadline only bounds a hang, and the measured time is logged.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"ringlab/internal/racebuild"
)

const (
	// stopDeadline bounds the wait for a process to exit after the signal:
	// a process still running then hangs (the target is under a second).
	stopDeadline = 20 * time.Second
	// startDeadline bounds the wait for a process's first sign of work.
	startDeadline = 60 * time.Second
	// brokerAddr is where the broker rows expect RabbitMQ.
	brokerAddr = "localhost:5672"
)

// stopRow is how one leaf command is stopped.
type stopRow struct {
	args    []string       // after "ringlab"; {} is the leaf's own name
	ready   *regexp.Regexp // a line of stdout or stderr that shows the work has started
	out     *regexp.Regexp // the partial result on stdout (nil: not asserted)
	errOut  *regexp.Regexp // the partial result on stderr (nil: not asserted)
	stdin   func(t *testing.T) []byte
	instant string // why the command ends at once: it is run, not signalled
	broker  bool   // needs RabbitMQ on brokerAddr; runs with broker names of the test process's own
	// fedOut: the ready handshake is that stdin has been read this far
	// (bytes), for a command that prints nothing while it loads.
	fedOut int
}

var re = regexp.MustCompile

// runRow is a run of an algorithm on the simulator, large enough to last
// seconds: the drawn seed's line on stderr is the handshake.
func runRow(args ...string) stopRow {
	return stopRow{args: append(args, "--max-steps", "2000000000", "--timeout", "1h"),
		ready: re(`^seed \d+`), out: re(`interrupted`), errOut: re(`interrupted`)}
}

// stopRows maps a command's full name (or "GROUP *" for every leaf of a
// group of algorithms) to its row.
func stopRows(bin string) map[string]stopRow {
	big := bigNodes()
	bigLog := bigRunLog(bin)
	explore := func(extra ...string) stopRow {
		return stopRow{args: append([]string{"{}", "--schedules", "10000000"}, extra...),
			ready: re(`^seeds from \d+`), out: re(`interrupted (after \d+ of 10000000 schedules|while shrinking)`)}
	}
	checkRow := stopRow{ready: re(`^exhaustive check of`), out: re(`result: not exhausted, stopped by interrupted`)}
	vetRow := stopRow{ready: re(`^vet: searching up to`), out: re(`(?m)^vet: interrupted after \d+ states: \d+ findings so far`)}
	rows := map[string]stopRow{
		"ring": {args: []string{"ring", "--delay", "1s", "--nodes", "30", "--length", "80"},
			ready: re(`.`), out: re(`interrupted after`)},
		"version":        {instant: "prints one line"},
		"exercises list": {instant: "prints the catalog"},
		"quiz":           {instant: "draws one question and answers it from a small run of the lab"},

		"mutex central":         runRow("mutex", "central", "--nodes", "1024", "--requests", "100000"),
		"mutex token-ring":      runRow("mutex", "token-ring", "--nodes", "1024", "--requests", "100000"),
		"mutex quorum":          runRow("mutex", "quorum", "--nodes", "1024", "--requests", "100000"),
		"mutex ricart-agrawala": runRow("mutex", "ricart-agrawala", "--nodes", "1024", "--requests", "100000"),
		"mutex lamport":         runRow("mutex", "lamport", "--nodes", "1024", "--requests", "100000"),
		"mutex maekawa":         runRow("mutex", "maekawa", "--nodes", "1024", "--requests", "100000"),
		"mutex scenario *":      {instant: "a fixed worked example of a few dozen events on the simulator"},
		"mutex compare": {args: []string{"mutex", "compare", "--format", "json", "--nodes", "3,256", "--requests", "10000"},
			ready: re(`^\{"algorithm":"central","n":3,`), out: re(`^\{"algorithm":"central","n":3,`)},
		"mutex quorum-probability": {args: []string{"mutex", "quorum-probability", "-n", "64", "-m", "40", "-p", "0.3", "--monte-carlo", "1000000"},
			ready: re(`^P_v =`), out: re(`Monte Carlo: interrupted after \d+ of 1000000 trials`)},
		"mutex check *":   withArgs(checkRow, "{}", "--nodes", "7", "--requests", "4"),
		"mutex explore *": explore("--nodes", "3", "--requests", "2"),
		"mutex vet *":     withArgs(vetRow, "{}", "--nodes", "7", "--requests", "4", "--max-states", "1000000000"),

		"election ring":          runRow("election", "ring", "--nodes", big),
		"election anonymous":     runRow("election", "anonymous", "--nodes", big),
		"election idlist":        runRow("election", "idlist", "--nodes", "100000"),
		"election chang-roberts": runRow("election", "chang-roberts", "--nodes", big),
		"election franklin":      runRow("election", "franklin", "--nodes", big),
		// 10,000 nodes: a bully's first step sends to every higher id, and
		// at 100,000 one step's sends outlasted the 20 s margin on a busy machine
		"election bully": runRow("election", "bully", "--nodes", "10000"),
		"election yoyo":  runRow("election", "yoyo", "--nodes", big),
		"election compare": {args: []string{"election", "compare", "--format", "json", "--nodes", "8,65536", "--idlist-all"},
			ready: re(`^\{"algorithm":"ring","n":8,`), out: re(`^\{"algorithm":"ring","n":8,`)},
		"election check *": withArgs(checkRow, "{}", "--nodes", "8", "--initiators", "all"),
		// anonymous and bully violate a property at once with every node
		// starting: these arguments make spaces too large to finish instead
		"election check anonymous":     withArgs(checkRow, "election", "check", "anonymous", "--nodes", "9", "--initiators", "all", "--property", "termination"),
		"election check bully":         withArgs(checkRow, "election", "check", "bully", "--nodes", "8", "--initiators", "1", "--timers", "quiet"),
		"election check chang-roberts": withArgs(checkRow, "election", "check", "chang-roberts", "--nodes", "12", "--initiators", "all"),
		"election explore *":           explore("--nodes", "5", "--initiators", "all"),
		"election vet *":               withArgs(vetRow, "{}", "--nodes", "8", "--initiators", "all", "--max-states", "1000000000"),
		// two anonymous candidates both win in the first schedule, before a
		// signal could land: one candidate keeps the sweep going
		"election explore anonymous": withArgs(explore(), "election", "explore", "anonymous", "--schedules", "10000000", "--nodes", "5", "--initiators", "1"),

		"exercises hello": {args: []string{"exercises", "hello", "--goroutines", big},
			ready: re(`^hello from`), out: re(`(?m)^interrupted: \d+ of \d+ goroutines said hello`)},
		"exercises join": {args: []string{"exercises", "join", "--work", "10s", "--timeout", "9s", "--sleep", "10s", "--cancel-after", "9s"},
			ready: re(`^1\. join`), out: re(`interrupted`)},
		"exercises counter": {args: []string{"exercises", "counter", "--goroutines", "1000", "--increments", "100000"},
			ready: re(`^g\d+: `), out: re(`(?m)^interrupted`)},
		"exercises two-locks": {args: []string{"exercises", "two-locks", "--loops", "10000000"},
			ready: re(`^T1 and T2 loop`), out: re(`(?m)^interrupted`)},
		"exercises signal": {args: []string{"exercises", "signal", "--wait", "10s"},
			ready: re(`^waiting 10s`), out: re(`(?m)^spin +interrupted after`)},
		"exercises blocking-queue": {args: []string{"exercises", "blocking-queue", "--producers", "100", "--consumers", "100", "--items", "1000000"},
			ready: re(`producer`), out: re(`(?m)^interrupted`)},
		"exercises concurrent-map": {args: []string{"exercises", "concurrent-map", "--goroutines", big},
			ready: re(`goroutines called PutIfAbsent`), out: re(`(?m)^interrupted`)},
		"exercises thread-local": {instant: "at most 1000 workers × 1000 requests of a few microseconds each"},
		"exercises pool": {args: []string{"exercises", "pool", "-n", "1000000000", "--period", "5s", "--runs", "50", "--tasks", "100000"},
			ready: re(`^futures:`), out: re(`^futures:`)},
		"exercises servers": {args: []string{"exercises", "servers", "--requests", "100000", "--read-time", "5ms"},
			ready: re(`requests per architecture`), out: re(`(?m)^ *architecture +handlers`)},
		"exercises false-sharing": {args: []string{"exercises", "false-sharing", "-n", "10000000000", "--rounds", "20"},
			ready: re(`increments each`), out: re(`(?m)^interrupted`)},
		"exercises stateful": {args: []string{"exercises", "stateful", "--rows", "900000", "--clients", "1", "--customers", "1", "--page", "100", "--vanish", "0"},
			ready: re(`clients at once`), out: re(`(?m)^interrupted`)},

		"render": {args: []string{"render", "--from", "-"}, stdin: bigLog, fedOut: 4 << 20,
			errOut: re(`interrupted`)},
		"check": {args: []string{"check", "--from", "-"}, stdin: bigLog, fedOut: 4 << 20,
			errOut: re(`interrupted`)},
		"new *": {args: []string{"{}", "mypkg"}, instant: "writes two small files"},
		"grade": {args: []string{"grade", "--points", kitPoints()}, stdin: bigTestStream, fedOut: 4 << 20,
			errOut: re(`interrupted`)},
		"serve": {args: []string{"serve", "--addr", "127.0.0.1:0"},
			ready: re(`^serving`), errOut: re(`^serving`)},

		// a node that is not the initiator waits for the others; the
		// handshake is the line that says what it waits for
		"node": {args: []string{"node", "--algo", "ring", "--index", "2", "--ids", "5,3,7,1,4"}, broker: true,
			ready: re(`wait`), errOut: re(`interrupted`)},
		"amqp setup":    {broker: true, instant: "declares a handful of queues"},
		"amqp teardown": {broker: true, instant: "deletes a handful of queues"},
	}
	return rows
}

// The broker rows beside the table's leaves: a run over RabbitMQ.
var brokerRuns = map[string]stopRow{
	"mutex central --runtime amqp": {args: []string{"mutex", "central", "--runtime", "amqp", "--nodes", "5", "--requests", "100000", "--timeout", "1h"},
		broker: true, ready: re(`^t=`), out: re(`interrupted`), errOut: re(`interrupted`)},
}

func withArgs(r stopRow, args ...string) stopRow { r.args = args; return r }

// bigNodes is a goroutine count a -race build can afford.
func bigNodes() string {
	if racebuild.Enabled {
		return fmt.Sprint(racebuild.MaxGoroutines)
	}
	return "1000000"
}

// leaves lists the full names of the app's leaf commands ("mutex explore
// lamport"), walking the command tree as the app builds it.
func leaves() []string {
	var out []string
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			name := strings.TrimSpace(prefix + " " + c.Name)
			if len(c.Subcommands) == 0 {
				out = append(out, name)
				continue
			}
			walk(name, c.Subcommands)
		}
	}
	walk("", newApp(io.Discard, io.Discard, areas()...).Commands)
	return out
}

// rowFor finds the row of a leaf: its own, or its group's "GROUP *" row
// with {} standing for the leaf's name.
func rowFor(rows map[string]stopRow, leaf string) (stopRow, bool) {
	if r, ok := rows[leaf]; ok {
		return r, true
	}
	i := strings.LastIndex(leaf, " ")
	if i < 0 {
		return stopRow{}, false
	}
	r, ok := rows[leaf[:i]+" *"]
	if !ok {
		return stopRow{}, false
	}
	group, name := strings.Fields(leaf[:i]), leaf[i+1:]
	args := append([]string(nil), group...)
	for _, a := range r.args {
		if a == "{}" {
			a = name
		}
		args = append(args, a)
	}
	r.args = args
	return r, true
}

// ringlabBinary builds the command into tb's temporary directory, with
// -race when the tests run under it.
func ringlabBinary(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "ringlab")
	args := []string{"build", "-o", bin}
	if racebuild.Enabled {
		args = append(args, "-race")
	}
	out, err := exec.Command("go", append(args, ".")...).CombinedOutput()
	if err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// bigRunLog returns a function that makes, once, a large NDJSON log of a real
// run (a ring election of thousands of nodes): megabytes that take longer
// to read than a signal takes to arrive.
func bigRunLog(bin string) func(t *testing.T) []byte {
	var (
		once sync.Once
		data []byte
		err  error
	)
	return func(t *testing.T) []byte {
		t.Helper()
		once.Do(func() {
			nodes := "30000"
			if racebuild.Enabled {
				nodes = "10000"
			}
			cmd := exec.Command(bin, "election", "ring", "--nodes", nodes, "--seed", "1", "--format", "json")
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if data, err = cmd.Output(); err != nil {
				err = fmt.Errorf("%v: %s", err, errb.String())
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
}

func brokerUp() bool {
	c, err := net.DialTimeout("tcp", brokerAddr, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// capture keeps the head and the tail of a stream and reports the first
// line that matches ready.
type capture struct {
	mu         sync.Mutex
	head, tail []string
	lines      int
}

const keepLines = 200

func (c *capture) add(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lines++
	if len(c.head) < keepLines {
		c.head = append(c.head, line)
		return
	}
	c.tail = append(c.tail, line)
	if len(c.tail) > 2*keepLines {
		c.tail = slices.Clone(c.tail[keepLines:])
	}
}

func (c *capture) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := strings.Join(c.head, "\n")
	if len(c.tail) > 0 {
		s += "\n" + strings.Join(c.tail, "\n")
	}
	return s
}

// stopResult is what one signalled run did.
type stopResult struct {
	code        int
	stop        time.Duration // from the signal to the exit
	out, errOut string
}

// stopOnce starts the row's command, waits for its handshake, sends sig
// and waits for the exit.
func stopOnce(t testing.TB, bin string, r stopRow, sig os.Signal, stdin []byte) stopResult {
	t.Helper()
	cmd := exec.Command(bin, r.args...)
	cmd.Dir = t.TempDir()
	if r.broker {
		cmd.Env = testEnv() // broker names of this test process's own
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var in io.WriteCloser
	if stdin != nil {
		if in, err = cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	var once sync.Once
	var outC, errC capture
	var readers sync.WaitGroup
	scan := func(rd io.Reader, c *capture) {
		defer readers.Done()
		sc := bufio.NewScanner(rd)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			c.add(line)
			if r.ready != nil && r.ready.MatchString(line) {
				once.Do(func() { close(ready) })
			}
		}
		_, _ = io.Copy(io.Discard, rd) // a line longer than the buffer: drain the rest
	}
	readers.Add(2)
	go scan(stdout, &outC)
	go scan(stderr, &errC)
	if in != nil {
		readers.Add(1)
		go func() {
			defer readers.Done()
			defer in.Close()
			for fed := 0; fed < len(stdin); {
				n, err := in.Write(stdin[fed:min(fed+64<<10, len(stdin))])
				fed += n
				if err != nil {
					return // the process stopped reading: it exited
				}
				if fed >= r.fedOut {
					once.Do(func() { close(ready) })
				}
			}
		}()
	}
	exited := make(chan error, 1)
	waited := make(chan struct{})
	go func() {
		readers.Wait()
		exited <- cmd.Wait()
		close(waited)
	}()
	kill := func() {
		_ = cmd.Process.Kill()
		<-waited
	}
	select {
	case <-ready:
	case err := <-exited:
		t.Fatalf("%v ended before it started its work (%v)\nstdout:\n%s\nstderr:\n%s", r.args, err, outC.String(), errC.String())
	case <-time.After(startDeadline):
		kill()
		t.Fatalf("%v: no sign of work within %v\nstdout:\n%s\nstderr:\n%s", r.args, startDeadline, outC.String(), errC.String())
	}
	t0 := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(stopDeadline):
		kill()
		t.Fatalf("%v: still running %v after %v (a hang)\nstdout:\n%s\nstderr:\n%s", r.args, stopDeadline, sig, outC.String(), errC.String())
	}
	return stopResult{code: cmd.ProcessState.ExitCode(), stop: time.Since(t0), out: outC.String(), errOut: errC.String()}
}

// TestEveryCommandStops signals every leaf command of the app once it runs
// and asserts exit 130 and its partial result; it logs the stop times.
func TestEveryCommandStops(t *testing.T) {
	if testing.Short() {
		t.Skip("starts every command as a process: not under -short")
	}
	bin := ringlabBinary(t)
	rows := stopRows(bin)
	used := map[string]bool{}
	type named struct {
		name string
		row  stopRow
	}
	var table []named
	for _, leaf := range leaves() {
		r, ok := rowFor(rows, leaf)
		if !ok {
			t.Errorf("command %q has no row in stopRows: say how to make it run long and what it prints when stopped", leaf)
			continue
		}
		used[leaf] = true
		if i := strings.LastIndex(leaf, " "); i > 0 {
			used[leaf[:i]+" *"] = true
		}
		table = append(table, named{leaf, r})
	}
	for name := range rows {
		if !used[name] {
			t.Errorf("row %q names no command of the app", name)
		}
	}
	for name, r := range brokerRuns {
		table = append(table, named{name, r})
	}
	haveBroker := brokerUp()
	var figures []string
	for _, n := range table {
		for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
			t.Run(n.name+"/"+sigName(sig), func(t *testing.T) {
				r := n.row
				if r.broker && !haveBroker {
					t.Skipf("needs RabbitMQ on %s: start it (bash .ci/rabbitmq.sh start) and run go test -run 'TestEveryCommandStops/(amqp|node|.*runtime_amqp)' .", brokerAddr)
				}
				if r.instant != "" {
					if sig != os.Interrupt {
						t.Skip("ends at once: run once, under the SIGINT row")
					}
					runInstant(t, bin, n.name, r)
					return
				}
				var stdin []byte
				if r.stdin != nil {
					stdin = r.stdin(t)
				}
				res := stopOnce(t, bin, r, sig, stdin)
				t.Logf("%s: stopped in %v after %v, exit %d", n.name, res.stop.Round(time.Millisecond), sigName(sig), res.code)
				figures = append(figures, fmt.Sprintf("%-40s %-7s %8v", n.name, sigName(sig), res.stop.Round(time.Millisecond)))
				if res.code != 130 {
					t.Errorf("exit %d, want 130\nstdout:\n%s\nstderr:\n%s", res.code, res.out, res.errOut)
				}
				if r.out != nil && !r.out.MatchString(res.out) {
					t.Errorf("stdout has no partial result matching %q:\n%s\nstderr:\n%s", r.out, res.out, res.errOut)
				}
				if r.errOut != nil && !r.errOut.MatchString(res.errOut) {
					t.Errorf("stderr has no line matching %q:\n%s", r.errOut, res.errOut)
				}
			})
		}
	}
	if testing.Verbose() {
		t.Logf("stop times (signal to exit):\n%s", strings.Join(figures, "\n"))
	}
}

// runInstant runs a command that ends at once and checks that its row's
// arguments are right (it neither fails to parse nor fails internally).
func runInstant(t *testing.T, bin, name string, r stopRow) {
	args := r.args
	if args == nil {
		args = strings.Fields(name)
	}
	ctx, cancel := context.WithTimeout(t.Context(), stopDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = t.TempDir()
	if r.broker {
		cmd.Env = testEnv() // broker names of this test process's own
	}
	t0 := time.Now()
	out, err := cmd.CombinedOutput()
	code := cmd.ProcessState.ExitCode()
	t.Logf("%s: ends by itself in %v (%s), exit %d", name, time.Since(t0).Round(time.Millisecond), r.instant, code)
	if ctx.Err() != nil || (err != nil && code != 3 && code != 4) {
		t.Errorf("%v: exit %d (%v): it should end by itself at once (%s)\n%s", args, code, err, r.instant, out)
	}
}

func sigName(sig os.Signal) string {
	if sig == os.Interrupt {
		return "SIGINT"
	}
	return "SIGTERM"
}

// BenchmarkStopTime measures, for a few long commands, the time from
// SIGINT to the process's exit (ms/stop; ns/op adds the start-up).
func BenchmarkStopTime(b *testing.B) {
	bin := ringlabBinary(b)
	rows := stopRows(bin)
	for _, name := range []string{"ring", "mutex explore lamport", "election explore ring", "mutex quorum-probability", "exercises false-sharing", "exercises signal"} {
		r, _ := rowFor(rows, name)
		b.Run(strings.ReplaceAll(name, " ", "-"), func(b *testing.B) {
			var total time.Duration
			n := 0
			for b.Loop() {
				total += stopOnce(b, bin, r, os.Interrupt, nil).stop
				n++
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(n), "ms/stop")
		})
	}
}
