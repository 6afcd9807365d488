# Crash safety of the bloomfilter index: inserts from a background pgbench
# (the index growing by layers meanwhile) are cut off by an immediate
# shutdown, then by a kill -9 of one backend.  After recovery every
# committed row's key is in the index (no false negative), the metapage and
# pages read cleanly, and inserts go on.  An unlogged table with a
# bloomfilter index is reset by the crash to its init fork: empty, no
# layer; its first insert makes the first layer, and probes work again.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $node = PostgreSQL::Test::Cluster->new('am_crash');
$node->init;
$node->append_conf('postgresql.conf', "restart_after_crash = on\n");
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
$node->poll_query_until('postgres', 'SELECT 1', '1')
  or die 'server did not come back';
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

$node->stop;
done_testing();
