// Package stateful is the `stateful` lesson of the concurrency chapter
// (the course chapter on concurrency, "stateful vs stateless servers (paginated query example)").
//
// A client pages through the rows of one customer, page size P, in a table
// of N rows. The stateless server (QueryPage) keeps nothing between
// requests: each request names its offset, so the server runs the query
// again from the first row and skips the rows of the earlier pages. The
// stateful server (Cursors) keeps a cursor per client: the next request
// continues where the last one stopped. Both return identical pages; the
// stateless one scans about pages²/2 times more rows, the stateful one
// holds memory for every open cursor, including those of clients that
// vanished, until the cursor expires.
//
// Everything here is pure: the server code never reads a clock (callers
// pass now), never sleeps and never starts a goroutine. The tests check
// that both servers return the same pages with exact scanned-row counts,
// and the expiry rule.
package stateful

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// Row is one row of the table.
type Row struct {
	ID       int
	Customer int
	Amount   int
}

// NewTable returns n rows spread over customers customers by a fixed hash,
// so one seed-free call always builds the same table.
func NewTable(n, customers int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		h := uint64(i) * 0x9E3779B97F4A7C15
		rows[i] = Row{ID: i, Customer: int((h >> 32) % uint64(customers)), Amount: int(h>>48) % 1000}
	}
	return rows
}

// Page is a server's answer: the rows, how many table rows the server
// examined to produce them, and whether the query is exhausted.
type Page struct {
	Rows    []Row
	Scanned int
	Done    bool
}

// scan examines table from row from on, skips the first skip rows of
// customer, and collects up to limit of the following ones. It returns the
// page and the row to continue from.
func scan(table []Row, customer, from, skip, limit int) (Page, int) {
	var out []Row
	for i := from; i < len(table); i++ {
		if table[i].Customer != customer {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		out = append(out, table[i])
		if len(out) == limit {
			return Page{Rows: out, Scanned: i + 1 - from, Done: i+1 == len(table)}, i + 1
		}
	}
	return Page{Rows: out, Scanned: len(table) - from, Done: true}, len(table)
}

// QueryPage is the stateless server: it answers "page of customer's rows
// starting at offset" by running the query from the first row. It is safe
// for concurrent use because it keeps no state.
func QueryPage(table []Row, customer, offset, limit int) Page {
	p, _ := scan(table, customer, 0, offset, limit)
	return p
}

// ErrExpired is returned for a cursor that expired, finished, or never
// existed: the client must restart the query.
var ErrExpired = errors.New("unknown or expired cursor: restart the query")

// cursor is the state the stateful server keeps per client.
type cursor struct {
	customer int
	pos      int // next table row to examine
	lastUsed time.Time
	busy     bool // a request is using it right now
}

// CursorBytes is the size of one cursor's state (not counting the map
// entry). A real database cursor also pins a snapshot, buffers and locks.
const CursorBytes = 48

// Cursors is the stateful server: one cursor per open query, expired after
// ttl without use. Its methods are safe for concurrent use; one cursor
// serves one request at a time (a second concurrent Next on it fails).
// Cursors must not be copied.
type Cursors struct {
	table []Row
	ttl   time.Duration

	mu   sync.Mutex
	open map[int64]*cursor
	next int64
	peak int
}

// NewCursors returns a stateful server over table.
func NewCursors(table []Row, ttl time.Duration) *Cursors {
	return &Cursors{table: table, ttl: ttl, open: map[int64]*cursor{}}
}

// Open starts a query for customer and returns its cursor id.
func (s *Cursors) Open(customer int, now time.Time) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	s.open[s.next] = &cursor{customer: customer, lastUsed: now}
	s.peak = max(s.peak, len(s.open))
	return s.next
}

// Next returns the next page of cursor id. The cursor is closed when the
// query is exhausted; a cursor idle for longer than the ttl is expired.
func (s *Cursors) Next(id int64, limit int, now time.Time) (Page, error) {
	s.mu.Lock()
	c, ok := s.open[id]
	switch {
	case !ok:
		s.mu.Unlock()
		return Page{}, fmt.Errorf("cursor %d: %w", id, ErrExpired)
	case c.busy:
		s.mu.Unlock()
		return Page{}, fmt.Errorf("cursor %d is serving another request", id)
	case now.Sub(c.lastUsed) > s.ttl:
		delete(s.open, id)
		s.mu.Unlock()
		return Page{}, fmt.Errorf("cursor %d: %w", id, ErrExpired)
	}
	c.busy = true
	s.mu.Unlock()

	page, pos := scan(s.table, c.customer, c.pos, 0, limit) // outside the lock

	s.mu.Lock()
	defer s.mu.Unlock()
	c.pos, c.lastUsed, c.busy = pos, now, false
	if page.Done {
		delete(s.open, id)
	}
	return page, nil
}

// Expire closes every cursor idle for longer than the ttl at now and
// returns how many it closed. A server runs it periodically.
func (s *Cursors) Expire(now time.Time) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for id, c := range s.open {
		if !c.busy && now.Sub(c.lastUsed) > s.ttl {
			delete(s.open, id)
			n++
		}
	}
	return n
}

// Stats reports the cursors open now and the most ever open at once.
func (s *Cursors) Stats() (open, peak int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.open), s.peak
}
