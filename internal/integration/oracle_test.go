package integration

// The oracle of the differential test: a reference resolver, small, slow
// and written from the SPEC text alone (§2 R2–R5, R7, R8; §3 C1–C4;
// docs/json.md, docs/behaviour.md), over nothing but what the git binary
// prints (and, for a PATH of the worktree, what the disk holds:
// diskSnapshot). It shares no code with the engine: where the two disagree, one of
// them is wrong, and the test says where.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// snapshot is one side of a check as git prints it: the non-directory
// entries (files, links, gitlinks) by path, and the set of directories.
type snapshot struct {
	ents  map[string]snapEntry
	dirs  map[string]bool // "" is the root
	blobs map[string][]byte
}

type snapEntry struct{ mode, oid string }

// treeSnapshot reads commit rev with `git ls-tree -r -t -z`.
func treeSnapshot(t *testing.T, dir, rev string) *snapshot {
	t.Helper()
	s := &snapshot{ents: map[string]snapEntry{}, dirs: map[string]bool{"": true}}
	out := gitCmd(t, dir, nil, nil, "ls-tree", "-r", "-t", "-z", "--full-tree", rev)
	for _, rec := range strings.Split(out, "\x00") {
		if rec == "" {
			continue
		}
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			t.Fatalf("git ls-tree: unexpected record %q", rec)
		}
		if f[1] == "tree" {
			s.dirs[p] = true
			continue
		}
		s.ents[p] = snapEntry{f[0], f[2]}
	}
	s.loadBlobs(t, dir)
	return s
}

// indexSnapshot reads the index with `git ls-files -s -z --debug`: stage-0
// entries, less intent-to-add ones (F3: not staged, never a layer), whose
// flag only --debug shows (CE_INTENT_TO_ADD, 1<<29).
func indexSnapshot(t *testing.T, dir string) *snapshot {
	t.Helper()
	s := &snapshot{ents: map[string]snapEntry{}, dirs: map[string]bool{"": true}}
	out := gitCmd(t, dir, nil, nil, "ls-files", "-s", "-z", "--debug")
	for len(out) > 0 {
		rec, rest, ok := strings.Cut(out, "\x00")
		if !ok {
			t.Fatalf("git ls-files --debug: unterminated record %q", out)
		}
		i := strings.Index(rest, "flags: ")
		j := strings.IndexByte(rest[max(i, 0):], '\n')
		if i < 0 || j < 0 {
			t.Fatalf("git ls-files --debug: no flags after %q", rec)
		}
		flags, err := strconv.ParseUint(strings.TrimSpace(rest[i+len("flags: "):i+j]), 16, 32)
		if err != nil {
			t.Fatalf("git ls-files --debug: flags of %q: %v", rec, err)
		}
		out = rest[i+j+1:]
		meta, p, _ := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if len(f) != 3 || f[2] != "0" || flags&(1<<29) != 0 {
			continue
		}
		s.ents[p] = snapEntry{f[0], f[1]}
		for d := pathParent(p); ; d = pathParent(d) {
			s.dirs[d] = true
			if d == "" {
				break
			}
		}
	}
	s.loadBlobs(t, dir)
	return s
}

// loadBlobs reads every blob of the snapshot with `git cat-file --batch`.
func (s *snapshot) loadBlobs(t *testing.T, dir string) {
	t.Helper()
	s.blobs = map[string][]byte{}
	var in bytes.Buffer
	var want []string
	for _, e := range s.ents {
		if e.mode != modeGitlink && s.blobs[e.oid] == nil {
			s.blobs[e.oid] = []byte{}
			want = append(want, e.oid)
			in.WriteString(e.oid + "\n")
		}
	}
	if len(want) == 0 {
		return
	}
	out := gitCmd(t, dir, in.Bytes(), nil, "cat-file", "--batch")
	br := bufio.NewReader(strings.NewReader(out))
	for _, oid := range want {
		hdr, err := br.ReadString('\n')
		f := strings.Fields(hdr)
		if err != nil || len(f) != 3 || f[0] != oid || f[1] != "blob" {
			t.Fatalf("git cat-file --batch: header %q for %s (%v)", hdr, oid, err)
		}
		n, _ := strconv.Atoi(f[2])
		data := make([]byte, n+1)
		if _, err := io.ReadFull(br, data); err != nil {
			t.Fatalf("git cat-file --batch: %s: %v", oid, err)
		}
		s.blobs[oid] = data[:n]
	}
}

