package odb

// MapFile maps the file name read-only, as the pack readers do; the repo
// package maps the index file with it. The mapping outlives the
// descriptor and is never released: an index is read once per run.
func MapFile(name string) ([]byte, error) { return mapFile(name) }
