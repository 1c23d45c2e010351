package odb

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Native reads objects straight from the object directories (the
// repository's, then its alternates), without go-git's storage:
//
//   - a pack index is memory-mapped and an id is found by a binary search
//     inside its fanout bucket, so opening a repository reads nothing but
//     the pages the search touches, never a whole index or a map of every
//     object in the pack;
//   - a pack is memory-mapped once and stays mapped until close (no open,
//     seek or read per object);
//   - objects are inflated by inflateRaw, straight from the mapped pack
//     into the caller's buffer (compress/flate reads a byte at a time
//     through an interface, and every object of a diff is inflated);
//   - delta bases, and the trees read with ReadShared, are kept in a small
//     cache, so a chain is inflated once, and so is a tree that the other
//     side of a diff has as its delta base.
//
// Sizes come from the entry header (for a delta, from the delta's own
// header, which records the size of the result), so a 2 GiB blob is never
// inflated (C3).
//
// Reads may run on several goroutines at once (Repo's parallel tree
// loads): the packs' list is guarded, each read takes a decompressor from
// a pool, the base cache has its own lock.
type Native struct {
	dirs     []string // objects directories, searched in order
	hashSize int
	mu       sync.RWMutex // guards packs and rescan
	packs    []*pack
	rescan   bool // packs were listed again after a miss
	cache    baseCache
	counts   counts
}

// pack is one pack file and its index.
type pack struct {
	name     string // the .pack path, for messages
	idx      []byte // the mapped .idx
	dataOnce sync.Once
	data     []byte // the mapped .pack, mapped on first use
	dataErr  error
	n        int
	version  int // index version: 1 or 2
	hs       int
}

const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

// maxDeltaResult bounds an object rebuilt from deltas, and so what a
// corrupt or hostile delta can make this process allocate. Git never
// delta-compresses an object over core.bigFileThreshold (512 MiB by
// default), and no object read here may be that large (trees stop at
// maxTreeBytes, blobs are read after a size check, C3).
const maxDeltaResult = 512 << 20

// inflateStep is the largest buffer allocated for an inflate before the
// data has arrived: a size from a header is a claim, and a larger buffer
// grows as the bytes really come.
const inflateStep = 1 << 20

// Open opens the object database of objectDirs (the repository's objects
// directory, then its alternates, searched in that order) for object ids
// of hashSize bytes: it maps every pack index and reads nothing else.
func Open(objectDirs []string, hashSize int) (*Native, error) {
	s := &Native{dirs: objectDirs, hashSize: hashSize}
	s.cache.max = 32 << 20
	if err := s.scanPacks(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// scanPacks maps the index of every pack of every object directory, the
// newest packs first (as Git searches them). Packs already mapped are
// kept.
func (s *Native) scanPacks() error {
	have := map[string]bool{}
	for _, p := range s.packs {
		have[p.name] = true
	}
	for _, dir := range s.dirs {
		pdir := filepath.Join(dir, "pack")
		ents, err := os.ReadDir(pdir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("list %s: %w", pdir, err)
		}
		type cand struct {
			name  string
			mtime int64
		}
		var cands []cand
		for _, e := range ents {
			name := e.Name()
			if !strings.HasSuffix(name, ".idx") || !strings.HasPrefix(name, "pack-") {
				continue
			}
			packName := filepath.Join(pdir, strings.TrimSuffix(name, ".idx")+".pack")
			if have[packName] {
				continue
			}
			var mt int64
			if fi, err := e.Info(); err == nil {
				mt = fi.ModTime().UnixNano()
			}
			cands = append(cands, cand{packName, mt})
		}
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].mtime > cands[j].mtime })
		for _, c := range cands {
			p, err := openPackIndex(c.name, s.hashSize)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					continue // an index without its pack, or removed meanwhile
				}
				return err
			}
			s.packs = append(s.packs, p)
		}
	}
	return nil
}

// openPackIndex maps NAME.idx and checks its layout.
func openPackIndex(packName string, hs int) (*pack, error) {
	idxName := strings.TrimSuffix(packName, ".pack") + ".idx"
	if _, err := os.Stat(packName); err != nil {
		return nil, err
	}
	idx, err := mapFile(idxName)
	if err != nil {
		return nil, err
	}
	p, err := parsePackIndex(packName, idx, hs)
	if err != nil {
		unmap(idx)
		return nil, err
	}
	return p, nil
}

