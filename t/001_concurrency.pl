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

$node->stop;
done_testing();
