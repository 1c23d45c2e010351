package outfile

import (
	"errors"
	"sync"
)

// Temps records the temporary files a run is writing beside their targets
// (Create's, and fix's), so that a run stopped by a signal can remove them
// before it exits (#38.4): left behind, `.report.json.tmp-123` is the next
// `git add -A`'s. The command's signal handler calls Clean; the writers
// record each file from its creation to its rename or removal.
//
// The lock is held while a file is made and while it is renamed: Clean
// either sees a file or runs before it exists, and no file is made or
// renamed into place after it. A nil *Temps records nothing; the zero
// value is ready to use.
type Temps struct {
	// Created, when set, runs after each temporary file is made and
	// recorded, outside the lock: a test blocks in it to signal a run
	// mid-write. nil in every real run.
	Created func(path string)

	mu     sync.Mutex
	next   int
	live   map[int]func() error
	closed bool
}

// ErrStopped is what a write gets once Clean has run: the process is
// exiting on a signal, and nothing more is made or put in place.
var ErrStopped = errors.New("stopped by a signal")

// Track runs create, which creates a temporary file and returns its path
// and how to remove it (through the handle it was made in: a removal
// must not follow a directory swapped for a link, X1), and records the
// file until Done. The id is Done's.
func (t *Temps) Track(create func() (path string, remove func() error, err error)) (int, error) {
	if t == nil {
		_, _, err := create()
		return 0, err
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return 0, ErrStopped
	}
	path, remove, err := create()
	if err != nil {
		t.mu.Unlock()
		return 0, err
	}
	if t.live == nil {
		t.live = map[int]func() error{}
	}
	t.next++
	id := t.next
	t.live[id] = remove
	t.mu.Unlock()
	if t.Created != nil {
		t.Created(path)
	}
	return id, nil
}

// Done runs finish (the rename into place, or the removal) and forgets
// the file id. After Clean, finish does not run: the file is gone.
func (t *Temps) Done(id int, finish func() error) error {
	if t == nil {
		return finish()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return ErrStopped
	}
	delete(t.live, id)
	return finish()
}

// Clean removes every temporary file still recorded and stops the
// registry: a later Track or Done fails with ErrStopped. The targets are
// as they were (a rename that had happened is complete).
func (t *Temps) Clean() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	for id, remove := range t.live {
		remove()
		delete(t.live, id)
	}
}
