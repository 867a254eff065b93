package stateful

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"go.uber.org/goleak"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lessontest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// tenthTable has 100 rows; customer 1 owns rows 3, 13, ..., 93.
func tenthTable() []Row {
	rows := make([]Row, 100)
	for i := range rows {
		rows[i] = Row{ID: i}
		if i%10 == 3 {
			rows[i].Customer = 1
		}
	}
	return rows
}

var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func fixedClock() time.Time { return epoch }

// Pages of 3 over 10 matching rows: [3 13 23] [33 43 53] [63 73 83] [93].
// Stateless rescans from row 0: 24 + 54 + 84 + 100 = 262 rows. Stateful
// continues: 24 + 30 + 30 + 16 = 100 rows, each row once.
func TestSamePagesExactScans(t *testing.T) {
	table := tenthTable()
	ctx := context.Background()
	less, err := Paginate(ctx, 1, 1, 0, func(int) pager { return Stateless(table, 3)(1) })
	if err != nil {
		t.Fatal(err)
	}
	srv := NewCursors(table, time.Minute)
	ful, err := Paginate(ctx, 1, 1, 0, func(int) pager { return Stateful(srv, 3, fixedClock)(1) })
	if err != nil {
		t.Fatal(err)
	}
	want := []int{3, 13, 23, 33, 43, 53, 63, 73, 83, 93}
	for name, got := range map[string]Tally{"stateless": less, "stateful": ful} {
		ids := make([]int, 0, len(want))
		for _, r := range got.Results[0] {
			ids = append(ids, r.ID)
		}
		if !slices.Equal(ids, want) || got.Pages != 4 || got.Returned != 10 {
			t.Errorf("%s: %d pages, rows %v; want 4 pages, rows %v", name, got.Pages, ids, want)
		}
	}
	if less.Scanned != 262 || ful.Scanned != 100 {
		t.Errorf("rows scanned: stateless %d, stateful %d; want 262 and 100", less.Scanned, ful.Scanned)
	}
	if open, _ := srv.Stats(); open != 0 {
		t.Errorf("%d cursors open after the query was exhausted, want 0", open)
	}
}

func TestQueryPagePerPage(t *testing.T) {
	table := tenthTable()
	for _, tc := range []struct{ offset, scanned, first, n int }{
		{0, 24, 3, 3}, {3, 54, 33, 3}, {6, 84, 63, 3}, {9, 100, 93, 1}, {10, 100, -1, 0},
	} {
		p := QueryPage(table, 1, tc.offset, 3)
		if p.Scanned != tc.scanned || len(p.Rows) != tc.n || (tc.n > 0 && p.Rows[0].ID != tc.first) {
			t.Errorf("offset %d: scanned %d, %d rows %v; want scanned %d, %d rows from %d", tc.offset, p.Scanned, len(p.Rows), p.Rows, tc.scanned, tc.n, tc.first)
		}
	}
}

// Many clients at once: the stateless scans are the same whatever the
// interleaving, and the vanished clients' cursors stay open until expiry.
func TestConcurrentClientsAndExpiry(t *testing.T) {
	table := NewTable(5000, 3)
	ctx := context.Background()
	less, err := Paginate(ctx, 9, 3, 2, Stateless(table, 50))
	if err != nil {
		t.Fatal(err)
	}
	srv := NewCursors(table, time.Minute)
	ful, err := Paginate(ctx, 9, 3, 2, Stateful(srv, 50, fixedClock))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(less.Results, ful.Results, slices.Equal[[]Row]) || less.Pages != ful.Pages {
		t.Fatal("the two servers returned different pages")
	}
	if less.Scanned <= ful.Scanned {
		t.Errorf("stateless scanned %d rows, stateful %d: want stateless > stateful", less.Scanned, ful.Scanned)
	}
	if open, _ := srv.Stats(); open != 2 {
		t.Fatalf("%d cursors open, want the 2 of the vanished clients", open)
	}
	if n := srv.Expire(epoch.Add(time.Minute)); n != 0 {
		t.Errorf("Expire at exactly the TTL freed %d cursors, want 0", n)
	}
	if n := srv.Expire(epoch.Add(time.Minute + 1)); n != 2 {
		t.Errorf("Expire after the TTL freed %d cursors, want 2", n)
	}
}

func TestNextAfterTTLExpires(t *testing.T) {
	srv := NewCursors(tenthTable(), time.Minute)
	id := srv.Open(1, epoch)
	if _, err := srv.Next(id, 3, epoch.Add(time.Minute)); err != nil {
		t.Fatalf("Next within the TTL: %v", err)
	}
	if _, err := srv.Next(id, 3, epoch.Add(2*time.Minute+1)); !errors.Is(err, ErrExpired) {
		t.Fatalf("Next after the TTL: %v, want ErrExpired", err)
	}
	if _, err := srv.Next(id, 3, epoch); !errors.Is(err, ErrExpired) {
		t.Fatalf("Next on a removed cursor: %v, want ErrExpired", err)
	}
}

func TestCursorBytes(t *testing.T) {
	if got := unsafe.Sizeof(cursor{}); got != CursorBytes {
		t.Errorf("cursor is %d bytes, CursorBytes says %d", got, CursorBytes)
	}
}

func TestCommandSmall(t *testing.T) {
	out, err := lessontest.Run(t, Command(), "--rows", "2000", "--page", "10", "--clients", "4", "--vanish", "1")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"stateless (offset)", "stateful (cursor)", "identical pages from both servers: yes", "still holds 1 cursors", "unknown or expired cursor"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCommonAndBadInput(t *testing.T) {
	lessontest.CheckCommon(t, Command,
		[]string{"--rows", "0"}, []string{"--rows", "-1"}, []string{"--page", "0"}, []string{"--clients", "0"}, []string{"--customers", "0"},
		[]string{"--vanish", "-1"}, []string{"--vanish", "9"}, []string{"--ttl", "0s"}, []string{"--rows", "10000000", "--page", "1"},
	)
}

// Ctrl-C stops every client before its next page: Paginate returns the
// pages fetched so far with the context's error, and the lesson prints them
// and exits 130. Here the fifth page cancels.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	table := NewTable(1000, 1)
	pages := 0
	tally, err := Paginate(ctx, 1, 1, 0, func(int) pager {
		next := Stateless(table, 10)(0)
		return func(ctx context.Context) (Page, error) {
			if pages++; pages == 5 {
				cancel()
			}
			return next(ctx)
		}
	})
	if !errors.Is(err, context.Canceled) || tally.Pages != 5 || tally.Returned != 50 {
		t.Fatalf("tally %+v, err %v; want 5 pages of 10 rows and the cancel", tally, err)
	}
	out, err := lessontest.RunContext(t, ctx, Command())
	if cliutil.Code(err) != cliutil.ExitInterrupted || !strings.Contains(out, "\ninterrupted during the stateless (offset) run after") {
		t.Fatalf("exit %d (%v):\n%s", cliutil.Code(err), err, out)
	}
}
