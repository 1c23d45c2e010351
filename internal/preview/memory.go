package preview

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// exists reports whether path has a directory entry; an error other than
// "does not exist" counts as existing, so that the caller reports it.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil || !(errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR))
}
