package refs

import (
	"path"
	"strings"
)

// word is one shell word: where it is written and, when plain (no quote,
// escape or expansion), its text, which is then text[s:e].
type word struct {
	s, e  int
	plain bool
	text  string
}

// shellState is what a code span or a fenced block carries from one
// command to the next: the directory `cd` moved to, or that it moved
// somewhere that cannot be known (then no later command is read).
type shellState struct {
	dir     string
	lost    bool
	stack   []shellState
	heredoc string
}

// shell reads the commands of lines (a code span, inSpan, or the lines of
// a fenced block) and adds the references they make.
func (x *extractor) shell(lines []span, inSpan bool) {
	t := x.text
	st := &shellState{}
	var cmd []word
	var cur *word
	redirect, continued := false, false
	endWord := func() {
		if cur == nil {
			return
		}
		if redirect {
			redirect = false
		} else {
			if cur.plain {
				cur.text = string(t[cur.s:cur.e])
			}
			cmd = append(cmd, *cur)
		}
		cur = nil
	}
	// A line that moves with cd and then runs something ("cd web && make
	// x") is read as scoped to that line, as such lists are written; a
	// cd alone on its line moves the rest of the block, as a shell would.
	var lineStart shellState
	ran, moved := 0, false
	run := func() {
		endWord()
		if len(cmd) > 0 {
			ran++
			if cmd[0].plain && (cmd[0].text == "cd" || cmd[0].text == "pushd") {
				moved = true
			}
		}
		x.command(st, cmd)
		cmd = cmd[:0]
	}
	for _, ln := range lines {
		if !continued {
			lineStart = shellState{dir: st.dir, lost: st.lost}
			ran, moved = 0, false
		}
		if st.heredoc != "" {
			if strings.TrimSpace(string(t[ln.s:ln.e])) == st.heredoc {
				st.heredoc = ""
			}
			continue
		}
		i := ln.s
		if !continued {
			i = skipBlank(t, i, ln.e)
			i = skipPrompt(t, i, ln.e)
		}
		continued = false
		pendingHeredoc := ""
	line:
		for i < ln.e {
			c := t[i]
			switch {
			case c == ' ' || c == '\t' || (inSpan && (c == '\n' || c == '\r')):
				endWord()
				i++
			case c == '\r' && i+1 == ln.e:
				i++
			case c == '#' && cur == nil:
				break line
			case c == '\\':
				if i+1 >= ln.e || (i+2 == ln.e && t[i+1] == '\r') {
					continued = true
					i = ln.e
					continue
				}
				cur = x.wordAt(cur, i)
				cur.plain = false
				i = min(i+2, ln.e)
				cur.e = i
			case c == '\'' || c == '"':
				cur = x.wordAt(cur, i)
				cur.plain = false
				j := i + 1
				for j < ln.e && t[j] != c {
					if c == '"' && t[j] == '\\' {
						j++
					}
					j++
				}
				i = min(j+1, ln.e)
				cur.e = i
			case c == '$' || c == '`':
				cur = x.wordAt(cur, i)
				cur.plain = false
				i = skipExpansion(t, i, ln.e)
				cur.e = i
			case c == '&' || c == '|' || c == ';' || c == '(' || c == ')':
				if c == '&' && i+1 < ln.e && t[i+1] == '>' {
					endWord()
					redirect = true
					i += 2
					continue
				}
				run()
				switch c {
				case '(':
					st.stack = append(st.stack, shellState{dir: st.dir, lost: st.lost})
				case ')':
					if n := len(st.stack); n > 0 {
						st.dir, st.lost = st.stack[n-1].dir, st.stack[n-1].lost
						st.stack = st.stack[:n-1]
					}
				}
				i++
				if i < ln.e && (t[i] == c && c != '(' && c != ')') {
					i++
				}
			case c == '<' || c == '>':
				if cur != nil && allDigits(t[cur.s:i]) {
					cur = nil // the "2" of "2>"
				}
				endWord()
				j := i
				for j < ln.e && (t[j] == '<' || t[j] == '>' || t[j] == '&' || t[j] == '-') {
					j++
				}
				if j-i >= 2 && t[i] == '<' && t[i+1] == '<' && (j-i == 2 || t[i+2] == '-') {
					k := skipBlank(t, j, ln.e)
					m := k
					for m < ln.e && t[m] != ' ' && t[m] != '\t' && t[m] != ';' && t[m] != '|' && t[m] != '&' && t[m] != '\r' {
						m++
					}
					pendingHeredoc = strings.Trim(string(t[k:m]), `'"\`)
					i = m
					continue
				}
				redirect = true
				i = j
			default:
				cur = x.wordAt(cur, i)
				i++
				cur.e = i
			}
		}
		if !continued {
			run()
			redirect = false
			if moved && ran > 1 && len(st.stack) == 0 {
				st.dir, st.lost = lineStart.dir, lineStart.lost
			}
		}
		if pendingHeredoc != "" {
			st.heredoc = pendingHeredoc
		}
	}
	run()
}

func (x *extractor) wordAt(cur *word, i int) *word {
	if cur != nil {
		return cur
	}
	return &word{s: i, e: i + 1, plain: true}
}

func skipBlank(t []byte, i, e int) int {
	for i < e && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	return i
}

// skipPrompt skips a shell prompt a block shows before its commands:
// "$ ", "% ", "> ", "❯ ", "PS> ".
func skipPrompt(t []byte, i, e int) int {
	for _, p := range []string{"$ ", "% ", "> ", "❯ ", "➜ ", "PS> "} {
		if strings.HasPrefix(string(t[i:min(e, i+len(p))]), p) {
			return skipBlank(t, i+len(p), e)
		}
	}
	return i
}

// skipExpansion skips "$NAME", "${...}", "$(...)" and "`...`" at i.
func skipExpansion(t []byte, i, e int) int {
	if t[i] == '`' {
		j := i + 1
		for j < e && t[j] != '`' {
			j++
		}
		return min(j+1, e)
	}
	if i+1 >= e {
		return e
	}
	open := t[i+1]
	if open == '(' || open == '{' {
		closer := byte(')')
		if open == '{' {
			closer = '}'
		}
		depth := 0
		for j := i + 1; j < e; j++ {
			switch t[j] {
			case open:
				depth++
			case closer:
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return e
	}
	j := i + 1
	for j < e && (isIdent(t[j]) || j == i+1 && strings.IndexByte("@*#?$!-0123456789", t[j]) >= 0) {
		j++
		if j == i+2 && !isIdent(t[i+1]) {
			break
		}
	}
	return j
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// isAssignment reports "NAME=value", an environment assignment before a
// command or a make variable.
func isAssignment(w word) bool {
	if !w.plain {
		// FOO="a b" make x: the name part is still plain text
		return false
	}
	i := strings.IndexByte(w.text, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		if !isIdent(w.text[j]) {
			return false
		}
	}
	return true
}

// isAssignmentWord is isAssignment for a word that may hold quotes after
// its "=" (FOO="a b").
func (x *extractor) isAssignmentWord(w word) bool {
	raw := string(x.text[w.s:w.e])
	i := strings.IndexByte(raw, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		if !isIdent(raw[j]) {
			return false
		}
	}
	return true
}

// command reads one simple command: `cd` moves the state; make, npm,
// pnpm, yarn, bun and just name references.
func (x *extractor) command(st *shellState, cmd []word) {
	for len(cmd) > 0 && x.isAssignmentWord(cmd[0]) {
		cmd = cmd[1:]
	}
	for len(cmd) > 0 && cmd[0].plain {
		switch cmd[0].text {
		case "sudo", "time", "command", "exec", "nohup", "env":
			cmd = cmd[1:]
			for len(cmd) > 0 && x.isAssignmentWord(cmd[0]) {
				cmd = cmd[1:]
			}
			continue
		}
		break
	}
	if len(cmd) == 0 || !cmd[0].plain {
		return
	}
	name, args := cmd[0].text, cmd[1:]
	switch name {
	case "cd", "pushd":
		st.cd(args)
		return
	case "popd":
		st.lost = true
		return
	}
	if st.lost {
		return
	}
	switch name {
	case "make", "gmake":
		x.makeCommand(st, args)
	case "npm":
		x.npmCommand(st, args)
	case "pnpm":
		x.pnpmCommand(st, args)
	case "yarn":
		x.yarnCommand(st, args)
	case "bun":
		x.bunCommand(st, args)
	case "just":
		x.justCommand(st, args)
	}
}

func (st *shellState) cd(args []word) {
	if st.lost {
		return // once lost, a relative cd cannot find the way back
	}
	if len(args) > 0 && args[0].plain && args[0].text == "--" {
		args = args[1:]
	}
	if len(args) != 1 {
		st.lost = true
		return
	}
	d, ok := relDir(args[0])
	if !ok {
		st.lost = true
		return
	}
	st.dir = joinDir(st.dir, d)
	if len(st.dir) > maxPath {
		st.lost = true // a block that keeps descending: bounded, not followed
	}
}

// relDir reads a directory argument: a plain relative path.
func relDir(w word) (string, bool) {
	if !w.plain || w.text == "" || w.text == "-" || strings.ContainsAny(w.text[:1], "/~-") {
		return "", false
	}
	if strings.ContainsAny(w.text, "*?[]{}<>|;&()`'\"$\\") {
		return "", false
	}
	return w.text, true
}

func joinDir(a, b string) string {
	j := path.Join(a, b)
	if j == "." {
		return ""
	}
	return j
}

// flagValue reads a flag's value: "--dir=X" (inline), or the next word.
// It returns the value word and how many words the flag took.
func flagValue(args []word, i int, inline string) (word, int, bool) {
	if inline != "" {
		w := args[i]
		off := len(w.text) - len(inline)
		return word{s: w.s + off, e: w.e, plain: w.plain, text: inline}, 1, true
	}
	if i+1 >= len(args) {
		return word{}, 1, false
	}
	return args[i+1], 2, true
}

// splitFlag splits "--dir=X" into "--dir" and "X"; "-CX" (a short flag
// with its value attached) into "-C" and "X" when short says the letter
// takes a value.
func splitFlag(w word, short string) (string, string) {
	if !w.plain {
		return "", ""
	}
	s := w.text
	if strings.HasPrefix(s, "--") {
		if i := strings.IndexByte(s, '='); i > 0 {
			return s[:i], s[i+1:]
		}
		return s, ""
	}
	if len(s) > 2 && s[0] == '-' && strings.IndexByte(short, s[1]) >= 0 {
		return s[:2], s[2:]
	}
	return s, ""
}

// makeTarget reports a word make would take as a goal to check.
func makeTarget(w word) bool {
	return w.plain && nameChars(w.text, "_./+@-") && !strings.HasPrefix(w.text, "-") && strings.Trim(w.text, ".") != ""
}

// nameChars reports a non-empty run of letters, digits and extra.
func nameChars(s, extra string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}

func (x *extractor) makeCommand(st *shellState, args []word) {
	dir, file := st.dir, ""
	var goals []word
	for i := 0; i < len(args); {
		w := args[i]
		if !w.plain {
			if x.isAssignmentWord(w) {
				i++
				continue
			}
			return // an expanded word may be a -C or a goal: nothing is certain
		}
		flag, inline := splitFlag(w, "CfIjloW")
		switch flag {
		case "-C", "--directory":
			v, n, ok := flagValue(args, i, inline)
			d, good := relDir(v)
			if !ok || !good {
				return
			}
			dir = joinDir(dir, d)
			i += n
			continue
		case "-f", "--file", "--makefile":
			v, n, ok := flagValue(args, i, inline)
			if !ok || !v.plain || strings.HasPrefix(v.text, "/") || strings.HasPrefix(v.text, "~") {
				return
			}
			file = v.text
			i += n
			continue
		case "-I", "--include-dir", "-o", "--old-file", "--assume-old", "-W", "--what-if", "--new-file", "--assume-new", "--eval", "-E":
			_, n, _ := flagValue(args, i, inline)
			i += n
			continue
		case "-j", "--jobs", "-l", "--load-average", "--max-load":
			if inline == "" && i+1 < len(args) && allDigits([]byte(args[i+1].text)) {
				i++
			}
			i++
			continue
		}
		switch {
		case w.text == "--":
		case strings.HasPrefix(w.text, "-"):
		case isAssignment(w):
		case makeTarget(w):
			goals = append(goals, w)
		default:
			return // a placeholder such as [target] or a glob: not a command to check
		}
		i++
	}
	for _, g := range goals {
		x.add(Ref{Kind: Make, Tool: "make", Target: strings.TrimPrefix(g.text, "./"), Dir: dir, File: file, Offset: g.s, End: g.e})
	}
}

// scriptName reports a word a runner would take as a script's name.
func scriptName(w word) bool {
	return w.plain && nameChars(w.text, ":_.@+-") && !strings.HasPrefix(w.text, "-") && !strings.HasPrefix(w.text, ".")
}

// npmRuns are the npm commands that run a script by name; npm's other
// commands are built in.
var npmRuns = map[string]bool{"run": true, "run-script": true, "rum": true, "urn": true}

// workspaceFlags make a runner pick packages by name, so the script is
// not looked up in one package.json here (not checked).
var workspaceFlags = map[string]bool{
	"--filter": true, "-F": true, "-r": true, "--recursive": true, "-w": true, "--workspace": true,
	"--workspaces": true, "-ws": true, "--workspace-root": true, "-W": true, "--if-present": true,
	"--parallel": true, "--include-workspace-root": true, "--filter-prod": true, "--all": true, "-A": true,
}

// flagsWithValue take the next word as their value (when not written
// --flag=value).
var flagsWithValue = map[string]bool{
	"--loglevel": true, "--reporter": true, "--userconfig": true, "--registry": true,
	"--workspace-concurrency": true, "--cache": true, "--elide-lines": true, "--shell": true,
	"--script-shell": true, "--node-options": true, "--env-file": true, "--tag": true,
}

// runnerArgs reads the flags before a runner's command: the directory
// flags, the workspace flags (then ok is false) and the rest, skipped.
func (x *extractor) runnerArgs(st *shellState, args []word, dirFlags map[string]bool, short string) (dir string, rest []word, ok bool) {
	dir = st.dir
	for i := 0; i < len(args); {
		w := args[i]
		if !w.plain {
			return "", nil, false
		}
		if !strings.HasPrefix(w.text, "-") {
			return dir, args[i:], true
		}
		flag, inline := splitFlag(w, short)
		switch {
		case workspaceFlags[flag]:
			return "", nil, false
		case dirFlags[flag]:
			v, n, have := flagValue(args, i, inline)
			d, good := relDir(v)
			if !have || !good {
				return "", nil, false
			}
			dir = joinDir(dir, d)
			i += n
		case flagsWithValue[flag] && inline == "":
			i += 2
		default:
			i++
		}
	}
	return dir, nil, true
}

func (x *extractor) script(tool, dir string, w word, mayBeBinary bool) {
	if !scriptName(w) {
		return
	}
	x.add(Ref{Kind: Script, Tool: tool, Target: w.text, Dir: dir, MayBeBinary: mayBeBinary, Offset: w.s, End: w.e})
}

// runScript reads "[flags] NAME" after a run command; the name is the
// first word that is not a flag.
func (x *extractor) runScript(tool, dir string, args []word, dirFlags map[string]bool, short string, mayBeBinary bool) {
	d, rest, ok := x.runnerArgs(&shellState{dir: dir}, args, dirFlags, short)
	if !ok || len(rest) == 0 {
		return
	}
	x.script(tool, d, rest[0], mayBeBinary)
}

var npmDirFlags = map[string]bool{"--prefix": true}

func (x *extractor) npmCommand(st *shellState, args []word) {
	dir, rest, ok := x.runnerArgs(st, args, npmDirFlags, "")
	if !ok || len(rest) == 0 || !rest[0].plain {
		return
	}
	switch sub := rest[0].text; {
	case npmRuns[sub]:
		x.runScript("npm", dir, rest[1:], npmDirFlags, "", false)
	case sub == "test" || sub == "t" || sub == "tst":
		if _, _, ok := x.runnerArgs(st, rest[1:], npmDirFlags, ""); ok {
			x.add(Ref{Kind: Script, Tool: "npm", Target: "test", Dir: dir, Offset: rest[0].s, End: rest[0].e})
		}
	}
}

// pnpmBuiltins are pnpm's own commands (pnpm 10); any other first word
// runs a script of that name, or else a binary.
var pnpmBuiltins = words(`
	add approve-builds audit bin cache cat-file cat-index catalog ci completion config
	create dedupe deploy dlx doctor docs env exec fetch find-hash help home i ignored-builds
	import info init install install-test it licenses link list ll ln login logout ls
	outdated owner pack patch patch-commit patch-remove prune publish rb rebuild recursive
	remove repo restart rm root run sbom search self-update server setup start stop store t
	test tst un uninstall unlink up update upgrade version view why whoami x c get set stars
	unpublish deprecate undeprecate dist-tag adduser team token explore query ping pkg
	profile access hook diff edit issues bugs rebuild runtime self-installer shrinkwrap`)

var pnpmDirFlags = map[string]bool{"-C": true, "--dir": true}

func (x *extractor) pnpmCommand(st *shellState, args []word) {
	dir, rest, ok := x.runnerArgs(st, args, pnpmDirFlags, "C")
	if !ok || len(rest) == 0 || !rest[0].plain {
		return
	}
	switch sub := rest[0].text; {
	case sub == "run" || sub == "run-script":
		x.runScript("pnpm", dir, rest[1:], pnpmDirFlags, "C", false)
	case sub == "test" || sub == "t" || sub == "tst":
		if _, _, ok := x.runnerArgs(st, rest[1:], pnpmDirFlags, "C"); ok {
			x.add(Ref{Kind: Script, Tool: "pnpm", Target: "test", Dir: dir, Offset: rest[0].s, End: rest[0].e})
		}
	case pnpmBuiltins[sub]:
	default:
		x.script("pnpm", dir, rest[0], true)
	}
}

// yarnBuiltins are the commands of Yarn 1 and Yarn 2+; any other first
// word runs a script of that name, or else a binary.
var yarnBuiltins = words(`
	add audit autoclean bin cache check config constraints create dedupe dlx exec explain
	generate-lock-entry global help import info init install licenses link list login logout
	node npm outdated owner pack patch patch-commit plugin policies publish rebuild remove
	run search set stage tag team unlink unplug up upgrade upgrade-interactive version
	versions why workspace workspaces start test sdks`)

var yarnDirFlags = map[string]bool{"--cwd": true}

func (x *extractor) yarnCommand(st *shellState, args []word) {
	dir, rest, ok := x.runnerArgs(st, args, yarnDirFlags, "")
	if !ok || len(rest) == 0 || !rest[0].plain {
		return
	}
	switch sub := rest[0].text; {
	case sub == "run":
		x.runScript("yarn", dir, rest[1:], yarnDirFlags, "", true)
	case sub == "test":
		if _, _, ok := x.runnerArgs(st, rest[1:], yarnDirFlags, ""); ok {
			x.add(Ref{Kind: Script, Tool: "yarn", Target: "test", Dir: dir, Offset: rest[0].s, End: rest[0].e})
		}
	case yarnBuiltins[sub]:
	default:
		x.script("yarn", dir, rest[0], true)
	}
}

var bunDirFlags = map[string]bool{"--cwd": true}

func (x *extractor) bunCommand(st *shellState, args []word) {
	dir, rest, ok := x.runnerArgs(st, args, bunDirFlags, "")
	if !ok || len(rest) == 0 || !rest[0].plain || rest[0].text != "run" {
		return
	}
	d, rest, ok := x.runnerArgs(&shellState{dir: dir}, rest[1:], bunDirFlags, "")
	if !ok || len(rest) == 0 {
		return
	}
	// bun run FILE runs a file, not a script
	if name := rest[0].text; strings.ContainsRune(name, '/') || hasExtension(name) && !strings.Contains(name, ":") {
		return
	}
	x.script("bun", d, rest[0], true)
}

// justListing are just's flags that do something other than run a recipe.
var justListing = words(`
	-l --list --summary --choose --dump --evaluate --show -s --init --edit -e --fmt
	--variables --help -h --version -V --completions --groups --man --changelog --check
	--request --usage`)

var justValueFlags = words(`
	-f --justfile -d --working-directory --color --shell --shell-arg --dotenv-path -E
	--dotenv-filename --command-color --list-heading --list-prefix --timestamp-format
	--tempdir --alias-style --list-submodules --command -c`)

func (x *extractor) justCommand(st *shellState, args []word) {
	file := ""
	for i := 0; i < len(args); {
		w := args[i]
		if !w.plain {
			return
		}
		flag, inline := splitFlag(w, "fd")
		switch {
		case justListing[flag]:
			return
		case flag == "--set":
			i += 3
			continue
		case flag == "-f" || flag == "--justfile":
			v, n, ok := flagValue(args, i, inline)
			if !ok || !v.plain || strings.HasPrefix(v.text, "/") || strings.HasPrefix(v.text, "~") {
				return
			}
			file = v.text
			i += n
			continue
		case justValueFlags[flag]:
			_, n, _ := flagValue(args, i, inline)
			i += n
			continue
		case strings.HasPrefix(w.text, "-"):
			i++
			continue
		case isAssignment(w):
			i++
			continue
		}
		if recipeName(w.text) {
			x.add(Ref{Kind: Just, Tool: "just", Target: w.text, Dir: st.dir, File: file, Offset: w.s, End: w.e})
		}
		return // only the first recipe: later words may be its arguments
	}
}

// recipeName reports "name" or "module::name".
func recipeName(s string) bool {
	for _, part := range strings.Split(s, "::") {
		if part == "" || !(part[0] == '_' || part[0] >= 'a' && part[0] <= 'z' || part[0] >= 'A' && part[0] <= 'Z') || !nameChars(part, "_-") {
			return false
		}
	}
	return true
}

// words makes a set of the space-separated names of list.
func words(list string) map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(list) {
		m[n] = true
	}
	return m
}
