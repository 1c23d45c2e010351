package project

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/profiles"
)

// This file is the language server's hook into the pipeline (X4): the
// unsaved texts of the documents an editor has open (Options.Overlay)
// stand in for the bytes on disk of the worktree source, and for the
// root's config file, so the run checks what the editor shows.

// useStdin puts the text of standard input in the place of the file it
// stands for (check --stdin-filename), as an editor's buffer is put.
func (p *Project) useStdin(o Options) error {
	rel, err := p.Rel(o.StdinPath)
	if err != nil {
		return fmt.Errorf("--stdin-filename: %w", err)
	}
	if fi, err := os.Lstat(filepath.Join(p.Root, filepath.FromSlash(rel))); err != nil || fi.IsDir() {
		return fmt.Errorf("--stdin-filename %s: no such file under %s; standard input is checked as the text of an existing file "+
			"(save a new file once, then check its buffer)", o.StdinPath, p.Root)
	}
	ov := make(map[string][]byte, len(p.opts.Overlay)+1)
	for k, v := range p.opts.Overlay {
		ov[k] = v
	}
	ov[rel] = o.StdinText
	p.opts.Overlay = ov
	return nil
}

// worktreeConfig is loadConfig, with the root's config taken from the
// overlay when the editor holds it (and no --config replaces it). An entry
// on disk that is not a regular file is judged as loadConfig judges it:
// the overlay never makes a link or a FIFO readable.
func (p *Project) worktreeConfig() (*config.Config, error) {
	if p.opts.Config == "" {
		p.Notes = appendNew(p.Notes, strayConfigs(p.Root))
	}
	data, ok := p.opts.Overlay[ConfigName]
	if !ok || p.opts.Config != "" {
		return loadConfig(p.Root, p.opts.Config)
	}
	path := filepath.Join(p.Root, ConfigName)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return loadConfig(p.Root, "")
	}
	if len(data) > config.MaxConfigBytes {
		return nil, &config.Error{Name: path, Msg: fmt.Sprintf("config file is %d bytes; the limit is %d bytes (1 MiB)", len(data), config.MaxConfigBytes)}
	}
	return config.Parse(path, data, profiles.Config()...)
}
