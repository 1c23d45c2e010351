// Package skills reads the skills of a project (SPEC P4b): every
// .rivumi/skills/NAME/SKILL.md under the root, read through the engine's
// Source under the read constraints C1–C5, with the description taken from
// its YAML front matter. It is the single definition of "skill" for the
// preview and for check's budget (P3 counts the skills section), and it
// depends only on the engine, so package lint may import it.
package skills

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/render"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Dir is where skills live, relative to the root (P4b).
const Dir = ".rivumi/skills"

// File is the file of one skill inside Dir/NAME.
const File = "SKILL.md"

// Skill is one entry of Dir as the preview decided it.
type Skill struct {
	Name string `json:"name"`
	Path string `json:"path"` // .rivumi/skills/NAME/SKILL.md, relative to the root
	// State is active (listed in the skills section) or rejected (C1–C5
	// failed, or the name cannot be one line: not listed).
	State string `json:"state"`
	// Reason is the rule id of a rejection (RL001–RL004, RL012), "" when active.
	Reason      string `json:"reason"`
	Description string `json:"description"`
	Bytes       int64  `json:"bytes"`
	// Problem says what is wrong, in words: why the skill is rejected, or
	// that it has no description (it is then listed without text). "" when
	// nothing is.
	Problem string `json:"problem"`
}

// Read reads every Dir/NAME/SKILL.md through the engine's
// source, under the same read constraints as instruction files (C1–C5):
// nothing behind a symbolic link is opened, nothing blocks, at most
// maxBytes+1 bytes are read. Skills are in byte order of NAME. Entries of
// Dir that are not directories are not skills and are ignored; a
// directory without SKILL.md is mentioned in the notes. A fatal error of
// the source (a missing or corrupt Git object, F6) is returned: it never
// becomes a rejected or missing skill.
func Read(src resolve.Source, maxBytes int64) (skills []Skill, notes []string, err error) {
	ents, err := src.List(Dir)
	if err != nil {
		var le *resolve.LinkedDirError
		switch {
		case resolve.IsFatal(err):
		case errors.Is(err, fs.ErrNotExist):
			return nil, nil, nil
		case errors.As(err, &le):
			return nil, []string{fmt.Sprintf("%s is below %s, a symbolic link: Rivumi loads no skills from it", Dir, le.Dir)}, nil
		}
		return nil, nil, fmt.Errorf("list %s: %w", Dir, err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name < ents[j].Name })
	for _, ent := range ents {
		dir := path.Join(Dir, ent.Name)
		s := Skill{Name: ent.Name, Path: path.Join(dir, File), State: "active"}
		switch ent.Kind {
		case resolve.Dir:
		case resolve.Symlink:
			to, err := linkTo(src, dir, ent.Note)
			if err != nil {
				return nil, nil, err
			}
			s.reject("RL001", "the skill directory "+dir+" is a symbolic link"+to)
			skills = append(skills, s)
			continue
		case resolve.Submodule:
			s.reject("RL002", "the skill directory "+dir+" is a Git submodule")
			skills = append(skills, s)
			continue
		default:
			continue // a file beside the skill directories is not a skill
		}
		sub, err := src.List(dir)
		if resolve.IsFatal(err) {
			return nil, nil, fmt.Errorf("list %s: %w", dir, err)
		}
		if err != nil {
			s.reject("RL012", fmt.Sprintf("cannot list %s: %v", dir, err))
			skills = append(skills, s)
			continue
		}
		var file *resolve.Entry
		for i := range sub {
			if sub[i].Name == File {
				file = &sub[i]
			}
		}
		if file == nil {
			notes = append(notes, fmt.Sprintf("%s has no %s: it is not a skill", dir, File))
			continue
		}
		if err := s.load(src, *file, maxBytes); err != nil {
			return nil, nil, err
		}
		skills = append(skills, s)
	}
	return skills, notes, nil
}

func (s *Skill) reject(rule, problem string) {
	s.State, s.Reason, s.Problem = "rejected", rule, "Rivumi will skip this skill: "+problem
}

func linkTo(src resolve.Source, p, note string) (string, error) {
	if note != "" {
		return " (" + note + ")", nil
	}
	t, err := src.LinkTarget(p)
	if err != nil || t == "" {
		return "", err
	}
	return " to " + t, nil
}

