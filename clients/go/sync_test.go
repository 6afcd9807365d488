package bloomtype

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"strings"
	"sync"
	"testing"
)

func vectorBytes(t *testing.T, name string) []byte {
	for _, v := range filterVectors(t) {
		if v.Name == name {
			return mustHex(t, v.Hex)
		}
	}
	t.Fatalf("no vector %s", name)
	return nil
}

func mustCopy(t *testing.T, name, mark string) (*IndexCopy, []byte) {
	b := vectorBytes(t, name)
	c, err := NewIndexCopy(b, mark)
	if err != nil {
		t.Fatal(err)
	}
	return c, b
}

func hashBytesLE(hs ...uint64) []byte {
	b := make([]byte, 0, 8*len(hs))
	for _, h := range hs {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	return b
}

func TestIndexCopyRefuses(t *testing.T) {
	// other kinds of bloomfilter: refused for their kind
	for _, name := range []string{"bloom_int", "agg_empty", "state_pending", "state_light", "window_int"} {
		_, err := NewIndexCopy(vectorBytes(t, name), "m")
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "scalable filter (kind 4)") {
			t.Errorf("%s: %v, want a format error that asks for kind 4", name, err)
		}
	}
	// not a bloomfilter at all, malformed, or a kind 4 of no key class
	for _, name := range []string{"counting_int", "cuckoo_int", "scalable_empty"} {
		if _, err := NewIndexCopy(vectorBytes(t, name), "m"); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want a format error", name, err)
		}
	}
	b := vectorBytes(t, "scalable_int")
	if _, err := NewIndexCopy(b[:len(b)-1], "m"); !errors.Is(err, ErrFormat) {
		t.Errorf("a truncated value: %v, want a format error", err)
	}
}

// The hashes are set where the spec's formula puts them, in the newest
// layer only, and the caller's buffer is left alone.
func TestIndexCopyAddHashes(t *testing.T) {
	c, orig := mustCopy(t, "scalable_int", "0/1")
	given := append([]byte(nil), orig...)
	layers := c.f.Info().Layers
	if len(layers) < 2 {
		t.Fatalf("scalable_int has %d layers, want 2 or more", len(layers))
	}
	newest := layers[len(layers)-1]
	off := uint64(headerSize + len(layers)*layerDescSize)
	for _, l := range layers[:len(layers)-1] {
		off += l.Blocks * blockBytes
	}

	// hashes no layer holds yet, and one an older layer holds
	var fresh []uint64
	var older uint64
	for i := uint64(1); len(fresh) < 50 || older == 0; i++ {
		h := i * 0x2545F4914F6CDD1D
		inOlder := false
		for j := range c.f.layers[:len(layers)-1] {
			inOlder = inOlder || c.f.layers[j].test(h)
		}
		switch {
		case inOlder && !c.f.layers[len(layers)-1].test(h) && older == 0:
			older = h
		case !c.ContainsHash(h) && len(fresh) < 50:
			fresh = append(fresh, h)
		}
	}
	want := append([]byte(nil), orig...)
	for _, h := range fresh {
		hi, _ := bits.Mul64(h, newest.Blocks)
		x := h
		for i := 0; i < newest.K; i++ {
			x *= 0x9E3779B97F4A7C15
			bit := x >> 55
			want[off+64*hi+bit/8] |= 1 << (bit % 8)
		}
	}
	if err := c.AddHashes(hashBytesLE(append(fresh, older)...), "0/2"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(c.Bytes(), want) {
		t.Error("the copy's bytes are not the value with the new hashes' bits set in the newest layer")
	}
	if !c.ContainsHash(older) || c.f.layers[len(layers)-1].test(older) {
		t.Error("a hash an older layer holds was set in the newest layer")
	}
	for _, h := range fresh {
		if !c.ContainsHash(h) {
			t.Fatalf("hash %#x added, but absent", h)
		}
	}
	if c.Mark() != "0/2" {
		t.Errorf("mark %q, want 0/2", c.Mark())
	}
	if !bytes.Equal(orig, given) {
		t.Error("the caller's buffer changed")
	}
	// an empty catch-up moves the mark only
	if err := c.AddHashes(nil, "0/3"); err != nil || c.Mark() != "0/3" || !bytes.Equal(c.Bytes(), want) {
		t.Errorf("an empty catch-up: %v, mark %q", err, c.Mark())
	}
}

func TestIndexCopyAddHashesLength(t *testing.T) {
	c, orig := mustCopy(t, "scalable_int", "0/1")
	// a whole hash no layer holds, then a stray byte: nothing is applied
	h := uint64(1)
	for c.ContainsHash(h) {
		h++
	}
	b := append(hashBytesLE(h), 7)
	if err := c.AddHashes(b, "0/2"); !errors.Is(err, ErrFormat) {
		t.Errorf("9 bytes of hashes: %v, want a format error", err)
	}
	if c.ContainsHash(h) || c.Mark() != "0/1" || !bytes.Equal(c.Bytes(), orig) {
		t.Error("a refused catch-up changed the copy")
	}
}

func TestIndexCopyAdd(t *testing.T) {
	c, orig := mustCopy(t, "scalable_int", "0/1")
	before := c.Bytes()
	key := int64(-1)
	for ; ; key-- {
		if in, err := c.Contains(key); err != nil {
			t.Fatal(err)
		} else if !in {
			break
		}
	}
	if err := c.Add(key); err != nil {
		t.Fatal(err)
	}
	if in, err := c.Contains(key); err != nil || !in {
		t.Errorf("Add(%d), then Contains: %v, %v", key, in, err)
	}
	h, _ := KeyHash(key, c.f.hdr.seed)
	if !c.ContainsHash(uint64(h)) {
		t.Error("Add(key), then ContainsHash(its hash): false")
	}
	// a key of another class, and a key no class takes: refused, nothing changed
	added := c.Bytes()
	if err := c.Add("text"); !errors.Is(err, ErrKeyClass) {
		t.Errorf("Add(a text key) to an integer copy: %v", err)
	}
	if err := c.Add(true); !errors.Is(err, ErrKeyClass) {
		t.Errorf("Add(true): %v", err)
	}
	if !bytes.Equal(c.Bytes(), added) || bytes.Equal(added, before) {
		t.Error("the refused keys changed the copy, or the added one did not")
	}
	if c.Mark() != "0/1" {
		t.Errorf("Add moved the mark to %q", c.Mark())
	}
	if !bytes.Equal(orig, vectorBytes(t, "scalable_int")) {
		t.Error("the caller's buffer changed")
	}
}

// Lookups while catch-ups and adds run (go test -race checks the locking).
func TestIndexCopyConcurrent(t *testing.T) {
	c, _ := mustCopy(t, "scalable_text_x4", "0/1")
	var wg sync.WaitGroup
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				if _, err := c.Contains("k1"); err != nil {
					t.Error(err)
					return
				}
				c.ContainsHash(uint64(i))
				c.Mark()
			}
		}()
	}
	for i := uint64(0); i < 200; i++ {
		if err := c.AddHashes(hashBytesLE(i*0x9E3779B97F4A7C15, i+1), "m"); err != nil {
			t.Fatal(err)
		}
		if err := c.Add("added"); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	if in, _ := c.Contains("added"); !in {
		t.Error("an added key is absent")
	}
}
