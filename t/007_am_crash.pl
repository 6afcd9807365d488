# Crash safety of the bloomfilter index: inserts from a background pgbench
# (the index growing by layers meanwhile) are cut off by an immediate
# shutdown, then by a kill -9 of one backend.  After recovery every
# committed row's key is in the index (no false negative), the metapage and
# pages read cleanly, and inserts go on.  An unlogged table with a
# bloomfilter index is reset by the crash to its init fork: empty, no
# layer; its first insert makes the first layer, and probes work again.
#
# Then the crash points of a bulk load (a table with a primary key and two
# bloomfilter indexes, bigint and text), each load passing this backend's
# pending keys of an index (65,536) at least twice: a backend killed in the
# middle of a COPY and of an INSERT ... SELECT, after four flushes of its
# uncommitted keys; the server stopped between the last row and the
# COMMIT (on 15 and 16 the last statement's keys still pending); the
# server stopped right after a COMMIT, with synchronous_commit on and off;
# prepared transactions across a crash (their keys written at PREPARE),
# one committed after it.  After each recovery the table holds exactly the
# committed rows, every committed key is found by both indexes, the pages
# read cleanly, the primary key agrees with the heap (amcheck, where
# installed), and loads go on.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $node = PostgreSQL::Test::Cluster->new('am_crash');
$node->init;
$node->append_conf('postgresql.conf', "restart_after_crash = on\nmax_prepared_transactions = 5\n");
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomtype;
	CREATE TABLE t (id bigint);
	CREATE INDEX i ON t USING bloomfilter (id) WITH (fpr = 0.01, min_capacity = 1000, min_pages = 1);
	CREATE SEQUENCE keys;
});

my $script = $node->basedir . '/insert.sql';
PostgreSQL::Test::Utils::append_to_file($script, q{
SELECT nextval('keys') * 3 AS k \gset
INSERT INTO t VALUES (:k), (:k + 1), (:k + 2);
});

# pgbench in the background until it is cut off
sub start_writers
{
	my ($min) = @_;
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start(
		[
			'pgbench', '--no-vacuum', '--client=4', '--time=60',
			'-h', $node->host, '-p', $node->port, '-f', $script, 'postgres'
		],
		'>', \$out, '2>', \$err);
	# wait until the index has grown a layer or two under the writers
	$node->poll_query_until('postgres', "SELECT count(*) > $min FROM t")
	  or die 'writers did not start';
	return $h;
}

sub check_state
{
	my ($what, $min) = @_;
	my $committed = $node->safe_psql('postgres', 'SELECT count(*) FROM t');
	ok($committed > $min, "$what: rows committed ($committed)");
	is( $node->safe_psql('postgres',
			q{SELECT count(*) FROM t WHERE NOT bloom_index_contains('i', id)}),
		'0', "$what: every committed key is in the index");
	is( $node->safe_psql('postgres', q{
		SELECT count(*) FROM unnest(bloom_index_contains_each('i', ARRAY(SELECT id FROM t))) c WHERE NOT c}),
		'0', "$what: bloom_index_contains_each agrees");
	my ($layers, $items) = split /\|/,
	  $node->safe_psql('postgres', q{SELECT layers, items FROM bloom_index_info('i')});
	ok($layers >= 2 && $items >= $committed * 0.98,
		"$what: the index grew ($layers layers) and counts the committed keys ($items)");
	# the filter as a value decodes every page's blocks
	is( $node->safe_psql('postgres', q{
		SELECT bloom_contains(f, (SELECT max(id) FROM t)), (bloom_info(f)).layers = (bloom_index_info('i')).layers
		  FROM bloom_index_filter('i') f}),
		't|t', "$what: bloom_index_filter reads the recovered pages");
	# inserts go on after recovery, into the newest layer and past it
	$node->safe_psql('postgres', q{
		INSERT INTO t SELECT -g FROM generate_series(1, 20000) g;
	});
	is( $node->safe_psql('postgres', q{
		SELECT count(*) FROM t WHERE NOT bloom_index_contains('i', id)}),
		'0', "$what: inserts after recovery are found, and so is every older key");
}

