# The bloomfilter index on a physical standby, modelled on contrib/bloom's
# t/001_wal.pl.  The primary runs with wal_consistency_checking = 'generic':
# the standby replays every generic WAL record the index writes and checks
# the page it made against the full image the primary logged with it (a
# mismatch stops the standby: "inconsistent page found").  Through 10
# cycles of inserts (the index growing by layers), deletes, VACUUM and
# CHECKPOINT, the standby answers exactly as the primary, key by key and
# byte by byte (md5 of bloom_index_filter), in fresh sessions and in one
# long-lived session.  REINDEX and TRUNCATE (a new file, and in the creating
# transaction the same file truncated) are replayed; an unlogged index is
# an ERROR on the standby.  Bulk loads (COPY and INSERT ... SELECT of
# 200,000 rows each into two indexes, bigint and text, writing this
# backend's pending keys page by page), and a load rolled back: the
# standby answers as the primary for every key of the table and for
# 100,000 absent keys, with the same filter bytes and bloom_index_info (its
# bytes, the file's length, at most the primary's).  After promotion the
# unlogged index starts empty and every index takes inserts.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', q{
wal_consistency_checking = 'generic'
full_page_writes = on
});
$primary->start;
# a slot keeps the WAL the standby has not received (every generic record
# carries a full page image for the check, so checkpoints recycle a lot)
$primary->safe_psql('postgres', q{SELECT pg_create_physical_replication_slot('standby', true)});
$primary->backup('backup');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->append_conf('postgresql.conf', "primary_slot_name = 'standby'\n");
$standby->start;

$primary->safe_psql('postgres', q{
	CREATE EXTENSION bloomtype;
	CREATE TABLE t (id bigint);
	INSERT INTO t SELECT g FROM generate_series(1, 2000) g;
	CREATE INDEX i ON t USING bloomfilter (id) WITH (fpr = 0.01, min_capacity = 1000, min_pages = 1);
});

# Keys present (every row) and absent (never inserted), each answered one
# by one and as an array, the filter's digest and its shape
my $queries = q{
SELECT md5(string_agg(c::text, ',' ORDER BY n))
  FROM unnest(bloom_index_contains_each('%1$s', ARRAY(SELECT id FROM %2$s ORDER BY id))) WITH ORDINALITY a(c, n);
SELECT md5(string_agg(c::text, ',' ORDER BY n))
  FROM unnest(bloom_index_contains_each('%1$s', ARRAY(SELECT -g FROM generate_series(1, 5000) g))) WITH ORDINALITY a(c, n);
SELECT count(*) FILTER (WHERE bloom_index_contains('%1$s', id)) FROM %2$s;
SELECT count(*) FILTER (WHERE bloom_index_contains('%1$s', -g)) FROM generate_series(1, 5000) g;
SELECT md5(bloom_index_filter('%1$s')::bytea);
SELECT items, capacity, layers, bytes, bits_set, build_items FROM bloom_index_info('%1$s');
};

# Sessions that stay open through the cycles: one on the primary that
# writes and asks, one on the standby that asks (its relcache keeps the
# index's cached metapage and file length from one cycle to the next).
# Fresh standby sessions ask too, once a cycle.
my $pq = $primary->background_psql('postgres');
my $long = $standby->background_psql('postgres', on_error_stop => 0);

# wait until the standby has replayed all the primary wrote (as
# wait_for_catchup in replay mode, through the open sessions)
sub catchup
{
	my $lsn = $pq->query_safe('SELECT pg_current_wal_lsn()');
	for (my $i = 0; $i < 10 * $PostgreSQL::Test::Utils::timeout_default; $i++)
	{
		return if $long->query("SELECT pg_last_wal_replay_lsn() >= '$lsn'") eq 't';
		select(undef, undef, undef, 0.1);
	}
	die "standby did not catch up to $lsn";
}

