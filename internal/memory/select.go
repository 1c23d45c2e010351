package memory

import (
	"bufio"
	"fmt"
	"io"
)

// Keep is how many selected entries the runtime renders: the last ones.
const Keep = 20

// MaxProblems is how many problems a Selection keeps; the rest are counted.
const MaxProblems = 1000

// readBufSize is the bufio.Reader's buffer; a line longer than this is
// assembled in a separate buffer of at most MaxLineBytes+1 bytes, or counted
// and discarded when it is longer than that.
const readBufSize = 64 << 10

// Selection is what Select found.
type Selection struct {
	Entries      []Entry   // the last Keep selected entries in file order (oldest first)
	Selected     int       // how many entries matched in total
	Lines        int       // lines read
	Problems     []Problem // the first MaxProblems problems, in line order
	MoreProblems int       // problems beyond MaxProblems
}

// slot is one place of the ring buffer of selected entries. Its buffer is
// reused, so keeping the last Keep of a million entries copies bytes but
// allocates nothing per line.
type slot struct {
	line    int
	typ     int
	buf     []byte // text, then project, then created_at
	textEnd int
	projEnd int
	hasProj bool
	hasTime bool
}

type selector struct {
	project string
	maxLine int
	p       parser
	ring    [Keep]slot
	next    int // ring index of the next slot to fill
	sel     Selection
}

// Select reads a memory file from r and returns the entries the model sees
// for the project key project: every valid user_preference plus the
// project_fact and project_preference entries whose "project" equals
// project exactly; of those the last Keep, oldest first. Corrupt lines are
// skipped and reported as Problems; blank lines are skipped silently.
//
// Memory use is bounded whatever r holds (about 1 MiB for the longest
// line plus the Keep kept entries). The error is non-nil only for an I/O
// error of r; the Selection then holds what was read before it.
func Select(r io.Reader, project string) (Selection, error) {
	return selectWith(r, project, readBufSize, MaxLineBytes)
}

// selectWith is Select with the reader's buffer size and the line limit as
// parameters, so that tests can reach the long-line paths with small inputs.
func selectWith(r io.Reader, project string, bufSize, maxLine int) (Selection, error) {
	s := &selector{project: project, maxLine: maxLine}
	br := bufio.NewReaderSize(r, bufSize)
	var (
		long       []byte // a line longer than the reader's buffer, so far
		discarding bool   // the current line is over MaxLineBytes+1: count only
		longN      int    // its length so far
		last       byte   // its last byte so far
	)
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !discarding && len(long)+len(chunk) > maxLine+1 {
				discarding, longN, long = true, len(long), long[:0]
			}
			if discarding {
				longN += len(chunk)
				last = chunk[len(chunk)-1]
			} else {
				if long == nil {
					// One allocation of the limit, not a series of
					// growing copies: a long line costs at most this.
					long = make([]byte, 0, maxLine+1)
				}
				long = append(long, chunk...)
			}
			continue
		}
		eof := err == io.EOF
		if err != nil && !eof {
			return s.result(), fmt.Errorf("memory: reading line %d: %w", s.sel.Lines+1, err)
		}
		if eof && len(chunk) == 0 && len(long) == 0 && !discarding {
			break // the file ended with a newline, or is empty
		}
		body := chunk
		if !eof {
			body = chunk[:len(chunk)-1]
		}
		s.sel.Lines++
		switch {
		case discarding:
			longN += len(body)
			if len(body) > 0 {
				last = body[len(body)-1]
			}
			if last == '\r' {
				longN--
			}
			s.tooLong(longN)
			discarding = false
		case len(long) > 0:
			if n := len(long) + len(body); n > maxLine+1 {
				if body[len(body)-1] == '\r' {
					n--
				}
				s.tooLong(n)
			} else {
				long = append(long, body...)
				s.line(long)
			}
			long = long[:0]
		default:
			s.line(body)
		}
		if eof {
			break
		}
	}
	return s.result(), nil
}

func (s *selector) tooLong(n int) {
	r := reason{code: errTooLong, n: n}
	s.problem(&r, nil)
}

func (s *selector) problem(r *reason, b []byte) {
	if len(s.sel.Problems) < MaxProblems {
		s.sel.Problems = append(s.sel.Problems, Problem{Line: s.sel.Lines, Reason: r.format(b)})
	} else {
		s.sel.MoreProblems++
	}
}

// line handles line number s.sel.Lines, given without its LF.
func (s *selector) line(b []byte) {
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	if len(b) > s.maxLine {
		s.tooLong(len(b))
		return
	}
	p := &s.p
	typ := p.parse(b)
	if typ < 0 {
		if p.r.code != errBlank {
			s.problem(&p.r, b)
		}
		return
	}
	if typ != typeUser && string(p.value1(&p.f[fProject])) != s.project {
		return
	}
	s.sel.Selected++
	sl := &s.ring[s.next]
	s.next = (s.next + 1) % Keep
	sl.line, sl.typ = s.sel.Lines, typ
	sl.buf = p.appendValue(sl.buf[:0], &p.f[fText])
	sl.textEnd = len(sl.buf)
	sl.hasProj = p.f[fProject].n > 0
	if sl.hasProj && typ == typeUser {
		sl.buf = p.appendValue(sl.buf, &p.f[fProject])
	}
	sl.projEnd = len(sl.buf)
	sl.hasTime = p.f[fCreatedAt].n > 0
	if sl.hasTime {
		sl.buf = p.appendValue(sl.buf, &p.f[fCreatedAt])
	}
}

// appendValue appends the decoded value of a string field.
func (p *parser) appendValue(dst []byte, f *field) []byte {
	raw := p.b[f.start:f.end]
	if !f.esc {
		return append(dst, raw...)
	}
	return appendUnescaped(dst, raw)
}

func (s *selector) result() Selection {
	sel := s.sel
	n := min(sel.Selected, Keep)
	if n == 0 {
		return sel
	}
	sel.Entries = make([]Entry, 0, n)
	for k := range n {
		sl := &s.ring[(s.next-n+k+Keep)%Keep]
		e := Entry{
			Line: sl.line,
			Type: typeNames[sl.typ],
			Text: string(sl.buf[:sl.textEnd]),
		}
		switch {
		case sl.typ != typeUser:
			e.Project = s.project
		case sl.hasProj:
			e.Project = string(sl.buf[sl.textEnd:sl.projEnd])
		}
		if sl.hasTime {
			e.CreatedAt = string(sl.buf[sl.projEnd:])
		}
		sel.Entries = append(sel.Entries, e)
	}
	return sel
}