# 1. immediate shutdown in the middle of the inserts
my $h = start_writers(12000);
$node->stop('immediate');
$h->finish;
$node->start;
check_state('immediate shutdown', 12000);

# 2. kill -9 of one writer in the middle of the inserts: the postmaster
# restarts every backend, through crash recovery
$node->safe_psql('postgres', q{
	TRUNCATE t;
	CREATE TABLE u (id bigint);
	INSERT INTO u SELECT g FROM generate_series(1, 10000) g;
	CREATE INDEX ui ON u USING bloomfilter (id) WITH (fpr = 0.01);
});
$h = start_writers(12000);
my $pid = $node->safe_psql('postgres', q{
	SELECT pid FROM pg_stat_activity
	 WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()
	   AND (query LIKE 'INSERT INTO t %' OR query LIKE '%nextval(''keys'')%')
	 LIMIT 1});
ok($pid =~ /^\d+$/, 'found a writer backend');
kill 'KILL', $pid;
$h->finish;
# (a psql that finds the server restarting may exit before it reads its
# input: IPC::Run then dies of the broken pipe, so each try is in an eval)
my $back = 0;
for my $try (1 .. 60)
{
	$back = eval { $node->poll_query_until('postgres', 'SELECT 1', '1') };
	last if $back;
	sleep 1;
}
$back or die 'server did not come back';
check_state('kill -9 of a writer', 12000);
is( $node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE NOT bloom_index_contains('ui', id)), (bloom_index_info('ui')).build_items FROM u}),
	'0|10000', 'an index built just before the crash is recovered from its build WAL');

# 3. unlogged: filled, then an immediate shutdown resets table and index
# to their init forks (no checkpoint between creation and the crash)
$node->safe_psql('postgres', q{
	CREATE UNLOGGED TABLE ut (id bigint);
	CREATE INDEX uti ON ut USING bloomfilter (id) WITH (fpr = 0.01, min_capacity = 1000, min_pages = 1);
	INSERT INTO ut SELECT g FROM generate_series(1, 10000) g;
});
is( $node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE NOT bloom_index_contains('uti', g)), (bloom_index_info('uti')).layers > 1
	  FROM generate_series(1, 10000) g}),
	'0|t', 'unlogged: keys found and the index grew before the crash');
$node->stop('immediate');
$node->start;
is( $node->safe_psql('postgres', q{
	SELECT (SELECT count(*) FROM ut), items, layers, capacity
	  FROM bloom_index_info('uti')}),
	'0|0|0|0', 'unlogged: after an immediate stop table and index are empty, with no layer');
is( $node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE bloom_index_contains('uti', g)),
	       bool_or(c), md5(bloom_index_filter('uti')::bytea) IS NOT NULL
	  FROM generate_series(1, 10000) g,
	       LATERAL unnest(bloom_index_contains_each('uti', ARRAY[g])) c}),
	'0|f|t', 'unlogged: the reset index answers "absent" for the lost keys and reads as a value');
$node->safe_psql('postgres', 'INSERT INTO ut VALUES (42)');
is( $node->safe_psql('postgres', q{
	SELECT bloom_index_contains('uti', 42), bloom_index_contains('uti', 43), items, layers
	  FROM bloom_index_info('uti')}),
	't|f|1|1', 'unlogged: the first insert makes the first layer');
$node->safe_psql('postgres', 'INSERT INTO ut SELECT g FROM generate_series(100000, 120000) g');
is( $node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE NOT bloom_index_contains('uti', id)), (bloom_index_info('uti')).layers > 1
	  FROM ut}),
	'0|t', 'unlogged: inserts after the reset grow the index, every key found');
# a clean restart keeps an unlogged index as it is
$node->restart;
is( $node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE NOT bloom_index_contains('uti', id)), count(*) FROM ut}),
	'0|20002', 'unlogged: a clean restart keeps table and index');

