// Package conventions holds the tests that keep the module's own rules
// about its code (AGENTS.md, docs/architecture.md), as vet would if it knew
// them: no test writes a package-level variable, so tests run in parallel
// and every dependency is passed in; no package but repo reads Git's files
// or configuration.
package conventions
