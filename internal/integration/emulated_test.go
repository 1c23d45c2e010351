package integration

// The emulated lanes of issue #27: the windows/amd64 build run under Wine
// and the linux/arm64 build under qemu-user, on this Linux machine
// (docs/platforms.md). This file sets them up: the cross-built binaries, a
// scratch Wine prefix with the ProcessPrng shim, and how one command runs
// on each target. The tests are in platforms_test.go (the CLI against the
// linux/amd64 build) and winunit_test.go (the Windows unit tests).

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The cross builds, static as released (CGO_ENABLED=0, SPEC §12 D1).
var (
	rivumiLintWindows = built{name: "rivumi-lint.exe", args: []string{"build", "./cmd/rivumi-lint"},
		env: []string{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0"}}
	rivumiLintArm64 = built{name: "rivumi-lint-linux-arm64", args: []string{"build", "./cmd/rivumi-lint"},
		env: []string{"GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0"}}
)

// emuInstall is how to get every emulator part on Debian; .ci/run does it.
const emuInstall = "apt-get install -y wine wine64 qemu-user gcc-mingw-w64-x86-64 (Debian 12; .ci/run installs what is missing)"

// lookTool finds a program the lanes need or fails the test saying how to
// install it.
func lookTool(t *testing.T, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is not installed (Debian package %s): %s", name, pkg, emuInstall)
	}
	return p
}

// winePrefix is the scratch Wine prefix all tests of the binary share:
// wineboot runs once, and the shim DLL is built and copied in once.
var winePrefix struct {
	once sync.Once
	env  []string // WINEPREFIX and the quiet settings
	wine string
	took time.Duration
	err  error
	// started says a persistent wineserver runs for the prefix.
	started bool
}

// stopWine ends the lane's persistent wineserver, if one was started;
// TestMain calls it last.
func stopWine() {
	if !winePrefix.started {
		return
	}
	kill := exec.Command(filepath.Join(filepath.Dir(winePrefix.wine), "wineserver"), "-k")
	kill.Env = append(os.Environ(), winePrefix.env...)
	kill.Run() // nothing to do if it is gone already
}

// wineEnv returns the wine program and the environment that runs Windows
// programs in the lane's prefix: never the user's ~/.wine.
func wineEnv(t *testing.T) (wine string, environ []string) {
	t.Helper()
	needIntegration(t, "the Windows lane (Wine)")
	wine = lookTool(t, "wine", "wine")
	boot := lookTool(t, "wineboot", "wine")
	gcc := lookTool(t, "x86_64-w64-mingw32-gcc", "gcc-mingw-w64-x86-64")
	root := moduleRoot(t)
	winePrefix.once.Do(func() {
		start := time.Now()
		dir := filepath.Join(scratch, "wine")
		prefix := filepath.Join(dir, "prefix")
		env := []string{
			"WINEPREFIX=" + prefix,
			"WINEARCH=win64",
			"WINEDEBUG=-all",
			// No Mono or Gecko: nothing here needs .NET or a browser, and
			// their installers would ask.
			"WINEDLLOVERRIDES=mscoree,mshtml=",
		}
		dll := filepath.Join(dir, "bcryptprimitives.dll")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			winePrefix.err = err
			return
		}
		src := filepath.Join(root, "scripts", "platforms", "bcryptprimitives.c")
		if out, err := exec.Command(gcc, "-shared", "-O2", "-s", "-Wl,--no-insert-timestamp", "-o", dll, src, "-ladvapi32").CombinedOutput(); err != nil {
			winePrefix.err = fmt.Errorf("build the ProcessPrng shim (%s): %v\n%s", src, err, out)
			return
		}
		if err := bootWine(boot, wine, prefix, env, dir); err != nil {
			winePrefix.err = err
			return
		}
		// One wineserver for all the runs, until TestMain ends it
		// (stopWine). Kept only 10 s past the last run, it quit in a pause
		// on a loaded CI machine, and a run that then started a new one
		// beside another once exited 1 without a word. Its output goes
		// nowhere: it would hold a pipe open. wineboot's own server quits
		// 3 s after it; wait for that first.
		for _, arg := range []string{"-w", "-p"} {
			server := exec.Command(filepath.Join(filepath.Dir(wine), "wineserver"), arg)
			server.Env = append(os.Environ(), env...)
			if err := server.Run(); err != nil {
				winePrefix.err = fmt.Errorf("wineserver %s: %v: %s", arg, err, emuInstall)
				return
			}
		}
		sys32 := filepath.Join(prefix, "drive_c", "windows", "system32")
		data, err := os.ReadFile(dll)
		if err == nil {
			err = os.WriteFile(filepath.Join(sys32, "bcryptprimitives.dll"), data, 0o644)
		}
		if err != nil {
			winePrefix.err = fmt.Errorf("copy the shim into %s: %w", sys32, err)
			return
		}
		winePrefix.env, winePrefix.wine, winePrefix.took = env, wine, time.Since(start)
		winePrefix.started = true
	})
	if winePrefix.err != nil {
		t.Fatal(winePrefix.err)
	}
	return winePrefix.wine, winePrefix.env
}

