package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/engine/run"
	"ringlab/engine/trace"
)

// VersionCommand is `ringlab version`: it prints ringlab's own version and
// the Go toolchain, and exists for ringlab's binary; an app of your own
// prints its own.
func VersionCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "version",
		Usage:     "print the ringlab version and the Go toolchain it was built with",
		UsageText: "ringlab version",
		Action: func(c *ucli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			v := "(devel)"
			if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
				v = info.Main.Version
			}
			fmt.Fprintf(c.App.Writer, "%s %s %s %s/%s\n", c.App.Name, v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}

// CheckCommand is `ringlab check`: it re-judges a saved run: the command line its log names
// rebuilds the run (its checkers, its figures) through the same command
// code, and the logged events take the place of the runtime.
func CheckCommand(stdout, stderr io.Writer, areas []Area, dialects []trace.Dialect) *ucli.Command {
	nodeAreas := NodeAreas(areas)
	return &ucli.Command{
		Name:  "check",
		Usage: "run a saved NDJSON log through the checkers of the run that wrote it; exit 0, 3 or 4 as the run would",
		UsageText: "ringlab check --from FILE [--from FILE2 ...] [--property P ...]\n\n" +
			"Several files (one per process) are merged by their clocks; - reads standard input.\n" +
			"Example:\n   ringlab mutex ricart-agrawala --nodes 3 --seed 1 --format json > run.ndjson\n" +
			"   ringlab check --from run.ndjson --property mutual-exclusion",
		Flags: fromFlags(),
		Action: func(c *ucli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			return checkFrom(c, NodeLogs(nodeAreas), dialects, stderr, func(log *run.Log) (bool, error) {
				args, err := SplitCommand(log.Replay)
				if err != nil || len(args) < 3 || args[0] != "ringlab" ||
					!slices.Contains(rechecked(areas), args[1]) ||
					slices.Contains([]string{"explore", "compare", "quorum-probability", "check"}, args[2]) {
					return false, cliutil.FlagUsagef("from", "--from: the log was made by %q, not by a run of a mutex or election algorithm ringlab can re-check", log.Replay)
				}
				return judge(c.Context, log, args, c.StringSlice("property"), areas, dryRun(c), stdout, stderr)
			})
		},
	}
}

// fromFlags are the flags of a command that judges saved logs (`ringlab
// check --from FILE`): --from, --property and --max-size.
func fromFlags() []ucli.Flag {
	return []ucli.Flag{
		RepeatedFlag("from", "an NDJSON log to read (`FILE`, or - for standard input; repeatable)"),
		&ucli.StringSliceFlag{Name: "property", Usage: "check only this property, e.g. mutual-exclusion (repeatable; default: every property of the run)"},
		&ucli.IntFlag{Name: "max-size", Value: run.DefaultMaxLogMiB, Usage: "refuse logs check must hold in memory (several --from files, or one without a header line: a few times their size) past this many `MiB` in all; one log with its header is judged as it is read, whatever its size"},
	}
}

// checkFrom reads the logs fromFlags name (merged into one) and judges
// them by judgeLog (the logs of node processes read by nodeLogs), which rebuilds the run the log's command line names
// and reports whether it judged one. A usage error of --from or
// --property that judgeLog returns is reported as it is; any other usage
// error is the log's command's.
func checkFrom(c *ucli.Context, nodeLogs func(string) (string, int, error), dialects []trace.Dialect, stderr io.Writer, judgeLog func(*run.Log) (bool, error)) error {
	var srcs []run.Source
	if !c.IsSet("from") {
		return cliutil.Usagef("--from FILE is required: the NDJSON log to check")
	}
	maxMiB := c.Int("max-size")
	if maxMiB < 1 || maxMiB > 1<<20 {
		return cliutil.Usagef("--max-size must be between 1 and %d MiB, got %d", 1<<20, maxMiB)
	}
	names := Values(c, "from")
	var size int64
	for i, name := range names {
		if slices.Contains(names[:i], name) {
			return cliutil.Usagef("--from %s is given twice: its events would count twice", name)
		}
		if name == "-" {
			srcs = append(srcs, run.Source{Name: "standard input", R: os.Stdin})
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			return cliutil.Usagef("--from: %v", err)
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && len(names) > 1 { // one file streams
			if size += st.Size(); size > int64(maxMiB)<<20 {
				return cliutil.Usagef("--from %s: the logs are larger than --max-size %d MiB (reading takes a few times that in memory); raise --max-size if this machine has room", name, maxMiB)
			}
		}
		srcs = append(srcs, run.Source{Name: name, R: f})
	}
	log, err := run.ReadLog(c.Context, run.ReadOptions{MaxBytes: int64(maxMiB) << 20, NodeCommand: nodeLogs, Dialects: dialects, Stream: true}, srcs...)
	if cliutil.Code(err) == cliutil.ExitInterrupted {
		fmt.Fprintf(stderr, "check: --from %v; nothing judged\n", err)
		return err
	}
	if err != nil {
		return cliutil.Usagef("--from %v", err)
	}
	judged, err := judgeLog(log)
	var flagErr *cliutil.UsageError
	switch {
	case errors.As(err, &flagErr) && (flagErr.Flag == "property" || flagErr.Flag == "from"): // this command's own flags
		return err
	case cliutil.Code(err) == cliutil.ExitUsage:
		return cliutil.Usagef("the log's command %q: %v", log.Replay, err)
	case err == nil && !judged:
		return cliutil.Usagef("--from: the log's command %q judges no run", log.Replay)
	}
	fmt.Fprintf(stderr, "checked %d logged events from %d file(s)\n", log.Read(), len(srcs))
	return err
}

// rechecked are the commands whose runs `ringlab check` judges again:
// the areas of algorithm values.
func rechecked(areas []Area) []string {
	var names []string
	for _, a := range areas {
		names = append(names, a.Name)
	}
	return names
}

// judge judges a saved log by the properties of the run that wrote it,
// rebuilt from the command line args the log names by the area that runs
// it (Area.Rebuild), and replayed through run.Run: an explicit call, with
// no command run again. It reports whether a run was judged. With dry, it
// rebuilds the run but judges nothing (DryRun).
func judge(ctx context.Context, log *run.Log, args, only []string, areas []Area, dry bool, stdout, stderr io.Writer) (bool, error) {
	for _, a := range areas {
		if a.Name != args[1] {
			continue
		}
		sys, opts, replay, ok, err := a.Rebuild(ctx, args[2:])
		if !ok || err != nil {
			return false, err
		}
		log.Replay = replay // the line the run command writes, as a run of it prints
		opts.DryRun = dry
		_, err = Judge(ctx, sys, opts, log, only, stdout, stderr)
		return true, err
	}
	return false, nil
}
