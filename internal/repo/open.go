package repo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
	formatcfg "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/rivumi/rivumi-lint/internal/par"
	"github.com/rivumi/rivumi-lint/internal/repo/internal/odb"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Repo is an opened Git repository, read-only (R10): it serves commits'
// trees and the index as engine sources and computes changed paths.
//
// Objects are read by the native object database (repo/internal/odb),
// references through go-git's reference storage, the index by this
// package's decoder, the config with go-git's config parser. Where those
// cannot read a repository (SHA-256 object ids, which go-git's references
// do not take, an extension nothing here knows), Repo reads it with the
// git binary instead and Notes says so; when the git binary is not
// installed either, Open fails naming the cause.
type Repo struct {
	Root   string // the worktree's top level; the Git directory when Bare
	GitDir string // the worktree's Git directory (.git, or .git/worktrees/NAME)
	// Bare says there is no worktree (a bare repository): only commits'
	// trees can be read, never an index.
	Bare      bool
	CommonDir string // where objects and shared refs live (GitDir unless a linked worktree)
	// Format is "sha1" or "sha256" (extensions.objectFormat).
	Format string
	// Backend is "go-git" (the native readers: objects from odb,
	// references through go-git), or "git" when the git binary reads the
	// repository. The value is kept for the notes and tests that name it.
	Backend string

	opts     options
	hashSize int
	objs     objectStore
	refs     *filesystem.Storage // references; nil with the git backend
	stores   []*filesystem.Storage
	shallow  bool
	promisor string // partial clone: the promisor remote, "" otherwise
	notes    []Note
	trees    map[Hash]*treeObj    // the tree objects read, by id
	blobs    map[blobKey]blobRead // readBlobEntry's answers
	// treeLoads counts tree objects read, for tests of the hash-pruned walk.
	treeLoads int
}

// readableExtensions are the repository extensions that change nothing
// this package reads (objects, refs, the index); any other one sends the
// repository to the git binary. worktreeConfig only moves
// some config settings to config.worktree (git sparse-checkout sets it);
// partialClone only says objects may be missing (a missing object is an
// error here, never a shorter answer, §10); preciousObjects forbids
// deleting objects, which is never done here.
var readableExtensions = map[string]bool{
	"noop":            true,
	"noop-v1":         true,
	"worktreeconfig":  true,
	"partialclone":    true,
	"preciousobjects": true,
}

// Open opens the repository whose worktree top level is root (R1), or the
// bare repository at root. Linked worktrees (a .git file) are opened with
// their common directory, as go-git's
// PlainOpenWithOptions{EnableDotGitCommonDir: true} does.
func Open(root string) (*Repo, error) {
	gitDir, err := GitDir(root)
	if err != nil {
		return nil, err
	}
	if sameDir(gitDir, root) {
		return OpenAt("", gitDir)
	}
	return OpenAt(root, gitDir)
}

// OpenAt opens the repository with Git directory gitDir and worktree top
// level top, as Locate found them; top is "" when there is no worktree (a
// bare repository: Bare is set, and Root is the Git directory).
func OpenAt(top, gitDir string) (*Repo, error) {
	root, bare := top, top == ""
	if bare {
		root = gitDir
	}
	r := &Repo{Root: root, GitDir: gitDir, CommonDir: CommonDir(gitDir), Bare: bare, Format: "sha1", hashSize: 20, trees: map[Hash]*treeObj{},
		blobs: map[blobKey]blobRead{}, opts: defaultOptions()}
	if fi, err := os.Stat(r.CommonDir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("the Git directory %s of %s is missing (a linked worktree whose main repository was moved or deleted?); run `git worktree repair` in the main worktree", r.CommonDir, root)
	}
	cfg, err := readGitConfig(filepath.Join(r.CommonDir, "config"))
	if err != nil {
		return nil, err
	}
	why := r.inspect(cfg)
	if fi, err := os.Stat(filepath.Join(r.CommonDir, "shallow")); err == nil && fi.Size() > 0 {
		r.shallow = true
	}
	if why != "" {
		if !HaveGit() {
			return nil, fmt.Errorf("go-git cannot read the repository at %s: %s; the git binary would be used instead, but it is not installed: install git (2.36 or later) and run again", root, why)
		}
		r.Backend = "git"
		r.objs = &catFile{repo: r}
		r.notes = append(r.notes, Info("go-git cannot read this repository (%s); read it with the git binary instead", why))
		return r, nil
	}
	if err := r.openGoGit(); err != nil {
		return nil, err
	}
	return r, nil
}