// kind is the mode at p without following a link: a non-directory entry's
// mode, modeTree for a directory, "" when there is nothing.
func (s *snapshot) kind(p string) string {
	if p == "" || s.dirs[p] {
		return modeTree
	}
	return s.ents[p].mode
}

// realDir follows p as opening it in a checkout of the snapshot would, every
// link on the way (p included) by its target text, and returns the
// directory it reaches. ok is false when p is no directory there, or a link
// leads out of the snapshot (absolute, or above the root: nothing is known
// of it), or there are more than 40 links (a loop; Linux's limit).
func (s *snapshot) realDir(p string) (string, bool) {
	var comps []string
	if p != "" {
		comps = strings.Split(p, "/")
	}
	cur, hops := "", 0
	for len(comps) > 0 {
		next := pathJoin(cur, comps[0])
		comps = comps[1:]
		switch s.kind(next) {
		case modeTree:
			cur = next
		case modeLink:
			hops++
			target := string(s.blobs[s.ents[next].oid])
			if hops > 40 || target == "" || strings.HasPrefix(target, "/") {
				return "", false
			}
			// A link's text is relative to the directory holding it; the
			// result is walked again from the root.
			parts := append(strings.Split(cur, "/"), strings.Split(target, "/")...)
			var clean []string
			for _, c := range parts {
				switch c {
				case "", ".":
				case "..":
					if len(clean) == 0 {
						return "", false // above the root
					}
					clean = clean[:len(clean)-1]
				default:
					clean = append(clean, c)
				}
			}
			comps = append(clean, comps...)
			cur = ""
		default:
			return "", false
		}
	}
	return cur, true
}

// oracle resolves chains over one snapshot.
type oracle struct {
	s         *snapshot
	cands     []string // R2 priority order
	overrides map[string]bool
	max       int64
}

func newOracle(s *snapshot, maxFileBytes int64) *oracle {
	return &oracle{s: s, cands: genCandidates, max: maxFileBytes,
		overrides: map[string]bool{"RIVUMI.override.md": true, "AGENTS.override.md": true}}
}

func (o *oracle) isCandidate(name string) bool { return contains(o.cands, name) }

// oLayer is a considered layer as docs/json.md shows it, plus its hash.
type oLayer struct {
	path, state, reason string
	bytes               int64
	sum                 string // hex SHA-256 of the bytes, for active and suppressed layers
	override            bool
}

type oChain struct {
	dir    string
	layers []oLayer
	fp     string
}

// exists says whether dir is a directory of a checkout of the snapshot
// (R7: directories that do not exist are skipped).
func (o *oracle) exists(dir string) bool {
	_, ok := o.s.realDir(dir)
	return ok
}

// candidatesIn lists the candidate names that have an entry in the
// directory at logical path dir (links followed, as lstat does), in R2
// priority order, with the entry's mode.
func (o *oracle) candidatesIn(dir string) (names, modes []string) {
	real, ok := o.s.realDir(dir)
	if !ok {
		return nil, nil
	}
	for _, c := range o.cands {
		if k := o.s.kind(pathJoin(real, c)); k != "" {
			names, modes = append(names, c), append(modes, k)
		}
	}
	return names, modes
}

