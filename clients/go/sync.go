package bloomtype

import (
	"fmt"
	"sync"
)

// IndexCopy is an application's copy of a bloomfilter index's filter, kept
// in step with the index without reading the whole filter again (bloomtype
// 1.8): load it once,
//
//	SELECT filter::bytea, mark FROM bloom_index_filter_at('users_id_bloom')
//
// then, now and then (on the trigger's NOTIFY, or on a timer), apply the
// keys committed since its mark,
//
//	SELECT complete, reason, hashes, mark FROM bloom_index_changes('users_id_bloom', $mark)
//
// with AddHashes when complete is true; when it is false (the index was
// rebuilt, grew a layer, the log was pruned past the mark, ...) the copy
// cannot be brought up to date: load it again with bloom_index_filter_at.
//
// A hash goes where the index puts it (drop_older in src/am/bfi_insert.c):
// nowhere when a layer other than the newest may already hold it, else in
// the newest layer's bits. So the copy holds the index's bits, and answers
// as the index's filter would. The header's item counts are not updated:
// they stay those of the loaded filter (lookups never read them, and the
// index counts its keys page by page, which a copy does not see).
//
// An IndexCopy is safe for concurrent use: lookups share a read lock, adds
// take the write lock.
type IndexCopy struct {
	mu   sync.RWMutex
	f    *Filter // its layers' bits are slices of f.raw, which adds change
	mark string
}

// NewIndexCopy makes a copy from the filter and the mark that
// bloom_index_filter_at returns. The filter must be a scalable bloomfilter
// value (kind 4) that holds a key class, as an index's filter does; any
// other value is refused with an error that matches ErrFormat. b is
// copied, and never changed.
func NewIndexCopy(b []byte, mark string) (*IndexCopy, error) {
	f, err := FromBytes(b)
	if err != nil {
		return nil, err
	}
	if f.hdr.kind != kindScalable {
		return nil, &FormatError{Type: TypeBloomFilter, Detail: fmt.Sprintf(
			"An index copy is made from bloom_index_filter_at's filter, a scalable filter (kind 4), not a %s filter (kind %d).",
			kindNames[f.hdr.kind], f.hdr.kind)}
	}
	if f.probeClass == classNone {
		// such a filter answers false to every key, whatever its bits:
		// hashes added to it would never be found
		return nil, &FormatError{Type: TypeBloomFilter,
			Detail: "An index copy is made from bloom_index_filter_at's filter, which holds its column's key class; this filter holds no key class."}
	}
	return &IndexCopy{f: f, mark: mark}, nil
}

// AddHashes applies a catch-up: hashes are the 64-bit hashes that
// bloom_index_changes returns (8 bytes each, little-endian), and mark the
// new mark that comes with them. A length that is not a multiple of 8 is
// an error that matches ErrFormat, and nothing is applied.
func (c *IndexCopy) AddHashes(hashes []byte, mark string) error {
	if len(hashes)%8 != 0 {
		return fmt.Errorf("%w: the hashes are %d bytes, not 8 bytes a hash", ErrFormat, len(hashes))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := 0; i < len(hashes); i += 8 {
		c.insert(le64(hashes[i:]))
	}
	c.mark = mark
	return nil
}

// Add adds a key the application has just committed itself, so that the
// copy holds it before the catch-up that brings it: the key is checked and
// hashed as Contains checks and hashes it, and added as a hash of
// AddHashes is. The mark is unchanged (the catch-up adds the key again,
// which changes nothing).
func (c *IndexCopy) Add(key any) error {
	k, err := encodeKey(key)
	if err != nil {
		return err
	}
	if err := c.f.checkClass(&k); err != nil {
		return err
	}
	h := k.hash(c.f.hdr.seed)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.insert(h)
	return nil
}

// insert sets h's bits in the newest layer unless an older layer may hold
// it (bfi_insert.c: drop_older, then the newest layer). c.mu is held.
func (c *IndexCopy) insert(h uint64) {
	layers := c.f.layers
	newest := len(layers) - 1
	for i := 0; i < newest; i++ {
		if layers[i].test(h) {
			return
		}
	}
	layers[newest].insert(h)
}

// Contains answers as Filter.Contains does, from the copy's current bits.
func (c *IndexCopy) Contains(key any) (bool, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.f.Contains(key)
}

// ContainsHash answers as Filter.ContainsHash does, from the copy's
// current bits.
func (c *IndexCopy) ContainsHash(h uint64) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.f.ContainsHash(h)
}

// Mark is the position the copy is complete for: pass it to
// bloom_index_changes.
func (c *IndexCopy) Mark() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mark
}

// Bytes is a copy of the value's current bytes: the loaded filter with the
// added hashes' bits set (and its header's item counts as loaded).
func (c *IndexCopy) Bytes() []byte {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.f.Bytes()
}
