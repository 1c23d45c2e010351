package report

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// JSONVersion is the version of the JSON output (docs/json.md).
const JSONVersion = 1

// JSON writes the result as one JSON document (docs/json.md): the bytes
// json.Encoder writes with two-space indentation and no HTML escaping,
// streamed one record at a time, so the document is never held whole
// and each record is scanned once.
func JSON(w io.Writer, r *lint.Result, o Options) error {
	s := &jsonStream{w: runnerSafeJSON(w)}
	s.raw([]byte(`{"version":` + strconv.Itoa(JSONVersion) + `,"findings":[`))
	for i, f := range r.Findings {
		if !o.AllDirectories {
			// Capped on a copy: the result is shared by writers.
			f.Directories, f.DirectoriesTotal = capDirs(f.Directories, false)
		}
		s.record(i, f)
	}
	s.raw([]byte(`],"directories":[`))
	for i, d := range r.Directories {
		s.record(i, d)
	}
	s.raw([]byte(`],"drift":[`))
	for i, d := range r.Drift {
		if !o.AllDirectories {
			d.Directories, d.DirectoriesTotal = capDirs(d.Directories, false)
		}
		s.record(i, d)
	}
	if r.Baseline != nil {
		// Only with --baseline or --write-baseline (B3): the document
		// is otherwise as before.
		s.raw([]byte(`],"baseline":`))
		s.record(0, r.Baseline)
		s.raw([]byte(`,"summary":`))
	} else {
		s.raw([]byte(`],"summary":`))
	}
	s.record(0, r.Summary())
	s.raw([]byte("}"))
	s.out = append(s.out, '\n')
	return s.flush()
}

// jsonStream indents compact JSON as it arrives, as json.Indent does with
// no prefix and two spaces, and writes it out between records: a string
// never spans two writes, so runnerSafeJSON sees every "##[" whole.
type jsonStream struct {
	w          io.Writer
	out        []byte
	err        error
	depth      int
	needIndent bool // after '{' or '[': a newline unless the next byte closes it
	inString   bool
	escaped    bool // inside a string, after a backslash
}

// record appends value v, the i-th of its list, as encoding/json marshals
// it (through its MarshalJSON, whose output is compact).
func (s *jsonStream) record(i int, v any) {
	if s.err != nil {
		return
	}
	if i > 0 {
		s.raw([]byte(","))
	}
	var b []byte
	if m, ok := v.(json.Marshaler); ok {
		b, s.err = m.MarshalJSON()
	} else {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		s.err = enc.Encode(v)
		b = buf.Bytes()
	}
	if s.err != nil {
		return
	}
	s.raw(b)
	if len(s.out) >= 64<<10 {
		s.err = s.flush()
	}
}

// raw indents compact JSON text b. Whitespace between tokens is dropped,
// as json.Encoder compacts what a MarshalJSON returns. A string's bytes
// are copied a run at a time, up to its closing quote or an escape.
func (s *jsonStream) raw(b []byte) {
	for i := 0; i < len(b); {
		if s.inString {
			if s.escaped {
				s.out = append(s.out, b[i])
				s.escaped = false
				i++
				continue
			}
			q := bytes.IndexByte(b[i:], '"')
			if q < 0 {
				q = len(b) - i // the string goes on in the next piece
			}
			if bs := bytes.IndexByte(b[i:i+q], '\\'); bs >= 0 {
				s.out = append(s.out, b[i:i+bs+1]...)
				s.escaped = true
				i += bs + 1
				continue
			}
			s.out = append(s.out, b[i:i+q]...)
			i += q
			if i < len(b) {
				s.out = append(s.out, '"')
				s.inString = false
				i++
			}
			continue
		}
		c := b[i]
		i++
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		if s.needIndent && c != '}' && c != ']' {
			s.needIndent = false
			s.depth++
			s.newline()
		}
		switch c {
		case '"':
			s.inString = true
			s.out = append(s.out, c)
		case '{', '[':
			s.needIndent = true
			s.out = append(s.out, c)
		case ',':
			s.out = append(s.out, c)
			s.newline()
		case ':':
			s.out = append(s.out, c, ' ')
		case '}', ']':
			if s.needIndent {
				s.needIndent = false // an empty object or array: {} or []
			} else {
				s.depth--
				s.newline()
			}
			s.out = append(s.out, c)
		default:
			s.out = append(s.out, c)
		}
	}
}

func (s *jsonStream) newline() {
	s.out = append(s.out, '\n')
	for range s.depth {
		s.out = append(s.out, ' ', ' ')
	}
}

// flush writes what is indented so far; only between records.
func (s *jsonStream) flush() error {
	if s.err != nil {
		return s.err
	}
	if len(s.out) > 0 {
		if _, err := s.w.Write(s.out); err != nil {
			return err
		}
		s.out = s.out[:0]
	}
	return nil
}