// chain is R3–R5 for dir, which must exist.
func (o *oracle) chain(dir string) oChain {
	var prefixes []string
	prefixes = append(prefixes, "")
	if dir != "" {
		parts := strings.Split(dir, "/")
		for i := range parts {
			prefixes = append(prefixes, strings.Join(parts[:i+1], "/"))
		}
	}
	var layers []oLayer
	linked := false
	for _, x := range prefixes {
		if x != "" && o.s.kind(x) == modeLink {
			linked = true // C1: x and every directory below it sit behind a link
		}
		names, modes := o.candidatesIn(x)
		for i, name := range names {
			p := pathJoin(x, name)
			l := oLayer{path: p, override: o.overrides[name]}
			switch {
			case i > 0:
				l.state, l.reason = "shadowed", pathJoin(x, names[0]) // R2
			case linked, modes[i] == modeLink:
				l.state, l.reason = "rejected", "RL001"
			case modes[i] == modeTree, modes[i] == modeGitlink:
				l.state, l.reason = "rejected", "RL002"
			default:
				data := o.s.blobs[o.s.ents[p].oid]
				switch {
				case int64(len(data)) > o.max:
					l.state, l.reason, l.bytes = "rejected", "RL003", int64(len(data))
				case !utf8.Valid(data):
					l.state, l.reason = "rejected", "RL004"
				default:
					sum := sha256.Sum256(data)
					l.state, l.bytes, l.sum = "active", int64(len(data)), hex.EncodeToString(sum[:])
				}
			}
			layers = append(layers, l)
		}
	}
	// R4: the deepest active override suppresses every active layer above it.
	deepest := -1
	for i, l := range layers {
		if l.state == "active" && l.override {
			deepest = i
		}
	}
	for i := 0; i < deepest; i++ {
		if layers[i].state == "active" {
			layers[i].state, layers[i].reason = "suppressed", layers[deepest].path
		}
	}
	return oChain{dir: dir, layers: layers, fp: fingerprintOf(layers)}
}

// fingerprintOf is R8 as docs/json.md words it: per layer scope, path,
// state, reason and the hex SHA-256 of the bytes (empty for shadowed and
// rejected layers), each followed by NUL; SHA-256 of that, in hex, after
// "rivumi-fp-v1:".
func fingerprintOf(layers []oLayer) string {
	var b bytes.Buffer
	for _, l := range layers {
		for _, f := range []string{"project", l.path, l.state, l.reason, l.sum} {
			b.WriteString(f)
			b.WriteByte(0)
		}
	}
	sum := sha256.Sum256(b.Bytes())
	return "rivumi-fp-v1:" + hex.EncodeToString(sum[:])
}

// holdsCandidate: dir has an entry of a candidate's name (R7).
func (o *oracle) holdsCandidate(dir string) bool {
	names, _ := o.candidatesIn(dir)
	return len(names) > 0
}

// affected is R7 over the changed paths (both sides of every change), with
// the two decisions of docs/behaviour.md and scope.Affected's contract: a
// path below a directory named like a candidate (P/AGENTS.md/x) is a change
// of P's candidate entry; a changed link that leads to a directory is
// resolved itself, as a whole-worktree check lists it; links are listed,
// never descended into, when looking for the directories below P.
func (o *oracle) affected(changed []string) []string {
	set := map[string]bool{}
	var expand []string
	for _, p := range changed {
		set[pathParent(p)] = true
		parts := strings.Split(p, "/")
		for i, c := range parts {
			if o.isCandidate(c) {
				expand = append(expand, strings.Join(parts[:i], "/"))
			}
		}
		if o.s.kind(p) == modeLink && o.exists(p) {
			set[p] = true
		}
	}
	for _, p := range expand {
		set[p] = true
		for d := range o.s.dirs {
			if under(d, p) && o.holdsCandidate(d) {
				set[d] = true
			}
		}
		for q, e := range o.s.ents {
			if e.mode == modeLink && under(q, p) && q != p && o.s.dirs[pathParent(q)] && o.exists(q) && o.holdsCandidate(q) {
				set[q] = true
			}
		}
	}
	var out []string
	for _, d := range sortedKeys(set) {
		if o.exists(d) {
			out = append(out, d)
		}
	}
	return out
}

func under(d, p string) bool {
	return p == "" || d == p || strings.HasPrefix(d, p+"/")
}

// expectation is what one check must print.
type expectation struct {
	dirs  []oChain
	drift map[string][2]string // directory → base and head fingerprints, for chains that changed
}

// expect computes the expectation of a diff-mode check from the base and
// head snapshots and the changed paths. Drift (R9) compares each directory
// with its nearest ancestor that exists at the base (docs/behaviour.md).
func expect(base, head *snapshot, changed []string, maxFileBytes int64) expectation {
	ho, bo := newOracle(head, maxFileBytes), newOracle(base, maxFileBytes)
	x := expectation{drift: map[string][2]string{}}
	for _, d := range ho.affected(changed) {
		c := ho.chain(d)
		x.dirs = append(x.dirs, c)
		b := d
		for !bo.exists(b) {
			b = pathParent(b)
		}
		if bfp := bo.chain(b).fp; bfp != c.fp {
			x.drift[d] = [2]string{bfp, c.fp}
		}
	}
	return x
}

