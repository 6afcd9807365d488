package bloomtype

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// FuzzLoad: no value makes a constructor panic, a refusal is a format
// error, and an accepted value answers without panicking. `go test` runs
// the seeds (every vector); `go test -fuzz FuzzLoad` explores.
func FuzzLoad(f *testing.F) {
	var doc struct {
		Filters []struct{ Hex string } `json:"filters"`
	}
	data, err := os.ReadFile(vectorPath(&testing.T{}, "filters.json"))
	if err != nil {
		f.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		f.Fatal(err)
	}
	for _, v := range doc.Filters {
		b, _ := hex.DecodeString(v.Hex)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, ctor := range []func([]byte) (*Filter, error){FromBytes, CountingFromBytes, CuckooFromBytes, Load} {
			flt, err := ctor(b)
			if err != nil {
				if !errors.Is(err, ErrFormat) {
					t.Fatalf("not a format error: %v", err)
				}
				continue
			}
			for i := uint64(0); i < 64; i++ {
				flt.ContainsHash(i * 0x9E3779B97F4A7C15)
			}
			_ = flt.Info()
		}
	})
}
