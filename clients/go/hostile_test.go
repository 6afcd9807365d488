package bloomtype

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// isHashListWithHashes: a kind 2 value that holds hashes, which the clients
// refuse (the one documented exception to "accept what the server accepts").
func isHashListWithHashes(b []byte) bool {
	return len(b) >= 64 && b[5] == kindHashList && binary.LittleEndian.Uint64(b[56:]) > 0
}

// call runs a constructor, turning a panic into a test failure.
func call(ctor func([]byte) (*Filter, error), b []byte) (f *Filter, err error, panicked any) {
	defer func() { panicked = recover() }()
	f, err = ctor(b)
	return
}

func TestHostile(t *testing.T) {
	accepted, refused, excepted := 0, 0, 0
	for _, v := range hostileValues(t) {
		b := mustHex(t, v.Hex)
		name := fmt.Sprintf("%s #%d (%s)", v.Suite, v.ID, v.Why)
		exception := isHashListWithHashes(b)
		anyType := false
		for typ, ctor := range constructors {
			want := false
			for _, a := range v.AcceptedBy {
				want = want || a == typ
			}
			hinted := false
			if want && exception {
				want, hinted = false, true
				excepted++
			}
			anyType = anyType || want
			f, err, p := call(ctor, b)
			if p != nil {
				t.Fatalf("%s: %s panics: %v", name, typ, p)
			}
			if want != (err == nil) {
				t.Errorf("%s: %s accepts %v, want %v (%v)", name, typ, err == nil, want, err)
				continue
			}
			if err != nil {
				refused++
				var fe *FormatError
				if !errors.Is(err, ErrFormat) || !errors.As(err, &fe) || fe.Detail == "" {
					t.Errorf("%s: %s: not a format error: %v", name, typ, err)
				}
				if hinted && !strings.Contains(err.Error(), "_union_agg(f)") {
					t.Errorf("%s: %s: the hash list's error gives no hint: %v", name, typ, err)
				}
				continue
			}
			accepted++
			if f.Type() != typ {
				t.Errorf("%s: type %s, want %s", name, f.Type(), typ)
			}
			if ans, ok := v.Answers[typ]; ok {
				got := make([]byte, 16)
				for i := range got {
					in, err := f.Contains(int64(i + 1))
					if err != nil {
						t.Fatalf("%s: %s: key %d: %v", name, typ, i+1, err)
					}
					got[i] = "01"[b2i(in)]
				}
				if string(got) != ans {
					t.Errorf("%s: %s answers %s, want %s", name, typ, got, ans)
				}
			}
		}
		f, err, p := call(Load, b)
		if p != nil {
			t.Fatalf("%s: Load panics: %v", name, p)
		}
		if anyType != (err == nil) {
			t.Errorf("%s: Load accepts %v, want %v (%v)", name, err == nil, anyType, err)
		}
		if err == nil {
			// what Load reads answers as its type's constructor
			if ans, ok := v.Answers[f.Type()]; ok {
				for i := 0; i < 16; i++ {
					in, _ := f.Contains(int64(i + 1))
					if in != (ans[i] == '1') {
						t.Errorf("%s: Load as %s answers key %d %v", name, f.Type(), i+1, in)
					}
				}
			}
		} else if !errors.Is(err, ErrFormat) {
			t.Errorf("%s: Load: not a format error: %v", name, err)
		}
	}
	t.Logf("hostile values: %d accepted, %d refused (%d by the hash-list exception)", accepted, refused, excepted)
	if excepted == 0 {
		t.Error("no hostile value exercised the hash-list exception")
	}
}

// Every truncation of every value a type accepts is refused.
func TestHostileTruncated(t *testing.T) {
	for _, v := range hostileValues(t) {
		if len(v.AcceptedBy) == 0 {
			continue
		}
		b := mustHex(t, v.Hex)
		for n := 0; n < len(b); n++ {
			for typ, ctor := range constructors {
				f, err, p := call(ctor, b[:n])
				if p != nil || err == nil {
					t.Fatalf("%s #%d truncated to %d: %s gives %v, %v, panic %v", v.Suite, v.ID, n, typ, f, err, p)
				}
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
