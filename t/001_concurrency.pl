# Concurrent writers: 8 clients each add 10,000 distinct keys through
# UPDATE ... SET f = bloom_add(f, key), first all on one shared row, then on
# rows chosen by key.  Every key must be found afterwards (no false
# negatives, so no lost update) and the item counts must add up.  (The key
# is drawn before the UPDATE: an UPDATE that waits for a concurrent one
# re-evaluates its expressions, so nextval() inside it would skip keys.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('concurrency');
$node->init;
$node->append_conf('postgresql.conf', "max_connections = 30\nfsync = off\n");
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomtype;
	CREATE SEQUENCE keys_shared;
	CREATE SEQUENCE keys_rows;
	CREATE TABLE shared (id int PRIMARY KEY, f bloomfilter);
	INSERT INTO shared VALUES (1, bloom_empty(1000, 0.01));
	CREATE TABLE byrow (id int PRIMARY KEY, f bloomfilter);
	INSERT INTO byrow SELECT g, bloom_empty(100, 0.01) FROM generate_series(0, 15) g;
});

$node->pgbench(
	'--no-vacuum --client=8 --jobs=2 --transactions=10000',
	0,
	[qr{processed: 80000/80000}],
	[qr{^$}],
	'8 clients add 10k keys each to one shared row',
	{
		'001_shared' => q{
SELECT nextval('keys_shared') AS k \gset
UPDATE shared SET f = bloom_add(f, :k::bigint) WHERE id = 1;
}
	});

is( $node->safe_psql(
		'postgres', q{
	SELECT (bloom_info(f)).items BETWEEN 79000 AND 80000, (bloom_info(f)).layers, last_value,
	       (SELECT count(*) FROM generate_series(1, 80000) g WHERE NOT bloom_contains(f, g))
	  FROM shared, keys_shared}),
	't|7|80000|0',
	'shared row: grew to 7 layers under 8 writers, every key found');

$node->pgbench(
	'--no-vacuum --client=8 --jobs=2 --transactions=10000',
	0,
	[qr{processed: 80000/80000}],
	[qr{^$}],
	'8 clients add 10k keys each to rows chosen by key',
	{
		'001_byrow' => q{
SELECT nextval('keys_rows') AS k \gset
UPDATE byrow SET f = bloom_add(f, :k::bigint) WHERE id = :k % 16;
}
	});

is( $node->safe_psql(
		'postgres', q{
	SELECT sum((bloom_info(f)).items) BETWEEN 79000 AND 80000,
	       (SELECT count(*) FROM generate_series(1, 80000) g JOIN byrow ON id = g % 16
	         WHERE NOT bloom_contains(f, g))
	  FROM byrow}),
	't|0',
	'rows by key: about 80000 items in all (repeats of maybe-present keys are not counted), every key found in its row');

# Filters that can forget keys (countingbloom, cuckoofilter): 8 writers
# each add 1000 keys of their own (client_id * 1000000 + n, n counted per
# client, so no sequence is needed), first all to one shared row, then
# concurrently remove the even half of their keys; then the same with one
# row per writer (no contention).  Every key still held must be found (no
# false negatives, so no lost update), the counts must add up (cuckoo:
# items + absorbed = adds - deletes, and deletes + stuck = removes;
# counting: items = adds - removes), and keys never added must answer at
# no more than the target rate.
my $writers = 8;
my $per_writer = 1000;
my $adds = $writers * $per_writer;
my $removes = $adds / 2;
my $half = $per_writer / 2;

$node->safe_psql('postgres', qq{
	CREATE TABLE forget_keys AS
	  SELECT c * 1000000 + n AS k, c AS writer, n % 2 = 0 AS removed
	    FROM generate_series(0, $writers - 1) c, generate_series(1, $per_writer) n;
	CREATE TABLE absent_keys AS SELECT 100000000 + g AS k FROM generate_series(1, 100000) g;
	CREATE TABLE counting_shared (id int PRIMARY KEY, f countingbloom);
	INSERT INTO counting_shared VALUES (1, counting_empty($adds, 0.01));
	CREATE TABLE cuckoo_shared (id int PRIMARY KEY, f cuckoofilter);
	INSERT INTO cuckoo_shared VALUES (1, cuckoo_empty(1000, 0.01));
	CREATE TABLE counting_rows (id int PRIMARY KEY, f countingbloom);
	INSERT INTO counting_rows SELECT g, counting_empty($per_writer, 0.01) FROM generate_series(0, $writers - 1) g;
	CREATE TABLE cuckoo_rows (id int PRIMARY KEY, f cuckoofilter);
	INSERT INTO cuckoo_rows SELECT g, cuckoo_empty(100, 0.01) FROM generate_series(0, $writers - 1) g;
});

# $op is add or remove; adds go over n = 1, 2, ..., removes over n = 2, 4, ...
sub forget_round
{
	my ($family, $layout, $op) = @_;
	my ($step, $count) = $op eq 'add' ? (1, $per_writer) : (2, $half);
	my $where = $layout eq 'shared' ? 'id = 1' : 'id = :client_id';
	my $total = $writers * $count;
	$node->pgbench(
		"--no-vacuum --client=$writers --jobs=2 --transactions=$count -D n=0",
		0,
		[qr{processed: $total/$total}],
		[qr{^$}],
		"$family, $layout: $writers clients each ${op} $count keys of their own",
		{
			"001_${family}_${layout}_${op}" => qq{
\\set n :n + $step
\\set k :client_id * 1000000 + :n
UPDATE ${family}_${layout} SET f = ${family}_${op}(f, :k::bigint) WHERE $where;
}
		});
}

