package integration

// X4 with a real client: Neovim's built-in LSP client (Debian's neovim
// 0.7.2: vim.lsp.start_client, which predates vim.lsp.start), headless,
// opens an AGENTS.md holding a bidi character and must receive the
// diagnostic check reports for it.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// neovimScript starts the server for the buffer, waits (bounded) for
// diagnostics and writes them, one per line, to RL_OUT.
const neovimScript = `
local out, bin, file, root = os.getenv("RL_OUT"), os.getenv("RL_BIN"), os.getenv("RL_FILE"), os.getenv("RL_ROOT")
local got = nil
local id = vim.lsp.start_client({
  cmd = { bin, "lsp" },
  root_dir = root,
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
      if result and #result.diagnostics > 0 then got = result end
    end,
  },
})
vim.cmd("edit " .. vim.fn.fnameescape(file))
local f = io.open(out, "w")
if not id then
  f:write("NO CLIENT\n")
else
  vim.lsp.buf_attach_client(0, id)
  if vim.wait(90000, function() return got ~= nil end, 50) then
    for _, d in ipairs(got.diagnostics) do
      f:write(string.format("%d\t%d\t%s\t%s\n", d.range.start.line, d.range.start.character, d.code, d.message))
    end
  else
    f:write("TIMEOUT\n")
  end
  vim.lsp.stop_client(id)
end
f:close()
vim.cmd("qa!")
`

func TestNeovimReceivesDiagnosticX4(t *testing.T) {
	nvim := needNeovim(t)
	bin := rivumiLint(t)
	// "a", an astral emoji (two UTF-16 units), then U+202E: the character
	// is at UTF-16 column 3 (Neovim 0.7 negotiates no encoding).
	dir := newRepo(t, map[string]string{"AGENTS.md": "# Rules\na\U0001F600\u202eb\n"})
	check := run(t, dir, env(t), nil, bin, "check", "--format", "json", "AGENTS.md")
	var want struct {
		Findings []struct{ Rule, Message string }
	}
	if err := json.Unmarshal([]byte(check.stdout), &want); err != nil || len(want.Findings) != 1 {
		t.Fatalf("check: %v\n%s", err, check)
	}
	tmp := t.TempDir()
	script := filepath.Join(tmp, "x.lua")
	outFile := filepath.Join(tmp, "diagnostics.txt")
	if err := os.WriteFile(script, []byte(neovimScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", "NONE", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = env(t, "RL_OUT="+outFile, "RL_BIN="+bin, "RL_FILE="+filepath.Join(dir, "AGENTS.md"), "RL_ROOT="+dir,
		"HOME="+tmp, "XDG_CONFIG_HOME="+tmp, "XDG_DATA_HOME="+tmp, "XDG_STATE_HOME="+tmp, "XDG_CACHE_HOME="+tmp)
	combined, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("nvim did not finish within the deadline: %s", combined)
	}
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, combined)
	}
	got, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatalf("the script wrote no diagnostics: %v\nnvim said: %s", err, combined)
	}
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	wantLine := "1\t3\t" + want.Findings[0].Rule + "\t" + want.Findings[0].Message
	if len(lines) != 1 || lines[0] != wantLine {
		t.Errorf("Neovim received:\n%s\nwant:\n%s", got, wantLine)
	}
}
