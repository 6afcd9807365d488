#!/usr/bin/env node
'use strict';
/*
 * agree DIR: checks this reader against the server's answers.
 *
 * DIR/manifest.json: {"filters": [{"name", "type", "file", "keys", "n",
 * "answers"}]}: "file" holds the value's bytes, "answers" n ASCII '0' or
 * '1', the server's answer for key i, i from 0 to n - 1, made by the rule
 * of "keys":
 *
 *   int    i * 1000003 - 400000000
 *   text   "ключ-" + i (UTF-8)
 *   bytea  i as 8 bytes, big-endian (int8send)
 *   uuid   the md5 of the decimal digits of i, as a uuid
 *   float  (i - 500000) / 7
 *   hash   (keys of class "other") key i's hash from bloom_key_hash: the file
 *          named by "hashes", n little-endian 64-bit words
 *
 * A windowed filter's entry may also have "since" (microseconds since
 * 1970-01-01 00:00 UTC, a JSON integer, read exactly) and "since_answers"
 * (n ASCII '0' or '1': the server's bloom_contains(f, key i, since)); its
 * keys are then asked with { since } too, and those answers count alike.
 *
 * An index's entry may have "mark" (a file holding the mark that came with
 * the filter from bloom_index_filter_at) and "catchups", [{"hashes",
 * "mark"}] (files: bloom_index_changes' hashes and its new mark, in
 * order): the keys are then asked of an IndexCopy of the value brought up
 * to date by every catch-up, whose mark must end as the last one's.
 *
 * Each value is read with its type's reader.  One line per filter, then
 * "agree: F filters, D disagreements"; the exit status is 0 only when
 * every answer agrees.  Timings go to standard error.
 */

const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const bt = require('..');

const READERS = {
  bloomfilter: bt.BloomFilter,
  countingbloom: bt.CountingBloomFilter,
  cuckoofilter: bt.CuckooFilter,
};

/* A function i -> contains(key i, opts) for f, by the key rule */
function prober(f, rule, dir, e, opts) {
  switch (rule) {
    case 'hash': {
      // keys a client cannot encode (class "other"): their hashes, from
      // bloom_key_hash, n little-endian 64-bit words
      const hashes = fs.readFileSync(path.join(dir, e.hashes));
      if (hashes.length !== 8 * e.n) throw new Error(`${e.hashes}: not ${e.n} hashes`);
      return (i) => f.containsHash(hashes.readBigUInt64LE(8 * i), opts);
    }
    case 'int':
      return (i) => f.contains(i * 1000003 - 400000000, opts);
    case 'text':
      return (i) => f.contains('ключ-' + i, opts);
    case 'bytea': {
      const b = Buffer.alloc(8);
      return (i) => {
        b.writeBigInt64BE(BigInt(i));
        return f.contains(b, opts);
      };
    }
    case 'uuid':
      // crypto.hash (Node 20.12) is the one-shot form, three times faster
      if (typeof crypto.hash === 'function') {
        return (i) => f.containsUuid(crypto.hash('md5', String(i), 'buffer'), opts);
      }
      return (i) => f.containsUuid(crypto.createHash('md5').update(String(i)).digest(), opts);
    case 'float':
      return (i) => f.containsFloat((i - 500000) / 7.0, opts);
    default:
      throw new Error(`unknown key rule ${JSON.stringify(rule)}`);
  }
}

/* The answers of probe for keys 0 to n - 1 against the file `file` of the server's */
function compare(dir, file, n, probe) {
  const answers = fs.readFileSync(path.join(dir, file));
  if (!Number.isSafeInteger(n) || n < 0 || answers.length < n) {
    throw new Error(`answers file ${file} holds ${answers.length} answers, n is ${n}`);
  }
  let present = 0;
  let disagree = 0;
  let first = -1;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const got = probe(i);
    const want = answers[i] === 0x31;
    if (answers[i] !== 0x30 && answers[i] !== 0x31) {
      throw new Error(`answers file ${file}: byte ${i} is not '0' or '1'`);
    }
    if (got) present++;
    if (got !== want) {
      disagree++;
      if (first < 0) first = i;
    }
  }
  const ns = Number(process.hrtime.bigint() - t0);
  return { present, disagree, first, ns };
}

