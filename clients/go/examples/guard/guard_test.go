package guard

import (
	"os"
	"testing"
	"time"

	"github.com/bloomtype/bloomtype/clients/go/internal/pq"
)

// Run with BLOOMTYPE_GUARD_TEST=1 and PG* pointing at a server with
// bloomtype: the test creates the database go_guard, and drops it.
const dbname = "go_guard"

func setup(t *testing.T) {
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
	for _, sql := range []string{
		"CREATE EXTENSION bloomtype",
		"CREATE TABLE users (id bigint PRIMARY KEY)",
		"CREATE INDEX users_id_bloom ON users USING bloomfilter (id)",
		`CREATE FUNCTION users_notify() RETURNS trigger LANGUAGE plpgsql AS
		 $$BEGIN PERFORM pg_notify('bloomtype_users', ''); RETURN NULL; END$$`,
		`CREATE TRIGGER users_notify AFTER INSERT ON users
		 FOR EACH STATEMENT EXECUTE FUNCTION users_notify()`,
		"INSERT INTO users SELECT generate_series(1, 10000)",
	} {
		if err := db.Exec(sql); err != nil {
			t.Fatal(err)
		}
	}
}

func connect(t *testing.T) *pq.Conn {
	db, err := pq.Connect("dbname=" + dbname)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func exists(t *testing.T, g *Guard, id int64) bool {
	ok, err := g.Exists(id)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestGuard(t *testing.T) {
	if os.Getenv("BLOOMTYPE_GUARD_TEST") != "1" {
		t.Skip("set BLOOMTYPE_GUARD_TEST=1 (and PG*) to run against a server")
	}
	setup(t)
	g, err := New("dbname="+dbname, Options{Listen: true, Refresh: time.Minute, MaxAge: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()

	// absent ids: the filter answers, false positives (1%) go to the database
	for id := int64(20001); id <= 22000; id++ {
		if exists(t, g, id) {
			t.Fatalf("absent id %d exists", id)
		}
	}
	if n := g.Lookups(); n > 200 {
		t.Errorf("2000 absent ids took %d database lookups, want at most 200", n)
	}
	t.Logf("2000 absent ids: %d database lookups", g.Lookups())
	for id := int64(1); id <= 10000; id++ {
		if !exists(t, g, id) {
			t.Fatalf("present id %d does not exist", id)
		}
	}

	// a new user: the trigger notifies, the guard reloads
	loads := g.Loads()
	db := connect(t)
	defer db.Close()
	if err := db.Exec("INSERT INTO users VALUES (123456789)"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for g.Loads() == loads || !exists(t, g, 123456789) {
		if time.Now().After(deadline) {
			t.Fatalf("no reload within 10 s (loads %d)", g.Loads())
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("reloaded after the insert: %d loads", g.Loads())

	// the server ends every connection of the guard: the watcher connects
	// again and reloads, the next lookup connects again
	if err := db.Exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity " +
		"WHERE datname = current_database() AND pid <> pg_backend_pid()"); err != nil {
		t.Fatal(err)
	}
	if !exists(t, g, 5) { // asks the database: its connection is gone, it connects again
		t.Fatal("present id 5 does not exist after its connection ended")
	}
	loads = g.Loads()
	if err := db.Exec("INSERT INTO users VALUES (987654321)"); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(10 * time.Second)
	for g.Loads() == loads || !exists(t, g, 987654321) {
		if time.Now().After(deadline) {
			t.Fatalf("no reload within 10 s of the connections' end (loads %d)", g.Loads())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !exists(t, g, 5) {
		t.Fatal("present id 5 does not exist after reconnecting")
	}

	// no listener, no timer, max age passed: every id goes to the database
	stale, err := New("dbname="+dbname, Options{MaxAge: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer stale.Close()
	defer stale.Close() // twice: the second does nothing
	time.Sleep(100 * time.Millisecond)
	before := stale.Lookups()
	for id := int64(30001); id <= 30100; id++ {
		if exists(t, stale, id) {
			t.Fatalf("absent id %d exists", id)
		}
	}
	if !exists(t, stale, 5) || !exists(t, stale, 123456789) || !exists(t, stale, 987654321) {
		t.Fatal("a present id does not exist")
	}
	if n := stale.Lookups() - before; n != 103 {
		t.Errorf("a stale guard sent %d lookups for 103 ids", n)
	}
}
