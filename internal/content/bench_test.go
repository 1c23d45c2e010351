package content

import (
	"bytes"
	"testing"
)

// benchInput is 32 KiB (the default max_file_bytes, C3) of instruction-like
// Markdown with some multi-byte text, CRLF line ends and no findings.
func benchInput() []byte {
	line := []byte("- Use `go test ./...` before committing; keep the café's naïve résumé 日本語 — 😀 <b>ok</b>\r\n")
	b := bytes.Repeat(line, 32<<10/len(line)+1)
	return b[:32<<10-1] // keep whole runes: cut inside ASCII
}

func BenchmarkCheckUTF8(b *testing.B) {
	in := benchInput()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if CheckUTF8(in) != nil {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkCheckUTF8InvalidAtEnd(b *testing.B) {
	in := append(benchInput(), 0xFF)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if CheckUTF8(in) == nil {
			b.Fatal("valid")
		}
	}
}

func BenchmarkHiddenChars(b *testing.B) {
	in := benchInput()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, n := HiddenChars(in, 100); n != 0 {
			b.Fatal(n)
		}
	}
}

func BenchmarkMarkers(b *testing.B) {
	in := benchInput()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, n := Markers(in, 100); n != 0 {
			b.Fatal(n)
		}
	}
}

func BenchmarkNormalize(b *testing.B) {
	in := benchInput()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		Normalize(in)
	}
}
