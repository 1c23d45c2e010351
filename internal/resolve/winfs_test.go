package resolve

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// The Windows worktree's decisions, tested here on every platform against
// fakes: what Windows would say about an opened handle, a directory
// listing's bytes, a file that keeps growing (D1, C1–C3).

// TestWinKindReparsePoints checks D1/C1/C2 on Windows: a reparse point that
// names another object (symbolic link, junction) is a link (RL001), never
// a file or directory to open; other reparse points are their own data;
// a handle not on a file system (console, pipe, device) is not regular.
func TestWinKindReparsePoints(t *testing.T) {
	for _, tc := range []struct {
		name string
		fi   winFileInfo
		kind Kind
		note string
	}{
		{"file", winFileInfo{Attrs: 0x20, FileType: winFileTypeDisk}, Regular, ""},
		{"directory", winFileInfo{Attrs: winAttrDirectory, FileType: winFileTypeDisk}, Dir, ""},
		{"file symlink", winFileInfo{Attrs: winAttrReparsePoint, Tag: winTagSymlink}, Symlink, ""},
		{"directory symlink", winFileInfo{Attrs: winAttrReparsePoint | winAttrDirectory, Tag: winTagSymlink}, Symlink, ""},
		{"junction", winFileInfo{Attrs: winAttrReparsePoint | winAttrDirectory, Tag: winTagMountPoint}, Symlink, "junction"},
		{"other name surrogate", winFileInfo{Attrs: winAttrReparsePoint, Tag: 0xA0001234}, Symlink, "0xa0001234"},
		{"unix socket", winFileInfo{Attrs: winAttrReparsePoint, Tag: winTagAFUnix}, Special, "socket"},
		{"deduplicated file", winFileInfo{Attrs: winAttrReparsePoint, Tag: 0x80000013, FileType: winFileTypeDisk}, Regular, ""},
		{"OneDrive folder", winFileInfo{Attrs: winAttrReparsePoint | winAttrDirectory, Tag: 0x9000601A}, Dir, ""},
		{"reparse bit, tag not read", winFileInfo{Attrs: 0x20}, Regular, ""},
		{"console", winFileInfo{FileType: winFileTypeChar}, Special, "character device"},
		{"named pipe", winFileInfo{FileType: winFileTypePipe}, Special, "named pipe"},
		{"device attribute", winFileInfo{Attrs: winAttrDevice}, Special, "device"},
		{"unknown file type", winFileInfo{FileType: 0x8000}, Special, "device"},
	} {
		kind, note := winKind(tc.fi)
		if kind != tc.kind || !strings.Contains(note, tc.note) || tc.note == "" && note != "" {
			t.Errorf("%s: winKind(%+v) = %v %q, want %v %q", tc.name, tc.fi, kind, note, tc.kind, tc.note)
		}
	}
}

// fakeNT is a Windows file system as handleFS sees it: each slash path
// has the information its opened handle gives. It records every open and
// close.
type fakeNT struct {
	objs   map[string]winFileInfo
	opens  []string
	closed int
}

type fakeHandle struct{ path string }

func (f *fakeNT) openRel(dir fakeHandle, name string) (fakeHandle, error) {
	p := name
	if dir.path != "" {
		p = dir.path + "/" + name
	}
	// A link is opened itself (FILE_OPEN_REPARSE_POINT): nothing below it
	// can be reached through it.
	parts := strings.Split(p, "/")
	for i := 1; i < len(parts); i++ {
		if k, _ := winKind(f.objs[strings.Join(parts[:i], "/")]); k == Symlink {
			return fakeHandle{}, errors.New("opened through a link: " + p)
		}
	}
	if _, ok := f.objs[p]; !ok {
		return fakeHandle{}, fs.ErrNotExist
	}
	f.opens = append(f.opens, p)
	return fakeHandle{p}, nil
}

func (f *fakeNT) info(h fakeHandle) (winFileInfo, error) { return f.objs[h.path], nil }

func (f *fakeNT) close(fakeHandle) { f.closed++ }

