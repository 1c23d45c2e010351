package preview_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rivumi/rivumi-lint/internal/preview"
	"github.com/rivumi/rivumi-lint/internal/preview/previewtest"
	"github.com/rivumi/rivumi-lint/internal/preview/view"
	"github.com/rivumi/rivumi-lint/internal/report"
)

// syncBuffer is a writer the watch loop and the test share.
type syncBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	written chan struct{}
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{written: make(chan struct{}, 1)} }

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.buf.Write(p)
	select {
	case b.written <- struct{}{}:
	default:
	}
	return n, err
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitCount waits until s occurs at least n times in the output; it fails
// the test when ctx ends first.
func (b *syncBuffer) waitCount(ctx context.Context, t *testing.T, s string, n int) {
	t.Helper()
	for strings.Count(b.String(), s) < n {
		select {
		case <-b.written:
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %d× %q; output:\n%s", n, s, b.String())
		}
	}
}

// P6: the watch loop re-renders when the fingerprint, skills, memory or
// config change; an invalid state (rejected layer, budget exceeded, broken
// config) prints one reload event with the reason and keeps the last valid
// render; cancelling the context ends it with nil.
func TestWatch(t *testing.T) {
	f := previewtest.Load(t, "../../testdata/preview/chain.txtar")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	watchCtx, stop := context.WithCancel(ctx)
	out := newSyncBuffer()
	clock := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	done := make(chan error, 1)
	go func() {
		done <- preview.Watch(watchCtx, 5*time.Millisecond, out,
			preview.Options{Root: f.Root, Dir: filepath.Join(f.Root, "docs", "api"), Machine: previewtest.Machine},
			withNow(watchFormat("text"), func() time.Time { return clock }))
	}()
	const render = "Prompt preview of docs/api"
	// Files are replaced atomically (write, then rename), as editors save
	// them, so that the loop never sees a half-written file.
	write := func(rel, data string) {
		dst := filepath.Join(f.Root, rel)
		tmp := filepath.Join(f.Home, "tmp-"+filepath.Base(rel))
		previewtest.WriteFile(t, tmp, data)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, dst); err != nil {
			t.Fatal(err)
		}
	}

	out.waitCount(ctx, t, render, 1)

	// A valid change of a suppressed layer: new fingerprint, new render.
	write("docs/AGENTS.md", "Write documentation in American English.\n")
	out.waitCount(ctx, t, "[03:04:05] reload: instructions changed (rivumi-fp-v1:", 1)
	out.waitCount(ctx, t, render, 2)

	// The active override becomes UTF-16: rejected, keep the last render.
	write("docs/api/AGENTS.override.md", "\xff\xfeA\x00P\x00I\x00")
	out.waitCount(ctx, t, "reload rejected: docs/api/AGENTS.override.md is rejected (RL004: it is encoded as UTF-16LE", 1)
	if s := out.String(); !strings.Contains(s, "keeping the last valid render") || strings.Count(s, render) != 2 {
		t.Fatalf("an invalid state was rendered:\n%s", s)
	}

	// Fixed again: rendered, with the new text.
	write("docs/api/AGENTS.override.md", "API v2.\n")
	out.waitCount(ctx, t, render, 3)
	if !strings.Contains(out.String(), "API v2.\n</rivumi:layer>") {
		t.Fatalf("the new text is not rendered:\n%s", out.String())
	}

	// Over the budget: rejected with the numbers.
	write(".rivumi-lint.yaml", "version: 1\nproject: github.com/acme/app\nlimits:\n  max_dynamic_bytes: 100\n  reserved_bytes: 0\n")
	out.waitCount(ctx, t, "reload rejected: the dynamic sections take", 1)

	// A broken config: rejected with the config error.
	write(".rivumi-lint.yaml", "version: 1\nbogus: true\n")
	out.waitCount(ctx, t, "reload rejected: ", 3)
	if !strings.Contains(out.String(), "bogus") {
		t.Fatalf("the config error is not in the event:\n%s", out.String())
	}

	// Config restored, then a memory entry and a skill added: re-rendered.
	write(".rivumi-lint.yaml", "version: 1\nproject: github.com/acme/app\n")
	out.waitCount(ctx, t, render, 4)
	mem, err := os.OpenFile(filepath.Join(f.Home, ".rivumi", "memory.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	mem.WriteString(`{"type":"user_preference","text":"Newly remembered."}` + "\n")
	mem.Close()
	out.waitCount(ctx, t, "reload: memory file changed", 1)
	out.waitCount(ctx, t, "- [user preference] Newly remembered.\n", 1)
	write(".rivumi/skills/lint/SKILL.md", "---\ndescription: Run the linter.\n---\n")
	out.waitCount(ctx, t, "reload: skills changed", 1)
	out.waitCount(ctx, t, "- lint: Run the linter.\n", 1)

	// Nothing changes: nothing is printed.
	before := out.String()
	time.Sleep(50 * time.Millisecond) // ten polls
	if after := out.String(); after != before {
		t.Fatalf("output without a change:\n%s", after[len(before):])
	}

	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Watch returned %v after cancel, want nil", err)
		}
	case <-ctx.Done():
		t.Fatal("Watch did not return after its context was cancelled")
	}
}