// inspect reads the format and extensions of the repository config and
// returns why the native readers (odb, go-git's references) cannot read
// the repository, or "".
func (r *Repo) inspect(cfg *formatcfg.Config) string {
	core := cfg.Section("core")
	version := strings.TrimSpace(core.Options.Get("repositoryformatversion"))
	ext := cfg.Section("extensions")
	var unknown []string
	for _, o := range ext.Options {
		key := strings.ToLower(o.Key)
		switch {
		case key == "objectformat":
			r.Format = strings.ToLower(strings.TrimSpace(o.Value))
		case key == "partialclone":
			r.promisor = strings.TrimSpace(o.Value)
		case !readableExtensions[key]:
			unknown = append(unknown, "extensions."+o.Key)
		}
	}
	if r.promisor == "" {
		for _, s := range cfg.Section("remote").Subsections {
			if strings.EqualFold(strings.TrimSpace(s.Options.Get("promisor")), "true") {
				r.promisor = s.Name
			}
		}
	}
	switch version {
	case "", "0", "1":
	default:
		return "core.repositoryFormatVersion = " + version
	}
	switch r.Format {
	case "", "sha1":
		r.Format = "sha1"
	case "sha256":
		r.hashSize = 32
		return "it uses SHA-256 object ids (extensions.objectFormat = sha256), which go-git v5 does not read"
	default:
		return "extensions.objectFormat = " + r.Format
	}
	if len(unknown) > 0 {
		return "it uses " + strings.Join(unknown, ", ") + ", which go-git v5 does not implement"
	}
	return ""
}

func readGitConfig(name string) (*formatcfg.Config, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read Git config: %w", err)
	}
	cfg, err := decodeGitConfig(b)
	if err != nil {
		return nil, fmt.Errorf("read Git config %s: %w", name, err)
	}
	return cfg, nil
}

// decodeGitConfig parses a Git config file as Git reads one: as bytes.
// go-git's parser stops at a byte that is not UTF-8, which Git takes
// anywhere; `git submodule add` of such a path writes it into a section
// header of the superproject's config and into core.worktree of the
// submodule's. Each such byte passes through the parser as a code point of
// the last private-use plane and is turned back into itself after, so
// every name and value holds the file's bytes. A file that already holds
// one of those code points is refused rather than misread.
func decodeGitConfig(b []byte) (*formatcfg.Config, error) {
	escaped := !utf8.Valid(b)
	if escaped {
		var ok bool
		if b, ok = escapeBytes(b); !ok {
			return nil, errConfigEscape
		}
	}
	cfg := formatcfg.New()
	if err := formatcfg.NewDecoder(bytes.NewReader(b)).Decode(cfg); err != nil {
		return nil, err
	}
	if escaped {
		for _, s := range cfg.Sections {
			s.Name = unescapeBytes(s.Name)
			unescapeOptions(s.Options)
			for _, ss := range s.Subsections {
				ss.Name = unescapeBytes(ss.Name)
				unescapeOptions(ss.Options)
			}
		}
	}
	return cfg, nil
}

// errConfigEscape is a config file decodeGitConfig cannot read exactly;
// the git binary can.
var errConfigEscape = errors.New("it is not UTF-8 and holds a code point from U+10FF00 to U+10FFFF, which this reader cannot tell from the bytes it stands for")

// byteEscape is the first code point that stands for a byte of a config
// file that is not UTF-8 (byteEscape+b for byte b).
const byteEscape = 0x10FF00

