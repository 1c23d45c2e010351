package lint

import "bytes"

// maxExcerpt caps the bytes an excerpt keeps of one line: a minified or
// generated file can hold a megabyte on one line, and the text output
// shows only the part around the column.
const maxExcerpt = 4096

// bytesOf is the content the pass read of the file at path: a file of the
// resolution's chain (a layer, a shadowed or rejected candidate), nil
// when the pass holds no such file.
func (p *pass) bytesOf(path string) []byte {
	if p.res == nil {
		return nil
	}
	for _, l := range p.res.Layers {
		if l.File != nil && l.Path == path {
			data, _ := l.Bytes()
			return data
		}
	}
	for _, d := range p.res.Dirs {
		for _, f := range d.Files {
			if f.Path == path {
				data, _ := f.Bytes()
				return data
			}
		}
	}
	return nil
}

// lineOf is line n (1-based) of data without its line end, at most
// maxExcerpt bytes; "" when data has fewer lines.
func lineOf(data []byte, n int) string {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(data, '\n')
		if j < 0 {
			return ""
		}
		data = data[j+1:]
	}
	if j := bytes.IndexByte(data, '\n'); j >= 0 {
		data = data[:j]
	}
	data = bytes.TrimSuffix(data, []byte("\r"))
	if len(data) > maxExcerpt {
		data = data[:maxExcerpt]
	}
	return string(data)
}