// changedPaths is `git diff --name-only -z --no-renames ARGS`.
func changedPaths(t *testing.T, dir string, args ...string) []string {
	t.Helper()
	out := gitCmd(t, dir, nil, nil, append([]string{"diff", "--name-only", "-z", "--no-renames"}, args...)...)
	var ps []string
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			ps = append(ps, p)
		}
	}
	return ps
}

// The JSON output, as far as the comparison reads it (docs/json.md).
type jsonOut struct {
	Directories []struct {
		Path        string  `json:"path"`
		PathBytes   []byte  `json:"path_bytes"`
		Fingerprint string  `json:"fingerprint"`
		Layers      []jsonL `json:"layers"`
	} `json:"directories"`
	Drift []struct {
		Directories []string `json:"directories"`
		Base        string   `json:"base_fingerprint"`
		Head        string   `json:"head_fingerprint"`
	} `json:"drift"`
}

type jsonL struct {
	Path      string `json:"path"`
	PathBytes []byte `json:"path_bytes"`
	Scope     string `json:"scope"`
	State     string `json:"state"`
	Reason    string `json:"reason"`
	Bytes     int64  `json:"bytes"`
}

func exact(p string, b []byte) string {
	if b != nil {
		return string(b)
	}
	return p
}

// shown is s as a JSON string shows it: each invalid UTF-8 byte as U+FFFD.
func shown(s string) string {
	b, _ := json.Marshal(s)
	var out string
	json.Unmarshal(b, &out)
	return out
}

func displayDir(d string) string {
	if d == "" {
		return "."
	}
	return d
}

func (l oLayer) String() string {
	s := fmt.Sprintf("%q %s", l.path, l.state)
	if l.reason != "" {
		s += " " + strconv.Quote(shown(l.reason)) // docs/json.md: reasons show U+FFFD
	}
	return s + fmt.Sprintf(" %dB", l.bytes)
}

func (l jsonL) String() string {
	s := fmt.Sprintf("%q %s", exact(l.Path, l.PathBytes), l.State)
	if l.Reason != "" {
		s += " " + strconv.Quote(l.Reason)
	}
	return s + fmt.Sprintf(" %dB", l.Bytes)
}

// compare lists every difference between the expectation and a JSON
// output, one line each, worded the same whatever run printed it (so equal
// mismatches of several runs group).
func compare(x expectation, stdout []byte) []string {
	var got jsonOut
	if err := json.Unmarshal(stdout, &got); err != nil {
		return []string{fmt.Sprintf("the output is not JSON: %v", err)}
	}
	var diffs []string
	gotDirs := map[string]int{}
	for i, d := range got.Directories {
		gotDirs[exact(d.Path, d.PathBytes)] = i
	}
	want := map[string]bool{}
	for _, c := range x.dirs {
		want[c.dir] = true
		i, ok := gotDirs[displayDir(c.dir)]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("directory %q missing (R7); expected chain: %v", displayDir(c.dir), c.layers))
			continue
		}
		d := got.Directories[i]
		var gl []string
		for _, l := range d.Layers {
			gl = append(gl, l.String())
		}
		var wl []string
		for _, l := range c.layers {
			wl = append(wl, l.String())
		}
		layersDiffer := strings.Join(gl, "|") != strings.Join(wl, "|")
		for _, l := range d.Layers {
			layersDiffer = layersDiffer || l.Scope != "project"
		}
		if layersDiffer {
			diffs = append(diffs, fmt.Sprintf("directory %q: layers differ (R2-R5, C1-C4)\n      expected %v\n      got      %v", displayDir(c.dir), wl, gl))
		} else if d.Fingerprint != c.fp {
			diffs = append(diffs, fmt.Sprintf("directory %q: same layers, fingerprint %s, expected %s (R8)", displayDir(c.dir), d.Fingerprint, c.fp))
		}
	}
	for _, d := range got.Directories {
		p := exact(d.Path, d.PathBytes)
		if p == "." {
			p = ""
		}
		if !want[p] {
			diffs = append(diffs, fmt.Sprintf("directory %q resolved but not expected (R7)", displayDir(p)))
		}
	}
	// Drift (R9): which directories drifted, and their fingerprints where
	// the group states them.
	wantDrift := map[string][2]string{}
	for d, fps := range x.drift {
		wantDrift[shown(displayDir(d))] = fps
	}
	seen := map[string]bool{}
	for _, g := range got.Drift {
		for _, d := range g.Directories {
			seen[d] = true
			fps, ok := wantDrift[d]
			switch {
			case !ok:
				diffs = append(diffs, fmt.Sprintf("drift: directory %q reported as changed; its chain is the same at the base (R9)", d))
			case g.Base != "" && g.Base != fps[0]:
				diffs = append(diffs, fmt.Sprintf("drift: directory %q base fingerprint %s, expected %s (R9)", d, g.Base, fps[0]))
			case g.Head != "" && g.Head != fps[1]:
				diffs = append(diffs, fmt.Sprintf("drift: directory %q head fingerprint %s, expected %s (R9)", d, g.Head, fps[1]))
			}
		}
	}
	for _, d := range sortedKeys(mapKeys2(wantDrift)) {
		if !seen[d] {
			diffs = append(diffs, fmt.Sprintf("drift: directory %q changed but no drift reported (R9)", d))
		}
	}
	return diffs
}

