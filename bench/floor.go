package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// floorSource is the floor of the process-start and files (10) cases: a
// static Go program (built as rivumi-lint is) that does nothing, or only
// reads the file it is given through a 64 KiB buffer, as rivumi-lint's
// index scan does. Nothing rivumi-lint does can start faster than the
// first, nor check one file faster than the second.
const floorSource = `package main

import "os"

func main() {
	if len(os.Args) > 1 {
		f, err := os.Open(os.Args[1])
		if err != nil {
			os.Exit(1)
		}
		buf := make([]byte, 64<<10)
		for {
			if _, err := f.Read(buf); err != nil {
				break
			}
		}
	}
	os.Stdout.WriteString("floor\n")
}
`

// buildFloor builds floorSource into the bench directory and returns the
// program's path.
func (b *bench) buildFloor() (string, error) {
	dir := filepath.Join(b.o.dir, "floor")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module floor\n\ngo 1.22\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(floorSource), 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "floor")
	b.logf("CGO_ENABLED=0 go build -trimpath -o %s (the floor program)", bin)
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=-mod=mod")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build (the floor program): %w", err)
	}
	return bin, nil
}
