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
	// The encoding is built in one buffer and hashed at once: a whole
	// worktree fingerprints a thousand chains, and five small writes per
	// layer into a hash cost more than the hashing.
	var stack [1024]byte
	b := stack[:0]
	for _, l := range layers {
		b = append(b, l.Scope...)
		b = append(b, 0)
		b = append(b, l.Path...)
		b = append(b, 0)
		b = append(b, l.State...)
		b = append(b, 0)
		b = append(b, l.Reason()...)
		b = append(b, 0)
		if l.Accepted() {
			b = hex.AppendEncode(b, l.Sum[:])
		}
		b = append(b, 0)
	}
	sum := sha256.Sum256(b)
	return FingerprintPrefix + hex.EncodeToString(sum[:])
}

// fingerprintCode is the reason code R8's v1 encoding gives a rejection:
// the id of the rule Rivumi reports its cause under. The codes belong to
// the encoding (rivumi-fp-v1), not to the rules: they never change
// without a new FingerprintPrefix. lint's rule table is where a cause
// becomes a rule; lint's TestRejectionRules checks that the two agree.
var fingerprintCode = [numCauses]string{
	CauseSymlink:          "RL001",
	CauseBehindLink:       "RL001",
	CauseNotRegular:       "RL002",
	CauseOversized:        "RL003",
	CauseNotUTF8:          "RL004",
	CauseCheckoutEncoding: "RL004",
	CauseCheckoutFails:    "RL012",
	CauseUnreadable:       "RL012",
	CauseVanished:         "RL012",
	CauseConflict:         "RL012",
}

// FingerprintCode is c's reason code in the fingerprint (R8); "" for a
// value that is no cause.
func FingerprintCode(c Cause) string {
	if c > 0 && c < numCauses {
		return fingerprintCode[c]
	}
	return ""
}
