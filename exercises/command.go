// Package exercises holds the `ringlab exercises` command: the concurrency
// chapter of the course as runnable lessons, one package per lesson.
package exercises

import (
	"fmt"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/exercises/blockingqueue"
	"ringlab/exercises/concmap"
	"ringlab/exercises/counter"
	"ringlab/exercises/falseshare"
	"ringlab/exercises/hello"
	"ringlab/exercises/join"
	"ringlab/exercises/pool"
	"ringlab/exercises/servers"
	"ringlab/exercises/signal"
	"ringlab/exercises/stateful"
	"ringlab/exercises/threadlocal"
	"ringlab/exercises/twolocks"
)

// Lessons returns the lesson commands in catalog order.
func Lessons() []*cli.Command {
	return []*cli.Command{
		hello.Command(),
		join.Command(),
		counter.Command(),
		twolocks.Command(),
		signal.Command(),
		blockingqueue.Command(),
		concmap.Command(),
		threadlocal.Command(),
		pool.Command(),
		servers.Command(),
		falseshare.Command(),
		stateful.Command(),
	}
}

// Command returns the `exercises` command tree.
func Command() *cli.Command {
	lessons := Lessons()
	return &cli.Command{
		Name:      "exercises",
		Usage:     "the concurrency chapter as runnable lessons",
		UsageText: "ringlab exercises list\n   ringlab exercises <lesson> [--explain] [flags]\n\nExample:\n   ringlab exercises counter --impl mutex",
		Subcommands: append([]*cli.Command{{
			Name:      "list",
			Usage:     "print the catalog of lessons, one line each",
			UsageText: "ringlab exercises list",
			Action: func(c *cli.Context) error {
				if err := cliutil.NoArgs(c); err != nil {
					return err
				}
				tw := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
				for _, l := range lessons {
					fmt.Fprintf(tw, "%s\t%s\n", l.Name, l.Usage)
				}
				return tw.Flush()
			},
		}}, lessons...),
	}
}
