package repo

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// indexFile builds a version 2 index with the given paths (all regular
// files) and optional extension data.
func indexFile(paths []string, ext []byte) []byte {
	var b bytes.Buffer
	b.WriteString("DIRC")
	binary.Write(&b, binary.BigEndian, uint32(2))
	binary.Write(&b, binary.BigEndian, uint32(len(paths)))
	for _, p := range paths {
		start := b.Len()
		b.Write(make([]byte, 24))
		binary.Write(&b, binary.BigEndian, uint32(0o100644))
		b.Write(make([]byte, 12))
		b.Write(bytes.Repeat([]byte{0xab}, 20))
		binary.Write(&b, binary.BigEndian, uint16(len(p)))
		b.WriteString(p)
		n := b.Len() - start
		b.Write(make([]byte, (n+8)&^7-n))
	}
	b.Write(ext)
	b.Write(make([]byte, 20)) // checksum (not verified, as Git does not)
	return b.Bytes()
}

// TestIndexNameLengthFromFlags (F3): the decoder takes a path's length
// from the entry's flags only when the NUL after it confirms it; a length
// that is wrong, or 0xFFF (a long path), reads the path up to its NUL, as
// before, with the same entries and tracked directories.
func TestIndexNameLengthFromFlags(t *testing.T) {
	paths := []string{"a/AGENTS.md", "a/b/c.txt", "d"}
	want, _, err := parseIndex(indexFile(paths, nil), 20)
	if err != nil || len(want) != 3 {
		t.Fatalf("parseIndex = %v, %v", want, err)
	}
	// The flags of the second entry: 12 bytes header, then 62 fixed bytes
	// of the first entry, whose 11-byte path pads it to 80.
	const flags = 12 + 80 + 60
	for _, l := range []uint16{0, 4, 8, 10, 0xfff} {
		data := indexFile(paths, nil)
		if got := binary.BigEndian.Uint16(data[flags:]); got != uint16(len(paths[1])) {
			t.Fatalf("flags at %d hold %d, want %d", flags, got, len(paths[1]))
		}
		binary.BigEndian.PutUint16(data[flags:], l)
		got, _, err := parseIndex(data, 20)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("length %#x: got %v, %v; want %v", l, got, err, want)
		}
		for _, win := range []int{1, 13, 1 << 16} {
			s := newIndexScan(true)
			if _, err := scanIndex(bytes.NewReader(data), int64(len(data)), 20, s, win); err != nil || fmt.Sprint(trackedAsMap(s.Tracked, paths)) != "map[a:true a/b:true]" {
				t.Errorf("length %#x, window %d: tracked %v, %v", l, win, trackedAsMap(s.Tracked, paths), err)
			}
		}
	}
}

func TestParseIndexCacheTree(t *testing.T) {
	// Root valid with 2 subtrees: "a" invalid (-1) with one valid subtree
	// "b", and "c" valid.
	h := bytes.Repeat([]byte{1}, 20)
	var tree bytes.Buffer
	tree.WriteString("\x003 2\n")
	tree.Write(h)
	tree.WriteString("a\x00-1 1\n")
	tree.WriteString("b\x001 0\n")
	tree.Write(h)
	tree.WriteString("c\x001 0\n")
	tree.Write(h)
	var ext bytes.Buffer
	ext.WriteString("TREE")
	binary.Write(&ext, binary.BigEndian, uint32(tree.Len()))
	ext.Write(tree.Bytes())
	ents, tail, err := parseIndex(indexFile([]string{"a/b/x", "c/y", "z"}, ext.Bytes()), 20)
	if err != nil {
		t.Fatal(err)
	}
	trees := tail.trees
	if len(ents) != 3 || ents[0].Path != "a/b/x" {
		t.Fatalf("entries %+v", ents)
	}
	if _, ok := trees["a"]; ok || len(trees) != 3 {
		t.Fatalf("cache-tree %v, want \"\", a/b and c (a is invalid)", trees)
	}
	for _, d := range []string{"", "a/b", "c"} {
		if _, ok := trees[d]; !ok {
			t.Errorf("no cache-tree for %q", d)
		}
	}
	// A required extension this package does not know: unreadable, not corrupt.
	var unknown bytes.Buffer
	unknown.WriteString("zzzz")
	binary.Write(&unknown, binary.BigEndian, uint32(0))
	_, _, err = parseIndex(indexFile([]string{"x"}, unknown.Bytes()), 20)
	if _, ok := err.(*unreadableIndexError); !ok {
		t.Fatalf("unknown required extension: %v", err)
	}
}

