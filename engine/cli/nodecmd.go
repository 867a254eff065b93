package cli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/amqp"
	"ringlab/engine/cliutil"
)

// NodeArea is an area as the node commands take it: its name, the names
// of its algorithms, and its NodeRuns. NodeAreas makes them from an app's
// areas.
type NodeArea struct {
	Name       string   // the area's command name
	Algorithms []string // the names of its algorithms
	NodeRuns
}

// NodeAreas are the areas whose algorithms run one node per process (those
// with Node set), in their order.
func NodeAreas(areas []Area) []NodeArea {
	var nas []NodeArea
	for _, a := range areas {
		if a.Node != nil {
			nas = append(nas, NodeArea{Name: a.Name, Algorithms: a.Names(), NodeRuns: *a.Node})
		}
	}
	return nas
}

// areaFlags are the node command's flags that belong to an area.
var areaFlags = []string{"ids", "nodes", "lang", "requests"}

// AMQPCommand is `ringlab amqp setup|teardown`: the broker topology that
// `ringlab node` processes share. Like NodeCommand it serves the areas
// whose Node is set; an app that runs every node in one process needs
// neither.
func AMQPCommand(areas []NodeArea) *ucli.Command {
	flags := func() []ucli.Flag {
		return []ucli.Flag{
			&ucli.StringFlag{Name: "url", Value: amqp.DefaultURL, Usage: "the broker's `URL`"},
			&ucli.StringFlag{Name: "algo", Value: "ring", Usage: "the algorithm whose topology it is (as `ringlab node --algo`)"},
			&ucli.IntFlag{Name: "nodes", Value: 5, Usage: "number of nodes (queues node.1 .. node.N)"},
		}
	}
	return &ucli.Command{
		Name:  "amqp",
		Usage: "declare or delete the RabbitMQ topology that `ringlab node` processes share",
		UsageText: "ringlab amqp setup|teardown [flags]\n\n" +
			"Example:\n   ringlab amqp setup --nodes 5",
		Subcommands: []*ucli.Command{{
			Name:  "setup",
			Usage: "declare the exchange, the queues node.1 .. node.N and their bindings, and empty them",
			UsageText: "ringlab amqp setup --nodes N [--url URL] [--algo ring]\n\n" +
				"Example:\n   ringlab amqp setup --nodes 5",
			Flags: flags(),
			Action: func(c *ucli.Context) error {
				names, n, err := topologyOf(c, areas)
				if err != nil {
					return err
				}
				if err := amqp.Setup(c.Context, c.String("url"), names, n); err != nil {
					return err
				}
				fmt.Fprintf(c.App.Writer, "declared exchange %s (direct), queues %s .. %s, each bound with its own name\n",
					names.Exchange, names.Queue(1), names.Queue(n))
				return nil
			},
		}, {
			Name:  "teardown",
			Usage: "delete the exchange and the queues, whatever they hold",
			UsageText: "ringlab amqp teardown [--nodes N] [--url URL] [--algo ring]\n\n" +
				"Example:\n   ringlab amqp teardown",
			Flags: flags(),
			Action: func(c *ucli.Context) error {
				names, n, err := topologyOf(c, areas)
				if err != nil {
					return err
				}
				if !c.IsSet("nodes") {
					n = 0 // every node.i that exists
				}
				deleted, err := amqp.Teardown(c.Context, c.String("url"), names, n)
				if err != nil {
					return err
				}
				fmt.Fprintf(c.App.Writer, "deleted exchange %s and %d node queue(s)\n", names.Exchange, deleted)
				return nil
			},
		}},
	}
}

// topologyOf reads --algo and --nodes.
func topologyOf(c *ucli.Context, areas []NodeArea) (amqp.Names, int, error) {
	if err := cliutil.NoArgs(c); err != nil {
		return amqp.Names{}, 0, err
	}
	n := c.Int("nodes")
	if n < 1 || n > 100_000 {
		return amqp.Names{}, 0, cliutil.Usagef("--nodes must be between 1 and 100000, got %d", n)
	}
	if err := checkURL(c.String("url")); err != nil {
		return amqp.Names{}, 0, err
	}
	area, name, err := ParseAlgo(areas, c.String("algo"))
	if err != nil {
		return amqp.Names{}, 0, err
	}
	// the algorithm's default run says whether it uses the ring
	// election's broker names
	spec, err := area.Spec(name, nil, 1, true)
	if err != nil {
		return amqp.Names{}, 0, err
	}
	return BrokerNames(area.Name+" "+name, spec.RingNames, "nodes"), n, nil
}

