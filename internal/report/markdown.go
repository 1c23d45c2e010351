package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// maxDriftDirsListed is how many directories of one drift group are named;
// the rest are counted.
const maxDriftDirsListed = 20

// Markdown writes r as a Markdown summary for a pull-request comment or a job
// summary (§7 markdown): a headline with the counts, a findings table
// (severity, rule, location path:line:col, message), the drift between base
// and head (one list per group of directories, each layer change) when there
// is any, and the budget table (directory, rendered bytes, budget bytes,
// percent used; fullest first). Every value taken from the result goes
// through escapeMarkdown; no value is put into a code span, and no line
// starts with a value.
func Markdown(w io.Writer, r *lint.Result, o Options) error {
	_, err := io.WriteString(w, renderMarkdown(r, maxCommentBytes, ""))
	return err
}

// maxCommentBytes keeps the summary within GitHub's limit on a pull
// request comment, 65,536 characters (a character is at least a byte, so
// bytes bound it from above); a whole worktree of a large repository
// would otherwise be refused as a comment.
const maxCommentBytes = 65536

// limitText names a renderMarkdown limit in the "left out" lines.
func limitText(limit int) string {
	switch limit {
	case maxCommentBytes:
		return "under GitHub's 65,536-character comment limit"
	case maxStepSummaryBytes:
		return "under 1 MiB"
	}
	return fmt.Sprintf("under %d bytes", limit)
}

// mdSection is a part of the summary that may be cut: its head is written
// before the first row, and rows are dropped from the end when the
// document would exceed its limit.
type mdSection struct {
	head string
	rows []string
	// one and many name a row in the "left out" line: "finding", "findings".
	one, many string
}

// renderMarkdown renders the summary. limit > 0 caps its size in bytes:
// rows are left out from the end of each section, with a line saying how
// many, so that the document stays within limit. note, when not empty, is
// a line of our own text placed under the headline.
func renderMarkdown(r *lint.Result, limit int, note string) string {
	var b strings.Builder
	b.WriteString("## rivumi-lint: " + mdHeadline(r.Summary()) + "\n")
	if note != "" {
		b.WriteString("\n" + note + "\n")
	}
	if r.Baseline != nil {
		// B3: what the baseline left out, under the headline.
		b.WriteString("\n" + escapeMarkdown(BaselineLine(r.Baseline)) + "\n")
	}
	sections := []mdSection{
		findingsSection(orderFindings(r)),
		driftSection(r.Drift),
		budgetSection(r.Directories),
	}
	// Room kept for each unwritten section's "left out" line. Once a row
	// does not fit, every later section is only counted.
	const reserve = 256
	full := false
	for i, s := range sections {
		if len(s.rows) == 0 {
			continue
		}
		room := func(n int) bool {
			return limit <= 0 || b.Len()+n+reserve*(len(sections)-i) <= limit
		}
		if full || !room(len(s.head)) {
			full = true
			fmt.Fprintf(&b, "\n%s left out to keep this summary %s.\n", plural(len(s.rows), s.one, s.many), limitText(limit))
			continue
		}
		b.WriteString("\n" + s.head)
		for j, row := range s.rows {
			if !room(len(row)) {
				full = true
				fmt.Fprintf(&b, "\n%s left out to keep this summary %s.\n", plural(len(s.rows)-j, "more "+s.one, "more "+s.many), limitText(limit))
				break
			}
			b.WriteString(row)
		}
	}
	return b.String()
}

func mdHeadline(s lint.Summary) string {
	dirs := plural(s.Directories, "directory", "directories")
	if s.Errors+s.Warnings+s.Notices == 0 {
		return "no findings in " + dirs
	}
	return fmt.Sprintf("%s, %s, %s in %s",
		plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"),
		plural(s.Notices, "notice", "notices"), dirs)
}

