package preview

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/memory"
	"github.com/rivumi/rivumi-lint/internal/preview/view"
	"github.com/rivumi/rivumi-lint/internal/project"
	"github.com/rivumi/rivumi-lint/internal/render"
	"github.com/rivumi/rivumi-lint/internal/resolve"
	"github.com/rivumi/rivumi-lint/internal/skills"
	"github.com/rivumi/rivumi-lint/internal/trace"
)

// Version is the version of the preview's JSON document.
const Version = view.Version

// Section names in prompt order (P1).
const (
	Core         = "core"
	Tools        = "tools"
	Interaction  = "interaction"
	Runtime      = "runtime"
	Instructions = "instructions"
	Skills       = "skills"
	WorkspaceSec = "workspace"
	MemorySec    = "memory"
	Task         = "task"
)

// SectionNames are every section of the prompt in order (P1): the stable
// sections, the dynamic ones, then the user task.
var SectionNames = []string{Core, Tools, Interaction, Runtime, Instructions, Skills, WorkspaceSec, MemorySec, Task}

// Section kinds.
const (
	KindStable  = view.KindStable
	KindDynamic = view.KindDynamic
	KindTask    = view.KindTask
)

// The preview's plain values live in package view, which report's writers
// read without the pipeline.
type (
	Section    = view.Section
	Budget     = view.Budget
	BudgetItem = view.BudgetItem
	Summary    = view.Summary
	Memory     = view.Memory
	Workspace  = view.Workspace
	Event      = view.Event
)

// Preview is what the model would see from one directory, and why: the
// plain value (view.Preview, what report's preview writers write) and what
// Invalid needs besides.
type Preview struct {
	view.Preview

	// Root is the project root the directory was resolved in (absolute):
	// --root, the Git worktree, or a repository inside it holding DIR (R1).
	Root string

	rejections map[string]string // layer path → why it was rejected, in words
}

// Invalid says why a live reload must not replace the last good render
// (P6): a rejected layer, a rejected skill, or dynamic sections over the
// budget. "" when the preview is valid.
func (p *Preview) Invalid() string {
	var why []string
	for _, l := range p.Layers {
		if l.State == string(resolve.Rejected) {
			why = append(why, fmt.Sprintf("%s is rejected (%s: %s)", l.Path, l.Reason, p.rejections[l.Path]))
		}
	}
	for _, s := range p.Skills {
		if s.State == "rejected" {
			why = append(why, fmt.Sprintf("skill %s is rejected (%s: %s)", s.Path, s.Reason, strings.TrimPrefix(s.Problem, "Rivumi will skip this skill: ")))
		}
	}
	if p.Budget.Status == "over" {
		why = append(why, fmt.Sprintf("the dynamic sections take %d bytes, over limits.max_dynamic_bytes %d by %d",
			p.Budget.Total, p.Budget.Limit, -p.Budget.Remaining))
	}
	return strings.Join(why, "; ")
}

// Build resolves the directory and renders its preview.
func Build(o Options) (*Preview, error) {
	in, err := gather(o)
	if err != nil {
		return nil, err
	}
	defer in.close()
	return in.build()
}

// inputs are what a preview is made of, gathered cheaply: the watch loop
// gathers them on every tick and builds only when their key changes.
type inputs struct {
	o          Options
	p          *project.Project
	run        *project.Run // the pipeline up to the rules (project.Start)
	res        *resolve.Resolution
	skills     []Skill
	skillNotes []string
	userNote   string
	memPath    string // OS path; "" = none
	memDisplay string
	memInRoot  bool // the memory file lies inside the project root (F10)
	memNote    string
	key        watchKey
}

// watchKey identifies the state of every input a preview reads. Each part
// changes when its input does (P6).
type watchKey struct {
	Fingerprint string // R8 fingerprint of the chain
	Skills      string // hash of the skills' names, states and bytes
	Memory      string // the memory file's identity, size and times
	Config      string // the config values
}

func (in *inputs) close() {
	if in.p != nil {
		in.p.Close()
	}
}

