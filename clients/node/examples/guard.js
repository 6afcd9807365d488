'use strict';
// A guard against cache penetration: lookups of ids that do not exist are
// answered from a copy of the users table's Bloom filter in the
// application, without a round trip. The filter is the bloomfilter index's
// (clients/guard_setup.sql); its trigger logs each INSERT or UPDATE
// statement's new ids' hashes in the inserting transaction and sends an
// empty NOTIFY users_id_bloom at commit. The notification is only a
// wake-up (what NOTIFY carries, every role can read): the log is the
// record, read from the copy's mark with bloom_index_changes, 8 bytes a
// new id. A gap the log cannot bridge (REINDEX, TRUNCATE, a layer added,
// the log pruned) makes the guard load the whole filter again. A filter
// never says "absent" for an id it holds, so a "false" here is always
// right; a "maybe" (about 1% of absent ids) goes to the database.
const { Client, Pool } = require('pg');
const { IndexCopy } = require('bloomtype');

const lost = (e) => e.code === undefined || /^(08|57P)/.test(e.code); // the connection, not the query

class Guard {
  // refresh: seconds between timed catch-ups (they bound how long a missed
  // notification matters); maxAge: seconds the copy is trusted after the
  // last successful load or catch-up (past it, exists() asks the database)
  constructor(connection, { refresh = 1.0, maxAge = 30 } = {}) {
    this.connection = connection; // pg's connection settings; PG* by default
    this.refresh = refresh;
    this.maxAge = maxAge;
    this.copy = null;
    this.syncedAt = 0; // when the last successful load or catch-up asked (ms)
    this.caughtUpAt = 0; // when the last successful catch-up asked (ms)
    this.lookups = 0; // round trips made by exists()
    this.catchups = 0; // catch-ups applied
    this.reloads = 0; // loads after a gap
    this.listener = null;
    this.running = null; // the catch-ups under way
    this.woken = false;
    this.loading = null; // ids added() while a load is under way
    this.stopped = false;
  }

  async start() {
    // a pool of one: a connection the server ends is replaced at the next query
    this.db = new Pool({ ...this.connection, max: 1 });
    this.db.on('error', (e) => console.error('guard: database:', e.message));
    try {
      // listening first: a commit the load misses is then notified
      await this.listen();
      await this.load();
    } catch (e) {
      await this.stop();
      throw e;
    }
    if (this.woken) this.catchUp(); // notified during the load
    this.timer = setInterval(() => this.catchUp(), this.refresh * 1000);
    this.timer.unref(); // the timer alone does not keep the process alive
    return this;
  }

  // LISTEN on a connection of its own; lost, it is made again at the next catch-up
  async listen() {
    const listener = new Client(this.connection);
    const drop = () => {
      if (this.listener === listener) this.listener = null;
    };
    listener.on('notification', () => this.catchUp());
    listener.on('error', (e) => {
      console.error('guard: listener:', e.message);
      drop();
    });
    listener.on('end', drop);
    try {
      await listener.connect();
      await listener.query('LISTEN users_id_bloom');
    } catch (e) {
      await listener.end().catch(() => {});
      throw e;
    }
    this.listener = listener;
  }

  // Loads the index's filter and its mark
  async load() {
    this.loading = [];
    const asked = Date.now(); // the copy is complete as of the query
    try {
      const { rows } = await this.db.query(
        "SELECT filter::bytea AS f, mark FROM bloom_index_filter_at('users_id_bloom')");
      const copy = new IndexCopy(rows[0].f, rows[0].mark);
      for (const id of this.loading) copy.add(id); // the load may have read before their commit
      this.copy = copy;
      this.syncedAt = asked;
    } finally {
      this.loading = null;
    }
  }

  // Brings the copy up to date. One catch-up runs at a time; the wake-ups
  // that come meanwhile (notifications read together, the timer) make one
  // more after it, for the lot.
  catchUp() {
    this.woken = true;
    if (this.copy !== null && this.running === null && !this.stopped) {
      this.running = this.drain();
    }
    return this.running;
  }

  async drain() {
    await new Promise(setImmediate); // the notifications already read wake it once
    while (this.woken) {
      this.woken = false;
      await this.step();
    }
    this.running = null;
  }

  // One catch-up from the copy's mark; a failure keeps the copy
  async step() {
    try {
      if (this.listener === null) await this.listen(); // before asking: nothing is missed
      const asked = Date.now();
      const { rows } = await this.db.query(
        "SELECT complete, reason, hashes, mark FROM bloom_index_changes('users_id_bloom', $1)",
        [this.copy.mark]);
      const c = rows[0];
      if (c.complete) {
        this.copy.addHashes(c.hashes, c.mark);
        this.catchups++;
        this.syncedAt = this.caughtUpAt = asked;
      } else {
        // c.reason says why the log cannot bring the copy up to date: the
        // copy is not trusted (the database answers) until a load succeeds
        this.syncedAt = -Infinity;
        await this.load();
        this.reloads++;
      }
    } catch (e) {
      console.error('guard: catch-up failed, keeping the copy:', e.message);
    }
  }

  fresh() {
    return this.copy !== null && Date.now() - this.syncedAt <= this.maxAge * 1000;
  }

  // The application has committed a new user itself: the copy holds it at
  // once, before the notification's catch-up brings it
  added(id) {
    this.copy.add(id);
    if (this.loading !== null) this.loading.push(id);
  }

  // Does the user exist?  id: a number (safe integer) or a bigint
  async exists(id) {
    if (this.fresh() && !this.copy.contains(id)) {
      return false; // certainly absent: no round trip
    }
    this.lookups++; // maybe present, or a copy too old to trust
    const ask = () => this.db.query(
      'SELECT EXISTS (SELECT 1 FROM users WHERE id = $1) AS found', [String(id)]);
    let res;
    try {
      res = await ask();
    } catch (e) {
      if (!lost(e)) throw e;
      res = await ask(); // the pool connects again
    }
    return res.rows[0].found;
  }

  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    if (this.listener !== null) await this.listener.end();
    await this.db.end();
  }
}

module.exports = { Guard };

// node examples/guard.js ID...: asks the guard about each id (PG* for the connection)
if (require.main === module) {
  (async () => {
    const guard = await new Guard().start();
    for (const arg of process.argv.slice(2)) {
      console.log(arg, await guard.exists(BigInt(arg)));
    }
    console.log(`${guard.lookups} database lookups`);
    await guard.stop();
  })().catch((e) => {
    console.error(e.message);
    process.exitCode = 1;
  });
}
