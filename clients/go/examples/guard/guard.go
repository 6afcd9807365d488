// Package guard keeps lookups of ids that do not exist away from the
// database (the cache-penetration pattern of docs/COOKBOOK.md). It holds
// a copy of the users table's bloomfilter index, read with the bloomtype
// reader, and asks the database only about ids the filter may hold.
package guard

import (
	"sync"
	"sync/atomic"
	"time"

	bloomtype "github.com/bloomtype/bloomtype/clients/go"
	"github.com/bloomtype/bloomtype/clients/go/internal/pq"
)

// Options say how the filter is kept fresh.
type Options struct {
	Listen  bool          // reload on NOTIFY bloomtype_users (the table's insert trigger)
	Refresh time.Duration // reload this often as well (0: never)
	MaxAge  time.Duration // a filter older than this is not trusted (0: no limit)
}

type snapshot struct {
	filter *bloomtype.Filter
	loaded time.Time
}

// Guard answers whether a user id exists. It is safe for concurrent use.
type Guard struct {
	opts    Options
	conn    string     // libpq's connection string
	mu      sync.Mutex // one query at a time on db
	db      *pq.Conn   // nil after a failure, until the next query reconnects
	current atomic.Pointer[snapshot]
	lookups atomic.Int64 // queries Exists sent to the database
	loads   atomic.Int64 // successful loads of the filter
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// New connects (conninfo "" reads the PG* environment), loads the filter,
// and starts the watcher that reloads it.
func New(conninfo string, opts Options) (*Guard, error) {
	db, err := pq.Connect(conninfo)
	if err != nil {
		return nil, err
	}
	g := &Guard{opts: opts, conn: conninfo, db: db, stop: make(chan struct{}), done: make(chan struct{})}
	if err := g.reload(db); err != nil {
		db.Close()
		return nil, err
	}
	if !opts.Listen && opts.Refresh <= 0 {
		close(g.done) // no watcher
		return g, nil
	}
	bg, err := g.listen()
	if err != nil {
		db.Close()
		return nil, err
	}
	go g.watch(bg)
	return g, nil
}

// listen opens the watcher's own connection, listening when asked.
func (g *Guard) listen() (*pq.Conn, error) {
	c, err := pq.Connect(g.conn)
	if err == nil && g.opts.Listen {
		if err = c.Exec("LISTEN bloomtype_users"); err != nil {
			c.Close()
		}
	}
	return c, err
}

// reload reads the index's filter; on failure the old one stays.
func (g *Guard) reload(c *pq.Conn) error {
	rows, err := c.Query("SELECT bloom_index_filter('users_id_bloom')::bytea", true)
	if err != nil {
		return err
	}
	f, err := bloomtype.FromBytes(rows[0][0])
	if err != nil {
		return err
	}
	g.current.Store(&snapshot{filter: f, loaded: time.Now()})
	g.loads.Add(1)
	return nil
}

// watch reloads on a notification and every Refresh, until Close. A
// connection that fails is opened again (once a second at most) and the
// filter reloaded: notifications sent meanwhile were lost.
func (g *Guard) watch(c *pq.Conn) {
	defer close(g.done)
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	last := time.Now()
	for {
		select {
		case <-g.stop:
			return
		default:
		}
		if c == nil { // reconnect after a pause that Close can cut short
			select {
			case <-g.stop:
				return
			case <-time.After(time.Second):
			}
			if nc, err := g.listen(); err == nil {
				c = nc
				if g.reload(c) == nil {
					last = time.Now()
				}
			}
			continue
		}
		notified := false
		if g.opts.Listen { // wait for a notification, waking up to see Close
			channel, err := c.WaitNotify(100 * time.Millisecond)
			if err != nil {
				c.Close()
				c = nil
				continue
			}
			notified = channel != ""
		} else {
			time.Sleep(100 * time.Millisecond)
		}
		if notified || (g.opts.Refresh > 0 && time.Since(last) >= g.opts.Refresh) {
			if err := g.reload(c); err != nil { // the old filter stays
				c.Close() // and the connection is opened again
				c = nil
			}
			last = time.Now()
		}
	}
}

// Exists says whether user id exists. An id a fresh filter says is absent
// is answered false without a round trip; a maybe, or any id while the
// filter is stale, is asked of the database.
func (g *Guard) Exists(id int64) (bool, error) {
	if s := g.current.Load(); g.opts.MaxAge <= 0 || time.Since(s.loaded) <= g.opts.MaxAge {
		if in, err := s.filter.Contains(id); err == nil && !in {
			return false, nil // certainly absent
		}
	}
	g.lookups.Add(1)
	g.mu.Lock()
	defer g.mu.Unlock()
	for try := 0; ; try++ {
		if g.db == nil { // the last query failed: connect again
			db, err := pq.Connect(g.conn)
			if err != nil {
				return false, err
			}
			g.db = db
		}
		rows, err := g.db.Query("SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)", false, id)
		if err == nil {
			return string(rows[0][0]) == "t", nil
		}
		g.db.Close() // the connection may be gone: once more on a new one
		g.db = nil
		if try == 1 {
			return false, err
		}
	}
}

// Lookups counts the queries Exists sent; Loads the filter's loads.
func (g *Guard) Lookups() int64 { return g.lookups.Load() }
func (g *Guard) Loads() int64   { return g.loads.Load() }

// Close stops the watcher and closes the connections.
func (g *Guard) Close() {
	g.once.Do(func() {
		close(g.stop)
		<-g.done
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.db != nil {
			g.db.Close()
		}
	})
}