// qemuAarch64 is qemu-user's aarch64 emulator.
func qemuAarch64(t *testing.T) string {
	t.Helper()
	needIntegration(t, "the linux/arm64 lane (qemu-user)")
	return lookTool(t, "qemu-aarch64", "qemu-user")
}

// emuTarget is one platform a command can run on here.
type emuTarget struct {
	name string // GOOS/GOARCH
	// command returns the program and arguments that run bin ARGS there.
	command func(args ...string) (string, []string)
	env     []string // added to the environment
}

// nativeTarget runs the linux/amd64 build, the reference.
func nativeTarget(t *testing.T) emuTarget {
	bin := rivumiLint(t)
	return emuTarget{name: "linux/amd64", command: func(args ...string) (string, []string) { return bin, args }}
}

// windowsTarget runs the windows/amd64 build under Wine.
func windowsTarget(t *testing.T) emuTarget {
	wine, wenv := wineEnv(t)
	exe := rivumiLintWindows.get(t)
	return emuTarget{name: "windows/amd64", env: wenv,
		command: func(args ...string) (string, []string) { return wine, append([]string{exe}, args...) }}
}

// arm64Target runs the linux/arm64 build under qemu-aarch64.
func arm64Target(t *testing.T) emuTarget {
	qemu := qemuAarch64(t)
	bin := rivumiLintArm64.get(t)
	// No git on its PATH (under Wine there is none either): a run that
	// needed the binary would differ from linux/amd64's.
	return emuTarget{name: "linux/arm64", env: []string{"PATH=" + filepath.Join(scratch, "no-programs")},
		command: func(args ...string) (string, []string) { return qemu, append([]string{bin}, args...) }}
}

// run runs the target's build in dir with environ (plus the target's own
// variables) and stdin.
func (e emuTarget) run(t *testing.T, dir string, environ []string, stdin io.Reader, args ...string) result {
	t.Helper()
	name, argv := e.command(args...)
	cmd := exec.Command(name, argv...)
	cmd.Dir = dir
	cmd.Env = append(append([]string{}, environ...), e.env...)
	cmd.Stdin = stdin
	// Files, not pipes: a wineserver that wine starts inherits the
	// output descriptors and outlives the program, and Wait would wait
	// for it to close a pipe.
	stdout, stderr := tempFile(t), tempFile(t)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	r := result{stdout: readBack(t, stdout), stderr: readBack(t, stderr)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("%s: %s %s: %v", e.name, name, strings.Join(argv, " "), err)
	}
	return r
}

