package preview

import "github.com/rivumi/rivumi-lint/internal/skills"

// Skill is one entry of .rivumi/skills as the preview decided it (P4b).
type Skill = skills.Skill

// Description returns the description of a SKILL.md (see skills.Description).
func Description(data []byte) (desc string, ok bool) { return skills.Description(data) }
