package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"ringlab/election"
	"ringlab/engine/amqp/amqptest"
	"ringlab/engine/check"
	rcli "ringlab/engine/cli"
	"ringlab/engine/trace"
)

func TestNodeAndAMQPBadInputExit2(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"node", "--index", "0"}, "--index must be between 1 and 5"},
		{[]string{"node", "--index", "6", "--ids", "5,3,7,1,4"}, "--index must be between 1 and 5"},
		{[]string{"node", "--algo", "nope", "--index", "1"}, `unknown algorithm "nope"`},
		{[]string{"node", "--algo", "mutex/nope", "--index", "1"}, `unknown mutex algorithm "nope"`},
		{[]string{"node", "--algo", "x/y", "--index", "1"}, "want AREA/NAME with AREA one of mutex, election"},
		{[]string{"node", "--algo", "mutex/central", "--index", "1", "--ids", "1,2"}, "--ids is not a flag of mutex algorithms"},
		{[]string{"node", "--index", "1", "--ids", "5,5"}, "--ids"},
		{[]string{"node", "--index", "1", "--lang", "fr"}, "--lang"},
		{[]string{"node", "--algo", "mutex/central", "--index", "1", "--mixed"}, "--mixed: only --algo ring speaks the ring specification's wire"},
		{[]string{"node", "--algo", "chang-roberts", "--index", "1", "--mixed"}, "--mixed: only --algo ring"},
		{[]string{"node"}, "--index must be between 1 and 5"},
		{[]string{"amqp", "setup", "--nodes", "0"}, "--nodes must be between 1 and"},
		{[]string{"amqp", "setup", "--algo", "nope"}, `unknown algorithm "nope"`},
		{[]string{"election", "ring", "--url", "amqp://x/"}, "--url only applies to --runtime amqp"},
		{[]string{"election", "ring", "--runtime", "amqp", "--policy", "random"}, "use it with --runtime sim"},
		{[]string{"election", "ring", "--runtime", "rabbit"}, "want sim, live or amqp"},
		{[]string{"node", "--index", "2", "--url", "amqp://guest:s3cret@localhost:port/"}, `--url: want amqp://USER:PASSWORD@HOST:PORT/VHOST, got "amqp://guest:xxx@localhost:port/"`},
		{[]string{"node", "--index", "2", "--url", "http://localhost/"}, "--url: want amqp://"},
		{[]string{"election", "ring", "--runtime", "amqp", "--url", "localhost:5672"}, "--url: want amqp://"},
		{[]string{"mutex", "ricart-agrawala", "--runtime", "amqp", "--url", "amqp://h:99999/"}, `--url: want amqp://USER:PASSWORD@HOST:PORT/VHOST, got "amqp://h:99999/": port "99999" is not in 1..65535`},
		{[]string{"amqp", "setup", "--url", ""}, "--url: want amqp://"},
		{[]string{"amqp", "teardown", "--url", "amqp://u:s3cret@h:/"}, "--url: want amqp://"},
	} {
		code, out, errOut := runCLI(t, t.Context(), tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) || out != "" || strings.Contains(errOut, "s3cret") ||
			strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

func TestNodeAndAMQPHelpHaveExamples(t *testing.T) {
	for _, args := range [][]string{{"node", "--help"}, {"amqp", "--help"}, {"amqp", "setup", "--help"}, {"amqp", "teardown", "--help"}} {
		code, out, _ := runCLI(t, t.Context(), args...)
		if code != 0 || !strings.Contains(out, "Example") {
			t.Errorf("%v: exit %d, help without an example:\n%s", args, code, out)
		}
	}
}

// A broker that is not there: a clear error, exit 1, never a hang (the
// bound only tells a hang from a slow machine).
func TestBrokerUnreachableExits1(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "amqp://guest:guest@" + l.Addr().String() + "/"
	l.Close()
	for _, args := range [][]string{
		{"election", "ring", "--runtime", "amqp", "--url", url},
		{"mutex", "ricart-agrawala", "--runtime", "amqp", "--url", url},
		{"node", "--index", "2", "--url", url},
		{"amqp", "setup", "--url", url},
		{"amqp", "teardown", "--url", url},
	} {
		t0 := time.Now()
		code, out, errOut := runCLI(t, t.Context(), args...)
		if code != 1 || !strings.Contains(errOut, "RabbitMQ broker unreachable at amqp://guest:xxx@") || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 and the broker named", args, code, out, errOut)
		}
		if d := time.Since(t0); d > 30*time.Second {
			t.Errorf("%v: took %v, want it bounded", args, d)
		}
	}
}

