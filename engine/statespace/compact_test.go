package statespace

import (
	"context"
	"os"
	"ringlab/engine/statespace/internal/store"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"
	"ringlab/engine/node"
)

// A search whose every level and every parent link but the last two go
// to disk finds what the search in memory finds: the same counts, the
// same shortest path (read back from disk), on one worker and on two,
// with and without the reduction; and it gives back every table it held
// off the heap. On one worker every state is rebuilt along its path
// (CheckClones) as well.
func TestSpilledLevelsKeepCountsAndPath(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, por := range []bool{false, true} {
		for _, w := range []int{1, 2} {
			for _, world := range []bool{false, true} {
				n := 3
				if por && w == 2 && !world {
					n = 4 // levels of several batches
				}
				var res [2]Result
				for k, at := range []int64{0, 1} {
					cfg := greeters(n, world)
					cfg.POR, cfg.Workers, cfg.spillAt, cfg.SpillDir = por, w, at, t.TempDir()
					cfg.CheckClones = w == 1
					if at > 0 {
						cfg.linkMem = 2
					}
					var err error
					if res[k], err = Search(context.Background(), cfg); err != nil {
						t.Fatal(err)
					}
				}
				mem, disk := res[0], res[1]
				if mem.Spilled != 0 || disk.Spilled == 0 {
					t.Errorf("por=%v workers=%d: %d bytes spilled in memory, %d to disk", por, w, mem.Spilled, disk.Spilled)
				}
				if mem.Distinct != disk.Distinct || mem.Explored != disk.Explored || mem.Transitions != disk.Transitions ||
					mem.Terminal != disk.Terminal || mem.Depth != disk.Depth || mem.Exhausted != disk.Exhausted {
					t.Errorf("por=%v workers=%d: in memory %+v, spilled %+v", por, w, mem, disk)
				}
				if (mem.Violation == nil) == world || FormatPath(mem.Path) != FormatPath(disk.Path) {
					t.Errorf("por=%v workers=%d: path %s in memory, %s spilled", por, w, FormatPath(mem.Path), FormatPath(disk.Path))
				}
			}
		}
	}
	if m := store.Mapped(); m != 0 {
		t.Errorf("%d bytes still mapped after the searches", m)
	}
}

// The spill files are gone when the search returns, also when it is
// interrupted in the middle of a level.
func TestSpillFilesRemoved(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, w := range []int{1, 2} {
		dir := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		var calls atomic.Int64
		cfg := greeters(5, false)
		cfg.Workers, cfg.spillAt, cfg.SpillDir = w, 1, dir
		// Within is asked of every new node state, also by the workers:
		// the search is cancelled from inside, well before it ends.
		cfg.Within = func(int, node.Node) bool {
			if calls.Add(1) == 200 {
				cancel()
			}
			return true
		}
		r, err := Search(ctx, cfg)
		cancel()
		if err != nil || r.Stop != "interrupted" || r.Spilled == 0 {
			t.Fatalf("workers=%d: stop %q, %d bytes spilled, %v: want an interrupted search that spilled", w, r.Stop, r.Spilled, err)
		}
		if left, err := os.ReadDir(dir); err != nil || len(left) > 0 {
			t.Errorf("workers=%d: %d files left in the spill directory (%v)", w, len(left), err)
		}
	}
	cfg := greeters(3, false)
	cfg.spillAt, cfg.SpillDir = 1, "/nonexistent/spill"
	if _, err := Search(context.Background(), cfg); err == nil {
		t.Error("a spill directory that does not exist: no error")
	}
}
