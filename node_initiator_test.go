package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"ringlab/engine/amqp/amqptest"
)

// brokerPassword is the password url gives, or "".
func brokerPassword(url string) string {
	u, err := neturl.Parse(url)
	if err != nil || u.User == nil {
		return ""
	}
	pw, _ := u.User.Password()
	return pw
}

// startNodeW starts a `ringlab node` process of node index with args,
// its output going to stdout and stderr (its own buffers where nil).
func startNodeW(t *testing.T, bin, url, dir string, index int, stdout, stderr io.Writer, args ...string) *nodeProc {
	t.Helper()
	p := &nodeProc{index: index, events: filepath.Join(dir, fmt.Sprintf("node%d.ndjson", index))}
	p.cmd = exec.Command(bin, append([]string{"node", "--index", fmt.Sprint(index), "--url", url, "--events", p.events}, args...)...)
	p.cmd.Env = testEnv()
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.err
	if stdout != nil {
		p.cmd.Stdout = stdout
	}
	if stderr != nil {
		p.cmd.Stderr = stderr
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // a test that failed early leaves no process behind
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			_ = p.cmd.Wait()
		}
	})
	return p
}

// awaitLine waits for w's first lines; the bound is on a hang, not a
// synchronisation.
func awaitLine(t *testing.T, w *lineWriter, what string) {
	t.Helper()
	select {
	case <-w.first:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: nothing printed within 30 s", what)
	}
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// A run has one initiator. Node 1's process is it by default; a process
// started with --initiator while it runs is refused (exit 2, one line,
// no log), having sent nothing, and the run's other processes end with a
// clear message instead of waiting for its node.
func TestSecondInitiatorIsRefusedAndTheRunEnds(t *testing.T) {
	url := amqptest.BrokerURL(t)
	bin := binary(t)
	setupRing(t, bin, url)
	dir := t.TempDir()
	ring := []string{"--algo", "ring", "--ids", "5,3,7,1,4", "--timeout", "1m"}
	out1 := &lineWriter{first: make(chan struct{})}
	first := startNodeW(t, bin, url, dir, 1, out1, nil, ring...) // the initiator by default
	awaitLine(t, out1, "node 1")                                 // it holds the role: its node acts
	var rest []*nodeProc
	errs := map[int]*lineWriter{}
	for _, i := range []int{2, 4, 5} {
		errs[i] = &lineWriter{first: make(chan struct{})}
		rest = append(rest, startNodeW(t, bin, url, dir, i, nil, errs[i], ring...))
		awaitLine(t, errs[i], fmt.Sprintf("node %d's waiting line", i)) // it listens for the end of the run
	}
	second := startNodeW(t, bin, url, dir, 3, nil, nil, append(ring, "--initiator")...)
	err := second.cmd.Wait()
	if code, msg := exitCode(err), second.err.String(); code != 2 || second.out.Len() != 0 ||
		!strings.HasPrefix(msg, "ringlab: --initiator: ") || strings.Count(msg, "\n") != 1 {
		t.Errorf("the second initiator: exit %d, stdout %q, stderr %q; want exit 2 and one line on --initiator", code, second.out.String(), msg)
	}
	if _, err := os.Stat(second.events); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused process left its --events log: %v", err)
	}
	for _, p := range append(rest, first) {
		err := p.cmd.Wait()
		msg := p.err.String()
		if w := errs[p.index]; w != nil {
			msg = w.buf.String() // the process has exited: no writer is left
		}
		if code := exitCode(err); code != 2 || !strings.Contains(msg, "ringlab: the run was abandoned: a process was started as a second initiator") {
			t.Errorf("node %d: exit %d, stderr:\n%s\nwant exit 2 and the run abandoned", p.index, code, msg)
		}
	}
}

