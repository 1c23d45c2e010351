package report

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/sethvargo/go-githubactions"
)

const (
	// GitHub shows at most 10 annotations of each level per step and 50 per
	// job (§7 github); more are dropped by GitHub without a word.
	maxAnnotationsPerLevel = 10
	maxAnnotationsPerJob   = 50
	// maxStepSummaryBytes keeps what one run appends to $GITHUB_STEP_SUMMARY
	// under GitHub's 1 MiB limit per step, with room for the library's EOL.
	maxStepSummaryBytes = 1<<20 - 1024
)

// GitHub writes r for a GitHub Actions step (§7 github):
//
//  1. workflow-command annotations to w, most severe first, at most 10 per
//     level and 50 in all: ::error / ::warning / ::notice with the
//     properties file, line, col (those that apply) and title "RL00N name".
//     They go through github.com/sethvargo/go-githubactions, which escapes
//     the message (%, CR, LF) and every property value (%, CR, LF, ':' and
//     ','), so no file name or message can end the command or start
//     another one; this writer adds no escaping of its own (that would
//     double-escape). Before that, the path and the message go through
//     SafeLine, as in the text format: the runner unescapes what the
//     library escaped, and GitHub would show a raw ESC or a bidi override
//     in the log and in the annotation (a path that needed it then names
//     no file of the checkout, and GitHub lists the annotation without a
//     place in the diff). A user-level file (~/…) is not in the repository: its
//     annotation has no file property and names the path in the message.
//     When findings were left out, one plain (non-command) line says how many;
//  2. when $GITHUB_STEP_SUMMARY is set, the Markdown summary (the markdown
//     format, plus how many findings are not shown as annotations) is
//     appended to that file, cut to stay under 1 MiB;
//  3. when $GITHUB_OUTPUT is set, the outputs errors, warnings and
//     directories.
//
// It never issues set-env, add-path or any command other than the three
// annotation levels.
func GitHub(w io.Writer, r *lint.Result, o Options) error {
	return writeGitHub(w, r, o, os.Getenv)
}

func writeGitHub(w io.Writer, r *lint.Result, _ Options, getenv func(string) string) (err error) {
	// The library panics when a write fails: turn that into an error.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("github output: %v", p)
		}
	}()
	a := githubactions.New(githubactions.WithWriter(w), githubactions.WithGetenv(getenv))

	shown := make(map[lint.Severity]int, 3)
	total, notShown := 0, 0
	for _, f := range orderFindings(r) {
		if shown[f.Severity] >= maxAnnotationsPerLevel || total >= maxAnnotationsPerJob {
			notShown++
			continue
		}
		shown[f.Severity]++
		total++
		annotate(a, f)
	}
	note := ""
	if notShown > 0 {
		note = fmt.Sprintf("%s not shown as annotations: GitHub shows at most %d annotations of each level per step and %d per job.",
			plural(notShown, "finding is", "findings are"), maxAnnotationsPerLevel, maxAnnotationsPerJob)
		// A plain log line, never a command: it starts with our own text.
		a.Infof("%s", "rivumi-lint: "+note)
	}

	if getenv("GITHUB_STEP_SUMMARY") != "" {
		a.AddStepSummary(renderMarkdown(r, maxStepSummaryBytes, note))
	}
	if getenv("GITHUB_OUTPUT") != "" {
		s := r.Summary()
		a.SetOutput("errors", strconv.Itoa(s.Errors))
		a.SetOutput("warnings", strconv.Itoa(s.Warnings))
		a.SetOutput("directories", strconv.Itoa(s.Directories))
	}
	return nil
}

// annotate issues one annotation. Every value is handed to the library
// without its escaping (it escapes properties and message itself), only
// SafeLine's. The message goes in as an argument, never as the format
// string.
func annotate(a *githubactions.Action, f lint.Finding) {
	props := map[string]string{"title": f.Rule + " " + f.Name}
	msg := safe(f.Message)
	switch {
	case f.User:
		msg = safe(withPath(f.Path, f.Message))
	case f.Path != "":
		props["file"] = safe(f.Path)
		if f.Line > 0 {
			props["line"] = strconv.Itoa(f.Line)
			// GitHub's workflow-command reference says only "Column
			// number, starting at 1", no unit. The annotations are shown
			// by the same web UI as code scanning, whose SARIF columns
			// are UTF-16 code units by default, and the actions/toolkit
			// callers are JavaScript, whose strings index in UTF-16: so
			// UTF-16 code units, not bytes.
			if f.Column > 0 {
				props["col"] = strconv.Itoa(f.UTF16Column)
			}
		}
	}
	a = a.WithFieldsMap(props)
	switch f.Severity {
	case lint.Error:
		a.Errorf("%s", msg)
	case lint.Warning:
		a.Warningf("%s", msg)
	default:
		a.Noticef("%s", msg)
	}
}
