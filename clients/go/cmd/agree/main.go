// Command agree checks the reader against the server's answers: it reads
// DIR/manifest.json,
//
//	{"filters": [{"name", "type", "file", "keys": "int|text|bytea|uuid|float|hash",
//	              "n": 1000000, "answers": "file of n ASCII '0'/'1' bytes"}]}
//
// loads each value (the raw bytes in file) with the constructor of its type,
// asks it about key i for i in 0..n-1, and compares with answers[i]:
//
//	int:   i * 1000003 - 400000000
//	text:  "ключ-" + decimal(i)
//	bytea: i as 8 bytes big-endian (int8send(i))
//	uuid:  the md5 digest of decimal(i) as a uuid
//	float: (i - 500000) / 7.0
//	hash: (keys of class "other") key i's hash from bloom_key_hash, in the
//	file named by "hashes" (n little-endian 64-bit words)
//
// It prints one line a filter and a total; the exit status is 0 only when
// every answer agrees.
//
// Usage: go run ./cmd/agree DIR
package main

import (
	"crypto/md5"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	bloomtype "github.com/bloomtype/bloomtype/clients/go"
)

type entry struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	File    string `json:"file"`
	Keys    string `json:"keys"`
	N       int    `json:"n"`
	Answers string `json:"answers"`
	Hashes  string `json:"hashes"` // keys "hash": n little-endian 64-bit hashes
}

var constructors = map[string]func([]byte) (*bloomtype.Filter, error){
	bloomtype.TypeBloomFilter:   bloomtype.FromBytes,
	bloomtype.TypeCountingBloom: bloomtype.CountingFromBytes,
	bloomtype.TypeCuckooFilter:  bloomtype.CuckooFromBytes,
}

// key is key i of a class, by the rule above.
func key(class string, i int) (any, error) {
	switch class {
	case "int":
		return int64(i)*1000003 - 400000000, nil
	case "text":
		return "ключ-" + strconv.Itoa(i), nil
	case "bytea":
		b := make([]byte, 8)
		binary.BigEndian.PutUint64(b, uint64(int64(i)))
		return b, nil
	case "uuid":
		return bloomtype.UUID(md5.Sum([]byte(strconv.Itoa(i)))), nil
	case "float":
		return float64(i-500000) / 7.0, nil
	}
	return nil, fmt.Errorf("unknown key class %q", class)
}

// check answers the filter's keys and counts the present ones and the
// disagreements (first: the first index that disagrees, or -1).
func check(dir string, e entry) (present, disagree, first int, err error) {
	first = -1
	ctor, ok := constructors[e.Type]
	if !ok {
		return 0, 0, -1, fmt.Errorf("unknown type %q", e.Type)
	}
	raw, err := os.ReadFile(filepath.Join(dir, e.File))
	if err != nil {
		return 0, 0, -1, err
	}
	answers, err := os.ReadFile(filepath.Join(dir, e.Answers))
	if err != nil {
		return 0, 0, -1, err
	}
	if len(answers) != e.N {
		return 0, 0, -1, fmt.Errorf("%s holds %d answers, not %d", e.Answers, len(answers), e.N)
	}
	for i, a := range answers {
		if a != '0' && a != '1' {
			return 0, 0, -1, fmt.Errorf("%s: answer %d is %q, not 0 or 1", e.Answers, i, a)
		}
	}
	f, err := ctor(raw)
	if err != nil {
		return 0, 0, -1, err
	}
	// tally counts key i's answer against the server's
	tally := func(i int, in bool) {
		if in {
			present++
		}
		if in != (answers[i] == '1') {
			if first < 0 {
				first = i
			}
			disagree++
		}
	}
	if e.Keys == "hash" { // keys a client cannot encode: their hashes
		raw, err := os.ReadFile(filepath.Join(dir, e.Hashes))
		if err != nil {
			return 0, 0, -1, err
		}
		if len(raw) != 8*e.N {
			return 0, 0, -1, fmt.Errorf("%s holds %d bytes, not %d hashes", e.Hashes, len(raw), e.N)
		}
		for i := 0; i < e.N; i++ {
			tally(i, f.ContainsHash(binary.LittleEndian.Uint64(raw[8*i:])))
		}
		return present, disagree, first, nil
	}
	const chunk = 4096 // keys hashed with one call into C
	keys := make([]any, 0, chunk)
	for start := 0; start < e.N; start += chunk {
		keys = keys[:0]
		for i := start; i < e.N && i < start+chunk; i++ {
			k, err := key(e.Keys, i)
			if err != nil {
				return 0, 0, -1, err
			}
			keys = append(keys, k)
		}
		got, err := f.ContainsMany(keys)
		if err != nil {
			return 0, 0, -1, err
		}
		for j, in := range got {
			tally(start+j, in)
		}
	}
	return present, disagree, first, nil
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: agree DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "agree:", err)
		os.Exit(2)
	}
	var manifest struct {
		Filters []entry `json:"filters"`
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		fmt.Fprintln(os.Stderr, "agree: manifest.json:", err)
		os.Exit(2)
	}
	total, unreadable := 0, 0
	var keys int
	began := time.Now()
	for _, e := range manifest.Filters {
		present, disagree, first, err := check(dir, e)
		switch {
		case err != nil:
			fmt.Printf("%s: error: %v\n", e.Name, err)
			unreadable++
		case disagree > 0:
			fmt.Printf("%s: %d of %d keys disagree (first at i=%d)\n", e.Name, disagree, e.N, first)
			total += disagree
		default:
			fmt.Printf("%s: %d keys, %d present, agree\n", e.Name, e.N, present)
		}
		keys += e.N
	}
	if unreadable > 0 {
		fmt.Printf("agree: %d filters, %d disagreements, %d not checked\n", len(manifest.Filters), total, unreadable)
	} else {
		fmt.Printf("agree: %d filters, %d disagreements\n", len(manifest.Filters), total)
	}
	if keys > 0 {
		fmt.Fprintf(os.Stderr, "agree: %d keys in %.2f s (%.0f ns a key, loading included)\n",
			keys, time.Since(began).Seconds(), float64(time.Since(began).Nanoseconds())/float64(keys))
	}
	if unreadable > 0 || total > 0 || len(manifest.Filters) == 0 {
		os.Exit(1)
	}
}