// TestWalkBeneathStopsAtReparsePoint checks C1 on Windows: a directory is
// opened one component at a time relative to its parent's handle, and the
// first component whose opened handle is a reparse point (junction,
// symlink) ends the walk with a *LinkedDirError naming it; nothing below
// it is opened, every handle the walk opened for itself is closed.
func TestWalkBeneathStopsAtReparsePoint(t *testing.T) {
	dir := winFileInfo{Attrs: winAttrDirectory, FileType: winFileTypeDisk}
	objs := map[string]winFileInfo{
		"a":               dir,
		"a/b":             dir,
		"a/b/c":           dir,
		"a/junction":      {Attrs: winAttrReparsePoint | winAttrDirectory, Tag: winTagMountPoint, FileType: winFileTypeDisk},
		"a/junction/x":    dir,
		"a/link":          {Attrs: winAttrReparsePoint, Tag: winTagSymlink, FileType: winFileTypeDisk},
		"a/file":          {Attrs: 0x20, FileType: winFileTypeDisk},
		"a/OneDrive":      {Attrs: winAttrReparsePoint | winAttrDirectory, Tag: 0x9000601A, FileType: winFileTypeDisk},
		"a/OneDrive/docs": dir,
	}
	root := fakeHandle{}
	for _, tc := range []struct {
		dir    string
		want   string // the opened directory, or the error
		opened []string
	}{
		{"a/b/c", "a/b/c", []string{"a", "a/b", "a/b/c"}},
		{"a/junction/x", "a/junction is a symbolic link", []string{"a", "a/junction"}},
		{"a/link/x", "a/link is a symbolic link", []string{"a", "a/link"}},
		{"a/file/x", fs.ErrNotExist.Error(), []string{"a", "a/file"}},
		{"a/missing", fs.ErrNotExist.Error(), []string{"a"}},
		{"a/OneDrive/docs", "a/OneDrive/docs", []string{"a", "a/OneDrive", "a/OneDrive/docs"}},
		// Names no Windows listing gives: NtCreateFile would walk a `\`
		// itself (past the checks), read `:` as a stream, resolve `..`.
		{`a\junction\x`, fs.ErrNotExist.Error(), nil},
		{"a/b/../junction", fs.ErrNotExist.Error(), []string{"a", "a/b"}},
		{"a/file:secret", fs.ErrNotExist.Error(), []string{"a"}},
		// Nor what NTFS refuses in a name (Wine lists them from a Unix
		// disk, and NtCreateFile then fails with an invalid name).
		{"a/q?", fs.ErrNotExist.Error(), []string{"a"}},
		{"a/star*/x", fs.ErrNotExist.Error(), []string{"a"}},
		{`a/quo"te`, fs.ErrNotExist.Error(), []string{"a"}},
		{"a/lt<gt>", fs.ErrNotExist.Error(), []string{"a"}},
		{"a/pi|pe", fs.ErrNotExist.Error(), []string{"a"}},
		{"a/tab\tname", fs.ErrNotExist.Error(), []string{"a"}},
	} {
		f := &fakeNT{objs: objs}
		h, err := walkBeneath[fakeHandle](f, root, tc.dir)
		got := h.path
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("walk %q = %q, want %q", tc.dir, got, tc.want)
		}
		var le *LinkedDirError
		if strings.Contains(tc.want, "symbolic link") && !errors.As(err, &le) {
			t.Errorf("walk %q: error %T, want *LinkedDirError", tc.dir, err)
		}
		if !slices.Equal(f.opens, tc.opened) {
			t.Errorf("walk %q opened %q, want %q", tc.dir, f.opens, tc.opened)
		}
		if open := len(f.opens) - f.closed; err == nil && open != 1 || err != nil && open != 0 {
			t.Errorf("walk %q: %d opens, %d closes (leaked handles)", tc.dir, len(f.opens), f.closed)
		}
	}
}

