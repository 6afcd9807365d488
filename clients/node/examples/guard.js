'use strict';
// A guard against cache penetration: lookups of ids that do not exist are
// answered from a Bloom filter in the application, without a round trip.
// The filter is the one the bloomfilter index keeps in step with the table
//   CREATE INDEX users_id_bloom ON users USING bloomfilter (id);
// and a statement-level AFTER INSERT trigger runs
//   pg_notify('bloomtype_users', '')
// so that the guard reloads it when rows arrive.  A filter never says
// "absent" for an id it holds, so a "false" here is always right; a "maybe"
// (about 1% of absent ids) goes to the database.
const { Client, Pool } = require('pg');
const { BloomFilter } = require('bloomtype');

class Guard {
  // refresh: seconds between timed reloads (0: none); maxAge: seconds after
  // which a filter that could not be reloaded is no longer trusted;
  // listen: reload on the trigger's notifications
  constructor(connection, { refresh = 60, maxAge = 300, listen = true } = {}) {
    this.connection = connection; // pg's connection settings; PG* by default
    this.refresh = refresh;
    this.maxAge = maxAge;
    this.listen = listen;
    this.filter = null;
    this.loadedAt = 0; // when the last successful load finished (ms)
    this.lookups = 0; // round trips made by exists()
  }

  async start() {
    // a pool of one: a connection the server ends is replaced at the next query
    this.db = new Pool({ ...this.connection, max: 1 });
    this.db.on('error', (e) => console.error('guard: database:', e.message));
    await this.reload();
    if (this.filter === null) {
      await this.db.end();
      throw new Error('guard: the first load of the filter failed');
    }
    if (this.listen) {
      // notifications need a connection of their own, which only listens
      this.listener = new Client(this.connection);
      await this.listener.connect();
      this.listener.on('notification', () => this.reload());
      this.listener.on('error', (e) => console.error('guard: listener:', e.message));
      await this.listener.query('LISTEN bloomtype_users');
    }
    if (this.refresh > 0) {
      this.timer = setInterval(() => this.reload(), this.refresh * 1000);
      this.timer.unref(); // the timer alone does not keep the process alive
    }
    return this;
  }

  // Loads the index's filter; a failure keeps the filter we have
  async reload() {
    try {
      const { rows } = await this.db.query(
        "SELECT bloom_index_filter('users_id_bloom')::bytea AS f");
      this.filter = BloomFilter.fromBytes(rows[0].f);
      this.loadedAt = Date.now();
    } catch (e) {
      console.error('guard: reload failed, keeping the old filter:', e.message);
    }
  }

  stale() {
    return this.filter === null || Date.now() - this.loadedAt > this.maxAge * 1000;
  }

  // Does the user exist?  id: a number (safe integer) or a bigint
  async exists(id) {
    if (!this.stale() && !this.filter.contains(id)) {
      return false; // certainly absent: no round trip
    }
    this.lookups++; // maybe present, or a filter too old to trust
    const { rows } = await this.db.query(
      'SELECT EXISTS (SELECT 1 FROM users WHERE id = $1) AS found', [String(id)]);
    return rows[0].found;
  }

  async stop() {
    clearInterval(this.timer);
    if (this.listener) await this.listener.end();
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
