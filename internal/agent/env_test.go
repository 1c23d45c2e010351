package agent

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
)

func TestEnvFrom(t *testing.T) {
	home := func() (string, error) { return "/h", nil }
	noHome := func() (string, error) { return "", errors.New("no $HOME") }
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	names := []string{"CODEX_HOME", "COPILOT_CUSTOM_INSTRUCTIONS_DIRS"}
	for _, c := range []struct {
		name   string
		getenv func(string) string
		home   func() (string, error)
		want   Env
	}{
		{"defaults", env(nil), home, Env{Home: "/h"}},
		{"a variable set", env(map[string]string{"CODEX_HOME": "/c"}), home, Env{Home: "/h", Vars: map[string]string{"CODEX_HOME": "/c"}}},
		// Only the names asked for are read.
		{"another variable", env(map[string]string{"PATH": "/bin"}), home, Env{Home: "/h"}},
		{"without a home", env(map[string]string{"CODEX_HOME": "/c"}), noHome, Env{Vars: map[string]string{"CODEX_HOME": "/c"}}},
		{"no home at all", env(nil), noHome, Env{}},
	} {
		if got := EnvFrom(c.getenv, c.home, names); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: EnvFrom = %+v, want %+v", c.name, got, c.want)
		}
	}
	if got, want := (Env{Home: "/h"}).InHome(".codex"), filepath.Join("/h", ".codex"); got != want {
		t.Errorf("InHome = %q, want %q", got, want)
	}
	if got := (Env{}).InHome(".codex"); got != "" {
		t.Errorf("InHome without a home = %q, want empty", got)
	}
}