func findingsSection(fs []lint.Finding) mdSection {
	s := mdSection{
		head: "### Findings\n\n| Severity | Rule | Location | Message |\n| --- | --- | --- | --- |\n",
		one:  "finding", many: "findings",
	}
	for _, f := range fs {
		rule := escapeMarkdown(f.Rule + " " + f.Name)
		if u := ruleDocURL(f.Rule); u != "" {
			rule = "[" + rule + "](" + u + ")"
		}
		s.rows = append(s.rows, "| "+f.Severity.String()+" | "+rule+" | "+
			escapeMarkdown(findingLocation(f))+" | "+escapeMarkdown(f.Message)+" |\n")
	}
	return s
}

func driftSection(groups []lint.Drift) mdSection {
	s := mdSection{
		head: "### Drift\n\nThe instructions changed between base and head for these directories:\n\n",
		one:  "drift group", many: "drift groups",
	}
	for _, g := range groups {
		var b strings.Builder
		names := g.Directories
		if len(names) > maxDriftDirsListed {
			names = names[:maxDriftDirsListed]
		}
		escaped := make([]string, len(names))
		for i, d := range names {
			escaped[i] = escapeMarkdown(d)
		}
		fmt.Fprintf(&b, "- %s: %s", plural(len(g.Directories), "directory", "directories"), strings.Join(escaped, ", "))
		if more := len(g.Directories) - len(names); more > 0 {
			fmt.Fprintf(&b, " and %d more", more)
		}
		b.WriteString("\n")
		for _, c := range g.Changes {
			b.WriteString("  - layer " + escapeMarkdown(c.Path) + ": " + escapeMarkdown(c.Change))
			if c.Detail != "" {
				b.WriteString(" (" + escapeMarkdown(c.Detail) + ")")
			}
			b.WriteString("\n")
		}
		s.rows = append(s.rows, b.String())
	}
	return s
}

func budgetSection(dirs []lint.Directory) mdSection {
	s := mdSection{
		head: "### Budget\n\n| Directories | Dynamic context of limits.max_dynamic_bytes |\n| --- | ---: |\n",
		one:  "budget row", many: "budget rows",
	}
	// Directories with one chain have one budget: one row names them all
	// (a monorepo's 10,000 directories are a few hundred chains).
	type group struct {
		first lint.Directory
		names []string
	}
	var groups []*group
	byChain := map[string]*group{}
	for _, d := range dirs {
		key := d.Fingerprint + "\x00" + d.Budget
		g := byChain[key]
		if g == nil || d.Fingerprint == "" {
			g = &group{first: d}
			byChain[key] = g
			groups = append(groups, g)
		}
		g.names = append(g.names, d.Path)
	}
	sort.SliceStable(groups, func(i, j int) bool {
		pi, pj := permille(groups[i].first), permille(groups[j].first)
		if pi != pj {
			return pi > pj
		}
		return groups[i].first.Path < groups[j].first.Path
	})
	for _, g := range groups {
		line := g.first.Budget // lint's line, the one RL006 prints
		if line == "" {
			line = "n/a"
		}
		names := g.names
		if len(names) > maxBudgetDirsListed {
			names = names[:maxBudgetDirsListed]
		}
		escaped := make([]string, len(names))
		for i, n := range names {
			escaped[i] = escapeMarkdown(n)
		}
		cell := strings.Join(escaped, ", ")
		if more := len(g.names) - len(names); more > 0 {
			cell += fmt.Sprintf(" and %d more", more)
		}
		s.rows = append(s.rows, "| "+cell+" | "+line+" |\n")
	}
	return s
}

// maxBudgetDirsListed is how many directories one budget row names.
const maxBudgetDirsListed = 5

// permille is the share of the budget a directory uses, in tenths of a
// percent, rounded half up; -1 when there is no budget to compare with.
func permille(d lint.Directory) int64 {
	if d.BudgetBytes <= 0 {
		return -1
	}
	r, b := int64(d.RenderedBytes), int64(d.BudgetBytes)
	if r < 0 {
		r = 0
	}
	return (r*2000 + b) / (2 * b)
}
