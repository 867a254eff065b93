package live_test

// The million-node runs. They are skipped unless RINGLAB_BIG=1, and are
// meant to be run one at a time under /usr/bin/time -v:
//
//	go test -c -o /tmp/live.test ./internal/live
//	RINGLAB_BIG=1 /usr/bin/time -v /tmp/live.test -test.run '^TestBigPass$' -test.v
//	RINGLAB_BIG=1 /usr/bin/time -v /tmp/live.test -test.run '^TestBigAllInitiators$' -test.v

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"ringlab/internal/live"
)

const bigNodes = 1_000_000

func bigOnly(t *testing.T) {
	if os.Getenv("RINGLAB_BIG") != "1" {
		t.Skip("set RINGLAB_BIG=1 to run the million-node runs")
	}
}

func TestBigPass(t *testing.T) {
	bigOnly(t)
	const hops = 2 * bigNodes
	bigRun(t, passConfig(bigNodes, hops), hops)
}

func TestBigAllInitiators(t *testing.T) {
	bigOnly(t)
	f, msgs := swallowFactory(bigNodes, 1)
	bigRun(t, live.Config{Nodes: bigNodes, Factory: f, Script: startAll(bigNodes)}, msgs)
}

func bigRun(t *testing.T, cfg live.Config, msgs int64) {
	start := time.Now()
	res := run(t, cfg)
	wall := time.Since(start)
	if res.Messages != msgs || !res.Quiescent {
		t.Errorf("%+v, want %d messages, quiescent", res, msgs)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	hwm := peakRSS(t)
	t.Logf("%d nodes, %d messages: run %v (%.0f ns/msg), peak RSS %d MiB = %d B/node; stacks in use now %d MiB, GC cycles %d",
		cfg.Nodes, res.Messages, wall.Round(time.Millisecond), float64(wall.Nanoseconds())/float64(res.Messages),
		hwm>>20, hwm/int64(cfg.Nodes), ms.StackInuse>>20, ms.NumGC)
}

// peakRSS is the process's peak resident set size (VmHWM) in bytes.
func peakRSS(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var kb int64
			for _, c := range strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")) {
				kb = kb*10 + int64(c-'0')
			}
			return kb << 10
		}
	}
	return 0
}
