package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rivumi/rivumi-lint/internal/outfile"
	"github.com/rivumi/rivumi-lint/internal/preview"
	"github.com/rivumi/rivumi-lint/internal/preview/view"
	"github.com/rivumi/rivumi-lint/internal/report"
	"github.com/rivumi/rivumi-lint/internal/trace"
)

// watchContext is the context of --watch (env.WatchContext): its end ends
// the watch with exit 0 (P6).
// temps records the temporary file of --output without --watch (env.Temps;
// nil: none); --watch ends on a signal by committing the last render (P6).
func cmdPreview(args []string, watchContext func() (context.Context, context.CancelFunc), stdout, stderr io.Writer, temps *outfile.Temps) int {
	fs := flag.NewFlagSet("preview", flag.ContinueOnError)
	interval := intervalFlag(500 * time.Millisecond)
	var (
		format     = fs.String("format", "text", "output `FORMAT`: "+strings.Join(report.PreviewNames(), ", "))
		output     = fs.String("output", "", "write the preview to `FILE` instead of standard output")
		cfgPath    = fs.String("config", "", "config `FILE` (default: .rivumi-lint.yaml at the root)")
		root       = fs.String("root", "", "project root `DIR` (default: the Git worktree around the working directory)")
		user       = fs.String("user-instructions", "", "user-level instruction `FILE` (default: $RIVUMI_HOME/RIVUMI.md when it exists)")
		noUser     = fs.Bool("no-user", false, "no user layer")
		mem        = fs.String("memory", "", "explicit memory `FILE` (default: $RIVUMI_HOME/memory.jsonl when it exists)")
		noMem      = fs.Bool("no-memory", false, "no memory section")
		projectKey = fs.String("project", "", "memory project `KEY` (default: config project, else the absolute root path)")
		section    = fs.String("section", "", "print exactly the bytes of section `NAME` ("+strings.Join(dynamicSections(), ", ")+") and nothing else")
		watch      = fs.Bool("watch", false, "re-render when the directory's instructions, skills, memory or config change; Ctrl-C ends")
	)
	fs.Var(&interval, "interval", "polling `INTERVAL` of --watch: a duration (500ms, 2s) or milliseconds")
	agents := agentFlag(fs)
	shortFlag(fs, "f", "format")
	color := colorFlags(fs)
	pos, code, done := parseFlags(fs, "preview", args, stdout, stderr,
		"DIR defaults to the working directory; a file previews its directory.\n")
	if done {
		return code
	}
	if len(pos) > 1 {
		return fail(stderr, &usageError{fmt.Sprintf("preview takes one DIR, got %d: %s", len(pos), strings.Join(pos, " "))})
	}
	profiles, err := parseAgents(*agents)
	if err != nil {
		return fail(stderr, err)
	}
	f, ok := report.LookupPreview(*format)
	if !ok {
		return fail(stderr, &usageError{fmt.Sprintf("unknown --format %q (want one of %s)", *format, strings.Join(report.PreviewNames(), ", "))})
	}
	if *section != "" {
		if err := checkSection(*section); err != nil {
			return fail(stderr, err)
		}
		if *watch {
			return fail(stderr, &usageError{"--section and --watch exclude each other"})
		}
		if err := checkAgentSection(*section, profiles); err != nil {
			return fail(stderr, err)
		}
	}
	o := preview.Options{Root: *root, Config: *cfgPath, UserInstructions: *user, NoUser: *noUser,
		Memory: *mem, NoMemory: *noMem, Project: *projectKey, Agents: profiles, Env: agentEnv()}
	if err := o.Validate(); err != nil {
		return fail(stderr, &usageError{err.Error()})
	}
	machine, err := preview.MachineFromEnv(os.Getenv)
	if err != nil {
		return fail(stderr, err)
	}
	o.Machine = machine
	if len(pos) == 1 {
		o.Dir = pos[0]
	}
	tty := toTerminal(stdout, *output)
	wo := report.Options{Color: colorOutput(stdout, *output, *color)}

	if *watch {
		out, err := openOutput(*output, stdout, nil)
		if err != nil {
			return fail(stderr, err)
		}
		defer out.abort()
		ctx, stop := watchContext()
		defer stop()
		err = preview.Watch(ctx, time.Duration(interval), out, o,
			preview.WatchOptions{
				Write: func(w io.Writer, p *view.Preview) error { return f.Write(w, p, wo) },
				Event: func(w io.Writer, e view.Event) error { return f.Event(w, e, wo) },
				Clear: tty && f.Name == "text"})
		if err == nil {
			err = out.commit()
		}
		if err != nil {
			return fail(stderr, err)
		}
		return exitOK
	}

	trace.Mark("start") // process start, flags
	pv, err := preview.Build(o)
	if err != nil {
		return fail(stderr, err)
	}
	defer removeOnSignal(temps)()
	out, err := openOutput(*output, stdout, temps)
	if err != nil {
		return fail(stderr, err)
	}
	defer out.abort()
	if *section != "" {
		// Exactly the section's bytes; a section left out prints nothing.
		s, _ := pv.Section(*section)
		text := s.Text
		if a, ok := agentSection(pv, profiles); ok {
			text = a.Text // the agent's instruction message (A3)
		}
		_, err = io.WriteString(out, text)
	} else {
		err = f.Write(out, &pv.Preview, wo)
	}
	if err != nil {
		return fail(stderr, fmt.Errorf("write preview: %w", err))
	}
	if err := out.commit(); err != nil {
		return fail(stderr, err)
	}
	trace.Mark("report")
	return exitOK
}

// dynamicSections are the sections --section can print.
func dynamicSections() []string {
	return []string{preview.Runtime, preview.Instructions, preview.Skills, preview.WorkspaceSec, preview.MemorySec}
}

func checkSection(name string) error {
	for _, d := range dynamicSections() {
		if name == d {
			return nil
		}
	}
	for _, s := range preview.SectionNames {
		if name == s {
			return &usageError{fmt.Sprintf("--section %s: its text belongs to the runtime; the preview names it but cannot print it (printable: %s)",
				name, strings.Join(dynamicSections(), ", "))}
		}
	}
	return &usageError{fmt.Sprintf("unknown --section %q (want one of %s)", name, strings.Join(dynamicSections(), ", "))}
}

// intervalFlag is --interval: a Go duration, or a number of milliseconds.
type intervalFlag time.Duration

func (d *intervalFlag) String() string { return time.Duration(*d).String() }

func (d *intervalFlag) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		ms, err2 := strconv.ParseUint(s, 10, 31)
		if err2 != nil {
			return fmt.Errorf("want a duration such as 500ms or 2s, or milliseconds")
		}
		v = time.Duration(ms) * time.Millisecond
	}
	if v < 10*time.Millisecond || v > time.Hour {
		return fmt.Errorf("%v is out of range (10ms to 1h)", v)
	}
	*d = intervalFlag(v)
	return nil
}