func FuzzParseAlgo(f *testing.F) {
	for _, s := range []string{"ring", "election/ring", "mutex/central", "mutex/", "/", "", "x/y/z", "ring\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		area, name, err := rcli.ParseAlgo(nodeAreas(), s)
		if err != nil {
			if area.Name != "" || name != "" || !strings.HasPrefix(err.Error(), "--algo:") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: (%q, %q, %v)", s, area.Name, name, err)
			}
			return
		}
		if (area.Name != "election" && area.Name != "mutex") || name == "" || !strings.HasSuffix(s, name) {
			t.Fatalf("%q: accepted as (%q, %q)", s, area.Name, name)
		}
	})
}

var binOnce struct {
	sync.Once
	path string
	err  error
}

// binary builds ringlab once for the tests that start node processes.
func binary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ringlab-bin")
		if err != nil {
			binOnce.err = err
			return
		}
		binOnce.path = filepath.Join(dir, "ringlab")
		out, err := exec.Command("go", "build", "-o", binOnce.path, ".").CombinedOutput()
		if err != nil {
			binOnce.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binOnce.err != nil {
		t.Fatal(binOnce.err)
	}
	return binOnce.path
}

// nodeProc is one `ringlab node` process.
type nodeProc struct {
	cmd      *exec.Cmd
	out, err bytes.Buffer
	index    int
	events   string
}

func startNode(t *testing.T, bin, url, dir string, index int, initiator bool, stdout io.Writer) *nodeProc {
	t.Helper()
	return startNodeArgs(t, bin, url, dir, index, initiator, stdout, "--algo", "ring", "--ids", "5,3,7,1,4", "--lang", "pt")
}

func startNodeArgs(t *testing.T, bin, url, dir string, index int, initiator bool, stdout io.Writer, algo ...string) *nodeProc {
	t.Helper()
	args := append([]string{"--timeout", "1m"}, algo...)
	if initiator {
		args = append(args, "--initiator")
	}
	return startNodeW(t, bin, url, dir, index, stdout, nil, args...)
}

// testEnv gives the node processes broker names of their own: the ring's
// names are fixed, and other packages' tests (or another `go test` of
// this package, on the same broker) use them too.
func testEnv() []string { return append(os.Environ(), rcli.EnvPrefix+"="+testPrefix) }

var testPrefix = fmt.Sprintf("test-main-%d.", os.Getpid())

func setupRing(t *testing.T, bin, url string) {
	t.Helper()
	setupAlgo(t, bin, url, "ring")
}

func setupAlgo(t *testing.T, bin, url, algo string) {
	t.Helper()
	cmd := exec.Command(bin, "amqp", "setup", "--nodes", "5", "--url", url, "--algo", algo)
	cmd.Env = testEnv()
	t.Cleanup(func() {
		cmd := exec.Command(bin, "amqp", "teardown", "--nodes", "5", "--url", url, "--algo", algo)
		cmd.Env = testEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("amqp teardown: %v\n%s", err, out)
		}
	})
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("amqp setup: %v\n%s", err, out)
	}
}

