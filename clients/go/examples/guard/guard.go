// Package guard keeps lookups of ids that do not exist away from the
// database (the cache-penetration pattern of docs/COOKBOOK.md). It holds a
// copy of the users table's bloomfilter index (clients/guard_setup.sql),
// a bloomtype.IndexCopy, and asks the database only about ids the copy
// may hold.
//
// The copy is kept in step without reading the whole filter again. The
// table's statement triggers log the hashes of each INSERT's or UPDATE's
// new ids in the inserting transaction, and send NOTIFY users_id_bloom at
// commit. The notification carries nothing (any role may LISTEN, so it
// must not carry ids): it only wakes the watcher, which asks
// bloom_index_changes for what was committed since the copy's mark and
// adds it. The log, not the notification, carries the changes, so
// notifications merged or lost (a dropped connection) lose no key: the
// next catch-up, Refresh later at the latest, brings them. When the log
// cannot bridge the gap (the index was rebuilt by REINDEX or TRUNCATE,
// grew a layer, or the log was pruned past the mark), the copy is loaded
// again.
package guard

import (
	"sync"
	"sync/atomic"
	"time"

	bloomtype "github.com/bloomtype/bloomtype/clients/go"
	"github.com/bloomtype/bloomtype/clients/go/internal/pq"
)

// Options say how the copy is kept in step.
type Options struct {
	// catch up this often even without a notification: it bounds how long
	// a missed notification matters (0: 1 s)
	Refresh time.Duration
	// trust the copy this long after its last successful load or catch-up;
	// past it (the database out of reach), Exists asks the database about
	// every id (0: 30 s)
	MaxAge time.Duration
}

// Guard answers whether a user id exists. It is safe for concurrent use.
type Guard struct {
	opts Options
	conn string // libpq's connection string

	mu sync.Mutex // one query at a time on db
	db *pq.Conn   // Exists' connection: nil until needed, and after a failure

	copy   atomic.Pointer[bloomtype.IndexCopy]
	synced atomic.Int64 // when the last successful load or catch-up asked, in Unix nanoseconds

	// users Added while a load is under way: the filter read may predate
	// their commits, so they are added to the new copy as well
	addMu   sync.Mutex
	loading bool
	added   []int64

	lookups  atomic.Int64 // queries Exists sent to the database
	catchups atomic.Int64 // successful catch-ups, reloads included
	reloads  atomic.Int64 // catch-ups that loaded the filter again

	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// New listens for the index's notifications, loads the copy, and starts
// the watcher that keeps it in step (conninfo "" reads the PG*
// environment). A failed first load is an error.
func New(conninfo string, opts Options) (*Guard, error) {
	if opts.Refresh <= 0 {
		opts.Refresh = time.Second
	}
	if opts.MaxAge <= 0 {
		opts.MaxAge = 30 * time.Second
	}
	g := &Guard{opts: opts, conn: conninfo, stop: make(chan struct{}), done: make(chan struct{})}
	c, err := g.listen() // before the load: no commit after it goes unheard
	if err != nil {
		return nil, err
	}
	if err := g.load(c); err != nil {
		c.Close()
		return nil, err
	}
	go g.watch(c)
	return g, nil
}

// listen opens the watcher's own connection, listening on the index's channel.
func (g *Guard) listen() (*pq.Conn, error) {
	c, err := pq.Connect(g.conn)
	if err != nil {
		return nil, err
	}
	if err := c.Exec("LISTEN users_id_bloom"); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// load reads the index's filter and its mark into a new copy; on failure
// the old copy stays.
func (g *Guard) load(c *pq.Conn) error {
	g.addMu.Lock()
	g.loading = true
	g.addMu.Unlock()
	asked := time.Now()
	rows, err := c.Query("SELECT filter::bytea, mark FROM bloom_index_filter_at('users_id_bloom')", true)
	var cp *bloomtype.IndexCopy
	if err == nil {
		cp, err = bloomtype.NewIndexCopy(rows[0][0], string(rows[0][1]))
	}
	g.addMu.Lock()
	defer g.addMu.Unlock()
	added := g.added
	g.loading, g.added = false, nil
	if err != nil {
		return err
	}
	for _, id := range added {
		if err := cp.Add(id); err != nil {
			return err
		}
	}
	g.copy.Store(cp)
	g.synced.Store(asked.UnixNano())
	return nil
}

// catchUp adds what was committed since the copy's mark, or loads the
// copy again when the log cannot say (complete is false).
func (g *Guard) catchUp(c *pq.Conn) error {
	cp := g.copy.Load()
	asked := time.Now()
	rows, err := c.Query("SELECT complete, hashes, mark FROM bloom_index_changes('users_id_bloom', $1)",
		true, cp.Mark())
	if err != nil {
		return err
	}
	if rows[0][0][0] == 1 { // complete (a boolean's binary form)
		if err := cp.AddHashes(rows[0][1], string(rows[0][2])); err != nil {
			return err
		}
		g.synced.Store(asked.UnixNano())
	} else { // a gap: the database answers until a load succeeds
		g.synced.Store(0)
		if err := g.load(c); err != nil {
			return err
		}
		g.reloads.Add(1)
	}
	g.catchups.Add(1)
	return nil
}

// watch catches up on notifications and every Refresh, until Close. A
// connection that fails is opened again (a second later, and so on) and
// the copy caught up at once: notifications sent meanwhile were lost, the
// log kept their keys. A failed catch-up keeps the copy as it was.
func (g *Guard) watch(c *pq.Conn) {
	defer close(g.done)
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	tick := time.NewTicker(g.opts.Refresh)
	defer tick.Stop()
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
			if c, _ = g.listen(); c != nil && g.catchUp(c) != nil {
				c.Close()
				c = nil
			}
			continue
		}
		// wait for a notification, waking up to see Close and the ticker;
		// the ones pending are drained: one catch-up serves them all
		due := false
		channel, err := c.WaitNotify(100 * time.Millisecond)
		for err == nil && channel != "" {
			due = true
			channel, err = c.WaitNotify(0)
		}
		select {
		case <-tick.C:
			due = true
		default:
		}
		if err == nil && due {
			err = g.catchUp(c)
		}
		if err != nil { // the connection may be gone: open it again
			c.Close()
			c = nil
		}
	}
}

// Exists says whether user id exists. An id a fresh copy says is absent
// is answered false without a round trip; a maybe, or any id while the
// copy is older than MaxAge, is asked of the database.
func (g *Guard) Exists(id int64) (bool, error) {
	if time.Since(g.LastCatchup()) <= g.opts.MaxAge {
		if in, err := g.copy.Load().Contains(id); err == nil && !in {
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

// Added tells the guard that the application has committed user id
// itself: the copy holds it at once, without waiting for the catch-up
// that the commit's notification brings.
func (g *Guard) Added(id int64) error {
	g.addMu.Lock()
	defer g.addMu.Unlock()
	if g.loading {
		g.added = append(g.added, id)
	}
	return g.copy.Load().Add(id)
}

// Lookups counts the queries Exists sent, Catchups the successful
// catch-ups (Reloads among them those that loaded the filter again), and
// LastCatchup is when the last successful load or catch-up asked.
func (g *Guard) Lookups() int64         { return g.lookups.Load() }
func (g *Guard) Catchups() int64        { return g.catchups.Load() }
func (g *Guard) Reloads() int64         { return g.reloads.Load() }
func (g *Guard) LastCatchup() time.Time { return time.Unix(0, g.synced.Load()) }

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
