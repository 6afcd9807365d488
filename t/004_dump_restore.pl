# pg_dump and pg_restore (custom and plain formats) of a database holding
# filters of every kind, key class and size, TOASTed ones included: every
# value comes back byte-identical.  The same for countingbloom and
# cuckoofilter values (1.4), which must also answer every key as before.
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
	  (18, 'version 1.0 filter', set_byte(set_byte(bloom_add(bloom_empty(100, 0.01, 0), 1)::bytea, 4, 1), 14, 0)::bloomfilter),
	  (19, 'windowed, no time yet', bloom_window(1000, 0.01, '1 hour', 7)),
	  (20, 'windowed, 8 slices', (SELECT bloom_agg(g, timestamptz '2026-11-01 00:00+00' + make_interval(mins => g),
	                                               '1 hour', 7, 1000, 0.01) FROM generate_series(1, 600) g)),
	  (21, 'windowed, every slice expired', bloom_expire(bloom_add(bloom_window(10, 0.01, '1 day', 2), 1, timestamptz '2026-11-01'),
	                                                     timestamptz '2026-12-01'));
});
# The filters that can forget keys (version 1.4): countingbloom and
# cuckoofilter values of every kind, empty aggregates (hash lists) and
# partial aggregate states included.
$node->safe_psql('src', q{
	CREATE AGGREGATE partial_counting(bigint) (SFUNC = counting_agg_trans, STYPE = countingbloom);
	CREATE AGGREGATE partial_cuckoo(bigint) (SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter);
	CREATE TABLE counting (id int PRIMARY KEY, what text, f countingbloom);
	INSERT INTO counting VALUES
	  (1, 'empty', counting_empty(1000)),
	  (2, 'filled', counting_add_all(counting_empty(1000), ARRAY(SELECT generate_series(1, 1000)))),
	  (3, 'saturated: one key added 20 times', counting_add_all(counting_add_all(counting_empty(100), array_fill(7, ARRAY[20])), ARRAY[1, 2, 3])),
	  (4, 'after removes', counting_remove_all(counting_add_all(counting_empty(1000), ARRAY(SELECT generate_series(1, 1000))),
	                                           ARRAY(SELECT generate_series(1, 1000, 2)))),
	  (5, 'saturated, then removed', counting_remove_all(counting_add_all(counting_empty(100), array_fill(7, ARRAY[20])), array_fill(7, ARRAY[20]))),
	  (6, 'counting_agg auto-sized', (SELECT counting_agg(g) FROM generate_series(1, 5000) g)),
	  (7, 'counting_agg with capacity', (SELECT counting_agg(g, 10000, 0.001) FROM generate_series(1, 3000) g)),
	  (8, 'counting_agg with rate, text', (SELECT counting_agg('user' || g, 0.05) FROM generate_series(1, 2000) g)),
	  (9, 'uuid', (SELECT counting_agg(md5(g::text)::uuid) FROM generate_series(1, 500) g)),
	  (10, 'empty counting_agg', (SELECT counting_agg(g) FROM generate_series(1, 0) g)),
	  (11, 'empty counting_agg with capacity', (SELECT counting_agg(g, 10000, 0.001) FROM generate_series(1, 0) g)),
	  (12, 'hash list state', (SELECT partial_counting(g) FROM generate_series(1, 1000) g)),
	  (13, 'union', counting_add_all(counting_empty(2000), ARRAY(SELECT generate_series(1, 1500))) |
	                counting_add_all(counting_empty(2000), ARRAY(SELECT generate_series(1000, 2000)))),
	  (14, 'toasted 1.2 MB', (SELECT counting_agg(g, 200000, 0.01) FROM generate_series(1, 100000) g)),
	  (15, 'NULL', NULL);
	CREATE TABLE cuckoo (id int PRIMARY KEY, what text, f cuckoofilter);
	INSERT INTO cuckoo VALUES
	  (1, 'empty', cuckoo_empty(1000)),
	  (2, 'fixed, expansion 0', cuckoo_add_all(cuckoo_empty(1000, 0.01, 4, 500, 0), ARRAY(SELECT generate_series(1, 900)))),
	  (3, 'grown to 4 sub-filters', cuckoo_add_all(cuckoo_empty(1000), ARRAY(SELECT generate_series(1, 10000)))),
	  (4, 'removes, then compacted', cuckoo_compact(cuckoo_remove_all(cuckoo_add_all(cuckoo_empty(1000), ARRAY(SELECT generate_series(1, 10000))),
	                                                                   ARRAY(SELECT g FROM generate_series(1, 10000) g WHERE g % 4 <> 0)))),
	  (5, 'removes, not compacted', cuckoo_remove_all(cuckoo_add_all(cuckoo_empty(1000), ARRAY(SELECT generate_series(1, 10000))),
	                                                  ARRAY(SELECT g FROM generate_series(1, 10000) g WHERE g % 4 <> 0))),
	  (6, 'tiny rate 1e-6, grown', cuckoo_add_all(cuckoo_empty(1000, 1e-6), ARRAY(SELECT generate_series(1, 3000)))),
	  (7, 'fixed, rate 1e-10', cuckoo_add_all(cuckoo_empty(1000, 1e-10, expansion => 0), ARRAY(SELECT generate_series(1, 500)))),
	  (8, 'text', (SELECT cuckoo_agg('user' || g) FROM generate_series(1, 2000) g)),
	  (9, 'uuid', (SELECT cuckoo_agg(md5(g::text)::uuid) FROM generate_series(1, 2000) g)),
	  (10, 'cuckoo_agg auto-sized', (SELECT cuckoo_agg(g) FROM generate_series(1, 5000) g)),
	  (11, 'cuckoo_agg with capacity', (SELECT cuckoo_agg(g, 10000, 0.001) FROM generate_series(1, 3000) g)),
	  (12, 'a key at the copy cap', cuckoo_add_all(cuckoo_add_all(cuckoo_empty(100), array_fill(1, ARRAY[1000])), ARRAY[2, 3])),
	  (13, 'a key at the cap, removed (stuck)', cuckoo_remove_all(cuckoo_add_all(cuckoo_empty(100), array_fill(1, ARRAY[1000])), array_fill(1, ARRAY[1000]))),
	  (14, 'bucket size 2, 20 kicks, expansion 1', cuckoo_add_all(cuckoo_empty(500, 0.02, 2, 20, 1), ARRAY(SELECT generate_series(1, 2000)))),
	  (15, 'bucket size 8, expansion 16', cuckoo_add_all(cuckoo_empty(100, 0.001, 8, 500, 16), ARRAY(SELECT generate_series(1, 3000)))),
	  (16, 'empty cuckoo_agg', (SELECT cuckoo_agg(g) FROM generate_series(1, 0) g)),
	  (17, 'empty cuckoo_agg with capacity', (SELECT cuckoo_agg(g, 10000, 0.001) FROM generate_series(1, 0) g)),
	  (18, 'hash list state', (SELECT partial_cuckoo(g) FROM generate_series(1, 1000) g)),
	  (19, 'union', cuckoo_add_all(cuckoo_empty(2000), ARRAY(SELECT generate_series(1, 800))) |
	                cuckoo_add_all(cuckoo_empty(2000), ARRAY(SELECT generate_series(601, 1400)))),
	  (20, 'toasted 1.5 MB', cuckoo_add_all(cuckoo_empty(1000000), ARRAY(SELECT generate_series(1, 100000)))),
	  (21, 'NULL', NULL);
});
is( $node->safe_psql(
		'src', q{
	SELECT (SELECT string_agg(id || '=' || length(f::bytea), ',' ORDER BY id)
	          FROM counting WHERE id IN (10, 11, 12)),
	       (SELECT (i.saturated_counters > 0 AND i.max_counter = 15)::text || '/' || j.removes
	          FROM counting c3, counting_info(c3.f) i, counting c5, counting_info(c5.f) j
	         WHERE c3.id = 3 AND c5.id = 5),
	       (SELECT string_agg(id || '=' || subfilters, ',' ORDER BY id)
	          FROM cuckoo, cuckoo_info(f) WHERE id IN (2, 3, 4, 5, 6, 15)),
	       (SELECT string_agg(id || '=' || absorbed || '/' || stuck, ',' ORDER BY id)
	          FROM cuckoo, cuckoo_info(f) WHERE id IN (12, 13)),
	       (SELECT string_agg(id || '=' || length(f::bytea) || '/' || key_type, ',' ORDER BY id)
	          FROM cuckoo, cuckoo_info(f) WHERE id IN (16, 18))}),
	'10=64,11=98304,12=8064|true/20|2=1,3=4,4=3,5=4,6=2,15=3|12=996/0,13=996/1000|16=64/none,18=8064/integer',
	'source: the counting and cuckoo rows are of the kinds they claim');