// A multi-process mutex run's verdicts name nodes as the simulator's do
// (P1 ..), write times from the run's start with a unit, and a run that
// cannot end exits 4 as the simulator's does. Node 5's process is never
// started, so nobody can enter the critical section: whatever the timing,
// the run ends on --timeout with nodes waiting.
func TestMutexNodeVerdictsNameNodesAndTimes(t *testing.T) {
	url := amqptest.BrokerURL(t)
	bin := binary(t)
	setupAlgo(t, bin, url, "mutex/ricart-agrawala")
	dir := t.TempDir()
	algo := []string{"--algo", "mutex/ricart-agrawala", "--requests", "1", "--timeout", "5s"}
	var procs []*nodeProc
	for i := 1; i <= 4; i++ {
		procs = append(procs, startNodeW(t, bin, url, dir, i, nil, nil, algo...))
	}
	for _, p := range procs {
		if code := exitCode(p.cmd.Wait()); code != 4 {
			t.Errorf("node %d: exit %d, want 4 (no termination)\n%s%s", p.index, code, p.out.String(), p.err.String())
		}
	}
	all := procs[0].out.String() + procs[0].err.String()
	m := regexp.MustCompile(`✗ no deadlock: (P[1-4](, | and )?)+ still waiting for the critical section at t=(\S+) and nobody is in it`).FindStringSubmatch(all)
	if m == nil {
		t.Fatalf("the initiator's verdicts do not name the waiting nodes P1..P4 with a time:\n%s", all)
	}
	if d, err := time.ParseDuration(m[3]); err != nil || d < 0 || d > time.Minute {
		t.Errorf("t=%s: want a duration from the run's start, with its unit", m[3])
	}
	if regexp.MustCompile(`node [1-5]|\d{12,}`).MatchString(m[0]) {
		t.Errorf("verdict %q names a node by index or gives a raw clock", m[0])
	}
	// each process's own lines too: times from its start, with a unit
	for _, p := range procs {
		line, _, _ := strings.Cut(p.out.String(), "\n")
		f := strings.Fields(strings.TrimPrefix(line, "t="))
		if len(f) < 2 || f[1] != fmt.Sprintf("P%d", p.index) {
			t.Fatalf("node %d's first line %q does not name its node P%d", p.index, line, p.index)
		}
		if d, err := time.ParseDuration(f[0]); err != nil || d < 0 || d > time.Minute {
			t.Errorf("node %d's first line %q: want a time from the process's start, with its unit", p.index, line)
		}
	}
}

// The broker's password is masked in everything a run writes: the
// replay line, the log's header and summary, and the browser page's data.
func TestAMQPRunMasksThePassword(t *testing.T) {
	url := amqptest.BrokerURL(t)
	pw := brokerPassword(url)
	if pw == "" {
		t.Skip("the broker's URL has no password")
	}
	events := filepath.Join(t.TempDir(), "run.ndjson")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stderr := &announced{url: make(chan string, 1)}
	var stdout bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"ringlab", "mutex", "ricart-agrawala", "--runtime", "amqp", "--url", url, "--requests", "1",
			"--format", "none", "--events", events, "--serve", "--serve-addr", "127.0.0.1:0"}, &stdout, stderr)
	}()
	var page string
	select {
	case page = <-stderr.url:
	case code := <-done:
		t.Fatalf("the command ended before serving: exit %d\n%s", code, stderr.buf.String())
	}
	texts := map[string]string{}
	for _, path := range []string{"/", "/run/1", "/log/1"} {
		resp, err := http.Get(strings.Replace(page, "/run/1", path, 1))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
		}
		texts["page "+path] = string(b)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.buf.String())
	}
	log, err := os.ReadFile(events)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	stderr.mu.Lock()
	texts["stderr"] = stderr.buf.String()
	stderr.mu.Unlock()
	texts["header"], texts["summary"] = lines[0], lines[len(lines)-1]
	masked := strings.Replace(url, ":"+pw+"@", ":xxx@", 1)
	for name, text := range texts {
		if strings.Contains(text, ":"+pw+"@") {
			t.Errorf("%s shows the password:\n%.2000s", name, text)
		}
		if !strings.HasPrefix(name, "page /") || name == "page /log/1" { // the page shows the replay of its data, the log
			if !strings.Contains(text, masked) {
				t.Errorf("%s does not name the broker %s:\n%.2000s", name, masked, text)
			}
		}
	}
	if !strings.Contains(texts["stderr"], "--url "+masked+" ") {
		t.Errorf("stderr has no masked replay line:\n%s", texts["stderr"])
	}
}

// `ringlab node --help` names each flag's value by what it is, and gives
// no default where the flag has none of its own.
func TestNodeHelpPlaceholders(t *testing.T) {
	code, out, _ := runCLI(t, t.Context(), "node", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"--index I ", "--ids IDS ", "--nodes N ", "--requests K ", "(default: true for --index 1, else false)"} {
		if !strings.Contains(out, want) {
			t.Errorf("node --help lacks %q:\n%s", want, out)
		}
	}
	_, options, _ := strings.Cut(out, "OPTIONS:")
	for _, bad := range []string{"--ids 5,3,7,1,4 ", "(default: 0)", "(default: false)"} {
		if strings.Contains(options, bad) {
			t.Errorf("node --help has %q:\n%s", bad, out)
		}
	}
}