/* A manifest's since: an integer of microseconds (the manifest's text quoted it, see main) */
function sinceOf(e) {
  if (typeof e.since === 'string' && /^-?[0-9]+$/.test(e.since)) return BigInt(e.since);
  if (Number.isSafeInteger(e.since)) return BigInt(e.since);
  throw new Error(`since ${JSON.stringify(e.since)} is not an integer of microseconds`);
}

/* An IndexCopy of the entry's value and mark after its catch-ups, and how many hashes they brought */
function caughtUp(dir, e) {
  const read = (file) => fs.readFileSync(path.join(dir, file));
  if (!Array.isArray(e.catchups)) throw new Error('mark without catchups');
  const copy = new bt.IndexCopy(read(e.file), read(e.mark).toString('utf8'));
  let mark = copy.mark;
  let hashes = 0;
  for (const c of e.catchups) {
    const bytes = read(c.hashes);
    mark = read(c.mark).toString('utf8');
    copy.addHashes(bytes, mark);
    hashes += bytes.length / 8;
  }
  if (copy.mark !== mark) throw new Error(`the copy's mark is ${copy.mark}, not ${mark}`);
  return { copy, hashes };
}

function checkFilter(dir, e) {
  const Reader = READERS[e.type];
  if (!Reader) throw new Error(`unknown type ${JSON.stringify(e.type)}`);
  const sync = e.mark !== undefined ? caughtUp(dir, e) : null;
  const f = sync !== null ? sync.copy : Reader.fromBytes(fs.readFileSync(path.join(dir, e.file)));
  const r = compare(dir, e.answers, e.n, prober(f, e.keys, dir, e));
  if (sync !== null) r.catchups = { count: e.catchups.length, hashes: sync.hashes };
  if (e.since !== undefined) {
    if (typeof e.since_answers !== 'string') throw new Error('since without since_answers');
    const since = sinceOf(e);
    r.since = { at: since, ...compare(dir, e.since_answers, e.n, prober(f, e.keys, dir, e, { since })) };
  }
  return r;
}

/*
 * The manifest, its "since" integers quoted first: JSON.parse would round
 * one past 2^53 to a double
 */
function readManifest(dir) {
  const text = fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8');
  return JSON.parse(text.replace(/("since"\s*:\s*)(-?[0-9]+)(?=\s*[,}])/g, '$1"$2"'));
}

function main(argv) {
  if (argv.length !== 1) {
    process.stderr.write('usage: node bin/agree.js DIR   (DIR/manifest.json)\n');
    return 2;
  }
  const dir = argv[0];
  const manifest = readManifest(dir);
  let total = 0;
  let keys = 0;
  let ns = 0;
  for (const e of manifest.filters) {
    let r;
    try {
      r = checkFilter(dir, e);
    } catch (err) {
      // a value that does not load disagrees with every answer
      process.stdout.write(`${e.name}: ${e.n} of ${e.n} keys disagree (not read: ${err.message})\n`);
      total += e.n > 0 ? e.n : 1;
      continue;
    }
    keys += e.n;
    ns += r.ns;
    let line = r.disagree === 0 ? `${e.name}: ${e.n} keys, ${r.present} present, agree` :
      `${e.name}: ${r.disagree} of ${e.n} keys disagree (first at i=${r.first})`;
    total += r.disagree;
    if (r.since) {
      const s = r.since;
      keys += e.n;
      ns += s.ns;
      line += s.disagree === 0 ? `; since ${s.at}: ${s.present} present, agree` :
        `; since ${s.at}: ${s.disagree} of ${e.n} keys disagree (first at i=${s.first})`;
      total += s.disagree;
    }
    if (r.catchups) line += ` (${r.catchups.count} catch-ups, ${r.catchups.hashes} hashes)`;
    process.stdout.write(line + '\n');
  }
  process.stdout.write(`agree: ${manifest.filters.length} filters, ${total} disagreements\n`);
  if (keys > 0) {
    process.stderr.write(`agree: ${keys} keys in ${(ns / 1e9).toFixed(2)} s, ` +
      `${Math.round(ns / keys)} ns a key (key made, hashed and looked up)\n`);
  }
  return total === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
