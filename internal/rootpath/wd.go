package rootpath

import (
	"os"
	"path/filepath"
	"syscall"
)

// Getwd is the working directory as the kernel has it, every link in it
// resolved (#33.6). os.Getwd answers $PWD when that names the same
// directory, so a shell that entered through `via -> real` made the
// answer depend on how the user got there; Codex and Claude Code ask the
// kernel (getcwd) and load real/'s chain. On Windows the system keeps the
// directory as entered, for the agents too.
func Getwd() (string, error) {
	if wd, err := syscall.Getwd(); err == nil && filepath.IsAbs(wd) {
		return wd, nil
	}
	// getcwd failed (a very long path, say): os.Getwd's walk up "..",
	// with the links resolved.
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		return real, nil
	}
	return wd, nil
}

// Abs is filepath.Abs against Getwd: a relative path names what it names
// from the physical working directory, whatever $PWD says.
func Abs(p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if filepath.VolumeName(p) != "" {
		return filepath.Abs(p) // windows: C:x, that drive's working directory
	}
	wd, err := Getwd()
	if err != nil {
		return "", err
	}
	if p != "" && os.IsPathSeparator(p[0]) {
		// windows: \x is on the working directory's drive.
		return filepath.Join(filepath.VolumeName(wd)+string(filepath.Separator), p), nil
	}
	return filepath.Join(wd, p), nil
}
