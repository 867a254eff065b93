package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Output pasted into a Markdown file must not carry a path of the machine it
// was made on, and a race report pasted into a README must point at the code
// as it is: the tests below keep both true without a -race build.

// machinePath matches an absolute path of a developer's machine: a home,
// work or temporary directory, or a Windows drive.
var machinePath = regexp.MustCompile(`(^|[\s(="'` + "`" + `])(/(root|home|tmp|work|Users)/\S*|[A-Za-z]:\\\S*)`)

// machinePaths returns the machine paths in one line of text.
func machinePaths(line string) []string {
	var paths []string
	for _, m := range machinePath.FindAllStringSubmatch(line, -1) {
		paths = append(paths, m[2])
	}
	return paths
}

// markdownFiles lists every *.md of the repository, at every depth, testdata
// included, .git excluded.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, p := range repoPaths(t) {
		if strings.HasSuffix(p, ".md") {
			files = append(files, filepath.FromSlash(p))
		}
	}
	return files
}

// TestMarkdownHasNoMachinePaths: no Markdown file carries an absolute path of
// the machine its text was made on.
func TestMarkdownHasNoMachinePaths(t *testing.T) {
	files := markdownFiles(t)
	if len(files) < 10 {
		t.Fatalf("found only %d Markdown files; is the walk broken?", len(files))
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, p := range machinePaths(line) {
				t.Errorf("%s:%d: a machine path %q: %s", file, i+1, p, strings.TrimSpace(line))
			}
		}
	}
}

// TestMachinePathDetector: the detector finds the paths a race report built
// without -trimpath carries (the lines below are from such a report, once
// pasted into exercises/README.md), and leaves module paths and URLs alone.
func TestMachinePathDetector(t *testing.T) {
	for _, line := range []string{
		"      /work/wt/docs/exercises/counter/unsafe.go:25 +0x57",
		"      /root/go/pkg/mod/github.com/urfave/cli/v2@v2.27.7/command.go:276 +0x1596",
		"see /home/ana/ringlab/README.md",
		"(/Users/ana/ringlab/ring/racy.go:62)",
		"`/tmp/ringlab-race`",
		`built in C:\Users\ana\ringlab`,
	} {
		if len(machinePaths(line)) == 0 {
			t.Errorf("no machine path found in %q", line)
		}
	}
	for _, line := range []string{
		"      ringlab/exercises/counter/unsafe.go:25 +0x57",
		"      sync/waitgroup.go:238 +0x72",
		"https://github.com/home/work/tmp",
		"go test -race ./exercises/...",
		"a ratio 3/tmp/x of nothing",
	} {
		if p := machinePaths(line); len(p) > 0 {
			t.Errorf("machine paths %q found in %q", p, line)
		}
	}
}

var (
	// frameFunc is the function line of a stack frame in a race report or a
	// panic: "  ringlab/exercises/counter.(*UnsafeCounter).Inc()".
	frameFunc = regexp.MustCompile(`^\s+(\S+)\(\)$`)
	// frameFile is the position line under it, for a file of this module
	// (built with -trimpath): "      ringlab/exercises/counter/unsafe.go:25 +0x57".
	frameFile = regexp.MustCompile(`^\s+ringlab/(\S+\.go):(\d+) \+0x[0-9a-f]+$`)
	// closure is a part of the name the compiler gives a function literal:
	// "func3", or the "2" of "func1.2".
	closure = regexp.MustCompile(`^(func)?\d+$`)
)

// stackFrame is one frame a README quotes: a function of this module and the
// line the report gives for it.
type stackFrame struct {
	readme string
	at     int // line in the README
	name   string
	file   string
	line   int
}

// readmeFrames finds the frames of this module that the READMEs quote.
func readmeFrames(t *testing.T) []stackFrame {
	t.Helper()
	var frames []stackFrame
	for _, readme := range allREADMEs(t) {
		data, err := os.ReadFile(readme)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i := 0; i+1 < len(lines); i++ {
			fn, pos := frameFunc.FindStringSubmatch(lines[i]), frameFile.FindStringSubmatch(lines[i+1])
			if fn == nil || pos == nil {
				continue
			}
			n, _ := strconv.Atoi(pos[2])
			frames = append(frames, stackFrame{readme: readme, at: i + 2, name: fn[1], file: pos[1], line: n})
		}
	}
	return frames
}

// frameFuncName splits a frame's function, "ringlab/exercises/counter.Run.func3",
// into the name of the declared function ("Run"), its receiver type for a
// method ("UnsafeCounter" for "(*UnsafeCounter).Inc") and whether the frame
// is a function literal inside it.
func frameFuncName(full string) (name, recv string, literal bool) {
	rest := full[strings.LastIndex(full, "/")+1:]
	_, rest, _ = strings.Cut(rest, ".") // drop the package name
	var parts []string
	for _, p := range strings.Split(rest, ".") {
		if closure.MatchString(p) {
			literal = true
			continue
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "", "", literal
	}
	name = parts[len(parts)-1]
	if len(parts) >= 2 && strings.HasPrefix(parts[len(parts)-2], "(") {
		recv = strings.Trim(parts[len(parts)-2], "(*)")
	}
	return name, recv, literal
}

// frameFits reports whether line of the parsed file lies in the declared
// function name (of receiver recv, if any) and, for a literal, inside a
// function literal of it. A name the compiler gives an inlined closure
// ("Command.Command.func1") names the function the literal was written in.
func frameFits(fset *token.FileSet, f *ast.File, name, recv string, literal bool, line int) bool {
	within := func(n ast.Node) bool {
		return fset.Position(n.Pos()).Line <= line && line <= fset.Position(n.End()).Line
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != name || !within(fd) {
			continue
		}
		if recv != "" && (fd.Recv == nil || !strings.Contains(types(fd.Recv.List[0].Type), recv)) {
			continue
		}
		if !literal {
			return true
		}
		inLit := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok && within(lit) {
				inLit = true
			}
			return !inLit
		})
		return inLit
	}
	return false
}

// types spells a receiver type expression: "*UnsafeCounter", "Set[T]".
func types(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + types(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return types(e.X)
	case *ast.IndexListExpr:
		return types(e.X)
	}
	return ""
}

// TestREADMEStackFramesPointIntoTheirFunctions: every stack frame of this
// module that a README quotes (the race reports) names a file that exists
// and a line inside the function the frame names, so a report pasted into
// a README cannot keep pointing at lines the code has moved away from.
// Which accesses a race report shows depends on the schedule, so the report
// itself is not compared with a run; its positions are.
func TestREADMEStackFramesPointIntoTheirFunctions(t *testing.T) {
	frames := readmeFrames(t)
	if len(frames) < 10 {
		t.Fatalf("found only %d stack frames in the READMEs; is the extraction broken?", len(frames))
	}
	fset := token.NewFileSet()
	parsed := map[string]*ast.File{}
	for _, fr := range frames {
		where := fr.readme + ":" + strconv.Itoa(fr.at)
		f, ok := parsed[fr.file]
		if !ok {
			var err error
			if f, err = parser.ParseFile(fset, fr.file, nil, 0); err != nil {
				t.Errorf("%s: frame %s: %v", where, fr.name, err)
				continue
			}
			parsed[fr.file] = f
		}
		name, recv, literal := frameFuncName(fr.name)
		if !frameFits(fset, f, name, recv, literal, fr.line) {
			what := "the function " + name
			if literal {
				what = "a function literal in " + name
			}
			t.Errorf("%s: frame %s at %s:%d: that line is not in %s; regenerate the report from the current code",
				where, fr.name, fr.file, fr.line, what)
		}
	}
}
