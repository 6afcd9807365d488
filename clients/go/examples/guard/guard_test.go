package guard

import (
	"fmt"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/bloomtype/bloomtype/clients/go/internal/pq"
)

// Run with BLOOMTYPE_GUARD_TEST=1 and PG* pointing at a server with
// bloomtype: the test creates the database go_guard, runs
// clients/guard_setup.sql in it, and drops it.
const dbname = "go_guard"

func setup(t *testing.T) {
	script, err := os.ReadFile("../../../guard_setup.sql") // from clients/go/examples/guard
	if err != nil {
		t.Fatal(err)
	}
	admin, err := pq.Connect("")
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	for _, sql := range []string{"DROP DATABASE IF EXISTS " + dbname, "CREATE DATABASE " + dbname} {
		if err := admin.Exec(sql); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		admin, err := pq.Connect("")
		if err == nil {
			_ = admin.Exec("DROP DATABASE IF EXISTS " + dbname + " WITH (FORCE)")
			admin.Close()
		}
	})
	db := connect(t)
	defer db.Close()
	if err := db.ExecScript(string(script)); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec("INSERT INTO users SELECT generate_series(1, 10000)"); err != nil {
		t.Fatal(err)
	}
}

func connect(t *testing.T) *pq.Conn {
	db, err := pq.Connect("dbname=" + dbname)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func exec(t *testing.T, db *pq.Conn, sql string) {
	if err := db.Exec(sql); err != nil {
		t.Fatal(err)
	}
}

func exists(t *testing.T, g *Guard, id int64) bool {
	ok, err := g.Exists(id)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// held: the copy holds id (asked locally: no query).
func held(t *testing.T, g *Guard, id int64) bool {
	in, err := g.copy.Load().Contains(id)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// found waits until the copy holds id, and gives how long that took.
func found(t *testing.T, g *Guard, id int64, within time.Duration) time.Duration {
	start := time.Now()
	for !held(t, g, id) {
		if time.Since(start) > within {
			t.Fatalf("id %d not in the copy within %v (catch-ups %d, reloads %d)", id, within, g.Catchups(), g.Reloads())
		}
		time.Sleep(200 * time.Microsecond)
	}
	return time.Since(start)
}

// allExist: every id exists, as the guard answers.
func allExist(t *testing.T, g *Guard, ids []int64) {
	for _, id := range ids {
		if !exists(t, g, id) {
			t.Fatalf("committed id %d does not exist", id)
		}
	}
}

func span(from, to int64) []int64 {
	var ids []int64
	for id := from; id <= to; id++ {
		ids = append(ids, id)
	}
	return ids
}

func TestGuard(t *testing.T) {
	if os.Getenv("BLOOMTYPE_GUARD_TEST") != "1" {
		t.Skip("set BLOOMTYPE_GUARD_TEST=1 (and PG*) to run against a server")
	}
	setup(t)
	const refresh = time.Second
	g, err := New("dbname="+dbname, Options{Refresh: refresh})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	db := connect(t) // another application's connection
	defer db.Close()
	committed := span(1, 10000)

	// absent ids: the copy answers, false positives go to the database
	for id := int64(20001); id <= 21000; id++ {
		if exists(t, g, id) {
			t.Fatalf("absent id %d exists", id)
		}
	}
	if n := g.Lookups(); n > 50 {
		t.Errorf("1000 absent ids took %d database lookups, want at most 50", n)
	}
	t.Logf("1000 absent ids: %d database lookups", g.Lookups())
	allExist(t, g, committed)

	// keys committed by another connection: the notification wakes the
	// watcher, which catches up; from COMMIT (autocommit: Exec returns
	// after it) to the copy holding the key
	var took []time.Duration
	for i, sql := range []string{
		"INSERT INTO users VALUES (%d)",
		"INSERT INTO users VALUES (%d)",
		"INSERT INTO users SELECT %d + g FROM generate_series(0, 999) g", // one statement, 1000 rows
		"UPDATE users SET id = %d WHERE id = 1020999",                    // the batch's last row
		"INSERT INTO users VALUES (%d)",
	} {
		id := int64(1000000 + 10000*i)
		before := g.Lookups()
		exec(t, db, fmt.Sprintf(sql, id))
		took = append(took, found(t, g, id, 2*time.Second))
		if g.Lookups() != before || !exists(t, g, id) {
			t.Fatalf("id %d: %d lookups while waiting, or it does not exist", id, g.Lookups()-before)
		}
		committed = append(committed, id)
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	t.Logf("commit to found by the guard: %v (of %d commits; %d catch-ups so far)", took, len(took), g.Catchups())

	// Added: the application's own commit is held at once, before any
	// catch-up could bring it (its transaction is still open, so nothing
	// was even notified); the id inserted beside it and not Added is not
	exec(t, db, "BEGIN")
	exec(t, db, "INSERT INTO users VALUES (2000001), (2000002)")
	if held(t, g, 2000001) || held(t, g, 2000002) {
		t.Fatal("the copy holds uncommitted ids")
	}
	before := g.Lookups()
	if err := g.Added(2000001); err != nil {
		t.Fatal(err)
	}
	if !held(t, g, 2000001) || held(t, g, 2000002) || g.Lookups() != before {
		t.Fatal("Added(2000001): not held at once, or 2000002 held as well, or a query was sent")
	}
	exec(t, db, "COMMIT")
	if !exists(t, g, 2000001) {
		t.Fatal("an Added id does not exist")
	}
	found(t, g, 2000002, 2*time.Second)
	committed = append(committed, 2000001, 2000002)

	// REINDEX: the mark names the index's old file, the log cannot say
	// what the new one holds: the guard loads the filter again
	reloads := g.Reloads()
	exec(t, db, "REINDEX INDEX users_id_bloom")
	exec(t, db, "INSERT INTO users VALUES (3000001)")
	found(t, g, 3000001, 2*time.Second)
	if g.Reloads() == reloads {
		t.Fatal("no reload after REINDEX")
	}
	committed = append(committed, 3000001)
	allExist(t, g, committed)

	// TRUNCATE empties the table and its index: the same
	reloads = g.Reloads()
	exec(t, db, "TRUNCATE users")
	exec(t, db, "INSERT INTO users SELECT generate_series(1, 500)")
	exec(t, db, "INSERT INTO users VALUES (3000002)")
	found(t, g, 3000002, 2*time.Second)
	if g.Reloads() == reloads {
		t.Fatal("no reload after TRUNCATE")
	}
	committed = append(span(1, 500), 3000002)
	allExist(t, g, committed)
	t.Logf("after REINDEX and TRUNCATE: %d reloads, %d catch-ups", g.Reloads(), g.Catchups())

	// the server ends every connection of the guard: the lookups connect
	// again, the watcher too, and catches up on what it did not hear
	exec(t, db, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "+
		"WHERE datname = current_database() AND pid <> pg_backend_pid()")
	allExist(t, g, committed)
	exec(t, db, "INSERT INTO users VALUES (3000003)")
	t.Logf("after the guard's connections ended: a new id found in %v", found(t, g, 3000003, 2*time.Second+refresh))
	if !exists(t, g, 3000003) {
		t.Fatal("id 3000003 does not exist")
	}

	// no catch-up (nothing is committed, the timer is far), max age
	// passed: every id goes to the database
	stale, err := New("dbname="+dbname, Options{Refresh: time.Hour, MaxAge: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer stale.Close()
	defer stale.Close() // twice: the second does nothing
	time.Sleep(100 * time.Millisecond)
	before = stale.Lookups()
	for id := int64(30001); id <= 30100; id++ {
		if exists(t, stale, id) {
			t.Fatalf("absent id %d exists", id)
		}
	}
	if !exists(t, stale, 5) || !exists(t, stale, 3000003) {
		t.Fatal("a present id does not exist")
	}
	if n := stale.Lookups() - before; n != 102 {
		t.Errorf("a stale guard sent %d lookups for 102 ids", n)
	}

	// a failed first load is an error: no server there, or no index
	for _, dsn := range []string{"host=/nonexistent dbname=" + dbname, "dbname=postgres"} {
		bad, err := New(dsn, Options{})
		if err == nil {
			bad.Close()
			t.Fatalf("New(%q): no error", dsn)
		}
		t.Logf("New(%q): %v", dsn, err)
	}
}