// fullDirInfo encodes records as GetFileInformationByHandleEx returns
// them (FILE_FULL_DIR_INFO, 8-byte aligned, the last NextEntryOffset 0).
func fullDirInfo(recs ...struct {
	name  string
	attrs uint32
	ea    uint32
}) []byte {
	var out []byte
	for i, r := range recs {
		u := utf16.Encode([]rune(r.name))
		n := fullDirInfoHeader + 2*len(u)
		size := (n + 7) &^ 7
		b := make([]byte, size)
		if i < len(recs)-1 {
			binary.LittleEndian.PutUint32(b[0:], uint32(size))
		}
		binary.LittleEndian.PutUint64(b[40:], 12345)
		binary.LittleEndian.PutUint32(b[56:], r.attrs)
		binary.LittleEndian.PutUint32(b[60:], uint32(2*len(u)))
		binary.LittleEndian.PutUint32(b[64:], r.ea)
		for j, c := range u {
			binary.LittleEndian.PutUint16(b[fullDirInfoHeader+2*j:], c)
		}
		out = append(out, b...)
	}
	return append(out, 0xde, 0xad) // buffer space after the last record
}

// TestParseFullDirInfo checks the Windows listing (C1): the kind of each
// entry comes from its attributes, and a reparse point's tag from the
// record's EaSize field, so a junction is listed as a link without being
// opened; names are UTF-16 (non-BMP included); "." and ".." are left out;
// a corrupt record is an error, never a shorter listing.
func TestParseFullDirInfo(t *testing.T) {
	type rec = struct {
		name  string
		attrs uint32
		ea    uint32
	}
	b := fullDirInfo(
		rec{".", winAttrDirectory, 0},
		rec{"..", winAttrDirectory, 0},
		rec{"AGENTS.md", 0x20, 0},
		rec{"linked", winAttrDirectory | winAttrReparsePoint, winTagMountPoint},
		rec{"RIVUMI.md", winAttrReparsePoint, winTagSymlink},
		rec{"notes-😀.md", 0x20, 99}, // EaSize is EA length when not a reparse point
		rec{"sub", winAttrDirectory, 0},
	)
	var got []string
	err := parseFullDirInfo(b, func(name string, fi winFileInfo) {
		k, _ := winKind(fi)
		got = append(got, name+" "+k.String())
		if fi.Size != 12345 {
			t.Errorf("%s: size %d, want 12345", name, fi.Size)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"AGENTS.md regular file", "linked symbolic link", "RIVUMI.md symbolic link", "notes-😀.md regular file", "sub directory"}
	if !slices.Equal(got, want) {
		t.Errorf("listing = %q, want %q", got, want)
	}
	for _, bad := range [][]byte{
		b[:30], // short record
		append(fullDirInfo(rec{"a", 0x20, 0})[:60], 0xff, 0xff, 0, 0), // name longer than the buffer
	} {
		if err := parseFullDirInfo(bad, func(string, winFileInfo) {}); err == nil {
			t.Errorf("corrupt listing % x: no error", bad)
		}
	}
}

// TestReadBounded checks C3 on Windows: a file that grows while it is
// read (or lied about its size) still costs at most limit+1 bytes.
func TestReadBounded(t *testing.T) {
	endless := func(b []byte) (int, error) {
		for i := range b {
			b[i] = 'x'
		}
		return len(b), nil
	}
	for _, tc := range []struct{ size, limit int64 }{{0, 100}, {10, 100}, {100, 100}, {5000, 100}} {
		data, err := readBounded(endless, tc.size, tc.limit)
		if err != nil || int64(len(data)) != tc.limit+1 {
			t.Errorf("size %d limit %d: read %d bytes, %v; want %d", tc.size, tc.limit, len(data), err, tc.limit+1)
		}
	}
	src := strings.NewReader("hello")
	data, err := readBounded(src.Read, 5, 100)
	if err != nil || string(data) != "hello" {
		t.Errorf("read %q, %v; want hello", data, err)
	}
	data, err = readBounded(func([]byte) (int, error) { return 0, errors.New("disk gone") }, 5, 100)
	if err == nil || data != nil {
		t.Errorf("a read error gave %q, %v", data, err)
	}
}
