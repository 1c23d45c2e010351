package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"regexp"
	"sort"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// formatVersion is the format version of the file (B1); another is refused.
const formatVersion = 1

// maxBytes caps the file read: 64 MiB is some 200,000 entries, far above
// a repository that would adopt the check with a baseline.
const maxBytes = 64 << 20

// Baseline is a parsed baseline file: how many findings of each identity
// it accepts.
type Baseline struct {
	counts map[key]int
}

// file is the JSON form (docs/baseline.md): entries sorted by path, rule,
// agent and hash, one object each, so that a change to the accepted
// findings is a reviewable diff.
type file struct {
	Version  int     `json:"version"`
	Findings []entry `json:"findings"`
}

type entry struct {
	Rule  string `json:"rule"`
	Path  string `json:"path"`
	Agent string `json:"agent,omitempty"`
	Hash  string `json:"hash"`
	Count int    `json:"count"`
	// Message is the first such finding's message, for the reviewer of
	// the file; it is not compared (the hash is).
	Message string `json:"message"`
}

var hashRe = regexp.MustCompile(`^[0-9a-f]{16}$`)

// fileError is a baseline file that cannot be used: the command exits 2 with
// it (B5). It names the file, the cause and the fix.
type fileError struct {
	Name string
	Msg  string
	Err  error
}

func (e *fileError) Error() string { return "baseline " + e.Name + ": " + e.Msg }
func (e *fileError) Unwrap() error { return e.Err }

// rewrite is the fix of a file that cannot be used.
func rewrite(name string) string {
	return "write it again with rivumi-lint check --write-baseline " + name
}

// Load reads and parses the baseline file name: a regular file, or a pipe
// (a process substitution, --baseline <(git show main:FILE)). The open
// never blocks (resolve.NonBlockFlags, as the engine opens instruction
// files), and the descriptor's type is checked before anything is read:
// a directory, socket or device (/dev/zero) is refused at once, and a FIFO
// nobody holds open for writing reads as empty, exit 2 at once too (B5).
func Load(name string) (*Baseline, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|resolve.NonBlockFlags, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &fileError{Name: name, Err: err, Msg: "no such file; record the current findings with rivumi-lint check --write-baseline " + name}
		}
		if fi, serr := os.Stat(name); serr == nil && !fi.Mode().IsRegular() && fi.Mode()&fs.ModeNamedPipe == 0 {
			// A socket cannot be opened at all (ENXIO): say what it is.
			return nil, notRegular(name, fi.Mode())
		}
		return nil, &fileError{Name: name, Err: err, Msg: fmt.Sprintf("cannot be read (%v); check its permissions, or %s", unwrapPath(err), rewrite(name))}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &fileError{Name: name, Err: err, Msg: fmt.Sprintf("cannot be read (%v)", unwrapPath(err))}
	}
	pipe := st.Mode()&fs.ModeNamedPipe != 0
	if !st.Mode().IsRegular() && !pipe {
		return nil, notRegular(name, st.Mode())
	}
	// A pipe's reads wait for its writer (Go's poller: the descriptor is
	// non-blocking); with no writer left the read ends at once.
	data, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return nil, &fileError{Name: name, Err: err, Msg: fmt.Sprintf("cannot be read (%v)", unwrapPath(err))}
	}
	if len(data) > maxBytes {
		return nil, &fileError{Name: name, Msg: fmt.Sprintf("is over %d bytes (64 MiB), which is no baseline; %s", maxBytes, rewrite(name))}
	}
	if pipe && len(data) == 0 {
		return nil, &fileError{Name: name, Msg: "is a FIFO or pipe that gave nothing (no program was writing to it when check opened it); name the JSON file --write-baseline wrote, or a process substitution such as <(git show main:FILE)"}
	}
	return parse(name, data)
}

// notRegular is the refusal of a directory, socket or device.
func notRegular(name string, m fs.FileMode) *fileError {
	what := "a directory"
	if n := resolve.ModeNote(m); n != "" {
		what = "a " + n
	} else if !m.IsDir() {
		what = "a special file"
	}
	return &fileError{Name: name, Msg: "is not a regular file (" + what + "); name the JSON file --write-baseline wrote"}
}