// parsePackIndex checks the layout of the index idx of the pack packName
// (version 1, or 2 with its 64-bit offset table), enough that every later
// look-up stays inside it.
func parsePackIndex(packName string, idx []byte, hs int) (*pack, error) {
	p := &pack{name: packName, idx: idx, hs: hs}
	bad := func(why string) (*pack, error) {
		return nil, fmt.Errorf("pack index %s is corrupt: %s", strings.TrimSuffix(packName, ".pack")+".idx", why)
	}
	fan := 0
	if len(idx) >= 8 && string(idx[:4]) == "\xfftOc" {
		if v := binary.BigEndian.Uint32(idx[4:8]); v != 2 {
			return bad(fmt.Sprintf("version %d", v))
		}
		p.version, fan = 2, 8
	} else {
		p.version = 1
	}
	if len(idx) < fan+1024 {
		return bad("truncated")
	}
	p.n = int(binary.BigEndian.Uint32(idx[fan+1020 : fan+1024]))
	need := fan + 1024 + p.n*(hs+4) + 2*hs
	if p.version == 2 {
		need = fan + 1024 + p.n*(hs+8) + 2*hs
	}
	if p.n < 0 || len(idx) < need {
		return bad("truncated")
	}
	return p, nil
}

func (p *pack) close() {
	unmap(p.idx)
	unmap(p.data)
	p.idx, p.data = nil, nil
}

// find returns the pack offset of the object h, or -1.
func (p *pack) find(h []byte) int64 {
	hs := p.hs
	fan := 0
	if p.version == 2 {
		fan = 8
	}
	b := int(h[0])
	lo := 0
	if b > 0 {
		lo = int(binary.BigEndian.Uint32(p.idx[fan+4*(b-1):]))
	}
	hi := int(binary.BigEndian.Uint32(p.idx[fan+4*b:]))
	if hi > p.n || lo > hi {
		return -1
	}
	// Version 1 entries are (offset, id); version 2 has a table of ids,
	// then one of 4-byte offsets, then one of 8-byte large offsets.
	table, stride, idAt := fan+1024, hs, 0
	if p.version == 1 {
		stride, idAt = 4+hs, 4
	}
	i := lo + sort.Search(hi-lo, func(k int) bool {
		e := table + (lo+k)*stride + idAt
		return bytes.Compare(p.idx[e:e+hs], h) >= 0
	})
	if e := table + i*stride + idAt; i == hi || !bytes.Equal(p.idx[e:e+hs], h) {
		return -1
	}
	if p.version == 1 {
		return int64(binary.BigEndian.Uint32(p.idx[table+i*stride:]))
	}
	offs := table + p.n*(hs+4)
	o := binary.BigEndian.Uint32(p.idx[offs+4*i:])
	if o&0x80000000 == 0 {
		return int64(o)
	}
	large := offs + 4*p.n + 8*int(o&0x7fffffff)
	if large+8 > len(p.idx) {
		return -1
	}
	return int64(binary.BigEndian.Uint64(p.idx[large:]))
}

// pack data, mapped on first use.
func (p *pack) bytes() ([]byte, error) {
	p.dataOnce.Do(func() {
		p.data, p.dataErr = mapFile(p.name)
		if p.dataErr == nil {
			if p.dataErr = checkPackData(p.name, p.data, p.hs); p.dataErr != nil {
				unmap(p.data)
				p.data = nil
			}
		}
	})
	return p.data, p.dataErr
}

// checkPackData checks the header of pack data: entryAt relies on it.
func checkPackData(name string, data []byte, hs int) error {
	if len(data) < 12+hs || string(data[:4]) != "PACK" {
		return fmt.Errorf("%s is not a pack file", name)
	}
	return nil
}

// entry is a parsed pack entry header.
type entry struct {
	typ     int
	size    int64 // the object's size, or for a delta the delta's size
	data    int64 // offset of the zlib stream
	baseOff int64 // ofs-delta: the base's offset
	baseID  []byte
}

