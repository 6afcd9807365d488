package bloomtype

import (
	"encoding/binary"
	"math/rand"
	"testing"
)

// The sparse bits of a light state answer as the dense ones.
func TestSparseBitsAsDense(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, c := range []struct {
		nblocks, n uint64
		k          int
	}{{1, 50, 7}, {3, 200, 3}, {17, 300, 32}, {1000, 5000, 1}, {100000, 100, 9}} {
		list := make([]byte, 8*c.n)
		rng.Read(list)
		dense := denseOfHashes(list, c.n, c.nblocks, c.k)
		sparse := sparseOfHashes(list, c.n, c.nblocks, c.k)
		for i := uint64(0); i < c.n; i++ {
			if h := binary.LittleEndian.Uint64(list[8*i:]); !sparse.test(h) || !dense.test(h) {
				t.Fatalf("%+v: a listed hash is absent", c)
			}
		}
		present := 0
		for i := 0; i < 200000; i++ {
			h := rng.Uint64()
			if d := dense.test(h); d != sparse.test(h) {
				t.Fatalf("%+v: hash %x: dense %v, sparse %v", c, h, d, !d)
			} else if d {
				present++
			}
		}
		t.Logf("%+v: %d of 200000 random hashes present", c, present)
	}
}

// Light states of 100,000 blocks (read sparse) holding the hashes of the
// integer keys 1 to 10; the server's answers for keys 1 to 64.
func TestLightStatesSparse(t *testing.T) {
	want := "1111111111000000000000000000000000000000000000000000000000000000"
	for _, c := range []struct{ typ, hex string }{
		{TypeBloomFilter, "424c4d460407010100000000070902000000000000000000e8030000000000007b14ae47e17a843f0a00000000000000a0860100000000000a000000000000002e79db643559bc2f43e2ee915cc686207d2ef4c12920924d78715ed90a2922ca8ca7aa39aae9038e3b676347da4b996baf96b5d6581e6781fedc7606153dfba19704751988af6007752897a8e91bade6"},
		{TypeCountingBloom, "424c4d460408010100000000070900000000000000000000e8030000000000007b14ae47e17a843f0a00000000000000a0860100000000000a000000000000002e79db643559bc2f43e2ee915cc686207d2ef4c12920924d78715ed90a2922ca8ca7aa39aae9038e3b676347da4b996baf96b5d6581e6781fedc7606153dfba19704751988af6007752897a8e91bade6"},
	} {
		f, err := constructors[c.typ](mustHex(t, c.hex))
		if err != nil {
			t.Fatal(err)
		}
		if f.sparse == nil {
			t.Errorf("%s: read dense", c.typ)
		}
		got := make([]byte, 64)
		for i := range got {
			in, err := f.Contains(i + 1)
			if err != nil {
				t.Fatal(err)
			}
			got[i] = "01"[b2i(in)]
		}
		if string(got) != want {
			t.Errorf("%s: %s, want %s", c.typ, got, want)
		}
	}
}