// ParseAlgo reads --algo: AREA/NAME (mutex/central, election/ring), or a
// NAME alone, which names the first area's algorithm of that name (ring,
// chang-roberts, central, ...).
func ParseAlgo(areas []NodeArea, s string) (area NodeArea, name string, err error) {
	an, name, found := strings.Cut(s, "/")
	if !found {
		k := slices.IndexFunc(areas, func(a NodeArea) bool { return slices.Contains(a.Algorithms, s) })
		if k < 0 {
			return NodeArea{}, "", cliutil.Usagef("--algo: unknown algorithm %q (want one of %s, or AREA/NAME)", s, allNames(areas))
		}
		return areas[k], s, nil
	}
	k := slices.IndexFunc(areas, func(a NodeArea) bool { return a.Name == an })
	if k < 0 {
		return NodeArea{}, "", cliutil.Usagef("--algo: want AREA/NAME with AREA one of %s, or an algorithm's NAME; got %q", areaNames(areas), s)
	}
	if !slices.Contains(areas[k].Algorithms, name) {
		return NodeArea{}, "", cliutil.Usagef("--algo: unknown %s algorithm %q (want one of %s)", an, name, strings.Join(areas[k].Algorithms, ", "))
	}
	return areas[k], name, nil
}

// allNames lists every area's algorithms.
func allNames(areas []NodeArea) string {
	var ns []string
	for _, a := range areas {
		ns = append(ns, a.Algorithms...)
	}
	return strings.Join(ns, ", ")
}

func areaNames(areas []NodeArea) string {
	var ns []string
	for _, a := range areas {
		ns = append(ns, a.Name)
	}
	return strings.Join(ns, ", ")
}

// NodeCommand is `ringlab node`: one node of a run, in this process, over
// the broker.
func NodeCommand(areas []NodeArea) *ucli.Command {
	return &ucli.Command{
		Name:  "node",
		Usage: "run ONE node of an algorithm over RabbitMQ; start one process per node",
		UsageText: "ringlab node --algo ring --index I --ids 5,3,7,1,4 [--url URL] [--lang pt] [--events FILE] [--initiator]\n\n" +
			"Example (the ring election of ids 5,3,7,1,4 in five terminals, after `ringlab amqp setup --nodes 5`):\n" +
			"   ringlab node --algo ring --index 1 --ids 5,3,7,1,4 --lang pt\n" +
			"   ringlab node --algo ring --index 2 --ids 5,3,7,1,4 --lang pt\n" +
			"   ...\n" +
			"   ringlab node --algo ring --index 5 --ids 5,3,7,1,4 --lang pt",
		Description: "Each process prints its own node's lines. The initiator's process (node 1's, unless\n" +
			"another is started with --initiator and node 1's with --initiator=false) starts the\n" +
			"election (for mutex/NAME it only watches), collects every node's reports, decides when\n" +
			"the run is over, tells the other processes, and prints the verdicts. A run has one\n" +
			"initiator: a second is refused (exit 2) and the run's other processes end.",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "algo", Value: "ring", Usage: "the algorithm: an election (ring, chang-roberts, franklin, ...) or mutex/NAME"},
			&ucli.IntFlag{Name: "index", DefaultText: "none, required", Usage: "the node `I` this process runs, 1..N"},
			&ucli.StringFlag{Name: "ids", Usage: "election: node `IDS` in ring order, e.g. 5,3,7,1,4"},
			&ucli.IntFlag{Name: "nodes", DefaultText: "that of the algorithm's own command", Usage: "number of nodes `N` (elections: ids 1..N)"},
			&ucli.StringFlag{Name: "lang", DefaultText: "en", Usage: "--algo ring only (the other algorithms refuse it): language of the text, en or pt"},
			&ucli.IntFlag{Name: "requests", DefaultText: "that of the algorithm's own command", Usage: "mutex: `K` critical-section entries each node asks for"},
			&ucli.BoolFlag{Name: "initiator", DisableDefaultText: true,
				Usage: "this node starts the election; its process judges the run and prints the verdicts (default: true for --index 1, else false)"},
			&ucli.BoolFlag{Name: "mixed", DisableDefaultText: true,
				Usage: "--algo ring only: the ring's other nodes may be other programs that speak only the specification's wire; " +
					"no process watches: this one ends when its node's rules end it (rule 5 or 6) and judges nothing"},
			&ucli.StringFlag{Name: "url", Value: amqp.DefaultURL, Usage: "the broker's `URL`"},
			&ucli.StringFlag{Name: "events", Usage: "write this node's NDJSON event log to `FILE`"},
			&ucli.DurationFlag{Name: "timeout", Value: 10 * time.Minute, Usage: "give up (exit 4) if the run has not ended by then"},
			&ucli.DurationFlag{Name: "tick", Value: time.Millisecond, Usage: "wall-clock length of one tick (timers, workloads)"},
		},
		Action: func(c *ucli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			area, name, err := ParseAlgo(areas, c.String("algo"))
			if err != nil {
				return err
			}
			var args []string
			for _, f := range areaFlags {
				switch {
				case !c.IsSet(f):
				case slices.Contains(area.Flags, f):
					args = append(args, "--"+f, fmt.Sprint(c.Value(f)))
				default:
					return cliutil.Usagef("--%s is not a flag of %s algorithms", f, area.Name)
				}
			}
			index := c.Int("index")
			initiator := index == 1 // the ring specification's initiator_index, as the one-process commands
			if c.IsSet("initiator") {
				initiator = c.Bool("initiator")
			}
			spec, err := area.Spec(name, args, index, initiator)
			if err != nil {
				return err
			}
			if index < 1 || index > spec.Nodes {
				return cliutil.Usagef("--index must be between 1 and %d (the number of nodes), got %d", spec.Nodes, index)
			}
			for _, f := range []string{"timeout", "tick"} {
				if c.Duration(f) <= 0 {
					return cliutil.Usagef("--%s must be positive, got %v", f, c.Duration(f))
				}
			}
			if err := checkURL(c.String("url")); err != nil {
				return err
			}
			if c.Bool("mixed") && !spec.RingNames {
				return cliutil.Usagef("--mixed: only --algo ring speaks the ring specification's wire, not %s/%s", area.Name, name)
			}
			_, err = ExecuteNode(c.Context, spec, NodeOptions{
				Index: index, Watch: initiator, URL: c.String("url"), Events: c.String("events"),
				Timeout: c.Duration("timeout"), Tick: c.Duration("tick"), Replay: nodeReplay(c),
				RunKey: runKey(area, name, spec, c.IsSet("requests"), c.Int("requests")), Mixed: c.Bool("mixed"),
			}, c.App.Writer, c.App.ErrWriter)
			if area.Exit != nil {
				err = area.Exit(err)
			}
			return err
		},
	}
}

