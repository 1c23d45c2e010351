package agent

import "github.com/rivumi/rivumi-lint/internal/resolve"

// ViewsOn is Views with the choice of goroutines made by the test.
func ViewsOn(e *resolve.Engine, builds []Build, dirs []string, beside func(share func(resolve.Source) resolve.Source), parallel bool) ([]Resolver, [][]*View, error) {
	return views(e, builds, dirs, beside, parallel)
}
