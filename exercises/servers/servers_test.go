package servers

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"ringlab/exercises/internal/lessontest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func small(arch string) Config {
	return Config{Arch: arch, Workers: 3, Queue: 2, ReadTime: time.Millisecond, Timeout: 10 * time.Second}
}

// One suite, every architecture: every request is answered correctly, the
// architecture's bound on concurrent reads holds, and Measure returns only
// after the server has joined all its goroutines (goleak checks that).
func TestEveryArchitectureAnswersEveryRequest(t *testing.T) {
	for _, arch := range Archs() {
		t.Run(arch, func(t *testing.T) {
			const requests, clients = 60, 6
			res, st, err := Measure(context.Background(), small(arch), requests, clients, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Failed != 0 || len(res.Latencies) != requests {
				t.Fatalf("%d answered, %d failed (first: %v); want all %d answered", len(res.Latencies), res.Failed, res.FirstErr, requests)
			}
			maxReads := map[string]int64{ArchSingle: 1, ArchPerRequest: clients, ArchPool: 3, ArchSEDA: 3}[arch]
			if peak := st.PeakReads.Load(); peak < 1 || peak > maxReads {
				t.Errorf("peak concurrent reads %d, want 1..%d", peak, maxReads)
			}
		})
	}
}

func TestBadRequestGetsAnError(t *testing.T) {
	for _, arch := range Archs() {
		t.Run(arch, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			served := make(chan error, 1)
			go func() { served <- Serve(ln, small(arch), new(Stats)) }()
			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(conn, "PUT 7\n")
			got, _ := bufio.NewReader(conn).ReadString('\n')
			conn.Close()
			ln.Close()
			if err := <-served; err != nil {
				t.Fatal(err)
			}
			if got != "ERR bad request\n" {
				t.Errorf("answer %q, want ERR bad request", got)
			}
		})
	}
}

func TestUnknownArch(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := Serve(ln, small("event-loop"), new(Stats)); err == nil {
		t.Fatal("Serve accepted an unknown architecture")
	}
}

func TestPercentiles(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i))
	}
	got := Percentiles(ds, 50, 90, 99, 100)
	want := []time.Duration{50, 90, 99, 100}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Percentiles = %v, want %v", got, want)
			break
		}
	}
}

func TestCommandSmall(t *testing.T) {
	out, err := lessontest.Run(t, Command(), "--requests", "20", "--clients", "4", "--workers", "2", "--queue", "2", "--read-time", "1ms")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, arch := range Archs() {
		if !strings.Contains(out, arch+" ") {
			t.Errorf("table lacks a row for %s:\n%s", arch, out)
		}
	}
	if !strings.Contains(out, "p99") || !strings.Contains(out, "measurements") {
		t.Errorf("table lacks the percentiles or the note:\n%s", out)
	}
}

func TestCommonAndBadInput(t *testing.T) {
	lessontest.CheckCommon(t, Command,
		[]string{"--requests", "0"}, []string{"--clients", "-1"}, []string{"--clients", "100000"}, []string{"--workers", "0"}, []string{"--queue", "0"},
		[]string{"--read-time", "-1ms"}, []string{"--read-time", "2s"}, []string{"--timeout", "0s"}, []string{"--archs", "single,actor"},
		[]string{"--archs", "pool,pool"}, []string{"--archs", ""}, []string{"--requests", "100000", "--read-time", "1s"},
	)
}
