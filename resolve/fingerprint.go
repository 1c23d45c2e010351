package resolve

import (
	"crypto/sha256"
	"encoding/hex"
)

// FingerprintPrefix names the version of the canonical encoding.
const FingerprintPrefix = "rivumi-fp-v1:"

// Fingerprint is R8: a hash of the canonical encoding of a chain. For each
// considered layer in order it encodes scope, path, state, reason code and
// the hex SHA-256 of the bytes (empty for a layer whose bytes are not used:
// shadowed and rejected layers), each field ended by NUL, which no path or
// code can contain. Error texts never enter it, so the worktree, index and
// tree sources agree on the same content.
func Fingerprint(layers []Layer) string {
	h := sha256.New()
	var sum [64]byte
	for _, l := range layers {
		h.Write([]byte(l.Scope))
		h.Write([]byte{0})
		h.Write([]byte(l.Path))
		h.Write([]byte{0})
		h.Write([]byte(l.State))
		h.Write([]byte{0})
		h.Write([]byte(l.Reason()))
		h.Write([]byte{0})
		if l.Accepted() {
			hex.Encode(sum[:], l.Sum[:])
			h.Write(sum[:])
		}
		h.Write([]byte{0})
	}
	return FingerprintPrefix + hex.EncodeToString(h.Sum(nil))
}