// P6: events in the json format are one JSON object per line; the first
// build's error is Watch's error.
func TestWatchJSONAndErrors(t *testing.T) {
	f := previewtest.Load(t, "../../testdata/preview/chain.txtar")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	watchCtx, stop := context.WithCancel(ctx)
	out := newSyncBuffer()
	done := make(chan error, 1)
	go func() {
		done <- preview.Watch(watchCtx, 5*time.Millisecond, out,
			preview.Options{Root: f.Root, Dir: filepath.Join(f.Root, "docs"), Machine: previewtest.Machine},
			watchFormat("json"))
	}()
	out.waitCount(ctx, t, `"directory": "docs"`, 1)
	// One rename, not RemoveAll: a poll between RemoveAll's unlink of
	// docs/AGENTS.md and its rmdir of docs saw a missing file, not a
	// missing directory, and the test failed one run in a few hundred.
	if err := os.Rename(filepath.Join(f.Root, "docs"), filepath.Join(t.TempDir(), "docs")); err != nil {
		t.Fatal(err)
	}
	out.waitCount(ctx, t, `{"event":"reload"`, 1)
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(out.String()))
	var first view.Preview
	var ev preview.Event
	if err := dec.Decode(&first); err != nil {
		t.Fatal(err)
	}
	if err := dec.Decode(&ev); err != nil {
		t.Fatal(err)
	}
	if ev.Valid || !strings.Contains(ev.Reason, "no such directory") || ev.Shown != first.Fingerprint || ev.Fingerprint != "" {
		t.Errorf("event %+v", ev)
	}

	err := preview.Watch(context.Background(), time.Millisecond, out, preview.Options{Root: f.Root, Dir: filepath.Join(f.Root, "nope")}, watchFormat("text"))
	if err == nil || !strings.Contains(err.Error(), "no such directory") {
		t.Errorf("Watch on a missing directory: %v", err)
	}
	if err := preview.Watch(context.Background(), 0, out, preview.Options{}, watchFormat("text")); err == nil {
		t.Error("Watch accepts a zero interval")
	}
}

// watchFormat is Watch's options for one of report's preview formats.
func watchFormat(name string) preview.WatchOptions {
	f, _ := report.LookupPreview(name)
	return preview.WatchOptions{
		Write: func(w io.Writer, p *view.Preview) error { return f.Write(w, p, report.Options{}) },
		Event: func(w io.Writer, e preview.Event) error { return f.Event(w, e, report.Options{}) },
	}
}

func withNow(o preview.WatchOptions, now func() time.Time) preview.WatchOptions {
	o.Now = now
	return o
}
