package lint

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// A path is bytes, and a file name need not be UTF-8; a JSON string must
// be, and encoding/json writes each invalid byte as U+FFFD, so two names
// could print the same. Every JSON object with a "path" member therefore
// also has "path_bytes", the exact bytes in base64, when (and only when)
// the path is not valid UTF-8 (docs/json.md).

func (f Finding) MarshalJSON() ([]byte, error) {
	type plain Finding
	f.DirectoriesTotal = max(f.DirectoriesTotal, len(f.Directories))
	// "new" only where the finding was compared with a change's base
	// (B6): the document of the other scopes is as before.
	var isNew *bool
	if f.Base != "" {
		v := !f.Old()
		isNew = &v
	}
	return marshalNoHTML(struct {
		plain
		PathBytes []byte `json:"path_bytes,omitempty"`
		New       *bool  `json:"new,omitempty"`
	}{plain(f), exactPath(f.Path), isNew})
}

func (d Drift) MarshalJSON() ([]byte, error) {
	type plain Drift
	d.DirectoriesTotal = max(d.DirectoriesTotal, len(d.Directories))
	return marshalNoHTML(plain(d))
}

func (d Directory) MarshalJSON() ([]byte, error) {
	type plain Directory
	return marshalNoHTML(struct {
		plain
		PathBytes []byte `json:"path_bytes,omitempty"`
	}{plain(d), exactPath(d.Path)})
}

func (l Layer) MarshalJSON() ([]byte, error) {
	type plain Layer
	return marshalNoHTML(struct {
		plain
		PathBytes []byte `json:"path_bytes,omitempty"`
	}{plain(l), exactPath(l.Path)})
}

func (c LayerChange) MarshalJSON() ([]byte, error) {
	type plain LayerChange
	return marshalNoHTML(struct {
		plain
		PathBytes []byte `json:"path_bytes,omitempty"`
	}{plain(c), exactPath(c.Path)})
}

// exactPath is p's bytes when p is not valid UTF-8, else nil (omitted).
func exactPath(p string) []byte {
	if utf8.ValidString(p) {
		return nil
	}
	return []byte(p)
}

// marshalNoHTML is json.Marshal without HTML escaping: messages quote
// markers such as </rivumi:layer>, which must stay readable (the
// enclosing encoder only compacts what a MarshalJSON returns).
func marshalNoHTML(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}
