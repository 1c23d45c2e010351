// Package odb reads Git's object database: pack indexes (v1 and v2) and
// packs, memory-mapped, with offset and reference delta chains of any
// length, and loose objects, from a repository's object directories and
// their alternates. It never writes, never runs git and never fetches:
// an object it cannot find is a *MissingObjectError, never an empty one
// (SPEC §10, F6).
//
// The repo package reads commits, trees and blobs through Store; where it
// does not use this reader (SHA-256 object ids, a repository extension it
// does not know) it puts the git binary behind the same interface.
package odb

// Type is an object type.
type Type uint8

const (
	Commit Type = iota + 1
	Tree
	Blob
	Tag
)

func (t Type) String() string {
	switch t {
	case Commit:
		return "commit"
	case Tree:
		return "tree"
	case Blob:
		return "blob"
	case Tag:
		return "tag"
	}
	return "object"
}

// Store reads objects by id. Size and Read fail with a *MissingObjectError
// when the object is not in the repository, Read with a *WrongTypeError
// when it is of another type than asked for.
type Store interface {
	// Size returns the object's size from its header, without reading or
	// inflating its content (C3: a 2 GiB blob costs nothing).
	Size(h Hash) (int64, error)
	// Read returns the first bytes of the object's content, at most
	// limit+1 of them, and its full size from the header. The object must be
	// of type typ.
	Read(h Hash, typ Type, limit int64) (data []byte, size int64, err error)
	Close() error
}

// IntoReader is an object store that can read into a caller's buffer.
// scratch reports that the returned bytes belong to the caller alone
// (dst's storage or a new allocation): only then may it write to them or
// pass them as dst again. Otherwise they are shared, cached bytes (F1).
type IntoReader interface {
	ReadInto(h Hash, typ Type, limit int64, dst []byte) (data []byte, size int64, scratch bool, err error)
}