# 4. bulk loads: every load below passes 65,536 keys (the pending keys of
# an index in one backend) at least twice, and the indexes grow by layers
$node->safe_psql('postgres', q{
	CREATE TABLE b (id bigint PRIMARY KEY, s text NOT NULL);
	CREATE INDEX bi ON b USING bloomfilter (id) WITH (fpr = 0.01, min_capacity = 1000, min_pages = 1);
	CREATE INDEX bs ON b USING bloomfilter (s) WITH (fpr = 0.01, min_capacity = 1000);
});
my $amcheck = $node->safe_psql('postgres',
	q{SELECT count(*) FROM pg_available_extensions WHERE name = 'amcheck'}) eq '1';
$node->safe_psql('postgres', 'CREATE EXTENSION amcheck') if $amcheck;

# Rows from .. to of b (id and 'k' || id) as COPY FROM STDIN with its data,
# and as INSERT ... SELECT
sub copy_sql
{
	my ($from, $to) = @_;
	return "COPY b FROM STDIN;\n" . join('', map { "$_\tk$_\n" } $from .. $to) . "\\.\n";
}

sub insert_sql
{
	my ($from, $to) = @_;
	return "INSERT INTO b SELECT g, 'k' || g FROM generate_series($from, $to) g;\n";
}

sub items
{
	my ($index) = @_;
	return $node->safe_psql('postgres', "SELECT items FROM bloom_index_info('$index')");
}

# The ranges of ids committed: the table holds them and no other row, each
# key is found by both indexes (one by one and as an array), each index
# reads as a value page by page, the primary key matches the heap
my @committed;

sub check_bulk
{
	my ($what) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my $rows = 0;
	$rows += $_->[1] - $_->[0] + 1 for @committed;
	my $ranges = join(' OR ', map { "id BETWEEN $_->[0] AND $_->[1]" } @committed);
	is( $node->safe_psql('postgres',
			"SELECT count(*), count(*) FILTER (WHERE ($ranges) AND s = 'k' || id) FROM b"),
		"$rows|$rows", "$what: the table holds the $rows committed rows, and only them");
	is( $node->safe_psql('postgres', q{
		SELECT count(*) FILTER (WHERE NOT bloom_index_contains('bi', id)),
		       count(*) FILTER (WHERE NOT bloom_index_contains('bs', s))
		  FROM b}),
		'0|0', "$what: every committed key is found by both indexes");
	is( $node->safe_psql('postgres', q{
		SELECT (SELECT count(*) FROM unnest(bloom_index_contains_each('bi', ARRAY(SELECT id FROM b))) c WHERE NOT c),
		       (SELECT count(*) FROM unnest(bloom_index_contains_each('bs', ARRAY(SELECT s FROM b))) c WHERE NOT c)}),
		'0|0', "$what: bloom_index_contains_each agrees");
	is( $node->safe_psql('postgres', q{
		SELECT (bloom_info(f)).layers = (bloom_index_info(i)).layers AND (bloom_info(f)).layers >= 2
		  FROM unnest(ARRAY['bi', 'bs']::regclass[]) i, LATERAL bloom_index_filter(i) f}),
		"t\nt", "$what: both indexes read as values, page by page, with their layers");
  SKIP:
	{
		skip 'amcheck is not installed', 1 unless $amcheck;
		is($node->safe_psql('postgres', q{SELECT bt_index_check('b_pkey', true)}),
			'', "$what: the primary key and the heap agree (amcheck)");
	}
}

# waits for the postmaster to be done with the crash of a backend (the log
# after offset says it is ready again after crash recovery)
sub wait_crash_restart
{
	my ($offset) = @_;
	$node->wait_for_log(qr/all server processes terminated; reinitializing/, $offset);
	$node->wait_for_log(qr/database system is ready to accept connections/, $offset);
}

# A psql in the background running one command, named for
# pg_stat_activity; with a file, the file is its input, held open after
# its end (a client that has more rows to send) until the loader is killed
sub start_loader
{
	my ($name, $sql, $file) = @_;
	my %r = (out => '', err => '');
	my @psql = (
		'psql', '-X', '-v', 'ON_ERROR_STOP=1',
		'-d', $node->connstr('postgres') . " application_name=$name",
		'-c', $sql);
	$r{h} =
	  defined $file
	  ? IPC::Run::start([ 'sh', '-c', 'cat "$1" && exec sleep 300', 'sh', $file ],
		'|', \@psql, '>', \$r{out}, '2>', \$r{err})
	  : IPC::Run::start(\@psql, '<', '/dev/null', '>', \$r{out}, '2>', \$r{err});
	return \%r;
}

