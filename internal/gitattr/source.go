package gitattr

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// SourceLoader reads the attributes files of a tree or index source under
// the constraints of instruction files: a symbolic link or anything but a
// regular file is ignored (as Git ignores an in-tree .gitattributes that
// is a link since 2.32), and a file over MaxFileBytes is an error.
func SourceLoader(src resolve.Source) Loader {
	return func(dir string) ([]byte, bool, error) {
		p := path.Join(dir, FileName)
		data, kind, size, err := src.Read(p, MaxFileBytes)
		switch {
		case err != nil && errors.Is(err, fs.ErrNotExist):
			return nil, false, nil
		case err != nil:
			return nil, false, fmt.Errorf("read %s: %w", p, err)
		case kind != resolve.Regular:
			return nil, false, nil
		case data == nil || size > MaxFileBytes:
			return nil, false, fmt.Errorf("%s is %d bytes, over the %d bytes rivumi-lint reads of an attributes file, so what a checkout holds cannot be predicted; split it into the .gitattributes files of subdirectories", p, size, MaxFileBytes)
		}
		return data, true, nil
	}
}

// ReadInfo parses info/attributes of the Git directory commonDir (shared
// by linked worktrees), read by repo.ReadInfoAttributes; nil when there is
// none. Like Git it follows a link there and drops a leading UTF-8
// byte-order mark.
func ReadInfo(commonDir string) (*File, error) {
	data, ok, err := repo.ReadInfoAttributes(commonDir, MaxFileBytes)
	if err != nil || !ok {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	return Parse(repo.InfoAttributes, "", data, true), nil
}

// Source is a tree or index snapshot read as a checkout holds it (F5);
// it is a resolve.Snapshot itself, listing and reading ahead as the one it
// wraps does (the blobs it reads ahead are converted when Read). Read
// gives the blob, unless the attributes committed with it make Git write
// a file the runtime rejects, which Read returns as a *resolve.RejectError:
//
//   - working-tree-encoding other than UTF-8: the checkout is not UTF-8
//     (C4, resolve.CauseCheckoutEncoding), unless the file is empty or
//     pure ASCII in an encoding that keeps ASCII as it is; set but not to
//     a name (true or false), Git cannot check the file out
//     (resolve.CauseCheckoutFails);
//   - eol=crlf that makes the checkout larger than the limit (C3,
//     resolve.CauseOversized).
//
// A filter, and CRLF line ends within the limit, do not reject the file:
// Record tells the caller, which reports them.
type Source struct {
	resolve.Snapshot
	attrs *Checker
	recs  map[string]*Record
}

// Record is what a checkout does to one file that was read and accepted.
type Record struct {
	Conversion
	// CheckoutBytes is the size of the checkout when Git adds CRs (CRLF
	// is true), else the blob's size.
	CheckoutBytes int64
	BlobBytes     int64
	CRLFApplied   bool
}

// NewSource wraps src with the attributes c reads.
func NewSource(src resolve.Snapshot, c *Checker) *Source {
	return &Source{Snapshot: src, attrs: c, recs: map[string]*Record{}}
}

// Record returns what a checkout does to the file at p, when it was read
// and is converted in a way the runtime sees (a filter, CRLF); nil
// otherwise.
func (s *Source) Record(p string) *Record { return s.recs[p] }

// Converts says how a checkout changes the bytes of the file at p, once
// it was read: "" when it writes them as they are. Another agent profile,
// which reads the bytes themselves (A1), then knows they are not these.
func (s *Source) Converts(p string) string {
	r := s.recs[p]
	switch {
	case r == nil:
		return ""
	case r.Filter != nil:
		return "a filter attribute converts it on checkout (" + Describe("filter", r.Filter) + ")"
	case r.CRLFApplied:
		return "Git ends its lines in CRLF on checkout (" + Describe("eol", r.CRLF) + ")"
	}
	return ""
}

// Read implements resolve.Source.
func (s *Source) Read(p string, limit int64) ([]byte, resolve.Kind, int64, error) {
	data, kind, size, err := s.Snapshot.Read(p, limit)
	if err != nil || kind != resolve.Regular || data == nil || int64(len(data)) > limit {
		return data, kind, size, err // the blob alone decides
	}
	cv, err := s.attrs.Conversion(p)
	if err != nil {
		// An attributes file that cannot be read leaves the checkout
		// unknown: the run stops (exit 2), never guesses (F6).
		return nil, resolve.Missing, -1, resolve.Fatal(err)
	}
	if cv.Encoded(data) {
		return nil, kind, size, &resolve.RejectError{Rej: encodingRejection(cv.Encoding)}
	}
	n, crlf := cv.CRLFBytes(data)
	if crlf && n > limit {
		return nil, kind, size, &resolve.RejectError{Rej: &resolve.Rejection{Cause: resolve.CauseOversized, Size: n, Limit: limit,
			Reason: fmt.Sprintf("a checkout of it is %d bytes, over the limit of %d (limits.max_file_bytes): Git ends its lines in CRLF (%s), which adds %d bytes to the %d committed; shorten it, or remove the attribute",
				n, limit, Describe("eol", cv.CRLF), n-int64(len(data)), len(data))}}
	}
	if crlf || cv.Filter != nil {
		s.recs[p] = &Record{Conversion: cv, CheckoutBytes: n, BlobBytes: int64(len(data)), CRLFApplied: crlf}
	}
	return data, kind, size, nil
}

func encodingRejection(v *Value) *resolve.Rejection {
	if v.State != String {
		return &resolve.Rejection{Cause: resolve.CauseCheckoutFails, Reason: fmt.Sprintf(
			"Git cannot check it out: %s, and Git stops with \"true/false are no valid working-tree-encodings\"; remove the attribute, or give it a value such as UTF-8", Describe("working-tree-encoding", v))}
	}
	return &resolve.Rejection{Cause: resolve.CauseCheckoutEncoding, Reason: fmt.Sprintf(
		"Git checks it out encoded as %s, not UTF-8 (%s); remove the attribute for this file (or set working-tree-encoding=UTF-8) so that checkouts keep it in UTF-8",
		v.Text, Describe("working-tree-encoding", v))}
}
