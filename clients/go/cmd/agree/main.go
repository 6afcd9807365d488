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
// An entry of a windowed filter may add "since" (microseconds from
// 1970-01-01 UTC) and "since_answers" (n '0'/'1' bytes: the server's
// bloom_contains(f, key, since)); its keys are then also asked since that
// time and compared with those.
//
// An entry of an index's filter may add "mark" (a file holding the mark
// bloom_index_filter_at gave with it) and "catchups" (in order, each
// {"hashes": file, "mark": file}: what bloom_index_changes returned). The
// filter is then read as an IndexCopy with that mark, every catch-up is
// applied with AddHashes, the copy's mark must be the last catch-up's, and
// its answers are compared.
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
	// windowed filters: the server's answers since a time (microseconds
	// from 1970-01-01 UTC), bloom_contains(f, key, since)
	Since        *int64 `json:"since"`
	SinceAnswers string `json:"since_answers"`
	// an index copy: the base mark's file, and the catch-ups to apply
	Mark     string    `json:"mark"`
	Catchups []catchup `json:"catchups"`
}

// catchup is one answer of bloom_index_changes: the file of its hashes
// (8 bytes each, little-endian) and the file of its mark.
type catchup struct {
	Hashes string `json:"hashes"`
	Mark   string `json:"mark"`
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

// result is one comparison: the filter's answers, or those since a time.
type result struct {
	label                    string
	present, disagree, first int    // first: the first index that disagrees, or -1
	note                     string // after the verdict: an index copy's catch-ups
}

// readAnswers reads a file of n '0'/'1' answers.
func readAnswers(dir, file string, n int) ([]byte, error) {
	answers, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, err
	}
	if len(answers) != n {
		return nil, fmt.Errorf("%s holds %d answers, not %d", file, len(answers), n)
	}
	for i, a := range answers {
		if a != '0' && a != '1' {
			return nil, fmt.Errorf("%s: answer %d is %q, not 0 or 1", file, i, a)
		}
	}
	return answers, nil
}

// check answers the filter's keys, and for a windowed filter also since
// its time, and counts the present ones and the disagreements.
func check(dir string, e entry) ([]result, error) {
	if e.Mark != "" {
		r, err := checkCopy(dir, e)
		return []result{r}, err
	}
	ctor, ok := constructors[e.Type]
	if !ok {
		return nil, fmt.Errorf("unknown type %q", e.Type)
	}
	raw, err := os.ReadFile(filepath.Join(dir, e.File))
	if err != nil {
		return nil, err
	}
	answers, err := readAnswers(dir, e.Answers, e.N)
	if err != nil {
		return nil, err
	}
	var sinceAnswers []byte
	if e.Since != nil {
		if sinceAnswers, err = readAnswers(dir, e.SinceAnswers, e.N); err != nil {
			return nil, err
		}
	}
	f, err := ctor(raw)
	if err != nil {
		return nil, err
	}
	var hashes []byte
	if e.Keys == "hash" { // keys a client cannot encode: their hashes
		if hashes, err = os.ReadFile(filepath.Join(dir, e.Hashes)); err != nil {
			return nil, err
		}
		if len(hashes) != 8*e.N {
			return nil, fmt.Errorf("%s holds %d bytes, not %d hashes", e.Hashes, len(hashes), e.N)
		}
	}
	r, err := compare(e, hashes, answers, f.ContainsMany,
		func(h uint64) (bool, error) { return f.ContainsHash(h), nil })
	if err != nil || e.Since == nil {
		return []result{r}, err
	}
	since := time.UnixMicro(*e.Since)
	rs, err := compare(e, hashes, sinceAnswers,
		func(keys []any) ([]bool, error) { return f.ContainsManySince(keys, since) },
		func(h uint64) (bool, error) { return f.ContainsHashSince(h, since) })
	rs.label = fmt.Sprintf(" since %s", since.UTC().Format(time.RFC3339Nano))
	return []result{r, rs}, err
}

// checkCopy reads an index's filter as an IndexCopy, applies its
// catch-ups in order, and answers its keys.
func checkCopy(dir string, e entry) (result, error) {
	r := result{first: -1}
	if e.Type != bloomtype.TypeBloomFilter || e.Keys == "hash" {
		return r, fmt.Errorf("an index copy is a bloomfilter of keys a client encodes, not %s keys %q", e.Type, e.Keys)
	}
	read := func(file string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, file)) }
	raw, err := read(e.File)
	if err != nil {
		return r, err
	}
	answers, err := readAnswers(dir, e.Answers, e.N)
	if err != nil {
		return r, err
	}
	mark, err := read(e.Mark)
	if err != nil {
		return r, err
	}
	c, err := bloomtype.NewIndexCopy(raw, string(mark))
	if err != nil {
		return r, err
	}
	hashes := 0
	for i, u := range e.Catchups {
		b, err := read(u.Hashes)
		if err != nil {
			return r, err
		}
		if mark, err = read(u.Mark); err != nil {
			return r, err
		}
		if err := c.AddHashes(b, string(mark)); err != nil {
			return r, fmt.Errorf("catch-up %d: %w", i+1, err)
		}
		hashes += len(b) / 8
	}
	if c.Mark() != string(mark) {
		return r, fmt.Errorf("the copy's mark is %q, not the last catch-up's %q", c.Mark(), mark)
	}
	r, err = compare(e, nil, answers, func(keys []any) ([]bool, error) {
		out := make([]bool, len(keys))
		for i, k := range keys {
			in, err := c.Contains(k)
			if err != nil {
				return nil, err
			}
			out[i] = in
		}
		return out, nil
	}, nil)
	r.note = fmt.Sprintf(" (%d catch-ups, %d hashes)", len(e.Catchups), hashes)
	return r, err
}

// compare asks about key i for i in 0..n-1 (many: a chunk of keys; hash:
// one key by its hash, for keys "hash") and tallies the answers against
// the server's.
func compare(e entry, hashes, answers []byte, many func([]any) ([]bool, error),
	hash func(uint64) (bool, error)) (result, error) {
	r := result{first: -1}
	// tally counts key i's answer against the server's
	tally := func(i int, in bool) {
		if in {
			r.present++
		}
		if in != (answers[i] == '1') {
			if r.first < 0 {
				r.first = i
			}
			r.disagree++
		}
	}
	if e.Keys == "hash" {
		for i := 0; i < e.N; i++ {
			in, err := hash(binary.LittleEndian.Uint64(hashes[8*i:]))
			if err != nil {
				return r, err
			}
			tally(i, in)
		}
		return r, nil
	}
	const chunk = 4096 // keys hashed with one call into C
	keys := make([]any, 0, chunk)
	for start := 0; start < e.N; start += chunk {
		keys = keys[:0]
		for i := start; i < e.N && i < start+chunk; i++ {
			k, err := key(e.Keys, i)
			if err != nil {
				return r, err
			}
			keys = append(keys, k)
		}
		got, err := many(keys)
		if err != nil {
			return r, err
		}
		for j, in := range got {
			tally(start+j, in)
		}
	}
	return r, nil
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
		results, err := check(dir, e)
		for _, r := range results {
			switch {
			case r.disagree > 0:
				fmt.Printf("%s%s: %d of %d keys disagree (first at i=%d)%s\n", e.Name, r.label, r.disagree, e.N, r.first, r.note)
				total += r.disagree
			case err == nil:
				fmt.Printf("%s%s: %d keys, %d present, agree%s\n", e.Name, r.label, e.N, r.present, r.note)
			}
			keys += e.N
		}
		if err != nil {
			fmt.Printf("%s: error: %v\n", e.Name, err)
			unreadable++
		}
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
