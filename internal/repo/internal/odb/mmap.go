package odb

import (
	"fmt"
	"os"
)

// mapFile maps name read-only: a pack index or pack is read through the
// pages the lookups touch, never copied whole. The mapping outlives the
// descriptor; unmap releases it.
func mapFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() == 0 {
		return []byte{}, nil
	}
	if fi.Size() != int64(int(fi.Size())) {
		return nil, fmt.Errorf("%s is too large to map", name)
	}
	b, err := mmapFile(f, int(fi.Size()))
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", name, err)
	}
	return b, nil
}