sub test_index_replay
{
	my ($what, $fresh, $index, $table) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	$index //= 'i';
	$table //= 't';
	my $q = sprintf($queries, $index, $table);
	if ($fresh)
	{
		$primary->wait_for_catchup($standby);
	}
	else
	{
		catchup();
	}
	my $p = $pq->query_safe($q);
	is($long->query($q), $p, "$what: the standby answers as the primary");
	is($standby->safe_psql('postgres', $q), $p, "$what: and so does a new standby session")
	  if $fresh;
	return $p;
}

my $r = test_index_replay('build', 1);
like($r, qr/^[0-9a-f]{32}\n[0-9a-f]{32}\n2000\n/, 'build: every row found on the primary');

for my $i (1 .. 10)
{
	# grow: each cycle adds more keys than the last
	my ($from, $to) = (100000 * $i, 100000 * $i + 100 * $i * $i);
	$pq->query_safe("INSERT INTO t SELECT g FROM generate_series($from, $to) g");
	test_index_replay("insert $i");
	$pq->query_safe("DELETE FROM t WHERE id % 10 = $i % 10");
	test_index_replay("delete $i");
	$pq->query_safe('VACUUM t');
	test_index_replay("vacuum $i");
	$pq->query_safe('CHECKPOINT');
	# a first change of each page after the checkpoint
	$pq->query_safe(
		"INSERT INTO t SELECT g FROM generate_series(5000000 + $i * 1000, 5000000 + $i * 1000 + 500) g");
	$r = test_index_replay("checkpoint $i", 1);
	is($pq->query_safe(q{SELECT count(*) FROM t WHERE NOT bloom_index_contains('i', id)}),
		'0', "cycle $i: every row found on the primary");
}
my ($layers) = $r =~ /\|(\d+)\|\d+\|\d+\|\d+$/m;
cmp_ok($layers, '>=', 4, "the cycles grew the index to $layers layers");
is($long->query(q{SELECT count(*) FROM t WHERE NOT bloom_index_contains('i', id)}),
	'0', 'every row found on the standby');

# REINDEX: a new file, written by the build (log_newpage_range)
$pq->query_safe('REINDEX INDEX i');
$r = test_index_replay('reindex', 1);
my @lines = split /\n/, $r;
is((split /\|/, $lines[5])[5], $lines[2], 'reindex: the primary rebuilt the index from the rows, and finds each');
$pq->query_safe('INSERT INTO t SELECT g FROM generate_series(6000000, 6005000) g');
test_index_replay('insert after reindex');

# TRUNCATE: a new, empty index file
$pq->query_safe('TRUNCATE t');
$r = test_index_replay('truncate', 1);
like($r, qr/\n0\n0\n[0-9a-f]{32}\n0\|/, 'truncate: the index is empty');
$pq->query_safe('INSERT INTO t SELECT g FROM generate_series(1, 10000) g');
test_index_replay('insert after truncate', 1);

# TRUNCATE in the transaction that made the table: the same files are
# truncated and the index rebuilt in place
$primary->safe_psql('postgres', q{
	BEGIN;
	CREATE TABLE t2 (id bigint);
	CREATE INDEX i2 ON t2 USING bloomfilter (id) WITH (min_capacity = 1000, min_pages = 1);
	INSERT INTO t2 SELECT g FROM generate_series(1, 20000) g;
	TRUNCATE t2;
	INSERT INTO t2 SELECT g FROM generate_series(-5000, -1) g;
	COMMIT;
});
$r = test_index_replay('truncate in the creating transaction', 1, 'i2', 't2');
is( $standby->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE bloom_index_contains('i2', g)) < 400,
	       (SELECT count(*) FROM t2 WHERE NOT bloom_index_contains('i2', id))
	  FROM generate_series(1, 20000) g}),
	't|0', 'truncate in the creating transaction: the standby finds the new keys, not the truncated ones');

