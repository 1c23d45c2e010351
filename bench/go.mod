module github.com/rivumi/rivumi-lint/bench

go 1.26.0
