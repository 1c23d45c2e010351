package agent

import "path/filepath"

// Env is where the agents find their user-level files, read from the
// process's environment once per run and handed to every front end, so
// check, preview, fix, the hooks, the language server and the MCP server
// resolve the same views. Each profile takes what it needs from it.
type Env struct {
	// Home is the user's home directory; "" for none.
	Home string
	// Vars are the environment variables the profiles read, by name
	// (only those set).
	Vars map[string]string
}

// EnvFrom reads the variables names (the profiles' registry lists them)
// through getenv and the home directory through home (os.UserHomeDir).
func EnvFrom(getenv func(string) string, home func() (string, error), names []string) Env {
	var e Env
	if h, err := home(); err == nil {
		e.Home = h
	}
	for _, n := range names {
		if v := getenv(n); v != "" {
			if e.Vars == nil {
				e.Vars = map[string]string{}
			}
			e.Vars[n] = v
		}
	}
	return e
}

// Get is the variable name's value, "" when it is not set.
func (e Env) Get(name string) string { return e.Vars[name] }

// InHome is the path of rel below the home directory, "" without one.
func (e Env) InHome(rel string) string {
	if e.Home == "" {
		return ""
	}
	return filepath.Join(e.Home, rel)
}
