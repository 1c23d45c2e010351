// Package preview shows what the model would see from one directory
// (SPEC §4, P1–P6): the ordered section list, the rendered dynamic sections
// in format v1, and the diagnostics behind them (every considered layer with
// state, reason and bytes, the R8 fingerprint, skills, memory, budget and
// the findings of check's rules over the chain).
//
// [Build] makes a [Preview] from [Options] through project's pipeline (the
// same engine, skills and rules as check); report's preview writers
// (report.LookupPreview) write its plain value, the embedded view.Preview
// (package view holds the data, so report links no pipeline); [Watch]
// re-renders it when its inputs change (P6). The memory file is read by
// memory.ReadFile; RL013 is lint's.
//
// Everything is read under the engine's constraints: instruction files and
// skills through the engine's Source (C1–C5: no symbolic link followed,
// nothing opened in a blocking way, at most max_file_bytes+1 bytes read),
// the memory file streamed by package memory with bounded memory after a
// non-blocking open and a check that the descriptor is a regular file.
//
// A preview is byte-deterministic for a given repository, home directory and
// [Machine]: the clock, OS, shell and working directory of the runtime
// section can be injected (Options.Machine, or the RIVUMI_LINT_* variables
// read by [MachineFromEnv]). docs/preview.md is the user documentation.
package preview