// FuzzParseIndex: any bytes give entries or an error, never a panic or an
// allocation beyond what the input can describe (§10).
func FuzzParseIndex(f *testing.F) {
	f.Add(indexFile([]string{"AGENTS.md", "a/AGENTS.md"}, nil), false)
	f.Add(indexFile(nil, []byte("TREE\x00\x00\x00\x07\x000 0\n")), false)
	f.Add(indexFile([]string{"x"}, []byte("sdir\x00\x00\x00\x00")), true)
	v4 := indexFile([]string{"abc"}, nil)
	binary.BigEndian.PutUint32(v4[4:], 4)
	f.Add(v4, false)
	f.Fuzz(func(t *testing.T, data []byte, sha256 bool) {
		size := 20
		if sha256 {
			size = 32
		}
		ents, _, err := parseIndex(data, size)
		if err == nil && len(ents) > len(data) {
			t.Fatalf("%d entries from %d bytes", len(ents), len(data))
		}
		// The streaming scan of the worktree check agrees with the full
		// parse on every index the parse accepts, whatever its window.
		for _, win := range []int{1, 13, 1 << 20} {
			s := newIndexScan(true)
			full, serr := scanIndex(bytes.NewReader(data), int64(len(data)), size, s, win)
			if err != nil {
				continue
			}
			if serr != nil {
				t.Fatalf("window %d: parseIndex accepts, scanIndex: %v", win, serr)
			}
			if full {
				continue // a split or sparse index: ScanIndex reads it in full
			}
			kinds, tracked := map[string]resolve.Kind{}, map[string]bool{}
			var paths []string
			for _, e := range ents {
				paths = append(paths, e.Path)
				switch e.Mode {
				case ModeSymlink:
					kinds[e.Path] = resolve.Symlink
				case ModeGitlink:
					kinds[e.Path] = resolve.Submodule
				}
				for d := parentDir(e.Path); d != ""; d = parentDir(d) {
					tracked[d] = true
				}
			}
			if got := trackedAsMap(s.Tracked, paths); fmt.Sprint(kinds) != fmt.Sprint(s.Kinds) || fmt.Sprint(tracked) != fmt.Sprint(got) {
				t.Fatalf("window %d: scan %v %v, parse %v %v", win, s.Kinds, got, kinds, tracked)
			}
			// Without the tracked directories: the same kinds.
			k := newIndexScan(false)
			if _, err := scanIndex(bytes.NewReader(data), int64(len(data)), size, k, win); err != nil || k.Tracked != nil || fmt.Sprint(kinds) != fmt.Sprint(k.Kinds) {
				t.Fatalf("window %d, no tracked: scan %v %v (%v), parse %v", win, k.Kinds, k.Tracked, err, kinds)
			}
		}
	})
}

// FuzzParseTree: tree objects are parsed without panics, and what parses
// has sane names.
func FuzzParseTree(f *testing.F) {
	f.Add([]byte("100644 AGENTS.md\x00" + string(bytes.Repeat([]byte{1}, 20)) + "40000 a\x00" + string(bytes.Repeat([]byte{2}, 20))))
	f.Add([]byte("120000 l\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ents, err := parseTree(data, 20)
		if err != nil {
			return
		}
		sortGit(ents)
		for _, e := range ents {
			if e.Name == "" || bytes.ContainsAny([]byte(e.Name), "/\x00") {
				t.Fatalf("bad name %q", e.Name)
			}
		}
	})
}

// trackedAsMap is t.Has over every directory above paths, the paths
// themselves and names beside both that hold nothing: the map of tracked
// directories the scan once built, to compare with one computed from the
// entries.
func trackedAsMap(t *TrackedDirs, paths []string) map[string]bool {
	out := map[string]bool{}
	probe := func(d string) {
		if t.Has(d) {
			out[d] = true
		}
	}
	for _, p := range paths {
		for d := p; d != ""; d = parentDir(d) {
			for _, q := range []string{d, d + "x", d + "-", d + ".", d + "/", d + "/y", d[:len(d)-1]} {
				probe(q)
			}
		}
	}
	return out
}

// TestTrackedDirsUnsortedIndex (F4): the paths of an index that is not
// sorted (Git writes none, a damaged one may be) still tell the tracked
// directories, through the map it falls back to.
func TestTrackedDirsUnsortedIndex(t *testing.T) {
	for paths, want := range map[*[]string]string{
		{"b/x", "a/y", "a/b/z", "c", "d/e/f/g"}: "map[a:true a/b:true b:true d:true d/e:true d/e/f:true]",
		// Out of order only where the scan backs up ("a/b/z" after
		// "a/b/c/x"): the paths kept stay sorted, and still tell.
		{"a/b/c/x", "a/b/z", "a/b/d/y", "a/q/r", "a/a"}: "map[a:true a/b:true a/b/c:true a/b/d:true a/q:true]",
	} {
		data := indexFile(*paths, nil)
		for _, win := range []int{1, 13, 1 << 16} {
			s := newIndexScan(true)
			if _, err := scanIndex(bytes.NewReader(data), int64(len(data)), 20, s, win); err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(trackedAsMap(s.Tracked, *paths)); got != want {
				t.Errorf("%q, window %d: tracked %s, want %s", *paths, win, got, want)
			}
		}
	}
}

// TestTrackedDirsHas (F4): a directory holds tracked paths exactly when
// one lies below it, whatever sorts between them ("a-b" and "a.b" come
// before "a/" in byte order, "a0" after).
func TestTrackedDirsHas(t *testing.T) {
	paths := []string{"a-b/x", "a.b/y", "a/b/c/d", "a/z", "a0/w", "ab/v", "top"}
	data := indexFile(paths, nil)
	s := newIndexScan(true)
	if _, err := scanIndex(bytes.NewReader(data), int64(len(data)), 20, s, 1<<16); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]bool{"a": true, "a/b": true, "a/b/c": true, "a-b": true, "a.b": true, "a0": true, "ab": true,
		"a/b/c/d": false, "a/z": false, "a/c": false, "top": false, "": false, "b": false, "a/": false, "0": false} {
		if got := s.Tracked.Has(dir); got != want {
			t.Errorf("Has(%q) = %v, want %v", dir, got, want)
		}
	}
	if (*TrackedDirs)(nil).Has("a") {
		t.Error("a nil TrackedDirs holds a directory")
	}
}
