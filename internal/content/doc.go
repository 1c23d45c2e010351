// Package content inspects the bytes of one instruction file: whether they
// are valid UTF-8 (C4, rule RL004), which characters in them a reviewer
// cannot see (RL010), where they contain the runtime's boundary markers
// (RL008), and what the text looks like once Rivumi has normalised it for
// rendering (P2, and through it RL009 "empty").
//
// Why a package of its own: the same bytes are read from three sources (the
// worktree, the Git index and a commit's tree, R6) and must give the same
// findings and the same rendered text, so the content rules are pure
// functions over []byte with no I/O and no knowledge of where the bytes came
// from. They run on every chosen layer file (up to max_file_bytes, 32 KiB by
// default) but are linear in the input on any size: each is a single pass,
// and none allocates per byte (only per reported finding, and Normalize once
// for its result).
//
// Positions follow Go tools and reviewdog: Line and Column are 1-based and
// the Column counts bytes, not runes or display cells; Offset is the 0-based
// byte offset. LF is the only line terminator (see PosAt).
package content