func mapKeys2(m map[string][2]string) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// diskSnapshot is the worktree on disk under top, as far as the chain of
// dir reads it: every entry of dir and of each directory above it (lstat,
// never following a link; a link's data is its target text), and with
// below everything beneath dir too (for R7's directories beneath a changed
// instruction file; a directory holding a .git entry is listed, never
// descended into: R1). A .git entry is no candidate and left out. It is
// what a runtime started in dir reads (R3 from the root down), ignored and
// untracked files included, and the whole of what a PATH check of the
// worktree reads for dir's chain.
func diskSnapshot(t *testing.T, top, dir string, below bool) *snapshot {
	t.Helper()
	s := &snapshot{ents: map[string]snapEntry{}, dirs: map[string]bool{"": true}, blobs: map[string][]byte{}}
	prefixes := []string{""}
	if dir != "" {
		parts := strings.Split(dir, "/")
		for i := range parts {
			prefixes = append(prefixes, strings.Join(parts[:i+1], "/"))
		}
	}
	for len(prefixes) > 0 {
		x := prefixes[0]
		prefixes = prefixes[1:]
		list, err := os.ReadDir(filepath.Join(top, filepath.FromSlash(x)))
		if err != nil {
			t.Fatalf("the disk oracle: %v", err)
		}
		for _, de := range list {
			p := pathJoin(x, de.Name())
			if de.Name() == ".git" {
				continue
			}
			f := filepath.Join(top, filepath.FromSlash(p))
			fi, err := os.Lstat(f)
			if err != nil {
				t.Fatalf("the disk oracle: %v", err)
			}
			oid := "disk:" + p // a key of blobs, never a Git object id
			switch {
			case fi.IsDir():
				s.dirs[p] = true
				if _, err := os.Lstat(filepath.Join(f, ".git")); below && p != dir && under(p, dir) && err != nil {
					prefixes = append(prefixes, p)
				}
			case fi.Mode()&fs.ModeSymlink != 0:
				target, err := os.Readlink(f)
				if err != nil {
					t.Fatalf("the disk oracle: %v", err)
				}
				s.ents[p], s.blobs[oid] = snapEntry{modeLink, oid}, []byte(target)
			case fi.Mode().IsRegular():
				s.ents[p] = snapEntry{modeFile, oid}
				if contains(genCandidates, de.Name()) {
					data, err := os.ReadFile(f)
					if err != nil {
						t.Fatalf("the disk oracle: %v", err)
					}
					s.blobs[oid] = data
				}
			default:
				t.Fatalf("the disk oracle: %s is neither a directory, a link nor a file (%v)", f, fi.Mode())
			}
		}
	}
	return s
}
