module github.com/rivumi/rivumi-lint/bench

go 1.26.0

// The benchmark times this checkout's engine (resolve): the main module
// from the directory above, never a published version.
require github.com/rivumi/rivumi-lint v0.0.0-00010101000000-000000000000

require golang.org/x/sys v0.50.0 // indirect

replace github.com/rivumi/rivumi-lint => ../
