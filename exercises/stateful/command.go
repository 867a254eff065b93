package stateful

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/sync/errgroup"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lesson"
)

const explanation = `stateful: paging through a query, stateless vs stateful (the course chapter on concurrency).

What to observe:
  - Both servers return exactly the same pages.
  - The stateless server remembers nothing: each request says "page at offset
    k", so the server runs the query again from the first row and skips the
    earlier pages. Rows scanned grow with the square of the number of pages.
  - The stateful server keeps a cursor per client and continues where the
    last page stopped: every row is scanned once. The price is memory on the
    server for every open cursor, and a rule for clients that vanish: their
    cursors stay open until they expire (the TTL); a client that comes back
    after that must restart. A stateless server loses nothing when a client
    vanishes, and any replica can answer any request.
`

// Limits on the flags.
const (
	maxRows      = 10_000_000
	maxCustomers = 1000
	maxClients   = 1000
	maxPageSize  = 100_000
	maxScan      = 5_000_000_000 // rows the stateless run may scan in total
)

// Command returns the `exercises stateful` command.
func Command() *cli.Command {
	return lesson.Command(&cli.Command{
		Name:      "stateful",
		Usage:     "paginated query: stateless (offset, rescan) vs stateful (a cursor per client, with expiry)",
		UsageText: "ringlab exercises stateful [--rows 100000] [--customers 7] [--page 100] [--clients 8] [--vanish 2] [--ttl 5m] [--explain]\n\nExample:\n   ringlab exercises stateful --page 10 --rows 20000",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "rows", Value: 100_000, Usage: fmt.Sprintf("rows in the table (1..%d)", maxRows)},
			&cli.IntFlag{Name: "customers", Value: 7, Usage: fmt.Sprintf("customers the rows are spread over; a client pages through one customer's rows (1..%d)", maxCustomers)},
			&cli.IntFlag{Name: "page", Value: 100, Usage: fmt.Sprintf("page size (1..%d)", maxPageSize)},
			&cli.IntFlag{Name: "clients", Value: 8, Usage: fmt.Sprintf("clients paging at once (1..%d)", maxClients)},
			&cli.IntFlag{Name: "vanish", Value: 2, Usage: "clients that vanish after their first page (0..clients)"},
			&cli.DurationFlag{Name: "ttl", Value: 5 * time.Minute, Usage: "an idle cursor expires after this long (1ms..24h)"},
		},
	}, explanation, action)
}

type config struct {
	rows, customers, page, clients, vanish int
	ttl                                    time.Duration
}

func action(c *cli.Context) error {
	cfg, err := readConfig(c)
	if err != nil {
		return err
	}
	return run(c.Context, c.App.Writer, cfg)
}

// readConfig reads and checks the flags; bad input is a usage error.
func readConfig(c *cli.Context) (cfg config, err error) {
	r := lesson.NewReader(c)
	cfg.rows = r.Int("rows", 1, maxRows)
	cfg.customers = r.Int("customers", 1, maxCustomers)
	cfg.page = r.Int("page", 1, maxPageSize)
	cfg.clients = r.Goroutines("clients", 1, maxClients)
	cfg.vanish = r.Int("vanish", 0, cfg.clients)
	cfg.ttl = r.Duration("ttl", time.Millisecond, 24*time.Hour)
	if r.Err != nil {
		return cfg, r.Err
	}
	pages := cfg.rows/cfg.customers/cfg.page + 1
	if est := float64(cfg.clients) * float64(cfg.rows) * float64(pages) / 2; est > maxScan {
		return cfg, cliutil.Usagef("--rows %d with --page %d and --clients %d would make the stateless server scan ~%.0e rows (at most %.0e): lower --rows or --clients, or raise --page", cfg.rows, cfg.page, cfg.clients, est, float64(maxScan))
	}
	return cfg, nil
}

// Tally is what one mode's clients saw, summed over clients.
type Tally struct {
	Pages, Returned, Scanned int
	Results                  [][]Row // per client, every row received, in order
}

// pager fetches one client's pages; it returns the next page.
type pager func(ctx context.Context) (Page, error)

// Paginate runs clients at once; client i pages through customer
// i % customers until the query is exhausted, or stops after its first
// page if i < vanish. newPager builds each client's session. When ctx
// ends, every client stops before its next page and the tally of the pages
// fetched so far (without Results) comes back with ctx's error.
func Paginate(ctx context.Context, clients, customers, vanish int, newPager func(customer int) pager) (Tally, error) {
	perClient := make([]Tally, clients)
	parent := ctx
	g, ctx := errgroup.WithContext(ctx)
	for i := range clients {
		g.Go(func() error {
			next, t := newPager(i%customers), &perClient[i]
			var rows []Row
			for {
				if err := ctx.Err(); err != nil {
					return err
				}
				p, err := next(ctx)
				if err != nil {
					return err
				}
				t.Pages++
				t.Scanned += p.Scanned
				t.Returned += len(p.Rows)
				rows = append(rows, p.Rows...)
				if p.Done || i < vanish {
					break
				}
			}
			t.Results = [][]Row{rows}
			return nil
		})
	}
	err := g.Wait()
	var sum Tally
	for _, t := range perClient {
		sum.Pages += t.Pages
		sum.Returned += t.Returned
		sum.Scanned += t.Scanned
		if err == nil {
			sum.Results = append(sum.Results, t.Results...)
		}
	}
	if err != nil && parent.Err() == nil {
		return Tally{}, err
	}
	return sum, err
}

