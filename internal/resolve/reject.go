package resolve

import "strconv"

// Cause is what made a chosen file unloadable (C1–C5, F5): a fact about
// the file, not a rule. The engine and the sources say what happened;
// lint's rule table maps each cause to the rule that reports it, and an
// agent that treats a rejection differently maps it differently.
type Cause int

const (
	// CauseSymlink: the entry is a symbolic link, or Git records it as one
	// (mode 120000), even where the checkout holds a plain file (C1).
	CauseSymlink Cause = iota + 1
	// CauseBehindLink: a directory between the root and the entry is a
	// symbolic link (C1); the file was found with lstat, never opened.
	CauseBehindLink
	// CauseNotRegular: a directory, FIFO, socket, device or submodule (C2).
	CauseNotRegular
	// CauseOversized: more than max_file_bytes, as read or as a checkout
	// writes it (C3; F5: CRLF added by Git).
	CauseOversized
	// CauseNotUTF8: the bytes are not valid UTF-8 (C4).
	CauseNotUTF8
	// CauseCheckoutEncoding: the bytes are UTF-8, but a
	// working-tree-encoding attribute makes a checkout write them in
	// another encoding (C4, F5).
	CauseCheckoutEncoding
	// CauseCheckoutFails: Git cannot check the file out at all (a
	// working-tree-encoding attribute of true or false, F5).
	CauseCheckoutFails
	// CauseUnreadable: an I/O error opening or reading it (C5).
	CauseUnreadable
	// CauseVanished: it was gone when it was opened (C5).
	CauseVanished
	// CauseConflict: Git's index holds it unmerged, a merge conflict not
	// resolved (the file holds both sides, or the index no staged text).
	CauseConflict

	numCauses // one more than the last cause
)

// Causes returns every cause, in order.
func Causes() []Cause {
	out := make([]Cause, 0, int(numCauses)-1)
	for c := Cause(1); c < numCauses; c++ {
		out = append(out, c)
	}
	return out
}

var causeNames = [numCauses]string{
	CauseSymlink:          "symlink",
	CauseBehindLink:       "behind-link",
	CauseNotRegular:       "not-regular",
	CauseOversized:        "oversized",
	CauseNotUTF8:          "not-utf8",
	CauseCheckoutEncoding: "checkout-encoding",
	CauseCheckoutFails:    "checkout-fails",
	CauseUnreadable:       "unreadable",
	CauseVanished:         "vanished",
	CauseConflict:         "conflict",
}

// String is the cause's name, for traces and tests; outputs show the rule
// id lint maps it to.
func (c Cause) String() string {
	if c > 0 && c < numCauses {
		return causeNames[c]
	}
	return "cause(" + strconv.Itoa(int(c)) + ")"
}

// RejectError is what a Source's Read returns when it knows that the
// runtime will reject the file for a reason the bytes alone do not show:
// a Git source that predicts the checkout (F5) knows that Git writes the
// file in UTF-16, or with more bytes than the limit. The engine records
// Rej as the file's rejection, as it would one of its own (C3, C4).
type RejectError struct{ Rej *Rejection }

func (e *RejectError) Error() string { return e.Rej.Reason }
