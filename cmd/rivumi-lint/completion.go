package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/profiles"
	"github.com/rivumi/rivumi-lint/internal/report"
)

// cmdCompletion prints a shell completion script (issue #26). The
// commands and flags come from the commands' own --help, so the script
// cannot list a flag that does not exist or miss one that does.
func cmdCompletion(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && isHelp(args[0]) {
		commandHelp(stdout, "completion", nil, "bash:  source <(rivumi-lint completion bash)          (~/.bashrc)\nzsh:   source <(rivumi-lint completion zsh)           (~/.zshrc)\nfish:  rivumi-lint completion fish > ~/.config/fish/completions/rivumi-lint.fish\n")
		return exitOK
	}
	if len(args) != 1 {
		return fail(stderr, &usageError{"completion takes one shell: bash, zsh or fish"})
	}
	spec := completionSpec()
	switch args[0] {
	case "bash":
		io.WriteString(stdout, bashCompletion(spec))
	case "zsh":
		// zsh runs the bash script through bashcompinit, its own bridge.
		io.WriteString(stdout, "#compdef rivumi-lint\n(( $+functions[compdef] )) || { autoload -U +X compinit && compinit; }\nautoload -U +X bashcompinit && bashcompinit\n"+bashCompletion(spec))
	case "fish":
		io.WriteString(stdout, fishCompletion(spec))
	default:
		return fail(stderr, &usageError{fmt.Sprintf("unknown shell %q: bash, zsh or fish", args[0])})
	}
	return exitOK
}

// completion is what a script completes: each command's flags, and the
// values of the flags that take one of a few words.
type completion struct {
	commands []string
	flags    map[string][]string // command → "--name" and "-x"
	values   map[string][]string // flag → its words
}

var helpFlag = regexp.MustCompile(`^  (--[a-z0-9-]+)(?: [^,]+)?(?:, (-[a-z]))?`)

func completionSpec() completion {
	c := completion{flags: map[string][]string{}, values: map[string][]string{
		"--format":  report.Names(),
		"-f":        report.Names(),
		"--agent":   append(profiles.Names(), "all"),
		"--fail-on": {"error", "warning", "notice", "never"},
		"--color":   {"auto", "always", "never"},
		"--section": dynamicSections(),
	}}
	for _, cmd := range commands {
		c.commands = append(c.commands, cmd.name)
		if cmd.name == "help" || cmd.name == "completion" {
			continue
		}
		var out bytes.Buffer
		run([]string{cmd.name, "--help"}, env{Stdout: &out, Stderr: io.Discard})
		for _, line := range strings.Split(out.String(), "\n") {
			if m := helpFlag.FindStringSubmatch(line); m != nil {
				c.flags[cmd.name] = append(c.flags[cmd.name], m[1])
				if m[2] != "" {
					c.flags[cmd.name] = append(c.flags[cmd.name], m[2])
				}
			}
		}
	}
	c.values["hook"] = []string{"install", "uninstall"}
	c.values["completion"] = []string{"bash", "zsh", "fish"}
	return c
}

func bashCompletion(c completion) string {
	var b strings.Builder
	b.WriteString("# rivumi-lint completion for bash (rivumi-lint completion bash)\n")
	b.WriteString("_rivumi_lint() {\n  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]} opts=\n")
	fmt.Fprintf(&b, "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n    return\n  fi\n", strings.Join(c.commands, " "))
	b.WriteString("  case \"$prev\" in\n")
	for _, f := range sortedKeys(c.values) {
		if !strings.HasPrefix(f, "-") {
			continue
		}
		fmt.Fprintf(&b, "  %s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", f, strings.Join(c.values[f], " "))
	}
	b.WriteString("  esac\n  case \"$cmd\" in\n")
	for _, cmd := range c.commands {
		words := c.flags[cmd]
		if v, ok := c.values[cmd]; ok && len(v) > 0 {
			words = append(append([]string{}, words...), v...)
		}
		if cmd == "help" {
			words = c.commands
		}
		if len(words) > 0 {
			fmt.Fprintf(&b, "  %s) opts=%q ;;\n", cmd, strings.Join(words, " "))
		}
	}
	b.WriteString("  esac\n  if [[ $cur == -* || $cmd == help || $cmd == hook || $cmd == completion ]]; then\n    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n  else\n    COMPREPLY=($(compgen -f -- \"$cur\"))\n  fi\n}\n")
	b.WriteString("complete -o filenames -F _rivumi_lint rivumi-lint\n")
	return b.String()
}

func fishCompletion(c completion) string {
	var b strings.Builder
	b.WriteString("# rivumi-lint completion for fish (rivumi-lint completion fish)\n")
	for _, cmd := range commands {
		fmt.Fprintf(&b, "complete -c rivumi-lint -f -n __fish_use_subcommand -a %s -d %s\n", cmd.name, fishQuote(cmd.desc))
	}
	for _, cmd := range c.commands {
		cond := fishQuote("__fish_seen_subcommand_from " + cmd)
		for _, f := range c.flags[cmd] {
			words, takes := c.values[f]
			switch {
			case strings.HasPrefix(f, "--") && takes:
				fmt.Fprintf(&b, "complete -c rivumi-lint -n %s -l %s -x -a %s\n", cond, f[2:], fishQuote(strings.Join(words, " ")))
			case strings.HasPrefix(f, "--"):
				fmt.Fprintf(&b, "complete -c rivumi-lint -n %s -l %s\n", cond, f[2:])
			default:
				fmt.Fprintf(&b, "complete -c rivumi-lint -n %s -s %s\n", cond, f[1:])
			}
		}
		if words, ok := c.values[cmd]; ok {
			fmt.Fprintf(&b, "complete -c rivumi-lint -f -n %s -a %s\n", cond, fishQuote(strings.Join(words, " ")))
		}
	}
	return b.String()
}

// fishQuote quotes s for fish: single quotes, with ' and \ escaped.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func sortedKeys(m map[string][]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
