package profiles

import (
	"fmt"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/copilot"
	"github.com/rivumi/rivumi-lint/internal/config"
)

const copilotDirsVar = "COPILOT_CUSTOM_INSTRUCTIONS_DIRS"

var copilotRow = Row{Profile: copilot.Profile,
	Config: config.Profile{Name: copilot.Name,
		Doc: "The copilot profile's settings (#35): what the users' GitHub Copilot CLI environment changes.",
		Keys: []config.Key{
			{Path: "custom_instructions_dirs", Kind: config.KindPatterns, Def: []string{},
				Doc: "The users' COPILOT_CUSTOM_INSTRUCTIONS_DIRS (absolute directories), not modelled yet: when any is set here or in the environment, every copilot view is not exact."},
		}},
	Env:     []string{copilotDirsVar},
	Also:    func(config.Values) []string { return copilot.Also() },
	AnyCase: copilot.AnyCase(),
	Build:   buildCopilot,
}

// buildCopilot builds the copilot resolver: the user's files from
// ~/.copilot, read once per run.
func buildCopilot(s config.Values, at Place) (agent.Build, error) {
	o := copilot.Options{RootAbs: at.RootAbs, CustomDirs: at.Env.Get(copilotDirsVar)}
	if dirs := s.Strings("custom_instructions_dirs"); o.CustomDirs == "" && len(dirs) > 0 {
		o.CustomDirs = strings.Join(dirs, ",")
	}
	// Copilot's chain runs from the Git top (the worktree's own, for a
	// linked one), which the root is, or lies above.
	o.Git = at.GitDir != "" && at.Prefix == ""
	o.GitAbove = at.GitDir != "" && at.Prefix != ""
	var err error
	if o.User, err = copilot.ReadUser(at.Env.InHome(".copilot")); err != nil {
		return nil, fmt.Errorf("copilot profile: %w", err)
	}
	return func(e agent.Engine) (agent.Resolver, error) { return copilot.New(e, o), nil }, nil
}