func gather(o Options) (*inputs, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	in := &inputs{o: o}
	home := o.Home
	if home == "" {
		home = HomeDir(os.Getenv)
	}
	popt := project.Options{Root: o.Root, Config: o.Config, Enter: true, Command: "preview",
		Agents: o.Agents, Env: o.Env}
	if o.Dir != "" {
		popt.Targets = []string{o.Dir}
	}
	switch {
	case o.UserInstructions != "":
		popt.UserInstructions = o.UserInstructions
	case o.NoUser:
	case home != "":
		// The default user file is optional: no file, no user layer.
		if f := filepath.Join(home, "RIVUMI.md"); exists(f) {
			popt.UserInstructions = f
		} else {
			in.userNote = "no user layer: " + project.Tilde(f) + " does not exist"
		}
	}
	out, err := project.Do(project.Request{Options: popt, Scope: project.Scope{DirArg: &o.Dir}, ChainsOnly: true})
	var noDir *project.NoDirError
	if errors.As(err, &noDir) {
		return nil, fmt.Errorf("preview %s: no such directory under the project root %s", resolve.DisplayDir(noDir.Dir), out.Project.Root)
	}
	if err != nil {
		return nil, err
	}
	p := out.Project
	in.p, in.run = p, out.Run
	ok := false
	defer func() {
		if !ok {
			p.Close()
		}
	}()
	in.res, in.skills, in.skillNotes = in.run.Resolutions[0], in.run.Skills, in.run.SkillNotes
	switch {
	case o.Memory != "":
		if _, err := os.Stat(o.Memory); err != nil {
			return nil, fmt.Errorf("memory file: %w", err)
		}
		in.memDisplay, in.memInRoot = project.DisplayPath(o.Memory, p.Root)
		in.memPath = o.Memory
	case o.NoMemory:
		in.memNote = "no memory: --no-memory"
	case home != "":
		f := filepath.Join(home, "memory.jsonl")
		if exists(f) {
			in.memPath, in.memDisplay = f, project.Tilde(f)
		} else {
			in.memNote = "no memory file at " + project.Tilde(f)
		}
	default:
		in.memNote = "no memory: the home directory is unknown (set RIVUMI_HOME)"
	}
	in.key = watchKey{
		Fingerprint: in.res.Fingerprint,
		Skills:      skillsKey(in.skills, in.skillNotes),
		Memory:      memoryKey(in.memPath),
		Config:      fmt.Sprintf("%s|%s|%s", in.run.Config.Settings(), in.run.ProjectKey(o.Project), popt.UserInstructions),
	}
	ok = true
	return in, nil
}

