package resolve

// SetOverlay makes Read answer for the paths of docs (slash paths relative
// to the root) with the bytes given instead of the bytes on disk: the text
// an editor holds unsaved (X4). The overlay replaces content only. The
// entry's kind still comes from the listing, so a link, a FIFO or a
// directory of that name is judged as it is on disk and never read (C1,
// C3), and the bytes obey the same cap as a file's (C2: at most limit+1 of
// them are handed over, with the full size, so an oversized text is
// rejected as the file would be). docs must not change while the worktree
// is in use.
func (w *Worktree) SetOverlay(docs map[string][]byte) {
	w.mu.Lock()
	w.overlayDocs = docs
	w.mu.Unlock()
}

// readOverlay is Read for a path of the overlay; ok is false for any other.
func (w *Worktree) readOverlay(p string, limit int64) (data []byte, kind Kind, size int64, ok bool) {
	w.mu.Lock()
	doc, ok := w.overlayDocs[p]
	w.mu.Unlock()
	if !ok {
		return nil, Missing, 0, false
	}
	size = int64(len(doc))
	if limit >= 0 && size > limit {
		doc = doc[:limit+1]
	}
	return doc, Regular, size, true
}