foreach my $family ('counting', 'cuckoo')
{
	forget_round($family, 'shared', 'add');
	forget_round($family, 'shared', 'remove');
	forget_round($family, 'rows', 'add');
	forget_round($family, 'rows', 'remove');
}

# numbers for the log: false negatives, counts, rates
foreach my $q (
	qq{SELECT 'counting shared', (SELECT count(*) FROM forget_keys WHERE NOT removed AND NOT counting_contains(f, k)),
	          i.items, i.removes, i.saturated_counters,
	          (SELECT count(*) FROM forget_keys WHERE removed AND counting_contains(f, k)),
	          (SELECT count(*) FROM absent_keys WHERE counting_contains(f, k)) / 100000.0, i.estimated_fpr
	     FROM counting_shared, counting_info(f) i},
	qq{SELECT 'cuckoo shared', (SELECT count(*) FROM forget_keys WHERE NOT removed AND NOT cuckoo_contains(f, k)),
	          i.items, i.absorbed, i.deletes, i.stuck, i.subfilters,
	          (SELECT count(*) FROM forget_keys WHERE removed AND cuckoo_contains(f, k)),
	          (SELECT count(*) FROM absent_keys WHERE cuckoo_contains(f, k)) / 100000.0, i.estimated_fpr
	     FROM cuckoo_shared, cuckoo_info(f) i},
	qq{SELECT 'counting rows', id, i.items, i.removes,
	          (SELECT count(*) FROM forget_keys WHERE writer = id AND NOT removed AND NOT counting_contains(f, k))
	     FROM counting_rows, counting_info(f) i ORDER BY id},
	qq{SELECT 'cuckoo rows', id, i.items, i.absorbed, i.deletes, i.stuck, i.subfilters,
	          (SELECT count(*) FROM forget_keys WHERE writer = id AND NOT removed AND NOT cuckoo_contains(f, k))
	     FROM cuckoo_rows, cuckoo_info(f) i ORDER BY id})
{
	note($node->safe_psql('postgres', $q));
}

is( $node->safe_psql(
		'postgres', qq{
	SELECT (SELECT count(*) FROM forget_keys WHERE NOT removed AND NOT counting_contains(f, k)),
	       i.items, i.removes,
	       (SELECT count(*) FROM absent_keys WHERE counting_contains(f, k)) <= 0.01 * 100000
	  FROM counting_shared, counting_info(f) i}),
	"0|$removes|$removes|t",
	'counting, shared row: every key held found, items = adds - removes, absent keys at most at the target rate');

is( $node->safe_psql(
		'postgres', qq{
	SELECT (SELECT count(*) FROM forget_keys WHERE NOT removed AND NOT cuckoo_contains(f, k)),
	       i.items + i.absorbed = $adds - i.deletes, i.deletes + i.stuck, i.subfilters >= 3,
	       (SELECT count(*) FROM forget_keys WHERE removed AND cuckoo_contains(f, k)) <= i.stuck + 0.01 * $removes,
	       (SELECT count(*) FROM absent_keys WHERE cuckoo_contains(f, k)) <= 0.01 * 100000
	  FROM cuckoo_shared, cuckoo_info(f) i}),
	"0|t|$removes|t|t|t",
	'cuckoo, shared row: grew, every key held found, items + absorbed = adds - deletes, deletes + stuck = removes, rates sane');

is( $node->safe_psql(
		'postgres', qq{
	SELECT count(*), sum(i.items), sum(i.removes),
	       count(*) FILTER (WHERE i.items = $half AND i.removes = $half),
	       (SELECT count(*) FROM forget_keys JOIN counting_rows r ON r.id = writer
	         WHERE NOT removed AND NOT counting_contains(r.f, k)),
	       (SELECT count(*) FROM absent_keys, counting_rows r
	         WHERE k <= 100020000 AND counting_contains(r.f, k)) <= 0.01 * 20000 * $writers
	  FROM counting_rows, counting_info(f) i}),
	"$writers|$removes|$removes|$writers|0|t",
	'counting, a row per writer: items = adds - removes in every row, every key held found, rate sane');

is( $node->safe_psql(
		'postgres', qq{
	SELECT count(*),
	       count(*) FILTER (WHERE i.items + i.absorbed = $per_writer - i.deletes AND i.deletes + i.stuck = $half),
	       (SELECT count(*) FROM forget_keys JOIN cuckoo_rows r ON r.id = writer
	         WHERE NOT removed AND NOT cuckoo_contains(r.f, k)),
	       (SELECT count(*) FROM absent_keys, cuckoo_rows r
	         WHERE k <= 100020000 AND cuckoo_contains(r.f, k)) <= 0.01 * 20000 * $writers
	  FROM cuckoo_rows, cuckoo_info(f) i}),
	"$writers|$writers|0|t",
	'cuckoo, a row per writer: counts add up in every row, every key held found, rate sane');

$node->stop;
done_testing();
