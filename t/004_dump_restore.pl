# pg_dump and pg_restore (custom and plain formats) of a database holding
# filters of every kind, key class and size, TOASTed ones included: every
# value comes back byte-identical.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('dump');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', q{
	CREATE EXTENSION bloomtype;
	CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
	CREATE AGGREGATE partial_bloom(bigint) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
	CREATE AGGREGATE partial_bloom(bigint, bigint, float8) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
	CREATE TABLE filters (id int PRIMARY KEY, what text, f bloomfilter);
	INSERT INTO filters VALUES
	  (1, 'empty', bloom_empty(1)),
	  (2, 'integer', (SELECT bloom_agg(g) FROM generate_series(1, 1000) g)),
	  (3, 'text', (SELECT bloom_agg('user' || g) FROM generate_series(1, 1000) g)),
	  (4, 'bytea', (SELECT bloom_agg(int8send(g)) FROM generate_series(1, 100) g)),
	  (5, 'uuid', (SELECT bloom_agg(md5(g::text)::uuid) FROM generate_series(1, 100) g)),
	  (6, 'float', (SELECT bloom_agg(g / 3.0::float8) FROM generate_series(1, 100) g)),
	  (7, 'date', (SELECT bloom_agg(current_date + g) FROM generate_series(1, 100) g)),
	  (8, 'enum', bloom_add(bloom_empty(10), 'ok'::mood)),
	  (9, 'toasted 5 MB', (SELECT bloom_agg(g, 4000000, 0.01) FROM generate_series(1, 100000) g)),
	  (10, 'toasted 12 MB auto', (SELECT bloom_agg(g) FROM generate_series(1, 10000000, 1) g)),
	  (11, 'hash list state', (SELECT partial_bloom(g) FROM generate_series(1, 1000) g)),
	  (12, 'empty of no size', (SELECT bloom_agg(g) FROM generate_series(1, 0) g)),
	  (13, 'tiny rate', bloom_add(bloom_empty(100, 1e-12, 0), 1)),
	  (14, 'NULL', NULL),
	  (15, 'scalable, 7 layers', bloom_add_all(bloom_empty(100), ARRAY(SELECT generate_series(1, 10000)))),
	  (16, 'fixed, expansion 0', bloom_add(bloom_empty(100, 0.01, 0), 'x'::text)),
	  (17, 'fixed-capacity state', (SELECT partial_bloom(g, 1000, 0.01) FROM generate_series(1, 100) g)),
	  (18, 'version 1.0 filter', set_byte(set_byte(bloom_add(bloom_empty(100, 0.01, 0), 1)::bytea, 4, 1), 14, 0)::bloomfilter);
});
my $digest = q{SELECT string_agg(id || ':' || what || ':' || coalesce(md5(f::bytea), 'null'), ',' ORDER BY id) FROM filters};
my $before = $node->safe_psql('src', $digest);

my $dir = PostgreSQL::Test::Utils::tempdir();
foreach my $format ('custom', 'plain')
{
	my $db = "dst_$format";
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	my $file = "$dir/src.$format";
	$node->command_ok([ 'pg_dump', '-h', $node->host, '-p', $node->port,
		'--format', $format, '-f', $file, 'src' ], "pg_dump --format=$format");
	if ($format eq 'custom')
	{
		$node->command_ok([ 'pg_restore', '-h', $node->host, '-p', $node->port,
			'--exit-on-error', '-d', $db, $file ], 'pg_restore');
	}
	else
	{
		$node->command_ok([ 'psql', '-X', '-h', $node->host, '-p', $node->port,
			'-v', 'ON_ERROR_STOP=1', '-q', '-d', $db, '-f', $file ], 'psql < plain dump');
	}
	is($node->safe_psql($db, $digest), $before, "$format dump and restore: byte-identical");
	is($node->safe_psql($db, q{SELECT bloom_contains(f, 'user5') FROM filters WHERE id = 3}),
		't', "$format: restored filter answers");
	is($node->safe_psql($db, q{SELECT bloom_contains(f, 'ok'::mood) FROM filters WHERE id = 8}),
		't', "$format: user-defined key type still matches after restore");
}

# binary COPY out and in, and text COPY, of the same table
$node->safe_psql('src', qq{
	CREATE TABLE copy_bin (LIKE filters);
	CREATE TABLE copy_txt (LIKE filters);
	COPY filters TO '$dir/filters.bin' WITH (FORMAT binary);
	COPY copy_bin FROM '$dir/filters.bin' WITH (FORMAT binary);
	COPY filters TO '$dir/filters.txt';
	COPY copy_txt FROM '$dir/filters.txt';
});
foreach my $t ('copy_bin', 'copy_txt')
{
	my $d = $digest;
	$d =~ s/FROM filters/FROM $t/;
	is($node->safe_psql('src', $d), $before, "$t: byte-identical");
}

$node->stop;
done_testing();
