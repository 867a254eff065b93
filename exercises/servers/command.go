package servers

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lesson"
)

const explanation = `servers: four server architectures under one load (the course chapter on concurrency).

Each request is one TCP connection on 127.0.0.1 whose handling includes a
slow "file read" (--read-time). A built-in load generator sends --requests
requests from --clients concurrent clients and checks every answer.

What to observe:
  - single serves one request at a time: throughput is about 1/read-time and
    a request's latency includes waiting for everyone ahead of it.
  - per-request overlaps every read: fastest here, but nothing bounds the
    number of goroutines; a burst of clients means a burst of handlers.
  - pool bounds the work to --workers at once; when its --queue is full the
    acceptor waits ("queue full") and new connections wait in the kernel.
    Throughput is about workers/read-time.
  - seda splits the work into stages (parse, read, reply), each with its own
    queue and a pool sized for its work: the slow read stage gets --workers,
    the light stages 2 each.
  - The figures are measurements on this machine and vary from run to run.
`

// Limits on the flags.
const (
	maxRequests = 100_000
	maxClients  = 2_000 // each client holds a socket: two file descriptors per request in flight
	maxWorkers  = 1_000
	maxQueue    = 10_000
	maxReadTime = time.Second
	maxBudget   = 10 * time.Minute // longest the single-threaded server may be asked to take
)

// Command returns the `exercises servers` command.
func Command() *cli.Command {
	return lesson.Command(&cli.Command{
		Name:      "servers",
		Usage:     "single-threaded, goroutine per request, worker pool, SEDA: real loopback TCP servers under one load",
		UsageText: "ringlab exercises servers [--requests 2000] [--clients 32] [--workers 8] [--queue 16] [--read-time 5ms] [--timeout 10s] [--archs single,per-request,pool,seda] [--explain]\n\nExample:\n   ringlab exercises servers --archs pool,seda --workers 4",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "requests", Value: 2000, Usage: fmt.Sprintf("requests per architecture (1..%d)", maxRequests)},
			&cli.IntFlag{Name: "clients", Value: 32, Usage: fmt.Sprintf("concurrent clients of the load generator (1..%d)", maxClients)},
			&cli.IntFlag{Name: "workers", Value: 8, Usage: fmt.Sprintf("pool: worker goroutines; seda: workers of the read stage (1..%d)", maxWorkers)},
			&cli.IntFlag{Name: "queue", Value: 16, Usage: fmt.Sprintf("pool and seda: capacity of each queue (1..%d)", maxQueue)},
			&cli.DurationFlag{Name: "read-time", Value: 5 * time.Millisecond, Usage: "simulated file read per request (0..1s)"},
			&cli.DurationFlag{Name: "timeout", Value: 10 * time.Second, Usage: "deadline of each request, client and server side (10ms..5m)"},
			&cli.StringFlag{Name: "archs", Value: strings.Join(Archs(), ","), Usage: "comma-separated architectures to run, from " + strings.Join(Archs(), ", ")},
		},
	}, explanation, action)
}

type config struct {
	server            Config
	archs             []string
	requests, clients int
}

func action(c *cli.Context) error {
	cfg, err := readConfig(c)
	if err != nil {
		return err
	}
	return run(c.Context, c.App.Writer, c.App.ErrWriter, cfg)
}

// readConfig reads and checks the flags; bad input is a usage error.
func readConfig(c *cli.Context) (cfg config, err error) {
	s := &cfg.server
	r := lesson.NewReader(c)
	cfg.requests = r.Int("requests", 1, maxRequests)
	cfg.clients = r.Goroutines("clients", 1, maxClients)
	s.Workers = r.Goroutines("workers", 1, maxWorkers)
	s.Queue = r.Int("queue", 1, maxQueue)
	s.ReadTime = r.Duration("read-time", 0, maxReadTime)
	s.Timeout = r.Duration("timeout", 10*time.Millisecond, 5*time.Minute)
	if r.Err != nil {
		return cfg, r.Err
	}
	if cfg.archs, err = parseArchs(c.String("archs")); err != nil {
		return cfg, err
	}
	if slices.Contains(cfg.archs, ArchSingle) && time.Duration(cfg.requests)*s.ReadTime > maxBudget {
		return cfg, cliutil.Usagef("--requests %d x --read-time %v would keep the single-threaded server busy for over %v: lower one of them", cfg.requests, s.ReadTime, maxBudget)
	}
	return cfg, nil
}