// windowsPath is the path Wine shows a Windows program for the Unix path
// p: the whole Unix file system is drive Z:.
func windowsPath(p string) string {
	return `Z:` + strings.ReplaceAll(p, "/", `\`)
}

// bootWine creates the prefix with wineboot -i. Wine's own messages are
// kept (WINEDEBUG is left to Debian's default for this step): when it fails
// they are the diagnosis. A failure is tried once more, after stopping any
// wineserver and removing what the first try left, since a first Wine start
// on a freshly installed machine has been seen to exit 1 without a word; a
// second failure is reported with what Wine printed, its version, the kernel,
// and, where strace is installed (.ci/run installs it), what a third try did.
func bootWine(boot, wine, prefix string, env []string, dir string) error {
	var quiet []string // env without WINEDEBUG=-all
	for _, kv := range env {
		if !strings.HasPrefix(kv, "WINEDEBUG=") {
			quiet = append(quiet, kv)
		}
	}
	bootEnv := append(os.Environ(), quiet...)
	try := func(n int, prog string, args ...string) (string, error) {
		log := filepath.Join(dir, fmt.Sprintf("wineboot-%d.log", n))
		f, err := os.Create(log)
		if err != nil {
			return "", err
		}
		defer f.Close()
		cmd := exec.Command(prog, args...)
		cmd.Env = bootEnv
		cmd.Stdout, cmd.Stderr = f, f
		err = cmd.Run()
		out, _ := os.ReadFile(log)
		return string(out), err
	}
	out1, err := try(1, boot, "-i")
	if err == nil {
		return nil
	}
	kill := exec.Command(filepath.Join(filepath.Dir(wine), "wineserver"), "-k")
	kill.Env = bootEnv
	_ = kill.Run() // none may be running
	time.Sleep(time.Second)
	if rmErr := os.RemoveAll(prefix); rmErr != nil {
		return fmt.Errorf("remove %s after a failed wineboot: %w", prefix, rmErr)
	}
	out2, err2 := try(2, boot, "-i")
	if err2 == nil {
		return nil
	}
	var diag strings.Builder
	fmt.Fprintf(&diag, "wineboot -i in %s failed twice (64-bit Wine is Debian's wine64: %s)\n", prefix, emuInstall)
	fmt.Fprintf(&diag, "first try: %v: %q\nsecond try: %v: %q\n", err, lastLines(out1, 10), err2, lastLines(out2, 10))
	version, verr := exec.Command(wine, "--version").CombinedOutput()
	fmt.Fprintf(&diag, "wine --version: %q (%v)\n", strings.TrimSpace(string(version)), verr)
	if kernel, kerr := os.ReadFile("/proc/sys/kernel/osrelease"); kerr == nil {
		fmt.Fprintf(&diag, "kernel: %s\n", strings.TrimSpace(string(kernel)))
	}
	if strace, serr := exec.LookPath("strace"); serr == nil {
		_ = os.RemoveAll(prefix)
		trace := filepath.Join(dir, "wineboot.strace")
		_, err3 := try(3, strace, "-f", "-o", trace, boot, "-i")
		calls, _ := os.ReadFile(trace)
		// The programs started, the calls that failed, how each process ended.
		var telling []string
		for _, line := range strings.Split(string(calls), "\n") {
			if strings.Contains(line, "execve(") || strings.Contains(line, " = -1 ") || strings.Contains(line, "+++") || strings.Contains(line, "---") {
				telling = append(telling, line)
			}
		}
		fmt.Fprintf(&diag, "third try under strace (%s): %v; the last programs started, failed calls and exits:\n%s", trace, err3, lastLines(strings.Join(telling, "\n"), 40))
	}
	return errors.New(diag.String())
}

// tempFile is an unnamed scratch file, closed when the test ends.
func tempFile(t *testing.T) *os.File {
	t.Helper()
	f, err := os.CreateTemp(scratch, "out")
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(f.Name())
	t.Cleanup(func() { f.Close() })
	return f
}

// readBack returns what was written to f.
func readBack(t *testing.T, f *os.File) string {
	t.Helper()
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