// escapeBytes replaces each byte of b that is not part of a UTF-8 sequence
// by byteEscape+byte; ok is false when b holds such a code point already.
func escapeBytes(b []byte) (out []byte, ok bool) {
	out = make([]byte, 0, len(b)+len(b)/8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && n == 1:
			out = utf8.AppendRune(out, byteEscape+rune(b[0]))
		case r >= byteEscape:
			return nil, false
		default:
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return out, true
}

// unescapeBytes turns escapeBytes' code points back into their bytes.
func unescapeBytes(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r >= byteEscape }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r >= byteEscape {
			b.WriteByte(byte(r - byteEscape))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func unescapeOptions(opts formatcfg.Options) {
	for _, o := range opts {
		o.Key, o.Value = unescapeBytes(o.Key), unescapeBytes(o.Value)
	}
}

// openGoGit opens the repository for reading without the git binary:
// references through go-git's storage (loose and packed refs, a linked
// worktree's own HEAD), objects with odb.Native. go-git's Repository
// type is not used: it links its transports and checks nothing inspect
// has not checked.
func (r *Repo) openGoGit() error {
	st, err := r.openStorage()
	if err != nil {
		return err
	}
	objs, err := odb.Open(r.objectSearchDirs(), r.hashSize)
	if err != nil {
		closeStores(st)
		return fmt.Errorf("open repository %s: %w", r.Root, err)
	}
	r.Backend = "go-git"
	r.refs = st[0]
	r.stores = st
	r.objs = objs
	return nil
}

// Notes returns what the run should tell the user about how the repository
// was read (a fall-back to the git binary).
func (r *Repo) Notes() []Note { return r.notes }

// Shallow reports whether the repository is a shallow clone.
func (r *Repo) Shallow() bool { return r.shallow }

// Promisor returns the promisor remote of a partial clone, "" otherwise.
func (r *Repo) Promisor() string { return r.promisor }

// Close releases open files and the git processes of the fall-back.
func (r *Repo) Close() error {
	var err error
	if r.objs != nil {
		err = r.objs.Close()
	}
	closeStores(r.stores)
	return err
}

// Head returns the commit HEAD points to; ok is false when HEAD is unborn
// (a repository without commits, or an orphan branch). A detached HEAD is
// its commit.
func (r *Repo) Head() (c Hash, ok bool, err error) {
	if r.refs == nil {
		out, err := r.git(nil, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
		if err != nil {
			if _, serr := r.git(nil, "symbolic-ref", "--quiet", "HEAD"); serr == nil {
				return Hash{}, false, nil
			}
			return Hash{}, false, fmt.Errorf("resolve HEAD: %w", err)
		}
		h, ok := ParseHash(strings.TrimSpace(string(out)))
		if !ok {
			return Hash{}, false, fmt.Errorf("resolve HEAD: git rev-parse printed %q", out)
		}
		return h, true, nil
	}
	ref, err := r.refs.Reference(plumbing.HEAD)
	if err != nil {
		return Hash{}, false, fmt.Errorf("read HEAD: %w", err)
	}
	if ref.Type() == plumbing.SymbolicReference {
		ref, err = storer.ResolveReference(r.refs, plumbing.HEAD)
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return Hash{}, false, nil
		}
		if err != nil {
			return Hash{}, false, fmt.Errorf("resolve HEAD: %w", err)
		}
	}
	rh := ref.Hash()
	h := HashOf(rh[:])
	if _, err := r.CommitTree(h); err != nil {
		return Hash{}, false, err
	}
	return h, true, nil
}

// ResolveCommit turns a revision (a commit id, branch, tag, HEAD~2, …) into
// a commit id. what names the revision's role in messages ("--base").
// A commit that is not in the repository is an error that names the fix,
// shallow clones in particular (§6).
func (r *Repo) ResolveCommit(rev, what string) (Hash, error) {
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\x00\n") {
		return Hash{}, fmt.Errorf("%s %q is not a revision", what, rev)
	}
	if h, ok := ParseHash(rev); ok && (len(h.Bytes()) == r.hashSize) {
		// A full id may name an annotated tag, which Git peels to its
		// commit as it does a tag's name.
		c, err := r.peelCommit(h)
		if err == nil {
			_, err = r.CommitTree(c)
		}
		if err != nil {
			return Hash{}, r.revError(rev, what, err)
		}
		return c, nil
	}
	if r.refs != nil && simpleRevision.MatchString(rev) {
		h, ok, err := r.resolveSimple(rev)
		if err != nil {
			return Hash{}, r.revError(rev, what, err)
		}
		if ok {
			if _, err := r.CommitTree(h); err != nil {
				return Hash{}, r.revError(rev, what, err)
			}
			return h, nil
		}
		// Not a reference: an abbreviated id, or a form only Git knows.
		if !HaveGit() {
			return Hash{}, r.revError(rev, what, fmt.Errorf("unknown revision"))
		}
	}
	out, err := r.git(nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return Hash{}, r.revError(rev, what, fmt.Errorf("unknown revision"))
	}
	h, ok := ParseHash(strings.TrimSpace(string(out)))
	if !ok {
		return Hash{}, r.revError(rev, what, fmt.Errorf("git rev-parse printed %q", out))
	}
	if _, err := r.CommitTree(h); err != nil {
		return Hash{}, r.revError(rev, what, err)
	}
	if r.refs != nil {
		r.notes = append(r.notes, Info("resolved the revision %q with the git binary (%s)", rev, h.Short()))
	}
	return h, nil
}

// simpleRevision is a name followed by ~N and ^N steps: resolveSimple's
// forms. Every other form (@{u}, main@{1}, :/text, abbreviated ids, A...B)
// goes to the git binary.
var simpleRevision = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]*([~^][0-9]*)*$`)

// revParseRules are Git's rules for a short reference name, in order
// (git-rev-parse(1), "SPECIFYING REVISIONS"): the first that exists wins.
var revParseRules = []string{"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"}

// resolveSimple resolves NAME~N^M… when NAME is a reference: ok is false
// when it is not (the caller asks the git binary). Tags are peeled to
// their commit; ~N follows first parents, ^N takes the N-th parent.
// Objects are read with the object store (odb), never through go-git's
// object storage, which would read every pack index whole (see
// odb.Native).
func (r *Repo) resolveSimple(rev string) (Hash, bool, error) {
	name, steps := rev, ""
	if i := strings.IndexAny(rev, "~^"); i >= 0 {
		name, steps = rev[:i], rev[i:]
	}
	var h Hash
	found := false
	if full, ok := ParseHash(name); ok && len(full.Bytes()) == r.hashSize {
		h, found = full, true // a full id (with ~N or ^N: pre-commit's FROM^)
	}
	for i, rule := range revParseRules {
		if found {
			break
		}
		if i == 0 && !strings.HasPrefix(name, "refs/") && strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != "" {
			continue // only full names and HEAD, ORIG_HEAD, FETCH_HEAD… live at the top
		}
		ref, err := storer.ResolveReference(r.refs, plumbing.ReferenceName(fmt.Sprintf(rule, name)))
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			continue
		}
		if err != nil || ref.Type() != plumbing.HashReference {
			return Hash{}, false, nil // let Git read what go-git cannot
		}
		rh := ref.Hash()
		h, found = HashOf(rh[:]), true
		break
	}
	if !found {
		// Not a reference: an abbreviated id is read natively, so the git
		// binary (and its note) is only a real fall-back (§10).
		ah, ok, err := r.resolveAbbrev(name)
		if err != nil || !ok {
			return Hash{}, false, err
		}
		h = ah
	}
	c, err := r.peelCommit(h)
	if err != nil {
		return Hash{}, false, err
	}
	for len(steps) > 0 {
		op := steps[0]
		j := 1
		for j < len(steps) && steps[j] >= '0' && steps[j] <= '9' {
			j++
		}
		n := 1
		if j > 1 {
			if n, err = strconv.Atoi(steps[1:j]); err != nil || n > 1<<20 {
				return Hash{}, false, fmt.Errorf("unknown revision")
			}
		}
		steps = steps[j:]
		if op == '~' {
			for ; n > 0; n-- {
				if c, err = r.parent(c, 1); err != nil {
					return Hash{}, false, err
				}
			}
		} else if n > 0 {
			if c, err = r.parent(c, n); err != nil {
				return Hash{}, false, err
			}
		}
	}
	return c, true, nil
}

// minAbbrev is the shortest abbreviated id Git accepts.
const minAbbrev = 4

// resolveAbbrev resolves an abbreviated object id to the one commit (or
// tag of a commit) whose id starts with it, as `git rev-parse ABBREV^{commit}`
// does: it lists the loose objects of the prefix's fan-out directory and
// reads the prefix's fan-out range of each version 2 pack index, in every
// object directory (alternates included). ok is false when prefix is not
// an abbreviated id, nothing matches, or an index has a layout read only
// by Git (version 1): then the caller asks the git binary. Two commits
// that match are an error that says to give more digits.
func (r *Repo) resolveAbbrev(prefix string) (Hash, bool, error) {
	if len(prefix) < minAbbrev || len(prefix) >= 2*r.hashSize || strings.Trim(prefix, "0123456789abcdef") != "" {
		return Hash{}, false, nil
	}
	var cands []Hash
	for _, dir := range r.objectSearchDirs() {
		loose, _ := os.ReadDir(filepath.Join(dir, prefix[:2]))
		for _, e := range loose {
			if id := prefix[:2] + e.Name(); strings.HasPrefix(id, prefix) {
				if h, ok := ParseHash(id); ok && len(h.Bytes()) == r.hashSize {
					cands = append(cands, h)
				}
			}
		}
		idxs, _ := filepath.Glob(filepath.Join(dir, "pack", "pack-*.idx"))
		for _, idx := range idxs {
			found, ok, err := abbrevInPackIndex(idx, prefix, r.hashSize)
			if err != nil || !ok {
				return Hash{}, false, err
			}
			cands = append(cands, found...)
		}
	}
	var match Hash
	n := 0
	seen := map[Hash]bool{}
	for _, h := range cands {
		if seen[h] {
			continue
		}
		seen[h] = true
		c, err := r.peelCommit(h)
		if err != nil {
			continue // a tree or blob: not what a commit-ish abbreviation names
		}
		if n == 0 || c != match {
			n++
		}
		match = c
	}
	switch {
	case n == 0:
		return Hash{}, false, nil
	case n > 1:
		return Hash{}, false, fmt.Errorf("the abbreviated id %s is ambiguous: %d commits start with it; give more digits or the full id", prefix, n)
	}
	return match, true, nil
}

// abbrevInPackIndex returns the ids in a version 2 pack index (idx) that
// start with prefix, reading only the header, the fan-out table and the
// prefix's range of names. ok is false for another index version.
func abbrevInPackIndex(idx, prefix string, hashSize int) (found []Hash, ok bool, err error) {
	f, err := os.Open(idx)
	if err != nil {
		return nil, false, fmt.Errorf("read pack index: %w", err)
	}
	defer f.Close()
	head := make([]byte, 8+256*4)
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, false, fmt.Errorf("pack index %s is corrupt: %w", idx, err)
	}
	if string(head[:4]) != "\xfftOc" || binary.BigEndian.Uint32(head[4:8]) != 2 {
		return nil, false, nil
	}
	first, err := strconv.ParseUint(prefix[:2], 16, 8)
	if err != nil {
		return nil, false, nil
	}
	fan := func(i int) int64 { return int64(binary.BigEndian.Uint32(head[8+4*i:])) }
	lo, hi := int64(0), fan(int(first))
	if first > 0 {
		lo = fan(int(first) - 1)
	}
	if hi < lo || hi-lo > 1<<24 {
		return nil, false, fmt.Errorf("pack index %s is corrupt: bad fan-out table", idx)
	}
	names := make([]byte, (hi-lo)*int64(hashSize))
	if _, err := f.ReadAt(names, int64(len(head))+lo*int64(hashSize)); err != nil {
		return nil, false, fmt.Errorf("pack index %s is corrupt: %w", idx, err)
	}
	for i := 0; i+hashSize <= len(names); i += hashSize {
		h := HashOf(names[i : i+hashSize])
		if strings.HasPrefix(h.String(), prefix) {
			found = append(found, h)
		}
	}
	return found, true, nil
}

// peelCommit follows annotated tags to the commit they name.
func (r *Repo) peelCommit(h Hash) (Hash, error) {
	for range 16 {
		_, _, err := r.objs.Read(h, odb.Commit, 0)
		var wt *odb.WrongTypeError
		if !errors.As(err, &wt) {
			return h, err
		}
		if wt.Got != "tag" {
			return Hash{}, fmt.Errorf("%s is a %s, not a commit", h.Short(), wt.Got)
		}
		data, _, err := r.objs.Read(h, odb.Tag, 1<<20)
		if err != nil {
			return Hash{}, err
		}
		line, _, _ := bytes.Cut(data, []byte{'\n'})
		id, ok := bytes.CutPrefix(line, []byte("object "))
		next, okh := ParseHash(string(id))
		if !ok || !okh {
			return Hash{}, fmt.Errorf("tag %s is corrupt: no object line", h.Short())
		}
		h = next
	}
	return Hash{}, fmt.Errorf("tag %s: too many nested tags", h.Short())
}

// parent returns the n-th parent (1-based) of commit c.
func (r *Repo) parent(c Hash, n int) (Hash, error) {
	data, _, err := r.objs.Read(c, odb.Commit, 1<<20)
	if err != nil {
		return Hash{}, r.objectError(err, c, "")
	}
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if len(line) == 0 {
			break // the end of the header
		}
		if id, ok := bytes.CutPrefix(line, []byte("parent ")); ok {
			if n--; n == 0 {
				p, ok := ParseHash(string(id))
				if !ok {
					return Hash{}, fmt.Errorf("commit %s is corrupt: bad parent %q", c.Short(), id)
				}
				return p, nil
			}
		}
	}
	return Hash{}, fmt.Errorf("unknown revision: commit %s has no such parent", c.Short())
}

// revError explains a revision that cannot be used.
func (r *Repo) revError(rev, what string, cause error) error {
	if r.shallow {
		return &MissingCommitError{Rev: rev, What: what, Shallow: true, Cause: cause}
	}
	var me *MissingObjectError
	if errors.As(cause, &me) {
		return &MissingCommitError{Rev: rev, What: what, Cause: cause}
	}
	if id, full := fullID(rev); full {
		return fmt.Errorf("%s %s: %v: not a commit in this repository. Fix: check the id, or fetch it with `git fetch origin %s`", what, rev, cause, id)
	}
	return fmt.Errorf("%s %s: %v: not a commit in this repository. Fix: check the name, or fetch the branches and tags that hold it with `git fetch origin`", what, rev, cause)
}

// fullID reports whether rev is a full object id; a message suggests
// `git fetch origin ID` only then, since a fetch takes no abbreviated id
// nor HEAD~N (SPEC §11: a suggested command works as printed).
func fullID(rev string) (string, bool) {
	h, ok := ParseHash(strings.ToLower(rev))
	if !ok {
		return "", false
	}
	return h.String(), true
}

// MissingCommitError is a revision whose commit is not in the repository.
type MissingCommitError struct {
	Rev, What string
	Shallow   bool
	Cause     error
}

// Error says what is missing and gives one fix, a command that works as
// printed: full object ids only.
func (e *MissingCommitError) Error() string {
	cause := ""
	var mo *MissingObjectError
	switch {
	case errors.As(e.Cause, &mo) && mo.Promisor != "":
		return fmt.Sprintf("%s %s: %v", e.What, e.Rev, e.Cause) // the partial clone's own fix
	case errors.As(e.Cause, &mo):
		cause = " (object " + mo.Hash.String() + " is missing)"
	case e.Cause != nil:
		cause = " (" + e.Cause.Error() + ")"
	}
	id, full := fullID(e.Rev)
	if e.Shallow {
		fix := "fetch the whole history with `git fetch --unshallow origin` (actions/checkout: `fetch-depth: 0`)"
		if full {
			fix = "fetch that commit with `git fetch --depth=1 origin " + id + "`, or the whole history (actions/checkout: `fetch-depth: 0`)"
		}
		return fmt.Sprintf("%s %s is not in this shallow clone%s: a clone made with --depth, such as actions/checkout's default fetch-depth: 1, holds only the newest commits. Fix: %s", e.What, e.Rev, cause, fix)
	}
	fix := "fetch the branches and tags that hold it with `git fetch origin`"
	if full {
		fix = "fetch it with `git fetch origin " + id + "`"
	}
	return fmt.Sprintf("%s %s: the commit is not in this repository%s. Fix: %s", e.What, e.Rev, cause, fix)
}

func (e *MissingCommitError) Unwrap() error { return e.Cause }

// CommitTree returns the tree of commit c.
func (r *Repo) CommitTree(c Hash) (Hash, error) {
	data, _, err := r.objs.Read(c, odb.Commit, 4096)
	if err != nil {
		return Hash{}, r.objectError(err, c, "")
	}
	line, _, _ := bytes.Cut(data, []byte{'\n'})
	hexID, ok := bytes.CutPrefix(line, []byte("tree "))
	if !ok {
		return Hash{}, fmt.Errorf("commit %s is corrupt: no tree line", c.Short())
	}
	t, ok := ParseHash(string(hexID))
	if !ok || len(t.Bytes()) != r.hashSize {
		return Hash{}, fmt.Errorf("commit %s is corrupt: bad tree id %q", c.Short(), hexID)
	}
	return t, nil
}

// CommitParents returns the parents of commit c, first parent first. The
// parents' objects need not be present (a shallow clone lists them too).
func (r *Repo) CommitParents(c Hash) ([]Hash, error) {
	data, _, err := r.objs.Read(c, odb.Commit, 1<<20)
	if err != nil {
		return nil, r.objectError(err, c, "")
	}
	var out []Hash
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if len(line) == 0 {
			break // the end of the header
		}
		hexID, ok := bytes.CutPrefix(line, []byte("parent "))
		if !ok {
			continue
		}
		p, ok := ParseHash(string(hexID))
		if !ok || len(p.Bytes()) != r.hashSize {
			return nil, fmt.Errorf("commit %s is corrupt: bad parent id %q", c.Short(), hexID)
		}
		out = append(out, p)
	}
	return out, nil
}

// maxTreeBytes caps one tree object; Git's largest real trees are a few MiB.
const maxTreeBytes = 256 << 20

// treeObj is one tree object as far as it was needed: its content, its
// parsed entries, its listing for the engine. One map holds them all.
type treeObj struct {
	raw    []byte
	ents   []TreeEntry
	parsed bool
	listed []resolve.Entry
}

// treeEntries returns the parsed entries of tree h (none for the zero
// Hash), sorted in Git's order. dir names the tree in messages.
func (r *Repo) treeEntries(h Hash, dir string) ([]TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	o, err := r.tree(h, dir)
	if err != nil {
		return nil, err
	}
	if !o.parsed {
		ents, err := parseTree(o.raw, r.hashSize)
		if err != nil {
			return nil, fmt.Errorf("tree %s (%s/): %w", h.Short(), dir, err)
		}
		sortGit(ents)
		o.ents, o.parsed = ents, true
	}
	return o.ents, nil
}

// tree returns tree h (not the zero Hash), read once per run.
func (r *Repo) tree(h Hash, dir string) (*treeObj, error) {
	if o, ok := r.trees[h]; ok {
		return o, nil
	}
	data, err := r.readSharedTree(h, dir)
	if err != nil {
		return nil, err
	}
	o := &treeObj{raw: data}
	r.trees[h] = o
	return o, nil
}

// readTree reads tree h, into dst's storage when it is large enough.
// scratch reports that the bytes are the caller's alone (dst's storage or
// a new allocation), which it may overwrite later; otherwise they are
// cached object bytes (a delta base), read-only for everybody (F1).
func (r *Repo) readTree(h Hash, dir string, dst []byte) (data []byte, scratch bool, err error) {
	r.treeLoads++
	var size int64
	if ir, ok := r.objs.(odb.IntoReader); ok {
		data, size, scratch, err = ir.ReadInto(h, odb.Tree, maxTreeBytes, dst)
	} else {
		// Another store may keep what it returns: never scratch.
		data, size, err = r.objs.Read(h, odb.Tree, maxTreeBytes)
	}
	data, err = r.checkTree(h, dir, data, size, err)
	return data, scratch, err
}

// readSharedTree reads tree h for the run's cache of trees, which nobody
// writes to: the object store may share the bytes with its own cache of
// delta bases, so that the other side of a diff, most often a delta of
// this tree or its base, does not inflate them again.
func (r *Repo) readSharedTree(h Hash, dir string) ([]byte, error) {
	objs, ok := r.objs.(*odb.Native)
	if !ok {
		data, _, err := r.readTree(h, dir, nil)
		return data, err
	}
	r.treeLoads++
	data, size, err := objs.ReadShared(h, odb.Tree, maxTreeBytes)
	return r.checkTree(h, dir, data, size, err)
}

// checkTree is the error of a tree read, if any.
func (r *Repo) checkTree(h Hash, dir string, data []byte, size int64, err error) ([]byte, error) {
	if err != nil {
		return nil, r.objectError(err, h, dir+"/")
	}
	if size > maxTreeBytes {
		return nil, fmt.Errorf("tree %s (%s/) is %d bytes, over the limit of %d", h.Short(), dir, size, maxTreeBytes)
	}
	return data, nil
}

// options are how a Repo reads, as opposed to what it reads: OpenAt sets
// defaultOptions, and a test changes the field of the Repo it opened (or
// passes its own to scanIndexOf) instead of a package variable (#22).
type options struct {
	// parallelism is how many goroutines read objects at once:
	// GOMAXPROCS when the repository is opened; tests set 1 or 2 to
	// exercise the serial and the parallel paths (F1).
	parallelism int
	// scanWindow is the index scan's initial window (tests shrink it to
	// exercise refills and growth).
	scanWindow int
	// indexFallback makes readIndex use the git binary for every index
	// (tests compare the fall-back with the native reader on each layout).
	indexFallback bool
}

// defaultOptions are the options of every Repo this package's callers
// open.
func defaultOptions() options {
	return options{parallelism: runtime.GOMAXPROCS(0), scanWindow: scanWindow}
}

// loadTrees reads and parses, on several goroutines, the trees of hs that
// are not read yet, and caches them. A tree that cannot be read is left
// for the reader that needs it, which reports the error with its path: the
// results never depend on this prefetch.
//
// With pairs, hs[2i] and hs[2i+1] are the two sides of one directory of a
// diff (either may be zero): one goroutine reads both, one after the
// other, so that the second finds in the base cache what the first
// inflated (most often one is a delta of the other, or both of one base).
func (r *Repo) loadTrees(hs []Hash, pairs bool) {
	objs, ok := r.objs.(*odb.Native)
	if !ok || r.opts.parallelism < 2 {
		return
	}
	group := 1
	if pairs {
		group = 2
	}
	// todo keeps hs's groups; a hash read already, or met before, or zero,
	// becomes zero.
	todo := make([]Hash, len(hs))
	seen := make(map[Hash]bool, len(hs))
	n := 0
	for i, h := range hs {
		if h.IsZero() || seen[h] {
			continue
		}
		seen[h] = true
		if _, ok := r.trees[h]; !ok {
			todo[i] = h
			n++
		}
	}
	if n < 4 {
		// Not worth the goroutines, but read all the same: the prefetch
		// takes its next level from what is cached (the root pair of a
		// diff is two trees). Errors are left to the reader, as below.
		for _, h := range todo {
			if !h.IsZero() {
				r.tree(h, "")
			}
		}
		return
	}
	objsOut := make([]*treeObj, len(todo))
	par.Each(r.opts.parallelism, (len(todo)+group-1)/group, func(g int) {
		for i := g * group; i < min((g+1)*group, len(todo)); i++ {
			if todo[i].IsZero() {
				continue
			}
			data, size, err := objs.ReadShared(todo[i], odb.Tree, maxTreeBytes)
			if err != nil || size > maxTreeBytes {
				continue
			}
			ents, err := parseTree(data, r.hashSize)
			if err != nil {
				continue
			}
			sortGit(ents)
			objsOut[i] = &treeObj{raw: data, ents: ents, parsed: true}
		}
	})
	for i, h := range todo {
		if objsOut[i] != nil {
			r.trees[h] = objsOut[i]
			r.treeLoads++
		}
	}
}

// treeScratch is the content of tree h for a walk that scans many trees
// once: read into dst's storage when it is not cached. scratch reports
// bytes the caller may reuse as its buffer (valid only until it does);
// the bytes of a cached tree never are, since entry names of parsed trees
// point into them (F1: cached object bytes are never scratch space).
// keepTree caches the content.
func (r *Repo) treeScratch(h Hash, dir string, dst []byte) (data []byte, scratch bool, err error) {
	if o, ok := r.trees[h]; ok {
		return o.raw, false, nil
	}
	return r.readTree(h, dir, dst)
}

// cachedRaw is the content of tree h when it is cached (read-only; the
// parallel walks call it while the map is not written).
func (r *Repo) cachedRaw(h Hash) ([]byte, error) {
	if o, ok := r.trees[h]; ok {
		return o.raw, nil
	}
	return nil, nil
}

// keepTree caches the content of tree h that treeScratch returned: a copy
// when it is the walk's scratch, which the walk overwrites next.
func (r *Repo) keepTree(h Hash, data []byte, scratch bool) {
	if _, ok := r.trees[h]; !ok {
		if scratch {
			data = bytes.Clone(data)
		}
		r.trees[h] = &treeObj{raw: data}
	}
}

// objectError explains an object that cannot be read: a missing object
// names the kind of repository that explains it and the fix (§10).
func (r *Repo) objectError(err error, h Hash, p string) error {
	var me *MissingObjectError
	if !errors.As(err, &me) {
		if p != "" {
			return fmt.Errorf("read object %s (%s): %w", h.Short(), p, err)
		}
		return err
	}
	me.Path = p
	me.Root = r.Root
	me.Promisor = r.promisor
	me.Shallow = r.shallow
	return me
}

// MissingObjectError is an object the repository does not hold
// (odb.MissingObjectError); objectError fills in what the repository
// knows about why.
type MissingObjectError = odb.MissingObjectError

// git runs the git binary in the worktree and returns its standard output.
// stdin may be nil.
func (r *Repo) git(stdin []byte, args ...string) ([]byte, error) {
	return r.run(r.gitCommand(args...), stdin)
}

// run runs a git command made by gitCommandIndex and returns its standard
// output; an error carries git's message.
func (r *Repo) run(cmd *exec.Cmd, stdin []byte) ([]byte, error) {
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		sub := "git"
		if len(cmd.Args) > 1 {
			sub += " " + cmd.Args[1]
		}
		msg := strings.TrimSpace(stderr.String())
		if msg != "" {
			return out, fmt.Errorf("%s: %v: %s", sub, err, msg)
		}
		return out, fmt.Errorf("%s: %w", sub, err)
	}
	return out, nil
}

// gitCommand prepares git ARGS for this repository (GitCommand).
func (r *Repo) gitCommand(args ...string) *exec.Cmd { return GitCommand(r.Root, r.GitDir, args...) }