// runKey describes the run a node process belongs to: its algorithm,
// its number of nodes, each node's name (the ids of an election) and
// --requests, so that the processes of one run agree and those of another
// do not (--lang, which changes only the text, may differ).
func runKey(area NodeArea, name string, spec engine.System, setReq bool, requests int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s, %d nodes", area.Name, name, spec.Nodes)
	if setReq {
		fmt.Fprintf(&b, ", %d requests", requests)
	}
	if spec.Names != nil {
		ns := make([]string, spec.Nodes)
		for i := range ns {
			ns[i] = spec.Names(i + 1)
		}
		fmt.Fprintf(&b, " (%s)", strings.Join(ns, ","))
	}
	return b.String()
}

// nodeReplay is the node command line as given (the flags that were set).
func nodeReplay(c *ucli.Context) string {
	parts := []string{c.App.Name, "node"}
	for _, f := range c.Command.Flags {
		name := f.Names()[0]
		if !c.IsSet(name) {
			continue
		}
		if v, ok := c.Value(name).(bool); ok {
			if v {
				parts = append(parts, "--"+name)
			}
			continue
		}
		parts = append(parts, "--"+name, quote(flagText(name, c.Value(name))))
	}
	return strings.Join(parts, " ")
}

// nodeRun reads the command line of a `ringlab node` process (as its log's
// header gives it) and returns the one-process command of the run its
// process was part of — the area's algorithm with the area's flags the
// processes share, on --runtime amqp, seed 0 as the processes log it — and
// the node it ran.
func nodeRun(areas []NodeArea, replay string) (run string, index int, err error) {
	words, err := SplitCommand(replay)
	if err != nil {
		return "", 0, err
	}
	if len(words) < 2 || words[0] != "ringlab" || words[1] != "node" {
		return "", 0, fmt.Errorf("not a ringlab node command")
	}
	if len(areas) == 0 {
		return "", 0, fmt.Errorf("this command does not read node logs")
	}
	values := map[string]string{"algo": "ring"}
	for i := 2; i < len(words); i++ {
		name, ok := strings.CutPrefix(words[i], "--")
		if !ok {
			return "", 0, fmt.Errorf("%q is not a flag", words[i])
		}
		if name == "initiator" {
			continue
		}
		if i+1 == len(words) {
			return "", 0, fmt.Errorf("--%s has no value", name)
		}
		i++
		values[name] = words[i]
	}
	area, algo, err := ParseAlgo(areas, values["algo"])
	if err != nil {
		return "", 0, err
	}
	if _, err := fmt.Sscan(values["index"], &index); err != nil {
		return "", 0, fmt.Errorf("--index %q is not a node index", values["index"])
	}
	parts := []string{"ringlab", area.Name, algo}
	for _, f := range areaFlags {
		if v, ok := values[f]; ok && slices.Contains(area.Flags, f) {
			parts = append(parts, "--"+f, quote(v))
		}
	}
	return strings.Join(append(parts, "--runtime", "amqp", "--seed", "0"), " "), index, nil
}

// NodeLogs reads the command lines of `ringlab node` processes of the
// areas for run.ReadOptions.NodeCommand.
func NodeLogs(areas []NodeArea) func(replay string) (run string, index int, err error) {
	return func(replay string) (string, int, error) { return nodeRun(areas, replay) }
}