$node->safe_psql('postgres', copy_sql(1, 100000));
push @committed, [ 1, 100000 ];
check_bulk('bulk: 100000 rows by COPY');

# (a) a backend killed in the middle of its load, after four flushes of
# its uncommitted keys; the postmaster restarts every backend through crash
# recovery.  First a COPY that waits for more rows from its client.
my ($bi0, $bs0) = (items('bi'), items('bs'));
my $offset = -s $node->logfile;
my $data = $node->basedir . '/copy.data';
PostgreSQL::Test::Utils::append_to_file($data, join('', map { "$_\tk$_\n" } 1000001 .. 1300000));
my $l = start_loader('bulk_copy', 'COPY b FROM STDIN', $data);
ok( $node->poll_query_until('postgres', qq{
		SELECT (SELECT items FROM bloom_index_info('bi')) >= $bi0 + 250000
		   AND (SELECT items FROM bloom_index_info('bs')) >= $bs0 + 250000
		   AND EXISTS (SELECT FROM pg_stat_activity
		                WHERE application_name = 'bulk_copy' AND wait_event = 'ClientRead')}),
	'COPY of 300000 rows: its backend wrote 4 x 65536 uncommitted keys and waits for more rows');
$pid = $node->safe_psql('postgres',
	q{SELECT pid FROM pg_stat_activity WHERE application_name = 'bulk_copy'});
ok($pid =~ /^\d+$/, 'found the COPY backend');
kill 'KILL', $pid;
$l->{h}->kill_kill;
wait_crash_restart($offset);
check_bulk('kill -9 during a COPY');

# then an INSERT ... SELECT held on its last row (a sleep), 299,999 rows in
($bi0, $bs0) = (items('bi'), items('bs'));
$offset = -s $node->logfile;
$l = start_loader('bulk_insert', q{
	INSERT INTO b SELECT g, 'k' || g FROM generate_series(1300001, 1600000) g
	 WHERE CASE WHEN g = 1600000 THEN pg_sleep(600) IS NULL ELSE true END});
ok( $node->poll_query_until('postgres', qq{
		SELECT (SELECT items FROM bloom_index_info('bi')) >= $bi0 + 250000
		   AND (SELECT items FROM bloom_index_info('bs')) >= $bs0 + 250000
		   AND EXISTS (SELECT FROM pg_stat_activity
		                WHERE application_name = 'bulk_insert' AND wait_event = 'PgSleep')}),
	'INSERT ... SELECT of 300000 rows: its backend wrote 4 x 65536 uncommitted keys and sleeps on the last row');
$pid = $node->safe_psql('postgres',
	q{SELECT pid FROM pg_stat_activity WHERE application_name = 'bulk_insert'});
ok($pid =~ /^\d+$/, 'found the INSERT backend');
kill 'KILL', $pid;
$l->{h}->finish;
wait_crash_restart($offset);
check_bulk('kill -9 during an INSERT ... SELECT');

# (b) between the last row and the COMMIT: a session holds a transaction
# that loaded 200,000 rows (COPY, then INSERT ... SELECT, whose last
# 18,928 keys are still pending on 15 and 16: no end-of-statement flush
# before 17) when the server stops
($bi0, $bs0) = (items('bi'), items('bs'));
my $bg = $node->background_psql('postgres');
# (a statement after the COPY's end: psql skips an empty one there)
$bg->query_safe("BEGIN;\n" . copy_sql(2000001, 2050000) . "SELECT 'copied'");
$bg->query_safe(insert_sql(2050001, 2200000));
my ($bi1, $bs1) = (items('bi'), items('bs'));
note "before COMMIT: bi +" . ($bi1 - $bi0) . ", bs +" . ($bs1 - $bs0) . " keys written of 200000";
ok($bi1 - $bi0 >= 175000 && $bs1 - $bs0 >= 175000,
	'before COMMIT: the open transaction wrote most of its keys (flushes of a full buffer, and of the COPY before the INSERT)');
