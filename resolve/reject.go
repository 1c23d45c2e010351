package resolve

// RejectError is what a Source's Read returns when it knows that the
// runtime will reject the file for a reason the bytes alone do not show:
// a Git source that predicts the checkout (F5) knows that Git writes the
// file in UTF-16, or with more bytes than the limit. The engine records
// Rej as the file's rejection, as it would one of its own (C3, C4).
type RejectError struct{ Rej *Rejection }

func (e *RejectError) Error() string { return e.Rej.Reason }