// mergeLogs reads the node processes' NDJSON logs and orders their events
// by Lamport clock (ties by node): one order consistent with causality.
func mergeLogs(t *testing.T, files []string) []trace.Event {
	t.Helper()
	var all []trace.Event
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		err = trace.Read(fh, func(e *trace.Event) error { all = append(all, *e); return nil }, func(*trace.Summary) error { return nil })
		fh.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	slices.SortStableFunc(all, func(a, b trace.Event) int {
		if a.LC != b.LC {
			return int(a.LC - b.LC)
		}
		return a.Node - b.Node
	})
	return all
}

// lineEvent is whether an event of the ring election prints a line of
// the ring election's Portuguese text (election's text renderer): a send or receipt of
// ELECTION, a leader, the start and the completion notes.
func lineEvent(e *trace.Event) bool {
	switch e.Kind {
	case trace.KindSend, trace.KindRecv:
		return e.Msg != nil && e.Msg.Type() == "ELECTION"
	case trace.KindLeader:
		return true
	case trace.KindNote:
		return e.Note == "started election" || e.Note == "election complete"
	}
	return false
}

// Five `ringlab node` processes run the ring 5,3,7,1,4, started with no
// --initiator anywhere: node 1's process is the initiator, as the ring
// specification's initiator_index, and each other one says what it waits
// for. Merged in Lamport order, their lines are the expected Portuguese
// output; the initiator prints the verdicts; the merged logs pass the
// checkers, and `ringlab check --from` gives the initiator's verdicts; no output and no log shows the broker's password.
func TestFiveNodeProcessesElectID1(t *testing.T) {
	url := amqptest.BrokerURL(t)
	bin := binary(t)
	setupRing(t, bin, url)
	dir := t.TempDir()
	var procs []*nodeProc
	for i := 2; i <= 5; i++ {
		procs = append(procs, startNode(t, bin, url, dir, i, false, nil))
	}
	procs = append([]*nodeProc{startNode(t, bin, url, dir, 1, false, nil)}, procs...)
	for _, p := range procs {
		if err := p.cmd.Wait(); err != nil {
			t.Fatalf("node %d: %v\n%s%s", p.index, err, p.out.String(), p.err.String())
		}
	}
	for _, p := range procs {
		want := fmt.Sprintf("node %d: waiting for a message from node %d or node %d, its neighbours on the ring (", p.index, p.index-1, p.index%5+1)
		if n := strings.Count(p.err.String(), "waiting for"); p.index == 1 && n != 0 || p.index > 1 && (n != 1 || !strings.Contains(p.err.String(), want)) {
			t.Errorf("node %d's stderr, want %q once (none for the initiator):\n%s", p.index, want, p.err.String())
		}
		if pw := brokerPassword(url); pw != "" {
			logText, _ := os.ReadFile(p.events)
			if all := p.out.String() + p.err.String() + string(logText); strings.Contains(all, ":"+pw+"@") || !strings.Contains(string(logText), ":xxx@") {
				t.Errorf("node %d: the password is not masked in its output and log:\n%s", p.index, all)
			}
		}
	}
	var files []string
	lines := map[int][]string{}
	for _, p := range procs {
		files = append(files, p.events)
		out := p.out.String()
		if p.index == 1 {
			out, _, _ = strings.Cut(out, "\n\n") // the verdicts follow
		}
		lines[p.index] = strings.Split(strings.TrimSpace(out), "\n")
	}
	merged := mergeLogs(t, files)
	var got strings.Builder
	next := map[int]int{}
	for _, e := range merged {
		if !lineEvent(&e) {
			continue
		}
		k := next[e.Node]
		if k >= len(lines[e.Node]) {
			t.Fatalf("node %d printed %d lines, its log has more", e.Node, len(lines[e.Node]))
		}
		got.WriteString(lines[e.Node][k] + "\n")
		next[e.Node]++
	}
	_, verdicts, _ := strings.Cut(procs[0].out.String(), "\n\n")
	got.WriteString("\n" + verdicts)
	want, err := os.ReadFile("election/testdata/ring_expected_pt.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("the five processes' lines, merged:\n%s\nwant:\n%s", got.String(), want)
	}
	if !strings.Contains(procs[0].err.String(), "messages: 13 (ELECTED 5, ELECTION 8)") {
		t.Errorf("the initiator's summary does not count the simulator's 13 messages:\n%s", procs[0].err.String())
	}
	// the merged logs, judged again
	var buf bytes.Buffer
	for _, e := range merged {
		b, _ := json.Marshal(&e)
		buf.Write(b)
		buf.WriteByte('\n')
	}
	ids := []int{5, 3, 7, 1, 4}
	_, vs, _, err := check.Log(&buf, election.NewUniqueness(ids), election.NewAgreement(5, ids), election.NewCorrectness(ids, 1, "the smallest id"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if !v.OK {
			t.Errorf("merged logs: %s violated: %s", v.Property, v.Detail)
		}
	}
	// and the five logs as files, through `ringlab check --from`: the
	// initiator's verdicts, exactly
	checkNodeLogs(t, dir, 5, true, "ringlab election ring --ids 5,3,7,1,4 --initiators 1 --lang pt --runtime amqp")
}

// lineWriter keeps output and signals its first `lines` lines (1 if 0).
type lineWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first chan struct{}
	once  sync.Once
	lines int
}

