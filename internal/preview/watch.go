package preview

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rivumi/rivumi-lint/internal/preview/view"
)

// WatchOptions configure Watch.
type WatchOptions struct {
	// Write writes a render and Event a reload event, in one format (the
	// writers are report's: report.LookupPreview).
	Write func(w io.Writer, p *view.Preview) error
	Event func(w io.Writer, e Event) error
	// Clear clears the terminal before each new render (text on a TTY), so
	// the screen shows the current render and the events after it.
	Clear bool
	// Now is the clock of event times; nil: time.Now.
	Now func() time.Time
}

// Watch previews o, then polls its inputs every interval and re-renders to
// w when they change (P6): the R8 fingerprint of the directory (every
// instruction file of its chain, the user layer included), the skills, the
// memory file's identity, size and times, and the config. When the new
// state is invalid (a rejected layer or skill, the dynamic sections over
// the budget, or an error such as a broken config or a vanished directory)
// it writes one event with the reason and keeps the last valid render.
//
// Watch returns nil when ctx is done (Ctrl-C), and an error when the first
// preview cannot be built or w fails. The workspace values (branch, dirty)
// are read again on each render but not polled: a git status walks the
// whole worktree.
func Watch(ctx context.Context, interval time.Duration, w io.Writer, o Options, wo WatchOptions) error {
	if interval <= 0 {
		return fmt.Errorf("watch interval %v: want a positive duration", interval)
	}
	if wo.Write == nil || wo.Event == nil {
		return fmt.Errorf("watch: no output format (WatchOptions.Write and Event)")
	}
	if wo.Now == nil {
		wo.Now = time.Now
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	var (
		last      *watchKey // inputs of the last state handled; nil after an error
		lastErr   string
		haveValid bool
		shown     string
		first     = true
	)
	event := func(valid bool, reason, fp string) error {
		return wo.Event(w, Event{Event: "reload", Time: wo.Now(), Valid: valid, Reason: reason, Fingerprint: fp, Shown: shown})
	}
	for {
		err := func() error {
			in, err := gather(o)
			if err != nil {
				if first {
					return err
				}
				if msg := err.Error(); msg != lastErr {
					lastErr, last = msg, nil
					return event(false, msg+"; keeping the last valid render", "")
				}
				return nil
			}
			defer in.close()
			if last != nil && *last == in.key {
				return nil
			}
			changed := describeChange(last, in.key)
			key := in.key
			last, lastErr = &key, ""
			pv, err := in.build()
			if err != nil {
				if first {
					return err
				}
				return event(false, err.Error()+"; keeping the last valid render", in.key.Fingerprint)
			}
			invalid := pv.Invalid()
			if invalid != "" && haveValid {
				return event(false, invalid+"; keeping the last valid render", pv.Fingerprint)
			}
			if wo.Clear {
				if _, err := io.WriteString(w, "\x1b[H\x1b[2J"); err != nil {
					return err
				}
			}
			shown = pv.Fingerprint
			if !first {
				if err := event(true, changed, pv.Fingerprint); err != nil {
					return err
				}
			}
			if err := wo.Write(w, &pv.Preview); err != nil {
				return err
			}
			if invalid != "" {
				// Nothing valid was shown yet: show the current state, say so.
				return event(false, invalid+"; shown because there is no valid render yet", pv.Fingerprint)
			}
			haveValid = true
			return nil
		}()
		if err != nil {
			return err
		}
		first = false
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// describeChange says which inputs changed between two states.
func describeChange(old *watchKey, k watchKey) string {
	if old == nil {
		return "the directory resolves again"
	}
	var parts []string
	if old.Fingerprint != k.Fingerprint {
		parts = append(parts, fmt.Sprintf("instructions changed (%s → %s)", shortFP(old.Fingerprint), shortFP(k.Fingerprint)))
	}
	if old.Skills != k.Skills {
		parts = append(parts, "skills changed")
	}
	if old.Memory != k.Memory {
		parts = append(parts, "memory file changed")
	}
	if old.Config != k.Config {
		parts = append(parts, "configuration changed")
	}
	return strings.Join(parts, "; ")
}

// shortFP abbreviates a fingerprint to its prefix and 12 hex digits.
func shortFP(fp string) string {
	if len(fp) > len("rivumi-fp-v1:")+12 {
		return fp[:len("rivumi-fp-v1:")+12]
	}
	return fp
}