func (p *pack) entryAt(off int64) (entry, error) {
	d, err := p.bytes()
	if err != nil {
		return entry{}, err
	}
	end := int64(len(d) - p.hs)
	corrupt := func() (entry, error) {
		return entry{}, fmt.Errorf("corrupt pack %s: bad entry at offset %d", p.name, off)
	}
	if off < 12 || off >= end {
		return corrupt()
	}
	i := off
	c := d[i]
	i++
	e := entry{typ: int(c>>4) & 7, size: int64(c & 15)}
	shift := uint(4)
	for c&0x80 != 0 {
		if i >= end || shift > 56 {
			return corrupt()
		}
		c = d[i]
		i++
		e.size |= int64(c&0x7f) << shift
		shift += 7
	}
	switch e.typ {
	case packCommit, packTree, packBlob, packTag:
	case packOfsDelta:
		if i >= end {
			return corrupt()
		}
		c = d[i]
		i++
		rel := int64(c & 0x7f)
		for c&0x80 != 0 {
			if i >= end || rel > 1<<55 {
				return corrupt()
			}
			c = d[i]
			i++
			rel = (rel+1)<<7 | int64(c&0x7f)
		}
		e.baseOff = off - rel
		if e.baseOff < 12 || rel == 0 {
			return corrupt()
		}
	case packRefDelta:
		if i+int64(p.hs) > end {
			return corrupt()
		}
		e.baseID = d[i : i+int64(p.hs)]
		i += int64(p.hs)
	default:
		return corrupt()
	}
	e.data = i
	return e, nil
}

// inflate returns the first n bytes of the zlib stream at off (all of it
// when the stream is shorter).
func (s *Native) inflate(p *pack, off int64, n int64) ([]byte, error) {
	return s.inflateInto(p, off, n, nil)
}

// inflateInto is inflate into dst's storage when it is large enough.
func (s *Native) inflateInto(p *pack, off int64, n int64, dst []byte) ([]byte, error) {
	d, err := p.bytes()
	if err != nil {
		return nil, err
	}
	return s.inflateFrom(d[off:], n, p.name, dst)
}

// inflateFrom inflates the zlib stream at the start of src. The two-byte
// zlib header is checked and skipped and the raw deflate data is decoded
// by inflateRaw; the Adler-32 trailer is not verified (only the first n
// bytes may be read, and Git's object ids are not checked either).
func (s *Native) inflateFrom(src []byte, n int64, what string, dst []byte) ([]byte, error) {
	if len(src) < 2 || src[0]&0x0f != 8 || src[0]>>4 > 7 || (uint16(src[0])<<8|uint16(src[1]))%31 != 0 || src[1]&0x20 != 0 {
		return nil, fmt.Errorf("%s: inflate: bad zlib header", what)
	}
	if n < 0 || n != int64(int(n)) {
		return nil, fmt.Errorf("%s: inflate: bad size %d", what, n)
	}
	// The buffer grows as the bytes arrive: n comes from a header and
	// may be a lie.
	buf := dst[:0]
	if int64(cap(buf)) < n {
		buf = make([]byte, 0, min(n, inflateStep))
	}
	buf, err := inflateRaw(buf, src[2:], int(n))
	if err != nil {
		return nil, fmt.Errorf("%s: inflate: %w", what, err)
	}
	count(&s.counts.inflates, 1)
	count(&s.counts.inflated, int64(len(buf)))
	return buf, nil
}

