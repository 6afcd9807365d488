package bloomtype

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"
	"time"
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
	// windowed filters: slices before 1970, and one of a microsecond's slices
	f.Add(testWindow().bytes())
	w := testWindow()
	w.sliceMicros, w.newest, w.window, w.slices = 1, math.MaxInt64-64, 31, []int64{math.MaxInt64 - 95, math.MaxInt64 - 64}
	w.keys = w.keys[1:]
	f.Add(w.bytes())
	times := []time.Time{time.Unix(0, -1), time.Unix(1793516400, 0), time.UnixMicro(math.MaxInt64), {}}
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
				h := i * 0x9E3779B97F4A7C15
				in := flt.ContainsHash(h)
				for _, since := range times {
					// since a time: a slice of what Contains answers, or no time kept
					inSince, err := flt.ContainsHashSince(h, since)
					if (flt.Info().Kind == kindWindowed) == errors.Is(err, ErrNotWindowed) || (inSince && !in) {
						t.Fatalf("ContainsHashSince(%d, %v): %v, %v (ContainsHash %v)", h, since, inSince, err, in)
					}
				}
			}
			_ = flt.Info()
		}
	})
}
