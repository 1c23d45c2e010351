package preview

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/rivumi/rivumi-lint/internal/agent"
)

// Options say what to preview and from where.
type Options struct {
	Root   string // --root; "" = the Git worktree around the working directory (R1)
	Config string // --config; "" = ROOT/.rivumi-lint.yaml when present
	// Dir is DIR as given on the command line, resolved like check's PATHs
	// (relative to the working directory, refused with ".." or outside the
	// root). "" = the working directory, or the root when the working
	// directory is outside it.
	Dir string
	// UserInstructions is --user-instructions (must exist). "" = Home/RIVUMI.md
	// when that exists, unless NoUser.
	UserInstructions string
	NoUser           bool
	// Memory is --memory (must exist). "" = Home/memory.jsonl when that
	// exists, unless NoMemory.
	Memory   string
	NoMemory bool
	// Project is --project, the memory project key; "" = config project,
	// else the absolute root path (P4).
	Project string
	// Home is Rivumi's home directory; "" = HomeDir(os.Getenv).
	Home string
	// Machine holds the values of the runtime section; zero fields are taken
	// from the machine when the preview is built.
	Machine Machine
	// Agents are the agent profiles to show (--agent, A1); nil keeps the
	// config's.
	Agents []string
	// Env is where the agents find their user files.
	Env agent.Env
}

// Validate says which options exclude each other: NoUser and
// UserInstructions, NoMemory and Memory (--no-user and --user-instructions,
// --no-memory and --memory). The command asks before anything is read;
// Build asks again.
func (o Options) Validate() error {
	if o.NoUser && o.UserInstructions != "" {
		return errors.New("--no-user and --user-instructions exclude each other")
	}
	if o.NoMemory && o.Memory != "" {
		return errors.New("--no-memory and --memory exclude each other")
	}
	return nil
}

// Machine is what the runtime section shows (P5). Tests and goldens inject
// fixed values; MachineFromEnv reads the documented RIVUMI_LINT_* variables.
type Machine struct {
	Now     time.Time // zero: time.Now(); the section shows its date
	OS      string    // "": runtime.GOOS
	Shell   string    // "": $SHELL
	WorkDir string    // "": the absolute path of the previewed directory
}

// Environment variables that inject machine values (docs/preview.md).
const (
	EnvNow     = "RIVUMI_LINT_NOW"     // RFC 3339 time or YYYY-MM-DD date
	EnvOS      = "RIVUMI_LINT_OS"      // replaces runtime.GOOS
	EnvWorkDir = "RIVUMI_LINT_WORKDIR" // replaces the working directory shown
	EnvHome    = "RIVUMI_HOME"         // Rivumi's home (default ~/.rivumi)
)

// MachineFromEnv reads RIVUMI_LINT_NOW, RIVUMI_LINT_OS, RIVUMI_LINT_WORKDIR
// and SHELL. A malformed RIVUMI_LINT_NOW is an error.
func MachineFromEnv(getenv func(string) string) (Machine, error) {
	m := Machine{OS: getenv(EnvOS), Shell: getenv("SHELL"), WorkDir: getenv(EnvWorkDir)}
	if s := getenv(EnvNow); s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t, err = time.Parse(time.DateOnly, s)
		}
		if err != nil {
			return m, fmt.Errorf("%s=%q: want an RFC 3339 time (2006-01-02T15:04:05Z) or a date (2006-01-02)", EnvNow, s)
		}
		m.Now = t
	}
	return m, nil
}

// fill completes m with the machine's own values.
func (m Machine) fill(workDir string) Machine {
	if m.Now.IsZero() {
		m.Now = time.Now()
	}
	if m.OS == "" {
		m.OS = runtime.GOOS
	}
	if m.Shell == "" {
		m.Shell = os.Getenv("SHELL")
	}
	if m.WorkDir == "" {
		m.WorkDir = workDir
	}
	return m
}

// HomeDir returns Rivumi's home directory: $RIVUMI_HOME (made absolute), else
// ~/.rivumi; "" when neither can be known.
func HomeDir(getenv func(string) string) string {
	if h := getenv(EnvHome); h != "" {
		if abs, err := filepath.Abs(h); err == nil {
			return abs
		}
		return h
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".rivumi")
}
