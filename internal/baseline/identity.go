// Package baseline owns check's baseline file (B1–B5): the findings a
// repository has accepted for now, recorded by --write-baseline and read
// by --baseline, so that a run fails only on findings not in it. Its
// identity and counting also tell a change's old findings (B6).
package baseline

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// key is a finding's identity (B2): what it is about, never where in the
// file it is. Two findings with one key are counted, not merged.
type key struct {
	rule, path, agent, hash string
}

// keyOf is f's identity: its rule, path, agent profile and the hash of
// its subject: the one its rule gives, else its message's.
func keyOf(f *lint.Finding) key {
	s := f.Subject
	if s == "" {
		s = f.Message
	}
	return key{rule: f.Rule, path: f.Path, agent: f.Agent, hash: hashOf(f.Rule, f.Agent, subject(s))}
}

// hashOf is the hex of the first 8 bytes of SHA-256 over the rule, the
// agent and the subject: 16 digits keep the file short and collide only
// between findings of one rule on one path, where a collision counts two
// findings as one kind.
func hashOf(rule, agent, subj string) string {
	h := sha256.Sum256([]byte(rule + "\x00" + agent + "\x00" + subj))
	return hex.EncodeToString(h[:8])
}

// subject is a message with every number that stands alone replaced by
// "#": the line, column, byte offset, size or count a message names moves
// with edits that leave the problem as it was (B2). A digit run touching
// a letter, "_" or "+", or after a hyphen after a letter, is part of a
// word or a code point ("UTF-16", "U+2060", "v2", "RL004") and is kept.
func subject(msg string) string {
	var b strings.Builder
	b.Grow(len(msg))
	for i := 0; i < len(msg); {
		c := msg[i]
		if !isDigit(c) {
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(msg) && (isDigit(msg[j]) || msg[j] == '.' && j+1 < len(msg) && isDigit(msg[j+1])) {
			j++
		}
		// "UTF-16": a hyphen after a letter joins the number to the word.
		hyphened := i > 1 && msg[i-1] == '-' && isWord(msg[i-2])
		word := i > 0 && isWord(msg[i-1]) || hyphened || j < len(msg) && isWord(msg[j])
		if word {
			b.WriteString(msg[i:j])
		} else {
			b.WriteByte('#')
		}
		i = j
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isWord is a byte that makes a digit run part of a word: a letter, "_",
// "+" (U+200B), or any byte of a non-ASCII character.
func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '+' || c >= 0x80
}