func (w *lineWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(b)
	if bytes.Count(w.buf.Bytes(), []byte("\n")) >= max(w.lines, 1) {
		w.once.Do(func() { close(w.first) })
	}
	return len(b), nil
}

// Node 3's process is killed (SIGKILL) as soon as it has printed its
// first line, mid-election; a new process of node 3 takes over its queue
// and the election ends with id 1 elected. Node 4 starts only after the
// restart: until then whatever node 3 sends waits in node 4's queue, so
// the killed process cannot have done node 3's whole part of the run
// however late the kill comes (a test process descheduled on a busy
// machine once killed a node 3 that had already finished, and its
// successor waited for a message nobody would send).
func TestKilledNodeProcessRestartsAndTheElectionEnds(t *testing.T) {
	url := amqptest.BrokerURL(t)
	bin := binary(t)
	setupRing(t, bin, url)
	dir := t.TempDir()
	w := &lineWriter{first: make(chan struct{})}
	victim := startNode(t, bin, url, dir, 3, false, w)
	var procs []*nodeProc
	for _, i := range []int{2, 5} {
		procs = append(procs, startNode(t, bin, url, dir, i, false, nil))
	}
	init := startNode(t, bin, url, dir, 1, true, nil)
	select {
	case <-w.first:
	case <-time.After(30 * time.Second): // a bound on a hang, not a synchronisation
		t.Fatal("node 3 printed nothing")
	}
	if err := victim.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = victim.cmd.Wait()
	again := startNode(t, bin, url, dir, 3, false, nil)
	procs = append(procs, startNode(t, bin, url, dir, 4, false, nil))
	for _, p := range append(procs, init, again) {
		if err := p.cmd.Wait(); err != nil {
			t.Fatalf("node %d: %v\n%s%s", p.index, err, p.out.String(), p.err.String())
		}
	}
	sc := bufio.NewScanner(strings.NewReader(init.out.String()))
	var verdicts []string
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "✓") || strings.HasPrefix(sc.Text(), "✗") {
			verdicts = append(verdicts, sc.Text())
		}
	}
	want := []string{"✓ Líder eleito: Node 4 (ID=1)", "✓ Terminação garantida", "✓ Unicidade garantida", "✓ Correção garantida (menor ID)"}
	t.Logf("node 3 before the kill:\n%safter the restart:\n%s%s", w.buf.String(), again.out.String(), again.err.String())
	if !slices.Equal(verdicts, want) {
		t.Errorf("verdicts %q, want %q", verdicts, want)
	}
	// nothing counted twice: the resent message has the sequence number of
	// the first, and node 4 dropped one of them
	if !strings.Contains(init.err.String(), "messages: 13 (ELECTED 5, ELECTION 8)") {
		t.Errorf("the initiator's summary does not count the simulator's 13 messages:\n%s", init.err.String())
	}
}

