// Package lint holds every rule (§5) and runs them: each rule is a value
// in its own file (rl*.go) that registers itself, declares the input it
// reads and reports findings; Check runs the enabled rules over their
// inputs and returns the Result every output format reads.
//
// Adding a rule touches its file here, its testscript
// (testdata/script/rlNNN_*.txtar) and what is regenerated from the table:
// docs/rules.md (go test ./internal/lint -run TestRulesDoc -update) and SARIF's
// rule list in internal/report/testdata/sarif_fixture.golden (go test ./internal/report
// -update) and the config's JSON Schema, which lists the rule ids
// (go test ./internal/config -run TestSchemaCommittedX3 -update).
package lint
