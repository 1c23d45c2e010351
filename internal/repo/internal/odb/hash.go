package odb

import "encoding/hex"

// Hash is a Git object id: 20 bytes in a SHA-1 repository, 32 in a SHA-256
// one. The zero Hash stands for "no object"; as a tree it is the empty tree.
// Hash is comparable, so it can be a map key without allocating.
type Hash struct {
	b [32]byte
	n uint8
}

// HashOf returns the Hash with the given raw bytes (20 or 32 of them).
func HashOf(raw []byte) Hash {
	var h Hash
	h.n = uint8(copy(h.b[:], raw))
	return h
}

// ParseHash parses a full hexadecimal object id of 40 (SHA-1) or 64
// (SHA-256) digits.
func ParseHash(s string) (Hash, bool) {
	if len(s) != 40 && len(s) != 64 {
		return Hash{}, false
	}
	var h Hash
	if _, err := hex.Decode(h.b[:len(s)/2], []byte(s)); err != nil {
		return Hash{}, false
	}
	h.n = uint8(len(s) / 2)
	return h, true
}

// Bytes returns the raw id.
func (h Hash) Bytes() []byte { return h.b[:h.n] }

// IsZero reports whether h is the zero Hash (no object).
func (h Hash) IsZero() bool { return h.n == 0 }

// String returns the full hexadecimal id ("" for the zero Hash).
func (h Hash) String() string { return hex.EncodeToString(h.b[:h.n]) }

// Short returns the first 12 hexadecimal digits, for messages.
func (h Hash) Short() string {
	s := h.String()
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