func skillsKey(skills []Skill, notes []string) string {
	h := sha256.New()
	for _, s := range skills {
		fmt.Fprintf(h, "%q %q %q %q %q %d\n", s.Name, s.State, s.Reason, s.Description, s.Problem, s.Bytes)
	}
	for _, n := range notes {
		fmt.Fprintf(h, "%q\n", n)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// memoryKey identifies the memory file's version without reading it (a
// million-line file is not hashed every tick): its inode, size and
// modification and change times.
func memoryKey(path string) string {
	if path == "" {
		return "none"
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "error: " + err.Error()
	}
	k := fmt.Sprintf("%d %d %s", fi.Size(), fi.ModTime().UnixNano(), fi.Mode())
	// Not the access time: reading the file changes it.
	return k + statKey(fi)
}

func (in *inputs) build() (*Preview, error) {
	p, o, cfg := in.p, in.o, in.run.Config
	// memory (P4): read first, as its corrupt lines are an input of the
	// rules (RL013).
	key := in.run.ProjectKey(o.Project)
	var sel memory.Selection
	var mem *lint.MemoryFile
	if in.memPath != "" {
		var err error
		if sel, err = memory.ReadFile(in.memPath, key); err != nil {
			return nil, err
		}
		mem = project.MemoryFile(in.memDisplay, in.memInRoot, sel)
		trace.Mark("memory")
	}
	res, err := in.run.Lint(mem)
	if err != nil {
		return nil, err
	}
	pv := &Preview{Preview: view.Preview{
		Version:     Version,
		Directory:   resolve.DisplayDir(in.res.Dir),
		Fingerprint: in.res.Fingerprint,
		Layers:      res.Directories[0].Layers,
		Skills:      in.skills,
		Notes:       noteTexts(p.Notes),
	}, Root: in.p.Root, rejections: map[string]string{}}
	for _, l := range in.res.Layers {
		if l.State == resolve.Rejected {
			pv.rejections[l.Path] = l.Rej.Reason
		}
	}
	if pv.Skills == nil {
		pv.Skills = []Skill{}
	}
	if in.userNote != "" {
		pv.Notes = append(pv.Notes, in.userNote)
	}
	pv.Notes = append(pv.Notes, in.skillNotes...)

	pv.Memory = Memory{Path: in.memDisplay, Project: key, Note: in.memNote}
	var memText []byte
	if in.memPath != "" {
		pv.Memory.Lines, pv.Memory.Selected, pv.Memory.Rendered = sel.Lines, sel.Selected, len(sel.Entries)
		pv.Memory.Corrupt = len(sel.Problems) + sel.MoreProblems
		memText = memory.Render(sel.Entries)
	}

	// runtime and workspace (P5)
	ws, note := workspaceOf(p.Root)
	pv.Workspace = ws
	if note != "" {
		pv.Notes = append(pv.Notes, note)
	}
	trace.Mark("workspace")
	m := o.Machine.fill(filepath.Join(p.Root, filepath.FromSlash(in.res.Dir)))
	trace.Mark("machine")

	texts := map[string][]byte{
		Runtime:      render.Runtime(render.Machine{OS: m.OS, Shell: m.Shell, WorkDir: m.WorkDir, Date: m.Now.Format(time.DateOnly)}),
		Instructions: render.Instructions(in.res),
		Skills:       skills.Render(in.skills),
		WorkspaceSec: render.Workspace(ws.Branch, ws.State),
		MemorySec:    render.Memory(memText),
	}
	omitted := map[string]string{
		Instructions: "no active layer",
		Skills:       "no skills",
		MemorySec:    "no memory entry selected",
	}
	lim := cfg.Limits
	pv.Budget = Budget{Limit: lim.MaxDynamicBytes, Warn: int64(lim.WarnRatio * float64(lim.MaxDynamicBytes)), Sections: []BudgetItem{}}
	for _, name := range SectionNames {
		s := Section{Name: name, Kind: KindDynamic}
		switch name {
		case Core, Tools, Interaction:
			s.Kind, s.Included, s.Note = KindStable, true, "named only: its text belongs to the runtime"
		case Task:
			s.Kind, s.Included, s.Note = KindTask, true, "named only: the user's task, last in the prompt"
		default:
			t := texts[name]
			s.Included, s.Bytes, s.Text = len(t) > 0, len(t), string(t)
			if !s.Included {
				s.Note = "left out: " + omitted[name]
			}
			pv.Budget.Sections = append(pv.Budget.Sections, BudgetItem{Name: name, Bytes: len(t)})
			pv.Budget.Total += len(t)
		}
		pv.Sections = append(pv.Sections, s)
	}
	b := &pv.Budget
	b.Remaining = b.Limit - int64(b.Total)
	// Every section is known here: no reserve (P3).
	b.Status = map[lint.Severity]string{lint.Error: "over", lint.Warning: "warning", lint.Off: "ok"}[lim.Budget(int64(b.Total))]
	trace.Mark("sections")
	for _, a := range in.run.Agents {
		pv.Agents = append(pv.Agents, agentView(a.Resolver.Profile(), a.Views[0]))
	}
	pv.Findings = res.Findings
	s := res.Summary()
	pv.Summary = Summary{Errors: s.Errors, Warnings: s.Warnings, Notices: s.Notices}
	if pv.Notes == nil {
		pv.Notes = []string{}
	}
	return pv, nil
}

// agentView is the preview's plain value of a profile's view (A3).
func agentView(p *agent.Profile, v *agent.View) view.Agent {
	a := view.Agent{Agent: p.Name, Product: p.Product, Version: p.Version, Start: resolve.DisplayDir(v.Start),
		Exact: v.Exact(), Inexact: v.Inexact, Lost: v.Lost, Files: []view.AgentFile{}}
	if v.User != nil {
		a.User = project.Tilde(v.User.Path)
	}
	for _, c := range v.Candidates {
		a.Files = append(a.Files, view.AgentFile{Path: c.Path, State: string(c.State), Bytes: c.Size, Kept: c.Kept,
			Link: c.Link, Line: c.Line, Column: c.Column, Reason: c.Reason, Label: c.Label, Shown: c.Shown})
	}
	msg := v.Message()
	a.Bytes, a.Text = len(msg), string(msg)
	return a
}

// noteTexts are the run's notes as the preview lists them, a warning
// marked "warning: ".
func noteTexts(notes []project.Note) []string {
	out := make([]string, 0, len(notes))
	for _, n := range notes {
		out = append(out, n.String())
	}
	return out
}
