package integration

// X4, C4 with a real client (#33.1): a Latin-1 AGENTS.md opened as UTF-8.
// VS Code's default (`files.encoding: utf8`, no guessing) decodes the bytes
// with one U+FFFD per maximal invalid subpart and sends that text; Neovim
// cannot decode so itself (`++bad=` takes one single-byte character), so
// the test makes it send exactly VS Code's text: a BufReadCmd autocommand
// fills the buffer of AGENTS.md from a file holding the decoded text (with
// fileencoding=utf-8, unmodified) before the client attaches, and didOpen
// carries it. Neovim's own `:edit ++enc=utf-8 ++bad=keep` sends the raw
// bytes, which reach the server one U+FFFD per byte: the same unchanged
// file too. Both must publish RL004 (check's finding, at the first
// replaced character); an edit is checked as typed and clears it.

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

// neovimEncodingScript opens RL_FILE with RL_OPEN (an Ex command), from
// RL_TEXT's lines when that is set, waits for diagnostics and writes them,
// then replaces the text and writes CLEARED once an empty publish arrives.
const neovimEncodingScript = `
local out, bin, file, root = os.getenv("RL_OUT"), os.getenv("RL_BIN"), os.getenv("RL_FILE"), os.getenv("RL_ROOT")
local open, text = os.getenv("RL_OPEN"), os.getenv("RL_TEXT")
local got, edited, cleared = nil, false, false
if text ~= "" then
  vim.api.nvim_create_autocmd("BufReadCmd", {
    pattern = "*/AGENTS.md",
    callback = function(a)
      vim.api.nvim_buf_set_lines(a.buf, 0, -1, false, vim.fn.readfile(text))
      vim.bo[a.buf].fileencoding = "utf-8"
      vim.bo[a.buf].modified = false
    end,
  })
end
local id = vim.lsp.start_client({
  cmd = { bin, "lsp" },
  root_dir = root,
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
      if not result then return end
      if #result.diagnostics > 0 then got = result elseif edited then cleared = true end
    end,
  },
})
vim.cmd(open .. " " .. vim.fn.fnameescape(file))
local f = io.open(out, "w")
if not id then
  f:write("NO CLIENT\n")
else
  vim.lsp.buf_attach_client(0, id)
  if vim.wait(90000, function() return got ~= nil end, 50) then
    for _, d in ipairs(got.diagnostics) do
      f:write(string.format("%d\t%d\t%s\t%s\n", d.range.start.line, d.range.start.character, d.code, d.message))
    end
    edited = true
    vim.api.nvim_buf_set_lines(0, 0, -1, false, { "# Rules", "cafe" })
    if vim.wait(90000, function() return cleared end, 50) then f:write("CLEARED\n") else f:write("NOT CLEARED\n") end
  else
    f:write("TIMEOUT\n")
  end
  vim.lsp.stop_client(id)
end
f:close()
vim.cmd("qa!")
`

func TestLSPNeovimReplacementDecodedBufferC4(t *testing.T) {
	nvim := needNeovim(t)
	bin := rivumiLint(t)
	// Latin-1 "è" and "é", then E2 82: a three-byte sequence cut short,
	// where the two decodings differ (one U+FFFD, or two).
	dir := newRepo(t, map[string]string{"AGENTS.md": "# R\xe8gles\ncaf\xe9 \xe2\x82!\n"})
	check := run(t, dir, env(t), nil, bin, "check", "--format", "json", "AGENTS.md")
	var want struct {
		Findings []struct{ Rule, Message string }
	}
	if err := json.Unmarshal([]byte(check.stdout), &want); err != nil || len(want.Findings) != 1 || want.Findings[0].Rule != "RL004" {
		t.Fatalf("check: %v\n%s", err, check)
	}
	for _, tc := range []struct {
		name, open, text string
	}{
		// What VS Code's TextDecoder gives (Unicode §3.9, maximal subparts).
		{"vscode-text", "edit", "# R\uFFFDgles\ncaf\uFFFD \uFFFD!\n"},
		// Neovim's buffer of the raw bytes.
		{"neovim-raw-bytes", "edit ++enc=utf-8 ++bad=keep", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			script := filepath.Join(tmp, "x.lua")
			outFile := filepath.Join(tmp, "diagnostics.txt")
			textFile := ""
			if tc.text != "" {
				textFile = filepath.Join(tmp, "decoded.txt")
				if err := os.WriteFile(textFile, []byte(tc.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(script, []byte(neovimEncodingScript), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", "NONE", "-c", "luafile "+script)
			cmd.Dir = dir
			cmd.Env = env(t, "RL_OUT="+outFile, "RL_BIN="+bin, "RL_FILE="+filepath.Join(dir, "AGENTS.md"), "RL_ROOT="+dir,
				"RL_OPEN="+tc.open, "RL_TEXT="+textFile,
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
			// At "è", line 0 column 3 (one UTF-16 unit per character).
			prefix := "0\t3\tRL004\t" + want.Findings[0].Message + "; on disk the file is not UTF-8"
			if len(lines) != 2 || !strings.HasPrefix(lines[0], prefix) || lines[1] != "CLEARED" {
				t.Errorf("Neovim received:\n%s\nwant one line starting\n%s\nthen CLEARED", got, prefix)
			}
		})
	}
}