// Stateless returns a pager factory for the stateless server.
func Stateless(table []Row, size int) func(int) pager {
	return func(customer int) pager {
		offset := 0
		return func(context.Context) (Page, error) {
			p := QueryPage(table, customer, offset, size)
			offset += len(p.Rows)
			return p, nil
		}
	}
}

// Stateful returns a pager factory for the stateful server s; now is the
// server's clock.
func Stateful(s *Cursors, size int, now func() time.Time) func(int) pager {
	return func(customer int) pager {
		id := s.Open(customer, now())
		return func(context.Context) (Page, error) { return s.Next(id, size, now()) }
	}
}

func run(ctx context.Context, w io.Writer, cfg config) error {
	fmt.Fprintf(w, "%d clients at once each page through one customer's rows (%d rows, %d customers), page size %d; %d clients vanish after their first page\n\n",
		cfg.clients, cfg.rows, cfg.customers, cfg.page, cfg.vanish)
	interrupted := func(server string, t Tally, took time.Duration) error {
		fmt.Fprintf(w, "interrupted during the %s run after %v: %d pages, %d rows returned, %d rows scanned so far\n",
			server, took.Round(time.Millisecond), t.Pages, t.Returned, t.Scanned)
		return ctx.Err()
	}
	table := NewTable(cfg.rows, cfg.customers)
	start := time.Now()
	less, err := Paginate(ctx, cfg.clients, cfg.customers, cfg.vanish, Stateless(table, cfg.page))
	lessTime := time.Since(start)
	if err != nil && ctx.Err() != nil {
		return interrupted("stateless (offset)", less, lessTime)
	}
	if err != nil {
		return err
	}
	srv := NewCursors(table, cfg.ttl)
	start = time.Now()
	ful, err := Paginate(ctx, cfg.clients, cfg.customers, cfg.vanish, Stateful(srv, cfg.page, time.Now))
	fulTime := time.Since(start)
	if err != nil && ctx.Err() != nil {
		fmt.Fprintf(w, "the stateless (offset) run: %d pages, %d rows returned, %d rows scanned, in %v\n",
			less.Pages, less.Returned, less.Scanned, lessTime.Round(time.Microsecond))
		return interrupted("stateful (cursor)", ful, fulTime)
	}
	if err != nil {
		return err
	}
	open, peak := srv.Stats()

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%-18s\tpages\trows returned\trows scanned\tscanned per row returned\twall time\tstate held on the server\t\n", "server")
	fmt.Fprintf(tw, "%-18s\t%d\t%d\t%d\t%.1f\t%v\tnone\t\n", "stateless (offset)", less.Pages, less.Returned, less.Scanned, ratio(less), lessTime.Round(time.Microsecond))
	fmt.Fprintf(tw, "%-18s\t%d\t%d\t%d\t%.1f\t%v\t%d cursors x %d B at peak\t\n", "stateful (cursor)", ful.Pages, ful.Returned, ful.Scanned, ratio(ful), fulTime.Round(time.Microsecond), peak, CursorBytes)
	if err := tw.Flush(); err != nil {
		return err
	}
	same := slices.EqualFunc(less.Results, ful.Results, slices.Equal[[]Row])
	fmt.Fprintf(w, "\nidentical pages from both servers: %v (row counts are exact; wall times are measurements)\n", yesNo(same))

	fmt.Fprintf(w, "after the run the stateful server still holds %d cursors (%d B), those of the vanished clients; the stateless one holds nothing\n", open, open*CursorBytes)
	now := time.Now()
	later := now.Add(cfg.ttl + time.Second)
	fmt.Fprintf(w, "once they have been idle for the TTL (%v), a sweep frees %d of them\n", cfg.ttl, srv.Expire(later))
	id := srv.Open(0, now) // a client that reads one page, then goes quiet for longer than the TTL
	if _, err := srv.Next(id, cfg.page, now); err != nil {
		return err
	}
	_, err = srv.Next(id, cfg.page, later)
	fmt.Fprintf(w, "a client that comes back after the TTL gets: %v\n", err)
	if !errors.Is(err, ErrExpired) {
		return fmt.Errorf("a returning client after the TTL: got %v, want an expired cursor", err)
	}
	if !same {
		return cliutil.Violationf("the two servers returned different pages")
	}
	return nil
}

func ratio(t Tally) float64 { return float64(t.Scanned) / float64(max(t.Returned, 1)) }

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}
