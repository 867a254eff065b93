package servers

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Load describes a bounded load: Requests requests in total, sent by Clients
// concurrent clients, each request on its own connection with Timeout.
type Load struct {
	Addr     string
	Requests int
	Clients  int
	Timeout  time.Duration
}

// Result is what a load run measured. Latencies holds one entry per
// successful request (in no particular order); Failed counts the others and
// FirstErr is the error of the lowest-numbered failed request.
type Result struct {
	Latencies []time.Duration
	Failed    int
	FirstErr  error
	Elapsed   time.Duration
}

// Run sends the load and waits for every client. done, if not nil, is
// incremented after each request, so a progress bar can read it. Run stops
// early when ctx is done; unsent requests count as failed.
func (l Load) Run(ctx context.Context, done *atomic.Int64) Result {
	lat := make([]time.Duration, l.Requests)
	errs := make([]error, l.Requests)
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range l.Clients {
		wg.Go(func() {
			for id := int(next.Add(1) - 1); id < l.Requests; id = int(next.Add(1) - 1) {
				if err := ctx.Err(); err != nil {
					errs[id] = err
					continue
				}
				t0 := time.Now()
				errs[id] = l.request(ctx, id)
				lat[id] = time.Since(t0)
				if done != nil {
					done.Add(1)
				}
			}
		})
	}
	wg.Wait()
	res := Result{Elapsed: time.Since(start)}
	for id, err := range errs {
		if err == nil {
			res.Latencies = append(res.Latencies, lat[id])
			continue
		}
		if res.Failed == 0 {
			res.FirstErr = fmt.Errorf("request %d: %w", id, err)
		}
		res.Failed++
	}
	return res
}

// request sends "GET id" on a new connection and checks the answer.
func (l Load) request(ctx context.Context, id int) error {
	d := net.Dialer{Timeout: l.Timeout}
	conn, err := d.DialContext(ctx, "tcp", l.Addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(l.Timeout)); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(conn, "GET %d\n", id); err != nil {
		return err
	}
	got, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return err
	}
	if want := Answer(id); got != want {
		return fmt.Errorf("answer %q, want %q", got, want)
	}
	return nil
}

// Percentiles returns the nearest-rank percentiles ps (0 < p <= 100) of ds.
func Percentiles(ds []time.Duration, ps ...float64) []time.Duration {
	out := make([]time.Duration, len(ps))
	if len(ds) == 0 {
		return out
	}
	sorted := slices.Sorted(slices.Values(ds))
	for i, p := range ps {
		rank := int(math.Ceil(p / 100 * float64(len(sorted))))
		out[i] = sorted[min(max(rank, 1), len(sorted))-1]
	}
	return out
}

// Measure starts a server in cfg's architecture on an ephemeral loopback
// port, runs the load against it, then closes the listener and waits for the
// server to finish every connection and join every goroutine.
func Measure(ctx context.Context, cfg Config, requests, clients int, done *atomic.Int64) (Result, *Stats, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return Result{}, nil, err
	}
	st := new(Stats)
	served := make(chan error, 1)
	go func() { served <- Serve(ln, cfg, st) }() // joined below
	load := Load{Addr: ln.Addr().String(), Requests: requests, Clients: clients, Timeout: cfg.Timeout}
	res := load.Run(ctx, done)
	ln.Close()
	if err := <-served; err != nil {
		return res, st, fmt.Errorf("%s server: %w", cfg.Arch, err)
	}
	return res, st, nil
}