// load applies C1–C5 to a skill's file and parses its front matter. The
// error is the source's fatal error (F6), never a rejection.
func (s *Skill) load(src resolve.Source, ent resolve.Entry, maxBytes int64) error {
	switch ent.Kind {
	case resolve.Regular:
	case resolve.Symlink:
		if ent.Note != "" { // a noun phrase with its article (resolve.Entry)
			s.reject("RL001", "it is "+ent.Note)
			return nil
		}
		to, err := linkTo(src, s.Path, "")
		if err != nil {
			return err
		}
		s.reject("RL001", "it is a symbolic link"+to)
		return nil
	default:
		what := "a " + ent.Kind.String()
		if ent.Note != "" {
			what = ent.Note
		}
		s.reject("RL002", "it is "+what+", not a regular file")
		return nil
	}
	data, kind, size, err := src.Read(s.Path, maxBytes)
	switch {
	case resolve.IsFatal(err):
		return fmt.Errorf("read %s: %w", s.Path, err)
	case err != nil:
		s.reject("RL012", err.Error())
		return nil
	case kind == resolve.Symlink:
		to, err := linkTo(src, s.Path, "")
		if err != nil {
			return err
		}
		s.reject("RL001", "it is a symbolic link"+to)
		return nil
	case kind == resolve.Missing:
		s.reject("RL012", "it vanished while being read")
		return nil
	case kind != resolve.Regular:
		s.reject("RL002", "it is a "+kind.String()+", not a regular file")
		return nil
	case size > maxBytes || int64(len(data)) > maxBytes:
		s.Bytes = max(size, int64(len(data)))
		s.reject("RL003", fmt.Sprintf("it is over the limit of %d bytes (limits.max_file_bytes)", maxBytes))
		return nil
	}
	s.Bytes = int64(len(data))
	if inv := content.CheckUTF8(data); inv != nil {
		msg := fmt.Sprintf("it is not valid UTF-8: first invalid byte at line %d, column %d (offset %d)", inv.Line, inv.Column, inv.Offset)
		if inv.BOM != "" {
			msg = "it is encoded as " + inv.BOM + ", not UTF-8; re-save it as UTF-8"
		}
		s.reject("RL004", msg)
		return nil
	}
	if strings.ContainsFunc(s.Name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		s.reject("RL010", "its name holds a control character and cannot be listed on one line")
		return nil
	}
	desc, ok := Description(data)
	s.Description = desc
	switch {
	case !ok:
		s.Problem = "no description: " + File + " has no `description:` line in a YAML front matter (--- … --- at the top); the skill is listed without text"
	case desc == "":
		s.Problem = "empty description: the `description:` line of its front matter has no text; the skill is listed without text"
	}
	if _, n := content.Markers([]byte(s.Name+"\n"+desc), 0); n > 0 {
		s.Problem = strings.TrimPrefix(s.Problem+"; ", "; ") +
			"its name or description contains <rivumi: or </rivumi:, which could close the skills section or forge another (RL008)"
	}
	return nil
}

// Description returns the value of the top-level `description:` key of the
// YAML front matter that opens data: a line `---` first (after an optional
// UTF-8 BOM), the matter, then a line `---` or `...`. ok is false when there
// is no front matter or no description key in it.
//
// Supported values: plain, 'single-quoted' and "double-quoted" scalars on
// the key's line, and the block scalars `>` and `|` (with an optional
// chomping indicator) whose indented lines follow. The value is made one
// line: every run of white space (line breaks included) becomes one space,
// and white space at both ends is trimmed. A comment (` #…`) ends a plain
// value. Anything more exotic is taken as plain text.
func Description(data []byte) (desc string, ok bool) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t") != "---" {
		return "", false
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		if t := strings.TrimRight(lines[i], " \t"); t == "---" || t == "..." {
			end = i
			break
		}
	}
	if end < 0 {
		return "", false
	}
	matter := lines[1:end]
	for i, l := range matter {
		v, found := strings.CutPrefix(l, "description:")
		if !found {
			continue
		}
		if v != "" && v[0] != ' ' && v[0] != '\t' {
			continue // description:x is not the key (YAML needs a space)
		}
		ok = true
		v = strings.TrimSpace(v)
		switch {
		case v == "":
			desc = ""
		case v[0] == '>' || v[0] == '|':
			var parts []string
			for _, l := range matter[i+1:] {
				if strings.TrimSpace(l) == "" {
					continue
				}
				if l[0] != ' ' && l[0] != '\t' {
					break
				}
				parts = append(parts, strings.TrimSpace(l))
			}
			desc = strings.Join(parts, " ")
		case v[0] == '"':
			if u, err := strconv.Unquote(v); err == nil {
				desc = u
			} else if j := strings.LastIndexByte(v, '"'); j > 0 {
				desc = v[1:j]
			} else {
				desc = v
			}
		case v[0] == '\'':
			if j := strings.LastIndexByte(v, '\''); j > 0 {
				desc = strings.ReplaceAll(v[1:j], "''", "'")
			} else {
				desc = v
			}
		default:
			if j := strings.Index(v, " #"); j >= 0 {
				v = v[:j]
			}
			desc = v
		}
		desc = strings.Join(strings.Fields(desc), " ")
		// The last occurrence wins, as in YAML decoders that allow duplicates.
	}
	return desc, ok
}

// Lines are the listed (active) skills, in order.
func Lines(skills []Skill) []render.SkillLine {
	var out []render.SkillLine
	for _, s := range skills {
		if s.State == "active" {
			out = append(out, render.SkillLine{Name: s.Name, Description: s.Description})
		}
	}
	return out
}

// Render renders the skills section of skills (nil when none is listed).
func Render(skills []Skill) []byte { return render.Skills(Lines(skills)) }