// Ricart-Agrawala in five node processes: the initiator judges the whole
// run from the reported events, in Lamport-clock order.
func TestMutexNodeProcesses(t *testing.T) {
	url := amqptest.BrokerURL(t)
	bin := binary(t)
	setupAlgo(t, bin, url, "mutex/ricart-agrawala")
	dir := t.TempDir()
	algo := []string{"--algo", "mutex/ricart-agrawala", "--requests", "2"}
	var procs []*nodeProc
	for i := 2; i <= 5; i++ {
		procs = append(procs, startNodeArgs(t, bin, url, dir, i, false, nil, algo...))
	}
	init := startNodeArgs(t, bin, url, dir, 1, true, nil, algo...)
	for _, p := range append(procs, init) {
		if err := p.cmd.Wait(); err != nil {
			t.Fatalf("node %d: %v\n%s%s", p.index, err, p.out.String(), p.err.String())
		}
	}
	all := init.out.String() + init.err.String()
	for _, want := range []string{"messages: 80 (REPLY 40, REQUEST 40)", "✓ mutual exclusion", "✓ grant order", "✓ no deadlock", "✓ no starvation"} {
		if !strings.Contains(all, want) {
			t.Errorf("the initiator's output lacks %q:\n%s", want, all)
		}
	}
}

// The initiator runs alone until it has sent its first ELECTION; the
// other four start only then, find it waiting in node 2's queue, and the
// election ends as usual.
func TestNodesStartingAfterTheInitiatorSent(t *testing.T) {
	url := amqptest.BrokerURL(t)
	bin := binary(t)
	setupRing(t, bin, url)
	dir := t.TempDir()
	w := &lineWriter{first: make(chan struct{}), lines: 2}
	init := startNode(t, bin, url, dir, 1, true, w)
	select {
	case <-w.first:
	case <-time.After(30 * time.Second): // a bound on a hang, not a synchronisation
		t.Fatal("the initiator sent nothing")
	}
	var procs []*nodeProc
	for i := 2; i <= 5; i++ {
		procs = append(procs, startNode(t, bin, url, dir, i, false, nil))
	}
	for _, p := range append(procs, init) {
		if err := p.cmd.Wait(); err != nil {
			t.Fatalf("node %d: %v\n%s%s", p.index, err, p.out.String(), p.err.String())
		}
	}
	if out := w.buf.String(); !strings.Contains(out, "[Node 1] Enviou ELECTION(5) para Node 2\n") ||
		!strings.Contains(out, "✓ Líder eleito: Node 4 (ID=1)") || !strings.Contains(init.err.String(), "messages: 13 ") {
		t.Errorf("initiator:\n%s%s", out, init.err.String())
	}
}

