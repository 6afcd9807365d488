package bloomtype

import (
	"encoding/binary"
	"math"
	"testing"
)

// The largest capacity a cuckoo filter of buckets of 4 and expansion 2
// takes, as the server's hint gives it (cuckoo_empty(99999999999, fpr, 4,
// 500, 2): "The largest capacity that fits is ..."): a version 3 hash list
// may carry no larger one.
func TestCuckooMaxCapacity(t *testing.T) {
	for fpr, want := range map[float64]uint64{
		0.5: 482699586, 0.3: 482699586, 0.1: 482699586, 0.05: 429066297, 0.01: 351054242,
		0.001: 257439777, 1e-5: 183885553, 1e-7: 137914163, 1e-9: 110331333,
		0.0123: 351054242, 0.00037: 241349792,
	} {
		if got := cuckooMaxCapacity(fpr, 4, 2); got != want {
			t.Errorf("fpr %g: %d, want %d", fpr, got, want)
		}
		// an empty version 3 hash list of that capacity is read, one more is not
		list := make([]byte, 64)
		copy(list, "BLMF\x03\x02\x01\x00")
		binary.LittleEndian.PutUint64(list[32:], math.Float64bits(fpr))
		for _, c := range []uint64{want, want + 1} {
			binary.LittleEndian.PutUint64(list[24:], c)
			if _, err := CuckooFromBytes(list); (err == nil) != (c == want) {
				t.Errorf("fpr %g capacity %d: %v", fpr, c, err)
			}
		}
	}
}
