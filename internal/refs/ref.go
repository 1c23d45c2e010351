// Package refs finds the references an instruction file makes — relative
// Markdown links, paths in code spans, and make, package-script and just
// commands — and resolves them in one snapshot of the repository (issue 25;
// the grammar and its reasons are in docs/references.md).
//
// It knows nothing of rules, scopes or outputs: Extract reads bytes, Resolve
// reads a Source. A check that compares two snapshots resolves the same Ref
// in each.
package refs

import "fmt"

// Kind is the class of a reference; precision is measured, and a mode
// enabled, per class.
type Kind uint8

const (
	Link   Kind = iota + 1 // a relative Markdown link or image target
	Path                   // a code span holding one path-like token
	Make                   // a target of `make`
	Script                 // a package.json script run by npm, pnpm, yarn or bun
	Just                   // a recipe of `just`
)

// Kinds lists every class, in the order reports show them.
func Kinds() []Kind { return []Kind{Link, Path, Make, Script, Just} }

func (k Kind) String() string {
	switch k {
	case Link:
		return "link"
	case Path:
		return "path"
	case Make:
		return "make"
	case Script:
		return "script"
	case Just:
		return "just"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Ref is one reference and where the file makes it.
type Ref struct {
	Kind Kind
	// Target is what must exist. Link and Path: a slash path relative to
	// the file's directory (or a directory above it), URL-decoded for a
	// link; a link target that starts with "/" is relative to the root,
	// as GitHub reads it; a trailing "/" asks for a directory. Make: the
	// target; Script: the script's name; Just: the recipe, "mod::recipe"
	// for a module's.
	Target string
	// Tool is the command that names a Make, Script or Just reference:
	// "make", "npm", "pnpm", "yarn", "bun" or "just"; "" for paths.
	Tool string
	// Dir is the directory the command runs in, relative to where the
	// file's commands run: make's -C DIR, npm's --prefix, pnpm's -C/--dir,
	// yarn's and bun's --cwd, or a `cd DIR` before it in the same code
	// span or block. Slash-separated, cleaned; "" when none.
	Dir string
	// File is the makefile or justfile named with -f/--file/--justfile,
	// relative like Dir; "" for the default names.
	File string
	// MayBeBinary is set when the runner falls back to a binary of that
	// name when no script has it (`pnpm S`, `yarn [run] S`, `bun run S`):
	// a missing script is then not proof of a broken reference.
	MayBeBinary bool
	// Line and Col (1-based; Col in bytes, as Go tools and reviewdog
	// count) and Offset (0-based) are where the target's text starts.
	Line, Col, Offset int
	// End is the offset just after the target's text: text[Offset:End] is
	// the target as written (before URL decoding, without an anchor,
	// query or ::symbol suffix), the bytes a fix replaces.
	End int
}

// Key is r's identity without its position, for matching the references
// of two versions of a file: a reference a change added is one whose key
// the old version lacks.
func (r Ref) Key() string {
	return fmt.Sprintf("%d\x00%s\x00%s\x00%s\x00%s\x00%t", r.Kind, r.Tool, r.Dir, r.File, r.Target, r.MayBeBinary)
}
