package lint

import (
	"fmt"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

func init() {
	register(Rule{ID: "RL006", Name: "budget", Default: Error,
		Category: "budget", Precision: "very-high",
		Summary: "The rendered instructions exceed the dynamic-context budget (or come close to it).",
		Doc:     "The dynamic sections of the prompt share limits.max_dynamic_bytes, of which limits.reserved_bytes are kept for the runtime, workspace and memory sections (P3). When the rendered instructions (and skills) of a directory plus the reserve exceed the limit, the finding is an error; above limits.warn_ratio of the budget it is a warning. It sits on the deepest active layer and lists every active layer with its bytes. Fix: shorten the layers, or use an override to replace rather than add to the layers above.",
		Input:   InDirectory,
		run:     checkBudget})
}

// Budget is the severity of dynamic sections of total bytes (P3): Error
// above max_dynamic_bytes, Warning above warn_ratio of it, else Off. It is
// the one place the threshold is computed (check adds reserved_bytes to
// total; the preview knows every section and does not).
func (l Limits) Budget(total int64) Severity {
	switch {
	case total > l.MaxDynamicBytes:
		return Error
	case float64(total) > l.WarnRatio*float64(l.MaxDynamicBytes):
		return Warning
	}
	return Off
}

// UsedShare is the share of limits.max_dynamic_bytes that a dynamic
// context of total bytes (reserved_bytes included) takes, with one decimal,
// rounded half up: "90.6%". It is the one place that share is computed:
// RL006's message and every writer (Directory.Used) print this string, so
// one fact never shows two numbers. "n/a" when there is no limit.
func (l Limits) UsedShare(total int64) string {
	if l.MaxDynamicBytes <= 0 {
		return "n/a"
	}
	if total < 0 {
		total = 0
	}
	p := (total*2000 + l.MaxDynamicBytes) / (2 * l.MaxDynamicBytes) // permille
	return fmt.Sprintf("%d.%d%%", p/10, p%10)
}

// BudgetLine states what a chain's dynamic context takes of the budget,
// in the one form every output prints it (issue #26): "603 + 8192
// reserved = 8795 of 65536 bytes (13.4%)"; rendered is what check knows
// (the instructions and skills sections), the reserve stands for the
// rest.
func (l Limits) BudgetLine(rendered int64) string {
	total := rendered + l.ReservedBytes
	if l.ReservedBytes == 0 {
		return fmt.Sprintf("%d of %d bytes (%s)", rendered, l.MaxDynamicBytes, l.UsedShare(total))
	}
	return fmt.Sprintf("%d + %d reserved = %d of %d bytes (%s)", rendered, l.ReservedBytes, total, l.MaxDynamicBytes, l.UsedShare(total))
}

func checkBudget(p *pass) {
	active := p.res.Active()
	if len(active) == 0 {
		return
	}
	rendered := p.instructions + len(p.skills)
	total := int64(rendered) + p.limits.ReservedBytes
	sev := p.limits.Budget(total)
	if sev == Off {
		return
	}
	var parts []string
	for _, l := range active {
		part := fmt.Sprintf("%s %d", l.Path, p.facts.of(l).rendered)
		if p.checkout != nil {
			if co := p.checkout(l.Path); co != nil && co.CRLF != "" {
				part += " (" + co.CRLF + ")"
			}
		}
		parts = append(parts, part)
	}
	sizes := fmt.Sprintf("instructions %d", p.instructions)
	if len(p.skills) > 0 {
		parts = append(parts, fmt.Sprintf("skills section %d", len(p.skills)))
		sizes += fmt.Sprintf(" + skills %d", len(p.skills))
	}
	deepest := active[len(active)-1]
	dir := resolve.DisplayDir(p.res.Dir)
	line := p.limits.BudgetLine(int64(rendered))
	// A baseline knows the finding by its directory and its level (B2),
	// not by the sizes and the layers the message lists.
	if sev == Error {
		p.emit(Finding{Path: deepest.Path, Severity: sev, Subject: "over the budget from " + dir,
			Message: fmt.Sprintf("Rivumi's dynamic context from %s is over limits.max_dynamic_bytes by %d bytes: %s, the rendered part being %s; layers (rendered bytes): %s. %s",
				dir, total-p.limits.MaxDynamicBytes, line, sizes, strings.Join(parts, ", "), budgetFix)})
		return
	}
	p.emit(Finding{Path: deepest.Path, Severity: sev, Subject: "near the budget from " + dir,
		Message: fmt.Sprintf("Rivumi's dynamic context from %s is above warn_ratio %g of limits.max_dynamic_bytes: %s, the rendered part being %s; layers (rendered bytes): %s. %s",
			dir, p.limits.WarnRatio, line, sizes, strings.Join(parts, ", "), budgetFix)})
}

const budgetFix = "Fix: shorten the largest layers, move detail into deeper directories' files, or use an override to replace rather than add to the layers above"
