package bloomtype

import "testing"

// go test -bench . -run XXX: the cost of a lookup (no timing assertions).

func BenchmarkContainsInt(b *testing.B) {
	f := benchFilter(b, "bloom_int")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Contains(int64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkContainsText(b *testing.B) {
	f := benchFilter(b, "bloom_text")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Contains("ключ-12345"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkContainsHash(b *testing.B) {
	f := benchFilter(b, "bloom_int")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.ContainsHash(uint64(i) * 0x9E3779B97F4A7C15)
	}
}

func BenchmarkContainsCuckoo(b *testing.B) {
	f := benchFilter(b, "cuckoo_int")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Contains(int64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkContainsMany(b *testing.B) {
	f := benchFilter(b, "bloom_int")
	keys := make([]any, 1000)
	for i := range keys {
		keys[i] = int64(i)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i += len(keys) {
		if _, err := f.ContainsMany(keys); err != nil {
			b.Fatal(err)
		}
	}
}

func benchFilter(b *testing.B, name string) *Filter {
	t := &testing.T{}
	for _, v := range filterVectors(t) {
		if v.Name == name {
			f, err := Load(mustHex(t, v.Hex))
			if err != nil {
				b.Fatal(err)
			}
			return f
		}
	}
	b.Fatalf("no vector %s", name)
	return nil
}