# unlogged: not replicated, so an ERROR on the standby, never "absent"
$primary->safe_psql('postgres', q{
	CREATE UNLOGGED TABLE ut (id bigint);
	CREATE INDEX uti ON ut USING bloomfilter (id) WITH (min_pages = 1);
	INSERT INTO ut SELECT g FROM generate_series(1, 10000) g;
});
$primary->wait_for_catchup($standby);
for my $call ("bloom_index_contains('uti', 1)", "bloom_index_contains_each('uti', ARRAY[1, 2])",
	"bloom_index_filter('uti')", "bloom_index_info('uti')")
{
	my ($ret, $out, $err) = $standby->psql('postgres', "SELECT $call");
	isnt($ret, 0, "unlogged on the standby: $call fails");
	like($err, qr/cannot read unlogged index "uti" during recovery/, "unlogged on the standby: $call says why");
}
is($primary->safe_psql('postgres', q{SELECT count(*) FROM ut WHERE NOT bloom_index_contains('uti', id)}),
	'0', 'unlogged on the primary: every key found');

# Bulk loads: a COPY of 200,000 rows and an INSERT ... SELECT of 200,000
# into a table with two indexes (bigint, text), each load filling the
# backend's pending keys of an index (65,536) several times and growing
# layers.  The standby replays every page's record (checked against its
# full image) and answers as the primary for each key of the table and for
# 100,000 absent keys, with the same filter bytes and bloom_index_info
# (but for the file's length).  Then a transaction that loads and rolls back (some of its keys written
# before the abort, the rest dropped), and a load committed after it.
$primary->safe_psql('postgres', q{
	CREATE TABLE bt (id bigint, s text);
	CREATE INDEX bti ON bt USING bloomfilter (id) WITH (fpr = 0.01, min_capacity = 1000, min_pages = 1);
	CREATE INDEX bts ON bt USING bloomfilter (s) WITH (fpr = 0.01, min_capacity = 1000);
});

sub copy_sql
{
	my ($from, $to) = @_;
	return "COPY bt FROM STDIN;\n" . join('', map { "$_\tk$_\n" } $from .. $to) . "\\.\n";
}

sub insert_sql
{
	my ($from, $to) = @_;
	return "INSERT INTO bt SELECT g, 'k' || g FROM generate_series($from, $to) g;\n";
}

# The answers for the rows of the table (both indexes, as two arrays, and
# with $one one key a call too) and their digest, in the order of id; then
# the same for the keys of -100000 .. -1 (absent) and of the ranges given;
# the filters' bytes; bloom_index_info of each index but its bytes, the
# length of the file: the primary adds a new layer's pages to the file as
# zero pages without WAL (each is logged whole by its first key), so the
# standby's file ends at the last page a key has written and may be
# shorter, as long as pages of the newest layer have no key yet
sub bulk_queries
{
	my ($one, @ranges) = @_;
	my $q = q{
SELECT count(*), count(*) FILTER (WHERE NOT a), count(*) FILTER (WHERE NOT b),
       md5(string_agg(a::int::text || b::int::text, '' ORDER BY n))
  FROM unnest(bloom_index_contains_each('bti', ARRAY(SELECT id FROM bt ORDER BY id)),
              bloom_index_contains_each('bts', ARRAY(SELECT s FROM bt ORDER BY id))) WITH ORDINALITY x(a, b, n);
};
	$q .= q{
SELECT count(*), count(*) FILTER (WHERE NOT a), count(*) FILTER (WHERE NOT b),
       md5(string_agg(a::int::text || b::int::text, '' ORDER BY id))
  FROM (SELECT id, bloom_index_contains('bti', id) a, bloom_index_contains('bts', s) b FROM bt) x;
} if $one;
	$q .= qq{
SELECT count(*) FILTER (WHERE a), count(*) FILTER (WHERE b),
       md5(string_agg(a::int::text || b::int::text, '' ORDER BY g))
  FROM (SELECT g, bloom_index_contains('bti', g) a, bloom_index_contains('bts', 'k' || g) b
          FROM generate_series($_->[0]::bigint, $_->[1]) g) x;
} for ([ -100000, -1 ], @ranges);
	$q .= q{
SELECT md5(bloom_index_filter('bti')::bytea), md5(bloom_index_filter('bts')::bytea);
SELECT items, capacity, fpr, layers, estimated_fpr, saturation, expansion, hashes, bits_set, key_type, build_items, partitions
  FROM bloom_index_info('bti');
SELECT items, capacity, fpr, layers, estimated_fpr, saturation, expansion, hashes, bits_set, key_type, build_items, partitions
  FROM bloom_index_info('bts');
};
	return $q;
}

