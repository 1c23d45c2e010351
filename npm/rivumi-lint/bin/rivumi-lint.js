#!/usr/bin/env node
// The npm package's command (SPEC §12 D5): run the release binary that the
// platform package for this os/cpu carries. npm installs exactly one of the
// optionalDependencies, the one whose "os" and "cpu" match; nothing is
// downloaded at install or run time, and there is no install script.
"use strict";

const { spawn } = require("child_process");
const { constants } = require("os");
const path = require("path");

// The D1 targets, by Node's names for them (process.platform, process.arch).
const targets = new Set([
  "linux-x64", "linux-arm64",
  "darwin-x64", "darwin-arm64",
  "win32-x64", "win32-arm64",
  "freebsd-x64", "freebsd-arm64",
]);

// Exit status 2 is the CLI's own for "could not run" (SPEC §6).
function fail(msg) {
  process.stderr.write(`rivumi-lint (npm): ${msg}\n`);
  process.exit(2);
}

function binaryPath() {
  const target = `${process.platform}-${process.arch}`;
  if (!targets.has(target)) {
    fail(`no release binary for ${target}: there are builds for ${[...targets].join(", ")}; ` +
      "build from source instead (go install github.com/rivumi/rivumi-lint/cmd/rivumi-lint@latest)");
  }
  const pkg = `@rivumi-lint/${target}`;
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    fail(`${pkg} is not installed: it is the optional dependency that carries the binary for ${target}; ` +
      "reinstall rivumi-lint without --omit=optional (or --no-optional), " +
      "and with the same os and cpu as the machine that runs it");
  }
  return path.join(dir, "bin", process.platform === "win32" ? "rivumi-lint.exe" : "rivumi-lint");
}

const bin = binaryPath();
const args = process.argv.slice(2);

// Replace Node with the binary where Node can (22.15 and later, not on
// Windows): signals and the exit status are then the binary's own.
if (process.platform !== "win32" && typeof process.execve === "function") {
  try {
    process.execve(bin, [bin, ...args], process.env);
  } catch (err) {
    fail(`cannot run ${bin}: ${err.message}`);
  }
}

const child = spawn(bin, args, { stdio: "inherit" });
child.on("error", (err) => fail(`cannot run ${bin}: ${err.message}`));

// A signal sent to this process alone (kill PID, a supervisor) goes on to
// the binary; a terminal's ^C reaches both, as they share a process group.
// This process ends when the binary does, never before it.
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]) {
  process.on(sig, () => {
    try {
      child.kill(sig);
    } catch {
      // the binary is gone already
    }
  });
}

child.on("exit", (code, signal) => {
  if (signal) {
    // End the same way, so a shell sees the signal; 128+n should the
    // default action not end Node.
    process.removeAllListeners(signal);
    process.exitCode = 128 + (constants.signals[signal] || 0);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 2 : code);
});
