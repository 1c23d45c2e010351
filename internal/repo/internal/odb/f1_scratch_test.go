package odb

import "testing"

// TestF1ScratchIsNeverCached: bytes ReadInto hands out as scratch are the
// caller's alone. A walk overwrites its scratch with the next tree; here
// every scratch answer is overwritten at once, and every later read, of
// every object in a pack of long delta chains (whose intermediate objects
// the base cache keeps), must still be git's (F1).
func TestF1ScratchIsNeverCached(t *testing.T) {
	g := packRepo(t)
	g.Git("repack", "-adfq", "--depth=50", "--window=50")
	objs := allObjects(t, g)
	store := openStore(t, g)
	shared := 0
	for pass := range 3 {
		for i := range objs {
			o := objs[i]
			if pass == 1 {
				o = objs[len(objs)-1-i]
			}
			h, _ := ParseHash(o.id)
			data, _, scratch, err := store.ReadInto(h, objTypeNamed(o.typ), 1<<30, nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != o.content {
				t.Fatalf("pass %d: %s %s: got %d bytes unlike git's %d (a scratch buffer was cached?)", pass, o.typ, o.id, len(data), len(o.content))
			}
			if !scratch {
				shared++
				continue
			}
			for k := range data {
				data[k] = 0xAA
			}
		}
	}
	if shared == 0 {
		t.Error("no read was served from the base cache: the test proves nothing")
	}
}