sub compare_bulk
{
	my ($what, $one, @ranges) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my $q = bulk_queries($one, @ranges);
	$primary->wait_for_catchup($standby);
	my $p = $primary->safe_psql('postgres', $q);
	is($standby->safe_psql('postgres', $q), $p,
		"$what: the standby answers as the primary for every key, with the same filter bytes and info");
	my $bytes = q{SELECT (SELECT bytes FROM bloom_index_info('bti')), (SELECT bytes FROM bloom_index_info('bts'))};
	my @pb = split /\|/, $primary->safe_psql('postgres', $bytes);
	my @sb = split /\|/, $standby->safe_psql('postgres', $bytes);
	ok($sb[0] <= $pb[0] && $sb[1] <= $pb[1],
		"$what: the standby's files are no longer than the primary's (standby $sb[0], $sb[1]; primary $pb[0], $pb[1])");
	return split /\n/, $p;
}

$primary->safe_psql('postgres', copy_sql(1, 200000));
$primary->safe_psql('postgres', insert_sql(200001, 400000));
my @r = compare_bulk('bulk load', 1);
like($r[0], qr/^400000\|0\|0\|/, 'bulk load: the primary finds every key of 400000 rows in both indexes');
is($r[1], $r[0], 'bulk load: bloom_index_contains gives the answers of bloom_index_contains_each');
my ($fp_i, $fp_s) = split /\|/, $r[2];
ok($fp_i <= 1000 && $fp_s <= 1000,
	"bulk load: false positives over 100000 absent keys within fpr ($fp_i, $fp_s)");
my ($layers_i, $layers_s) = map { (split /\|/, $_)[3] } @r[ -2, -1 ];
ok($layers_i >= 5 && $layers_s >= 3,
	"bulk load: the indexes grew by layers ($layers_i, $layers_s)");

# ROLLBACK: the COPY's keys and the INSERT's first 65,536 are written
# before the abort, the INSERT's last pending ones (on 15 and 16) dropped
$primary->safe_psql('postgres',
	"BEGIN;\n" . copy_sql(500001, 550000) . insert_sql(550001, 650000) . "ROLLBACK;\n");
@r = compare_bulk('rolled-back load', 0, [ 500001, 650000 ]);
like($r[0], qr/^400000\|0\|0\|/, 'rolled-back load: the rows are gone, every row still found');
note 'rolled-back load: keys of its 150000 rows found (bigint|text): ' . join('|', (split /\|/, $r[2])[ 0, 1 ]);
$primary->safe_psql('postgres', insert_sql(700001, 800000));
@r = compare_bulk('a load after the rollback', 0, [ 500001, 650000 ]);
like($r[0], qr/^500000\|0\|0\|/, 'a load after the rollback: every row found');

$long->quit;
$pq->quit;
ok(!$standby->log_contains('inconsistent page found'), 'no replay mismatch in the standby log');

# promotion: the unlogged index starts from its init fork, and both
# indexes take inserts on the new primary
$standby->promote;
$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'standby was not promoted';
is($standby->safe_psql('postgres', q{SELECT count(*), bloom_index_contains('uti', 1) FROM ut}),
	'0|f', 'promoted: the unlogged table and index are empty');
$standby->safe_psql('postgres', q{
	INSERT INTO ut SELECT g FROM generate_series(1, 10000) g;
	INSERT INTO t SELECT g FROM generate_series(-5000, -1) g;
});
is( $standby->safe_psql('postgres', q{
	SELECT (SELECT count(*) FROM ut WHERE NOT bloom_index_contains('uti', id)),
	       (SELECT count(*) FROM t WHERE NOT bloom_index_contains('i', id)),
	       (bloom_index_info('uti')).layers > 1}),
	'0|0|t', 'promoted: inserts into both indexes are found');

$standby->stop;
$primary->stop;
done_testing();
