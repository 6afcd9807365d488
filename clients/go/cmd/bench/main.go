// Command bench times one key's lookup four ways, one key at a time on one
// connection with prepared statements, against the database the
// coordinator's script prepares (PG* say where): users(id bigint primary
// key) with ids 1 to 1,000,000 and the index users_id_bloom, and
// filters(name, f) with the row ('users', bloom_agg(id, 1000000, 0.01)).
//
//	local           Contains on the filter loaded once (SELECT f::bytea ...)
//	bloom_contains  SELECT bloom_contains(f, $1) FROM filters WHERE name = 'users'
//	bloom_index_contains SELECT bloom_index_contains('users_id_bloom', $1::bigint)
//	primary_key     SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)
//
// It prints "go <measure> <ns per key> <ratio to primary_key>" a line, and
// fails when the local answers differ from bloom_contains' on the keys
// both saw. Half the keys are present (ids 1 to 1e6), half absent.
//
// Usage: go run ./cmd/bench [N [NQUERIES]]  (defaults 200,000 and 20,000;
// one N serves both)
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	bloomtype "github.com/bloomtype/bloomtype/clients/go"
	"github.com/bloomtype/bloomtype/clients/go/internal/pq"
)

const int8OID = 20

// key i: even i a present id spread over 1..1e6, odd i an absent one.
func key(i int) int64 {
	if i%2 == 0 {
		return 1 + int64(i/2)*7919%1000000
	}
	return 1000001 + int64(i)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}

// timeQuery runs the prepared statement for keys 0..n-1 and gives the ns a key
// and the answers.
func timeQuery(db *pq.Conn, name, sql string, n int) (float64, []bool) {
	if err := db.Prepare(name, sql, int8OID); err != nil {
		fail(err)
	}
	answers := make([]bool, n)
	began := time.Now()
	for i := 0; i < n; i++ {
		rows, err := db.QueryPrepared(name, false, key(i))
		if err != nil {
			fail(err)
		}
		answers[i] = string(rows[0][0]) == "t"
	}
	return float64(time.Since(began).Nanoseconds()) / float64(n), answers
}

func main() {
	nLocal, nQuery := 200000, 20000
	var err error
	if len(os.Args) > 1 {
		if nLocal, err = strconv.Atoi(os.Args[1]); err != nil || nLocal < 1 {
			fail(fmt.Errorf("N must be a positive integer, not %q", os.Args[1]))
		}
		nQuery = nLocal
	}
	if len(os.Args) > 2 {
		if nQuery, err = strconv.Atoi(os.Args[2]); err != nil || nQuery < 1 {
			fail(fmt.Errorf("NQUERIES must be a positive integer, not %q", os.Args[2]))
		}
	}
	db, err := pq.Connect("")
	if err != nil {
		fail(err)
	}
	defer db.Close()

	rows, err := db.Query("SELECT f::bytea FROM filters WHERE name = 'users'", true)
	if err != nil || len(rows) == 0 {
		fail(fmt.Errorf("the filter 'users': %v", err))
	}
	f, err := bloomtype.FromBytes(rows[0][0])
	if err != nil {
		fail(err)
	}
	local := make([]bool, nLocal)
	began := time.Now()
	for i := 0; i < nLocal; i++ {
		if local[i], err = f.Contains(key(i)); err != nil {
			fail(err)
		}
	}
	localNs := float64(time.Since(began).Nanoseconds()) / float64(nLocal)

	containsNs, remote := timeQuery(db, "bench_contains",
		"SELECT bloom_contains(f, $1) FROM filters WHERE name = 'users'", nQuery)
	indexNs, _ := timeQuery(db, "bench_index", "SELECT bloom_index_contains('users_id_bloom', $1::bigint)", nQuery)
	pkNs, _ := timeQuery(db, "bench_pk", "SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)", nQuery)

	for _, m := range []struct {
		name string
		ns   float64
	}{{"local", localNs}, {"bloom_contains", containsNs}, {"bloom_index_contains", indexNs}, {"primary_key", pkNs}} {
		fmt.Printf("go %s %.0f %.4f\n", m.name, m.ns, m.ns/pkNs)
	}
	differ := 0
	for i := 0; i < nQuery && i < nLocal; i++ {
		if local[i] != remote[i] {
			differ++
		}
	}
	if differ > 0 {
		fail(fmt.Errorf("%d local answers differ from bloom_contains'", differ))
	}
}