// readUpTo reads up to n bytes of r, into dst's storage when it is large
// enough. A short stream gives fewer bytes and no error (the callers
// compare the length with the size they expect). The buffer grows as the
// bytes arrive: n comes from a header and may be a lie.
func readUpTo(r io.Reader, n int64, dst []byte) ([]byte, error) {
	if n < 0 {
		return nil, errors.New("negative size")
	}
	buf := dst[:0]
	if int64(cap(buf)) < n {
		buf = make([]byte, 0, min(n, inflateStep))
	}
	for int64(len(buf)) < n {
		if len(buf) == cap(buf) {
			bigger := make([]byte, len(buf), min(n, 2*int64(cap(buf))))
			copy(bigger, buf)
			buf = bigger
		}
		m, err := r.Read(buf[len(buf):min(int64(cap(buf)), n)])
		buf = buf[:len(buf)+m]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// locate finds h in the packs, listing them again once after a miss (a
// concurrent repack may have added one).
func (s *Native) locate(h Hash) (*pack, int64) {
	id := h.Bytes()
	s.mu.RLock()
	packs := s.packs
	s.mu.RUnlock()
	for _, p := range packs {
		if off := p.find(id); off >= 0 {
			return p, off
		}
	}
	return nil, -1
}

func (s *Native) locateAgain(h Hash) (*pack, int64) {
	s.mu.Lock()
	if s.rescan {
		s.mu.Unlock()
		return nil, -1
	}
	s.rescan = true
	err := s.scanPacks()
	s.mu.Unlock()
	if err != nil {
		return nil, -1
	}
	return s.locate(h)
}

// typeAndSize returns an entry's object type (following deltas to their
// base) and the object's size (for a delta, read from the delta header).
func (s *Native) typeAndSize(p *pack, off int64) (int, int64, error) {
	e, err := p.entryAt(off)
	if err != nil {
		return 0, 0, err
	}
	if e.typ != packOfsDelta && e.typ != packRefDelta {
		return e.typ, e.size, nil
	}
	head, err := s.inflate(p, e.data, min(e.size, 32))
	if err != nil {
		return 0, 0, err
	}
	_, n1 := deltaVarint(head)
	if n1 == 0 {
		return 0, 0, fmt.Errorf("corrupt pack %s: bad delta at offset %d", p.name, off)
	}
	size, n2 := deltaVarint(head[n1:])
	if n2 == 0 {
		return 0, 0, fmt.Errorf("corrupt pack %s: bad delta at offset %d", p.name, off)
	}
	end, err := s.followChain(p, off, e, false, nil)
	if err != nil {
		return 0, 0, err
	}
	if end.loose {
		t, _, err := s.looseHeader(end.id)
		return t, int64(size), err
	}
	return end.e.typ, int64(size), nil
}

// deltaLink is one delta of a chain: where it is and its entry.
type deltaLink struct {
	p   *pack
	off int64
	e   entry
}

// chainEnd is where a delta chain ends: an entry that is not a delta, a
// cached object, or a loose object (a ref-delta's base outside the packs).
type chainEnd struct {
	p      *pack
	off    int64
	e      entry
	loose  bool
	id     Hash // the loose base
	cached bool
	typ    int    // cached: its type
	data   []byte // cached: its content
}

// followChain follows the delta chain of entry e at off in p (a delta) to
// its base, one step at a time, calling link for every delta on the way
// (top first): no recursion, so a chain of any length (Git has no limit)
// costs no stack. A cycle (possible only through ref-deltas, since an
// offset delta points backwards) is an error, found when a ref-delta
// target comes round again; and no chain may have more deltas than the
// packs have objects. With cached, the walk stops at an object the base
// cache holds.
func (s *Native) followChain(p *pack, off int64, e entry, cached bool, link func(deltaLink)) (chainEnd, error) {
	var seen map[cacheKey]bool // ref-delta targets met
	budget := s.objectCount()
	for n := 0; ; n++ {
		switch e.typ {
		case packOfsDelta, packRefDelta:
		default:
			return chainEnd{p: p, off: off, e: e}, nil
		}
		if n > budget {
			return chainEnd{}, fmt.Errorf("corrupt pack %s: the delta chain of the object at offset %d is longer than the packs have objects (a cycle)", p.name, off)
		}
		if link != nil {
			link(deltaLink{p, off, e})
		}
		if e.typ == packOfsDelta {
			off = e.baseOff
		} else {
			id := HashOf(e.baseID)
			bp, boff := s.locate(id)
			if bp == nil {
				return chainEnd{loose: true, id: id}, nil
			}
			k := cacheKey{bp, boff}
			if seen[k] {
				return chainEnd{}, fmt.Errorf("corrupt pack %s: the delta chain through object %s is a cycle", bp.name, id.Short())
			}
			if seen == nil {
				seen = map[cacheKey]bool{}
			}
			seen[k] = true
			p, off = bp, boff
		}
		if cached {
			if t, b, ok := s.cache.get(p, off); ok {
				return chainEnd{p: p, off: off, cached: true, typ: t, data: b}, nil
			}
		}
		next, err := p.entryAt(off)
		if err != nil {
			return chainEnd{}, err
		}
		e = next
	}
}

// objectCount is the number of objects in the packs: no delta chain is
// longer.
func (s *Native) objectCount() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := 0
	for _, p := range s.packs {
		n += p.n
	}
	return n
}

// unpack returns the whole object at off in p, resolving its delta chain
// iteratively: the chain is followed down to its base (or to a cached
// object), then the deltas are applied base first. Every intermediate
// object is offered to the base cache, as the next read (the other side
// of a diff, a sibling tree) is likely to share it. shared reports bytes
// the cache holds: read-only for everybody, never scratch space (F1).
func (s *Native) unpack(p *pack, off int64) (typ int, data []byte, shared bool, err error) {
	if t, b, ok := s.cache.get(p, off); ok {
		count(&s.counts.cacheHits, 1)
		return t, b, true, nil
	}
	e, err := p.entryAt(off)
	if err != nil {
		return 0, nil, false, err
	}
	var chain []deltaLink
	end, err := s.followChain(p, off, e, true, func(l deltaLink) { chain = append(chain, l) })
	if err != nil {
		return 0, nil, false, err
	}
	switch {
	case end.cached:
		count(&s.counts.cacheHits, 1)
		typ, data = end.typ, end.data
	case end.loose:
		var t Type
		t, data, _, err = s.readLoose(end.id, -1)
		if err != nil {
			return 0, nil, false, err
		}
		typ = packTypeOf(t)
	default:
		typ = end.e.typ
		if end.e.size > maxDeltaResult && len(chain) > 0 {
			return 0, nil, false, fmt.Errorf("corrupt pack %s: delta base at offset %d is %d bytes, over %d (core.bigFileThreshold: Git never deltifies such objects)", end.p.name, end.off, end.e.size, maxDeltaResult)
		}
		data, err = s.inflate(end.p, end.e.data, end.e.size)
		if err != nil {
			return 0, nil, false, err
		}
		if int64(len(data)) != end.e.size {
			return 0, nil, false, fmt.Errorf("corrupt pack %s: object at offset %d is shorter than its header says", end.p.name, end.off)
		}
	}
	if len(chain) == 0 {
		return typ, data, end.cached, nil
	}
	// baseP and baseOff are where data sits: its key in the cache.
	baseP, baseOff := end.p, end.off
	for i := len(chain) - 1; i >= 0; i-- {
		l := chain[i]
		if baseP != nil { // a loose base has no place to be cached under
			s.cache.put(baseP, baseOff, typ, data)
		}
		delta, err := s.inflate(l.p, l.e.data, l.e.size)
		if err != nil {
			return 0, nil, false, err
		}
		if int64(len(delta)) != l.e.size {
			return 0, nil, false, fmt.Errorf("corrupt pack %s: delta at offset %d is shorter than its header says", l.p.name, l.off)
		}
		count(&s.counts.deltas, 1)
		if data, err = applyDelta(data, delta); err != nil {
			return 0, nil, false, fmt.Errorf("corrupt pack %s: object at offset %d: %w", l.p.name, l.off, err)
		}
		baseP, baseOff = l.p, l.off
	}
	return typ, data, false, nil
}

func packTypeOf(t Type) int {
	switch t {
	case Commit:
		return packCommit
	case Tree:
		return packTree
	case Blob:
		return packBlob
	case Tag:
		return packTag
	}
	return 0
}

func objTypeOf(t int) (Type, bool) {
	switch t {
	case packCommit:
		return Commit, true
	case packTree:
		return Tree, true
	case packBlob:
		return Blob, true
	case packTag:
		return Tag, true
	}
	return 0, false
}

func typeName(t int) string {
	if o, ok := objTypeOf(t); ok {
		return o.String()
	}
	return "object"
}

// deltaVarint reads a delta header size: 7 bits a byte, least significant
// first. n is 0 when b ends too early.
func deltaVarint(b []byte) (uint64, int) {
	var v uint64
	var shift uint
	for i, c := range b {
		if shift > 63 {
			return 0, 0
		}
		v |= uint64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}

// applyDelta rebuilds an object from its base and a Git delta. The delta
// is checked whole before anything is allocated, and the result is
// allocated once at the size the operations really produce: the size in
// the delta's header alone never decides an allocation.
func applyDelta(base, delta []byte) ([]byte, error) {
	srcSize, n := deltaVarint(delta)
	if n == 0 || srcSize != uint64(len(base)) {
		return nil, errors.New("delta does not match its base")
	}
	delta = delta[n:]
	dstSize, n := deltaVarint(delta)
	if n == 0 {
		return nil, errors.New("bad delta header")
	}
	if dstSize > maxDeltaResult {
		return nil, fmt.Errorf("delta result of %d bytes, over %d (core.bigFileThreshold: Git never deltifies such objects)", dstSize, maxDeltaResult)
	}
	ops := delta[n:]
	if err := deltaOps(base, ops, dstSize, nil); err != nil {
		return nil, err
	}
	out := make([]byte, 0, dstSize)
	if err := deltaOps(base, ops, dstSize, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// deltaOps runs the operations of a delta over base: it appends their
// output to *out, or with a nil out only checks that they stay in range
// and make exactly dstSize bytes.
func deltaOps(base, ops []byte, dstSize uint64, out *[]byte) error {
	var made uint64
	for len(ops) > 0 {
		op := ops[0]
		ops = ops[1:]
		switch {
		case op&0x80 != 0:
			var off, size uint64
			for i := uint(0); i < 4; i++ {
				if op&(1<<i) != 0 {
					if len(ops) == 0 {
						return errors.New("truncated delta")
					}
					off |= uint64(ops[0]) << (8 * i)
					ops = ops[1:]
				}
			}
			for i := uint(0); i < 3; i++ {
				if op&(0x10<<i) != 0 {
					if len(ops) == 0 {
						return errors.New("truncated delta")
					}
					size |= uint64(ops[0]) << (8 * i)
					ops = ops[1:]
				}
			}
			if size == 0 {
				size = 0x10000
			}
			if off+size > uint64(len(base)) || made+size > dstSize {
				return errors.New("delta copies out of range")
			}
			if out != nil {
				*out = append(*out, base[off:off+size]...)
			}
			made += size
		case op != 0:
			if int(op) > len(ops) || made+uint64(op) > dstSize {
				return errors.New("truncated delta")
			}
			if out != nil {
				*out = append(*out, ops[:op]...)
			}
			ops = ops[op:]
			made += uint64(op)
		default:
			return errors.New("delta opcode 0")
		}
	}
	if made != dstSize {
		return errors.New("delta result has the wrong size")
	}
	return nil
}

// baseCache keeps recently unpacked delta bases, up to max bytes.
type baseCache struct {
	mu        sync.Mutex
	max, used int
	m         map[cacheKey]cached
	order     []cacheKey
	puts      int // for the trace (counts)
	evictions int
}

type cacheKey struct {
	p   *pack
	off int64
}

type cached struct {
	typ  int
	data []byte
}

func (c *baseCache) get(p *pack, off int64) (int, []byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[cacheKey{p, off}]
	return v.typ, v.data, ok
}

func (c *baseCache) put(p *pack, off int64, typ int, data []byte) {
	if len(data) > c.max/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k := cacheKey{p, off}
	if c.m == nil {
		c.m = map[cacheKey]cached{}
	}
	if _, ok := c.m[k]; ok {
		return
	}
	for c.used+len(data) > c.max && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.used -= len(c.m[old].data)
		delete(c.m, old)
		c.evictions++
	}
	c.m[k] = cached{typ, data}
	c.puts++
	c.order = append(c.order, k)
	c.used += len(data)
}

// looseName is the path of the loose object h in the first directory that
// has it, or "".
func (s *Native) looseFile(h Hash) (*os.File, error) {
	hx := h.String()
	for _, dir := range s.dirs {
		f, err := os.Open(filepath.Join(dir, hx[:2], hx[2:]))
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("object %s: %w", h.Short(), err)
		}
	}
	return nil, nil
}

// looseHeader returns a loose object's type and size from its header.
func (s *Native) looseHeader(h Hash) (int, int64, error) {
	t, _, size, err := s.readLoose(h, 0)
	if err != nil {
		return 0, 0, err
	}
	return packTypeOf(t), size, nil
}

// readLoose reads the loose object h: its type, at most limit+1 bytes of
// content (all of it when limit < 0) and its size from the header.
func (s *Native) readLoose(h Hash, limit int64) (Type, []byte, int64, error) {
	f, err := s.looseFile(h)
	if err != nil {
		return 0, nil, 0, err
	}
	if f == nil {
		return 0, nil, 0, &MissingObjectError{Hash: h}
	}
	defer f.Close()
	t, data, size, err := parseLoose(bufio.NewReaderSize(f, 512), limit)
	if err != nil {
		return 0, nil, 0, fmt.Errorf("loose object %s: %w", h.Short(), err)
	}
	return t, data, size, nil
}

// parseLoose reads a loose object file: a zlib stream of "TYPE SIZE\0"
// and the content. It returns the type, at most limit+1 bytes of content
// (all of it when limit < 0) and the size from the header.
func parseLoose(r io.Reader, limit int64) (Type, []byte, int64, error) {
	zr, err := zlib.NewReader(r)
	if err != nil {
		return 0, nil, 0, err
	}
	defer zr.Close()
	var hdr [64]byte
	n := 0
	nul := -1
	for nul < 0 && n < len(hdr) {
		m, err := zr.Read(hdr[n : n+1])
		n += m
		if m > 0 && hdr[n-1] == 0 {
			nul = n - 1
		}
		if err != nil && nul < 0 {
			return 0, nil, 0, fmt.Errorf("bad header: %v", err)
		}
	}
	if nul < 0 {
		return 0, nil, 0, errors.New("bad header")
	}
	typName, sizeStr, ok := strings.Cut(string(hdr[:nul]), " ")
	// Decimal digits, no sign and no leading zero, as Git parses it.
	size, err := strconv.ParseInt(sizeStr, 10, 64)
	if !ok || err != nil || size < 0 || sizeStr[0] < '0' || sizeStr[0] > '9' || len(sizeStr) > 1 && sizeStr[0] == '0' {
		return 0, nil, 0, fmt.Errorf("bad header %q", hdr[:nul])
	}
	var t Type
	switch typName {
	case "commit":
		t = Commit
	case "tree":
		t = Tree
	case "blob":
		t = Blob
	case "tag":
		t = Tag
	default:
		return 0, nil, 0, fmt.Errorf("unknown type %q", typName)
	}
	if limit == 0 {
		return t, nil, size, nil
	}
	want := size
	if limit > 0 && limit+1 < want {
		want = limit + 1
	}
	buf, err := readUpTo(zr, want, nil)
	if err != nil {
		return 0, nil, 0, err
	}
	if int64(len(buf)) != want {
		return 0, nil, 0, fmt.Errorf("content is %d bytes, shorter than its header says (%d)", len(buf), size)
	}
	return t, buf, size, nil
}

func (s *Native) checkID(h Hash) error {
	if int(h.n) != s.hashSize {
		return fmt.Errorf("object id %s has the wrong length for this repository", h)
	}
	return nil
}

func (s *Native) Size(h Hash) (int64, error) {
	if err := s.checkID(h); err != nil {
		return 0, err
	}
	p, off := s.locate(h)
	if p == nil {
		_, size, err := s.looseHeader(h)
		var me *MissingObjectError
		if !errors.As(err, &me) {
			return size, err
		}
		if p, off = s.locateAgain(h); p == nil {
			return 0, err
		}
	}
	_, size, err := s.typeAndSize(p, off)
	return size, err
}

func (s *Native) Read(h Hash, typ Type, limit int64) ([]byte, int64, error) {
	data, size, _, err := s.read(h, typ, limit, nil, false)
	return data, size, err
}

// ReadShared is Read for a tree the caller keeps and never writes to: the
// bytes may be the base cache's, and a tree read whole is offered to the
// cache. The two sides of a diff are mostly a tree and its delta, read one
// right after the other; without this, the one read whole and the other's
// base would be the same bytes inflated twice.
func (s *Native) ReadShared(h Hash, typ Type, limit int64) ([]byte, int64, error) {
	data, size, _, err := s.read(h, typ, limit, nil, typ == Tree)
	return data, size, err
}

// ReadInto is Read, inflating into dst's storage when it is large enough
// (and the object is neither a delta nor cached): a walk over many trees
// reuses one buffer per level instead of allocating one per tree. scratch
// reports that the bytes are the caller's alone (dst's storage or a new
// allocation); otherwise they are the base cache's, which nobody may
// write to (F1).
func (s *Native) ReadInto(h Hash, typ Type, limit int64, dst []byte) (data []byte, size int64, scratch bool, err error) {
	return s.read(h, typ, limit, dst, false)
}

// read is Read, ReadShared and ReadInto; with share, a whole object read
// is put into the base cache and its bytes are not scratch.
func (s *Native) read(h Hash, typ Type, limit int64, dst []byte, share bool) (data []byte, size int64, scratch bool, err error) {
	if err := s.checkID(h); err != nil {
		return nil, 0, false, err
	}
	count(&s.counts.reads, 1)
	p, off := s.locate(h)
	if p == nil {
		t, data, size, err := s.readLoose(h, limit)
		var me *MissingObjectError
		if !errors.As(err, &me) {
			if err != nil {
				return nil, 0, false, err
			}
			if t != typ {
				return nil, 0, false, &WrongTypeError{h, typeName(packTypeOf(t)), typ}
			}
			return data, size, true, nil
		}
		if p, off = s.locateAgain(h); p == nil {
			return nil, 0, false, err
		}
	}
	var t int
	var shared bool
	if ct, b, ok := s.cache.get(p, off); ok {
		// Inflated already, as a delta's base or by a shared read.
		count(&s.counts.cacheHits, 1)
		t, data, shared = ct, b, true
	} else {
		e, err := p.entryAt(off)
		if err != nil {
			return nil, 0, false, err
		}
		if e.typ != packOfsDelta && e.typ != packRefDelta {
			// Not a delta: inflate no more than asked for.
			if t, _ := objTypeOf(e.typ); t != typ {
				return nil, 0, false, &WrongTypeError{h, typeName(e.typ), typ}
			}
			want := e.size
			if limit >= 0 && limit+1 < want {
				want = limit + 1
			}
			if share && want == e.size {
				dst = nil // the cache's from now on, never the caller's buffer
			}
			data, err := s.inflateInto(p, e.data, want, dst)
			if err != nil {
				return nil, 0, false, err
			}
			if int64(len(data)) != want {
				return nil, 0, false, fmt.Errorf("corrupt pack %s: object %s is shorter than its header says", p.name, h.Short())
			}
			if share && want == e.size {
				s.cache.put(p, off, e.typ, data)
				return data, e.size, false, nil
			}
			return data, e.size, true, nil
		}
		if t, data, shared, err = s.unpack(p, off); err != nil {
			return nil, 0, false, err
		}
	}
	if ot, _ := objTypeOf(t); ot != typ {
		return nil, 0, false, &WrongTypeError{h, typeName(t), typ}
	}
	if shared && typ == Blob {
		// A blob's bytes stay with the caller for the run: not the
		// cache's, which would keep them alive after eviction.
		data, shared = bytes.Clone(data), false
	}
	size = int64(len(data))
	if limit >= 0 && size > limit+1 {
		// No spare capacity: an append by the caller cannot write into
		// the bytes after the limit.
		data = data[: limit+1 : limit+1]
	}
	return data, size, !shared, nil
}

func (s *Native) Close() error {
	s.printCounts()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.packs {
		p.close()
	}
	s.packs = nil
	return nil
}

// WrongTypeError is an object of another type than asked for.
type WrongTypeError struct {
	Hash Hash
	Got  string // the object's type
	Want Type
}

func (e *WrongTypeError) Error() string {
	return fmt.Sprintf("object %s is a %s, not a %s", e.Hash.Short(), e.Got, e.Want)
}
