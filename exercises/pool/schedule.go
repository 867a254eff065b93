package pool

import (
	"context"
	"time"
)

// FixedRate runs task runs times and aims to start a run every period,
// measured from the first start, like Java's scheduleAtFixedRate. It uses a
// time.Ticker: if a run takes longer than period, the next run starts late
// and the ticks missed meanwhile are dropped, not queued. It returns each
// run's start time relative to the call.
func FixedRate(ctx context.Context, period time.Duration, runs int, task func(context.Context)) ([]time.Duration, error) {
	start := time.Now()
	tick := time.NewTicker(period)
	defer tick.Stop()
	starts := make([]time.Duration, 0, runs)
	for i := range runs {
		if i > 0 {
			select {
			case <-tick.C:
			case <-ctx.Done():
				return starts, ctx.Err()
			}
		}
		starts = append(starts, time.Since(start))
		task(ctx)
	}
	return starts, nil
}

// FixedDelay runs task runs times and waits delay after each run before
// starting the next, like Java's scheduleWithFixedDelay: the time between
// starts is the run's own duration plus delay. It returns each run's start
// time relative to the call.
func FixedDelay(ctx context.Context, delay time.Duration, runs int, task func(context.Context)) ([]time.Duration, error) {
	start := time.Now()
	starts := make([]time.Duration, 0, runs)
	for i := range runs {
		if i > 0 {
			if err := sleep(ctx, delay); err != nil {
				return starts, err
			}
		}
		starts = append(starts, time.Since(start))
		task(ctx)
	}
	return starts, nil
}

// sleep waits d, or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