// row is one architecture's line of the table.
type row struct {
	cfg Config
	res Result
	st  *Stats
}

func run(ctx context.Context, stdout, stderr io.Writer, cfg config) error {
	// The table's first line goes out before the measurements: it says at
	// once what is being measured.
	fmt.Fprintf(stdout, "%d requests per architecture from %d concurrent clients over loopback TCP; each request reads a file for %v\n\n",
		cfg.requests, cfg.clients, cfg.server.ReadTime)
	var rows []row
	for i, arch := range cfg.archs {
		sc := cfg.server
		sc.Arch = arch
		var done atomic.Int64
		stopBar := progress(stderr, fmt.Sprintf("%d/%d %-11s", i+1, len(cfg.archs), arch), cfg.requests, &done)
		res, st, err := Measure(ctx, sc, cfg.requests, cfg.clients, &done)
		stopBar()
		if err != nil {
			return err
		}
		rows = append(rows, row{sc, res, st})
		if err := ctx.Err(); err != nil {
			break // print what was measured, then report the interruption
		}
	}
	if err := printTable(stdout, cfg, rows); err != nil {
		return err
	}
	for _, r := range rows {
		if r.res.Failed > 0 && ctx.Err() == nil {
			return fmt.Errorf("%s: %d of %d requests failed; first: %w", r.cfg.Arch, r.res.Failed, cfg.requests, r.res.FirstErr)
		}
	}
	return ctx.Err()
}

func printTable(w io.Writer, cfg config, rows []row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%-12s\thandlers\tok\tfailed\twall\treq/s\tp50\tp90\tp99\tmax\tpeak reads\tqueue full\t\n", "architecture")
	for _, r := range rows {
		p := Percentiles(r.res.Latencies, 50, 90, 99, 100)
		fmt.Fprintf(tw, "%-12s\t%s\t%d\t%d\t%v\t%.0f\t%v\t%v\t%v\t%v\t%d\t%d\t\n",
			r.cfg.Arch, r.cfg.Handlers(), len(r.res.Latencies), r.res.Failed, round(r.res.Elapsed),
			float64(len(r.res.Latencies))/r.res.Elapsed.Seconds(), round(p[0]), round(p[1]), round(p[2]), round(p[3]),
			r.st.PeakReads.Load(), r.st.QueueFull.Load())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nlatency = connect to answer, seen by the client. These are measurements: they vary from run to run.")
	return err
}

func round(d time.Duration) time.Duration {
	if d >= 10*time.Millisecond {
		return d.Round(time.Millisecond)
	}
	return d.Round(10 * time.Microsecond)
}

// progress draws a \r-updated bar of done/total on w every 100ms until the
// returned stop is called; stop draws the final state and waits for the
// drawing goroutine.
func progress(w io.Writer, label string, total int, done *atomic.Int64) (stop func()) {
	quit := make(chan struct{})
	var wg sync.WaitGroup
	draw := func() {
		n := int(done.Load())
		const width = 30
		fill := n * width / total
		fmt.Fprintf(w, "\r%s [%s%s] %d/%d", label, strings.Repeat("#", fill), strings.Repeat(".", width-fill), n, total)
	}
	wg.Go(func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				draw()
			case <-quit:
				return
			}
		}
	})
	return func() {
		close(quit)
		wg.Wait()
		draw()
		fmt.Fprintln(w)
	}
}

// parseArchs reads --archs: distinct architecture names, comma-separated.
func parseArchs(text string) ([]string, error) {
	archs := strings.Split(text, ",")
	for i, a := range archs {
		if !slices.Contains(Archs(), a) {
			return nil, cliutil.Usagef("--archs: unknown architecture %q (want a comma-separated list of %s)", a, strings.Join(Archs(), ", "))
		}
		if slices.Contains(archs[:i], a) {
			return nil, cliutil.Usagef("--archs: %q is listed twice", a)
		}
	}
	return archs, nil
}