my $digest = q{SELECT string_agg(id || ':' || what || ':' || coalesce(md5(f::bytea), 'null'), ',' ORDER BY id) FROM filters};
my $before = $node->safe_psql('src', $digest);
my %digest_of;
my %before_of;
foreach my $t ('counting', 'cuckoo')
{
	($digest_of{$t} = $digest) =~ s/FROM filters/FROM $t/;
	$before_of{$t} = $node->safe_psql('src', $digest_of{$t});
}
# what every counting and cuckoo row answers: the count of 12,000 keys of
# its key type (most present, some absent) and its info, as md5s
my %answers = (
	cuckoo => q{
	SELECT string_agg(id || ':' || coalesce(
	         (SELECT md5(string_agg(CASE i.key_type
	                                  WHEN 'text' THEN cuckoo_count(f, 'user' || g)
	                                  WHEN 'uuid' THEN cuckoo_count(f, md5(g::text)::uuid)
	                                  ELSE cuckoo_count(f, g) END::text, '' ORDER BY g))
	            FROM generate_series(1, 12000) g) || ':' || md5(i::text), 'null'), ',' ORDER BY id)
	  FROM cuckoo LEFT JOIN LATERAL cuckoo_info(f) i ON true
},
	counting => q{
	SELECT string_agg(id || ':' || coalesce(
	         (SELECT md5(string_agg(CASE i.key_type
	                                  WHEN 'text' THEN counting_count(f, 'user' || g)
	                                  WHEN 'uuid' THEN counting_count(f, md5(g::text)::uuid)
	                                  ELSE counting_count(f, g) END::text, '' ORDER BY g))
	            FROM generate_series(1, 12000) g) || ':' || md5(i::text), 'null'), ',' ORDER BY id)
	  FROM counting LEFT JOIN LATERAL counting_info(f) i ON true
});
my %answers_before = map { $_ => $node->safe_psql('src', $answers{$_}) } keys %answers;

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
	is($node->safe_psql($db, q{SELECT bloom_contains(f, 590, timestamptz '2026-11-01 09:00+00')::text
	                            || bloom_contains(f, 500, timestamptz '2026-11-01 09:00+00')::text
	                            || (SELECT count(*) FROM bloom_slices(f))
	                             FROM filters WHERE id = 20}),
		'truefalse8', "$format: a restored windowed filter answers since a time");
	is($node->safe_psql($db, q{SELECT bloom_contains(f, 'ok'::mood) FROM filters WHERE id = 8}),
		't', "$format: user-defined key type still matches after restore");
	foreach my $t ('counting', 'cuckoo')
	{
		is($node->safe_psql($db, $digest_of{$t}), $before_of{$t},
			"$format dump and restore: $t values byte-identical");
		is($node->safe_psql($db, $answers{$t}), $answers_before{$t},
			"$format dump and restore: $t values answer every key as before, same info");
	}
	is( $node->safe_psql(
			$db, q{
		SELECT counting_contains(f, 'user5') FROM counting WHERE id = 8
		UNION ALL SELECT cuckoo_contains(f, md5('5')::uuid) FROM cuckoo WHERE id = 9
		UNION ALL SELECT cuckoo_contains(cuckoo_add(f, 5), 5) FROM cuckoo WHERE id = 16
		UNION ALL SELECT counting_contains(counting_add(f, 5), 5) FROM counting WHERE id = 10}),
		"t\nt\nt\nt",
		"$format: restored counting and cuckoo filters answer and take keys");
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
foreach my $t ('counting', 'cuckoo')
{
	$node->safe_psql('src', qq{
		CREATE TABLE copy_bin_$t (LIKE $t);
		CREATE TABLE copy_txt_$t (LIKE $t);
		COPY $t TO '$dir/$t.bin' WITH (FORMAT binary);
		COPY copy_bin_$t FROM '$dir/$t.bin' WITH (FORMAT binary);
		COPY $t TO '$dir/$t.txt';
		COPY copy_txt_$t FROM '$dir/$t.txt';
	});
	foreach my $c ("copy_bin_$t", "copy_txt_$t")
	{
		my $d = $digest_of{$t};
		$d =~ s/FROM $t/FROM $c/;
		is($node->safe_psql('src', $d), $before_of{$t}, "$c: byte-identical");
	}
}
foreach my $t ('copy_bin', 'copy_txt')
{
	my $d = $digest;
	$d =~ s/FROM filters/FROM $t/;
	is($node->safe_psql('src', $d), $before, "$t: byte-identical");
}

$node->stop;
done_testing();
