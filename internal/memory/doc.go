// Package memory reads Rivumi's explicit memory and decides which of its
// entries the model sees (SPEC §4 P4).
//
// Explicit memory is an append-only JSON Lines file: every line is one
// object such as
//
//	{"type":"project_fact","text":"CI runs on Go 1.26","project":"/src/app","created_at":"2025-01-02T03:04:05Z"}
//
// The runtime renders the last [Keep] selected entries into the `memory`
// section of the prompt and silently skips a corrupt line. The linter must
// predict both exactly, so this package is the single definition of "valid",
// "selected" and "rendered": [Select] streams the file once, [Render] makes
// the section text, and every corrupt line becomes a [Problem] that rule
// RL013 (memory-corrupt) reports with its line number.
//
// Why the package looks the way it does:
//
//   - The file only grows and is not under our control, so memory use is
//     bounded whatever its size (§9, §10): lines are read with a
//     [bufio.Reader] (never [bufio.Scanner], whose 64 KiB token limit would
//     stop the load); a line over [MaxLineBytes] is read and discarded in
//     chunks and reported with its byte length, never held whole; only the
//     last [Keep] selected entries are kept (a ring buffer); at most
//     [MaxProblems] problems are kept, the rest are counted.
//   - A 1,000,000-line file must select in well under a second (§9). Lines
//     are checked by a small hand-written JSON parser that works on the
//     line's bytes in place and allocates nothing for a valid line; strings
//     are copied only into the ring buffer's reused slots.
//   - On valid UTF-8 the parser's JSON syntax is exactly encoding/json's
//     (escapes, numbers, white space, nesting limit of 10000) and it finds
//     the same fields and values (the last duplicate key wins); the fuzz
//     target FuzzParseLine checks both against encoding/json.
//
// Decisions where P4 is silent (each is tested):
//
//   - Blank lines (empty, or only spaces, tabs and a CR) are skipped
//     silently: they are not a problem and are not entries. They still count
//     in [Selection.Lines] and in line numbers.
//   - Line numbers are 1-based; a final line without a newline counts; a
//     line ending in CRLF is read as if it ended in LF.
//   - The 1 MiB limit applies to the line without its LF and without a CR
//     just before it.
//   - A line that is not valid UTF-8 is corrupt (encoding/json would
//     silently turn the bad bytes into U+FFFD, so the model would see text
//     the author never wrote). For the same reason a \u escape that is an
//     unpaired UTF-16 surrogate (such as "\ud800") anywhere in the line makes
//     the line corrupt.
//   - Keys match exactly and case-sensitively: "Text" is an unknown field
//     and ignored (encoding/json's struct decoding would fold the case).
//     Keys are compared after unescaping, so "t\u0065xt" is "text".
//   - A duplicated known key: the last occurrence gives the value, as with
//     encoding/json, and every occurrence must have the right type (as with
//     encoding/json, which reports a type error for any of them).
//   - null for a known field is a wrong type, not "absent".
//   - "text" must be non-empty: a string of spaces is non-empty and valid.
//     "project" may be any string, "" included (it can only match the
//     project key ""). For user_preference "project" is optional and
//     ignored, but when present it must be a string.
//   - "created_at" must be RFC 3339 §5.6 date-time that Go's time.Parse
//     with time.RFC3339 also accepts: upper-case T and Z, seconds 00–59,
//     an optional fraction '.' followed by digits, an offset Z or ±hh:mm
//     with hh ≤ 23 and mm ≤ 59, and a real calendar date.
//   - Reasons quote offending values with strconv.Quote, cut to 64 bytes,
//     so a hostile line cannot put control characters or megabytes into a
//     report.
package memory