// unwrapPath drops the *fs.PathError's path: the message names the file.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// parse parses a baseline file's content; name is for messages only.
// Unknown fields, a wrong version, an entry without rule, path or a hash
// of 16 hex digits, a count below 1, an identity given twice (B1: one
// entry per identity) or counts whose sum overflows are refused: a
// baseline misread would hide findings (two entries of count 2^63-1
// added up wrapped negative, and the known finding was reported new).
func parse(name string, data []byte) (*Baseline, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f file
	if err := dec.Decode(&f); err != nil {
		return nil, &fileError{Name: name, Err: err, Msg: fmt.Sprintf("is not a baseline file (%s); %s", jsonProblem(data, err), rewrite(name))}
	}
	if dec.More() {
		return nil, &fileError{Name: name, Msg: "has more than one JSON value; " + rewrite(name)}
	}
	if f.Version != formatVersion {
		return nil, &fileError{Name: name, Msg: fmt.Sprintf("has version %d; this rivumi-lint reads version %d (a later rivumi-lint wrote it, or it is no baseline): %s", f.Version, formatVersion, rewrite(name))}
	}
	b := &Baseline{counts: make(map[key]int, len(f.Findings))}
	first := make(map[key]int, len(f.Findings))
	total := 0
	for i, e := range f.Findings {
		switch {
		case e.Rule == "" || e.Path == "":
			return nil, &fileError{Name: name, Msg: fmt.Sprintf("findings[%d] has no rule or no path; %s", i, rewrite(name))}
		case !hashRe.MatchString(e.Hash):
			return nil, &fileError{Name: name, Msg: fmt.Sprintf("findings[%d] has hash %q, not 16 hex digits; %s", i, e.Hash, rewrite(name))}
		case e.Count < 1:
			return nil, &fileError{Name: name, Msg: fmt.Sprintf("findings[%d] has count %d; a count is at least 1: %s", i, e.Count, rewrite(name))}
		}
		k := key{e.Rule, e.Path, e.Agent, e.Hash}
		if j, ok := first[k]; ok {
			return nil, &fileError{Name: name, Msg: fmt.Sprintf("findings[%d] repeats the identity (rule, path, agent, hash) of findings[%d]; a baseline has one entry per identity (a merge of two files?): %s", i, j, rewrite(name))}
		}
		if e.Count > math.MaxInt-total {
			// Apply sums what is left into fixed: it must not wrap.
			return nil, &fileError{Name: name, Msg: fmt.Sprintf("findings[%d] has count %d, and the counts add up to more than %d: %s", i, e.Count, math.MaxInt, rewrite(name))}
		}
		first[k], total = i, total+e.Count
		b.counts[k] = e.Count
	}
	return b, nil
}

// jsonProblem says where a decoding error is, as line:column.
func jsonProblem(data []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	case errors.Is(err, io.EOF):
		return "it is empty"
	}
	if off < 0 || off > int64(len(data)) {
		return err.Error()
	}
	// Offset counts the bytes read, the bad one included.
	at := max(off-1, 0)
	line := 1 + bytes.Count(data[:at], []byte("\n"))
	col := int(at) - bytes.LastIndexByte(data[:at], '\n')
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}

// Write writes the baseline of findings to w (B1): every finding counted
// under its identity, sorted; the same findings give the same bytes.
func Write(w io.Writer, findings []lint.Finding) error {
	byKey := map[key]*entry{}
	for i := range findings {
		f := &findings[i]
		k := keyOf(f)
		if e, ok := byKey[k]; ok {
			e.Count++
			if f.Message < e.Message {
				e.Message = f.Message // the same message whatever the order
			}
			continue
		}
		byKey[k] = &entry{Rule: k.rule, Path: k.path, Agent: k.agent, Hash: k.hash, Count: 1, Message: f.Message}
	}
	out := file{Version: formatVersion, Findings: make([]entry, 0, len(byKey))}
	for _, e := range byKey {
		out.Findings = append(out.Findings, *e)
	}
	sort.Slice(out.Findings, func(i, j int) bool {
		a, b := out.Findings[i], out.Findings[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		if a.Agent != b.Agent {
			return a.Agent < b.Agent
		}
		return a.Hash < b.Hash
	})
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	return nil
}
