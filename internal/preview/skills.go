package preview

import "github.com/rivumi/rivumi-lint/internal/skills"

// Skill is one entry of .rivumi/skills as the preview decided it (P4b).
type Skill = skills.Skill