$node->stop('immediate');
$bg->quit;
$node->start;
check_bulk('crash between the last row and COMMIT');

# (c) right after the COMMIT of a transaction of several loads (the last
# statement's keys written before the commit record)
$node->safe_psql('postgres',
	"BEGIN;\n" . copy_sql(3000001, 3100000) . insert_sql(3100001, 3250000) . "COMMIT;\n");
$node->stop('immediate');
$node->start;
push @committed, [ 3000001, 3250000 ];
check_bulk('crash right after COMMIT');

# with synchronous_commit = off: the commit may be lost, whole; a commit
# that survives keeps the keys, whose WAL comes before its record
$node->safe_psql('postgres',
	"BEGIN;\nSET LOCAL synchronous_commit = off;\n"
	  . copy_sql(3300001, 3400000) . insert_sql(3400001, 3500000) . "COMMIT;\n");
$node->stop('immediate');
$node->start;
my $kept = $node->safe_psql('postgres', 'SELECT count(*) FROM b WHERE id BETWEEN 3300001 AND 3500000');
note "asynchronous commit, immediate stop: $kept of 200000 rows kept";
ok($kept == 0 || $kept == 200000, "asynchronous commit: the crash keeps the transaction whole or loses it whole ($kept)");
push @committed, [ 3300001, 3500000 ] if $kept == 200000;
check_bulk('crash right after an asynchronous COMMIT');

# and one whose commit the WAL writer has flushed (survives by design)
my $lsn = $node->safe_psql('postgres',
	"BEGIN;\nSET LOCAL synchronous_commit = off;\n"
	  . insert_sql(3600001, 3700000) . copy_sql(3700001, 3800000)
	  . "COMMIT;\nSELECT pg_current_wal_insert_lsn();\n");
$node->poll_query_until('postgres', "SELECT pg_current_wal_flush_lsn() >= '$lsn'")
  or die 'the WAL writer did not flush the asynchronous commit';
$node->stop('immediate');
$node->start;
push @committed, [ 3600001, 3800000 ];
check_bulk('crash after an asynchronous COMMIT reached the disk');

# (d) prepared transactions across a crash: keys are written at PREPARE
$node->safe_psql('postgres',
	"BEGIN;\n" . insert_sql(4000001, 4150000) . copy_sql(4150001, 4200000)
	  . "PREPARE TRANSACTION 'bulk1';\n");
$node->safe_psql('postgres', "BEGIN;\n" . copy_sql(4500001, 4600000) . "PREPARE TRANSACTION 'bulk2';\n");
$node->stop('immediate');
$node->start;
is( $node->safe_psql('postgres', q{
	SELECT string_agg(gid, ',' ORDER BY gid), (SELECT count(*) FROM b WHERE id > 4000000)
	  FROM pg_prepared_xacts}),
	'bulk1,bulk2|0', 'prepared: both transactions survive the crash, their rows not yet visible');
is( $node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE NOT bloom_index_contains('bi', g)),
	       count(*) FILTER (WHERE NOT bloom_index_contains('bs', 'k' || g))
	  FROM generate_series(4000001, 4200000) g}),
	'0|0', 'prepared: the keys written at PREPARE survive the crash');
$node->safe_psql('postgres', "COMMIT PREPARED 'bulk1'");
$node->safe_psql('postgres', "ROLLBACK PREPARED 'bulk2'");
push @committed, [ 4000001, 4200000 ];
check_bulk('PREPARE, crash, COMMIT PREPARED');

# loads go on, the keys of lost rows too
$node->safe_psql('postgres', insert_sql(1000001, 1100000) . copy_sql(2000001, 2050000));
push @committed, [ 1000001, 1100000 ], [ 2000001, 2050000 ];
check_bulk('loads after the crashes');

$node->stop;
done_testing();
