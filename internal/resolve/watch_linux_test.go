package resolve_test

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchOpens reports every open of the given files and directories while
// the returned function has not been called (inotify IN_OPEN/IN_ACCESS):
// C1 says nothing behind a link is ever opened; lstat does not open.
func watchOpens(t *testing.T, paths ...string) func() []string {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Fatalf("inotify_init1: %v (these tests need Linux inotify to prove files are never opened)", err)
	}
	names := map[int32]string{}
	for _, p := range paths {
		wd, err := unix.InotifyAddWatch(fd, p, unix.IN_OPEN|unix.IN_ACCESS|unix.IN_DONT_FOLLOW)
		if err != nil {
			unix.Close(fd)
			t.Fatalf("inotify watch %s: %v", p, err)
		}
		names[int32(wd)] = p
	}
	return func() []string {
		defer unix.Close(fd)
		var opened []string
		buf := make([]byte, 64*1024)
		for {
			n, err := unix.Read(fd, buf)
			if n <= 0 || err != nil {
				return opened
			}
			for off := 0; off+unix.SizeofInotifyEvent <= n; {
				ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
				what := "opened"
				if ev.Mask&unix.IN_ACCESS != 0 {
					what = "read"
				}
				opened = append(opened, names[ev.Wd]+" "+what)
				off += unix.SizeofInotifyEvent + int(ev.Len)
			}
		}
	}
}

func TestWatchOpensSeesOpens(t *testing.T) {
	// The C1 "never opened" assertions above are only as good as the
	// watcher: it must see an ordinary open and read, and not an lstat.
	root := tree(t, map[string]string{"f.md": "x\n", "link": "->f.md"})
	f := filepath.Join(root, "f.md")
	stop := watchOpens(t, f)
	if _, err := os.Lstat(filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if opened := stop(); len(opened) != 0 {
		t.Fatalf("lstat/stat reported as opens: %v", opened)
	}
	stop = watchOpens(t, f)
	if _, err := os.ReadFile(f); err != nil {
		t.Fatal(err)
	}
	if opened := stop(); len(opened) == 0 {
		t.Fatal("the watcher did not see os.ReadFile open the file")
	}
}