// A Ricart-Agrawala node process is killed (SIGKILL) once it has printed
// its first lines, and started again: the new process comes back with the
// node's state reset, as the simulator's crash and restart, and says so
// (crash, recover); it does not run its workload a second time. Whatever
// the moment of the kill, no verdict may call the run unsafe, and no
// more critical sections are entered than requested.
func TestKilledMutexNodeProcessRestartsAsACrash(t *testing.T) {
	url := amqptest.BrokerURL(t)
	bin := binary(t)
	setupAlgo(t, bin, url, "mutex/ricart-agrawala")
	const requests = 10
	algo := []string{"--algo", "mutex/ricart-agrawala", "--requests", fmt.Sprint(requests)}
	w := &lineWriter{first: make(chan struct{}), lines: 6}
	victim := startNodeArgs(t, bin, url, t.TempDir(), 3, false, w, algo...)
	var procs []*nodeProc
	for _, i := range []int{2, 4, 5} {
		procs = append(procs, startNodeArgs(t, bin, url, t.TempDir(), i, false, nil, algo...))
	}
	init := startNodeArgs(t, bin, url, t.TempDir(), 1, true, nil, algo...)
	select {
	case <-w.first:
	case <-time.After(30 * time.Second): // a bound on a hang, not a synchronisation
		t.Fatal("node 3 printed nothing")
	}
	if err := victim.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = victim.cmd.Wait()
	again := startNodeArgs(t, bin, url, t.TempDir(), 3, false, nil, algo...)
	for _, p := range append(procs, init, again) {
		err := p.cmd.Wait()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && (ee.ExitCode() == 3 || ee.ExitCode() == 4)) {
			t.Fatalf("node %d: %v\n%s%s", p.index, err, p.out.String(), p.err.String())
		}
	}
	all := init.out.String() + init.err.String()
	for _, want := range []string{"✓ mutual exclusion", "✓ grant order"} {
		if !strings.Contains(all, want) {
			t.Errorf("the initiator's verdicts lack %q:\n%s", want, all)
		}
	}
	m := regexp.MustCompile(`(?m)^entries: (\d+)$`).FindStringSubmatch(all)
	if m == nil {
		t.Fatalf("no entries line:\n%s", all)
	}
	if n, _ := strconv.Atoi(m[1]); n > 5*requests {
		t.Errorf("%d entries for %d requests: the restarted node ran its workload again", n, 5*requests)
	}
	log, err := os.ReadFile(again.events)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(log, []byte(`"kind":"crash"`)) || !bytes.Contains(log, []byte(`"kind":"recover"`)) {
		t.Errorf("the restarted node's log has no crash and recover:\n%s", log)
	}
}

// Two multi-process ring runs on the same (fixed) names: once the first
// has started, a process of a second run, with other ids, is refused in
// one line naming the run that holds the names, exit 1 (the command is
// right, the broker is busy), and the first run ends with its own
// verdicts.
func TestSecondRingRunOnTheSameNamesIsRefused(t *testing.T) {
	url := amqptest.BrokerURL(t)
	bin := binary(t)
	setupRing(t, bin, url)
	dir := t.TempDir()
	w := &lineWriter{first: make(chan struct{}), lines: 2}
	init := startNode(t, bin, url, dir, 1, true, w)
	select {
	case <-w.first: // it has sent its first ELECTION: it holds the names
	case <-time.After(30 * time.Second): // a bound on a hang, not a synchronisation
		t.Fatal("the initiator sent nothing")
	}
	for _, index := range []int{1, 2} {
		other := startNodeArgs(t, bin, url, t.TempDir(), index, false, nil, "--algo", "ring", "--ids", "2,4,6,8,10")
		err := other.cmd.Wait()
		var ee *exec.ExitError
		msg := strings.TrimSpace(other.err.String())
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(msg, "another run holds these broker names") ||
			strings.Count(msg, "\n") != 0 || other.out.Len() != 0 {
			t.Errorf("node %d of another run: %v, stdout %q, stderr %q; want exit 1 and one line", index, err, other.out.String(), msg)
		}
		if index == 2 && !strings.Contains(msg, "N5,N3,N7,N1,N4") {
			t.Errorf("the refusal does not name the run that holds the names: %s", msg)
		}
	}
	var procs []*nodeProc
	for i := 2; i <= 5; i++ {
		procs = append(procs, startNode(t, bin, url, dir, i, false, nil))
	}
	for _, p := range append(procs, init) {
		if err := p.cmd.Wait(); err != nil {
			t.Fatalf("node %d: %v\n%s%s", p.index, err, p.out.String(), p.err.String())
		}
	}
	if out := w.buf.String(); !strings.Contains(out, "✓ Líder eleito: Node 4 (ID=1)") || strings.Contains(out, "✗") {
		t.Errorf("the first run's verdicts:\n%s", out)
	}
}
