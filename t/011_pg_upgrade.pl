# pg_upgrade of a cluster holding values of every
# kind (bloomfilter, countingbloom, cuckoofilter: filters, aggregate states,
# light states, TOASTed values) and bloomfilter indexes (logged, unlogged,
# grown to several layers, text keys): afterwards every value is the same
# bytes and answers every key as before, every index answers every key as
# before (never a false negative), and the upgraded indexes keep taking
# inserts, by row and by COPY, and can be rebuilt.  The grown index is
# made a 1.7 one (index format version 1: no full pages counted in its
# metapage) before the upgrade: the new server reads it, and its first write counts
# its full pages and writes version 2.
#
# Runs in scripts/test.sh's PostgreSQL 18 stage (from 15: the tests' own
# server is 18 and BLOOMTYPE_UPGRADE_FROM names Debian's
# /usr/lib/postgresql/15) and in its PostgreSQL 19 stage (from 18, both
# Debian's packages in the unstable root), bloomtype installed in both.
# pg_upgrade copies the index files as they are: their pages are
# native-endian and carry their own format version (docs/FORMAT.md, "Index
# pages"), which the newer library reads as the older one wrote it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $old_install = $ENV{BLOOMTYPE_UPGRADE_FROM} // '';
plan skip_all => ($ENV{BLOOMTYPE_UPGRADE_WHY}
	  // 'BLOOMTYPE_UPGRADE_FROM is not set (scripts/test.sh sets it in its PostgreSQL 18 and 19 stages)')
  if $old_install eq '' || defined $ENV{BLOOMTYPE_UPGRADE_WHY};

my $old = PostgreSQL::Test::Cluster->new('old', install_path => $old_install);
my $new = PostgreSQL::Test::Cluster->new('new');
my ($from, $to) = ($old->pg_version->major, $new->pg_version->major);
ok($from < $to, "upgrading from $from to $to");

# the same locale on both, no data checksums on either (18's initdb turns
# them on by default; the metapage is rewritten below, and pg_upgrade
# needs both clusters alike)
$old->init(extra => [ '--locale=C', '--encoding=UTF8',
		($from >= 18 ? ('--no-data-checksums') : ()) ]);
$old->append_conf('postgresql.conf', "fsync = off\n");
$old->start;
$old->safe_psql('postgres', 'CREATE DATABASE src');
$old->safe_psql('src', q{
	CREATE EXTENSION bloomtype;
	CREATE AGGREGATE partial_bloom(bigint) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
	CREATE AGGREGATE partial_bloom(bigint, bigint, float8) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
	CREATE AGGREGATE partial_counting(bigint) (SFUNC = counting_agg_trans, STYPE = countingbloom);
	CREATE AGGREGATE partial_cuckoo(bigint) (SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter);
	CREATE TABLE v (id int PRIMARY KEY, what text, b bloomfilter, c countingbloom, k cuckoofilter);
	INSERT INTO v (id, what, b) VALUES
	  (1, 'bloom: empty', bloom_empty(1000)),
	  (2, 'bloom: auto-sized, 5 MB TOASTed', (SELECT bloom_agg(g) FROM generate_series(1, 3000000) g)),
	  (3, 'bloom: fixed capacity', (SELECT bloom_agg(g, 20000, 0.001) FROM generate_series(1, 10000) g)),
	  (4, 'bloom: scalable, grown', bloom_add_all(bloom_empty(100), ARRAY(SELECT generate_series(1, 10000)))),
	  (5, 'bloom: hash list state', (SELECT partial_bloom(g) FROM generate_series(1, 1000) g)),
	  (6, 'bloom: light state', (SELECT partial_bloom(g, 1000000, 0.01) FROM generate_series(1, 1000) g)),
	  (7, 'bloom: text', (SELECT bloom_agg('user' || g) FROM generate_series(1, 5000) g));
	INSERT INTO v (id, what, c) VALUES
	  (11, 'counting: filled', counting_add_all(counting_empty(10000), ARRAY(SELECT generate_series(1, 10000)))),
	  (12, 'counting: after removes', counting_remove_all(counting_add_all(counting_empty(1000), ARRAY(SELECT generate_series(1, 1000))),
	                                                       ARRAY(SELECT generate_series(1, 1000, 2)))),
	  (13, 'counting: auto-sized', (SELECT counting_agg(g) FROM generate_series(1, 5000) g)),
	  (14, 'counting: hash list state', (SELECT partial_counting(g) FROM generate_series(1, 1000) g)),
	  (15, 'counting: TOASTed', (SELECT counting_agg(g, 200000, 0.01) FROM generate_series(1, 100000) g));
	INSERT INTO v (id, what, k) VALUES
	  (21, 'cuckoo: grown to 4 sub-filters', cuckoo_add_all(cuckoo_empty(1000), ARRAY(SELECT generate_series(1, 10000)))),
	  (22, 'cuckoo: removes, compacted', cuckoo_compact(cuckoo_remove_all(cuckoo_add_all(cuckoo_empty(1000), ARRAY(SELECT generate_series(1, 10000))),
	                                                                      ARRAY(SELECT g FROM generate_series(1, 10000) g WHERE g % 4 <> 0)))),
	  (23, 'cuckoo: auto-sized', (SELECT cuckoo_agg(g) FROM generate_series(1, 5000) g)),
	  (24, 'cuckoo: hash list state', (SELECT partial_cuckoo(g) FROM generate_series(1, 1000) g)),
	  (25, 'cuckoo: TOASTed', cuckoo_add_all(cuckoo_empty(1000000), ARRAY(SELECT generate_series(1, 100000))));

	CREATE TABLE users (id bigint, email text);
	INSERT INTO users SELECT g, 'user' || g || '@example.com' FROM generate_series(1, 100000) g;
	CREATE INDEX users_id_bloom ON users USING bloomfilter (id) WITH (fpr = 0.01);
	CREATE INDEX users_email_bloom ON users USING bloomfilter (email);
	-- grown past its first layer by inserts after the build; with this
	-- seed its fourth layer has 5 of its 12 pages full
	CREATE TABLE grown (id bigint);
	CREATE INDEX grown_bloom ON grown USING bloomfilter (id)
	  WITH (min_capacity = 1000, min_pages = 1, seed = 0);
	INSERT INTO grown SELECT generate_series(1, 76000);
	CREATE UNLOGGED TABLE scratch (id bigint);
	INSERT INTO scratch SELECT generate_series(1, 1000);
	CREATE INDEX scratch_bloom ON scratch USING bloomfilter (id);
});
is($old->safe_psql('src', q{SELECT (bloom_index_info('grown_bloom')).layers > 1}),
	't', 'source: the grown index has several layers');

my $bytes = q{
	SELECT string_agg(id || ':' || md5(coalesce(b::bytea, c::bytea, k::bytea)), ',' ORDER BY id) FROM v};
# each value's answers for 12,000 keys of its key type, and its info
my $answers = q{
	SELECT string_agg(id || ':' || md5((
	         SELECT string_agg(CASE
	                  WHEN b IS NOT NULL AND id = 7 THEN bloom_contains(b, 'user' || g)::int
	                  WHEN b IS NOT NULL THEN bloom_contains(b, g::bigint)::int
	                  WHEN c IS NOT NULL THEN counting_count(c, g::bigint)
	                  ELSE cuckoo_count(k, g::bigint) END::text, '' ORDER BY g)
	           FROM generate_series(1, 12000) g)) || ':' ||
	         md5(CASE WHEN b IS NOT NULL THEN (SELECT i::text FROM bloom_info(b) i)
	                  WHEN c IS NOT NULL THEN (SELECT i::text FROM counting_info(c) i)
	                  ELSE (SELECT i::text FROM cuckoo_info(k) i) END), ',' ORDER BY id)
	  FROM v};
# every index's answers: all its keys present, and how many of 100,000
# absent keys it lets through (the same bits give the same count)
my $index_answers = q{
	SELECT (SELECT count(*) FILTER (WHERE bloom_index_contains('users_id_bloom', id)) FROM users),
	       (SELECT count(*) FILTER (WHERE bloom_index_contains('users_id_bloom', g)) FROM generate_series(100001, 200000) g),
	       (SELECT count(*) FILTER (WHERE bloom_index_contains('users_email_bloom', email)) FROM users),
	       (SELECT count(*) FILTER (WHERE bloom_index_contains('users_email_bloom', 'x' || g)) FROM generate_series(1, 100000) g),
	       (SELECT count(*) FILTER (WHERE bloom_index_contains('grown_bloom', id)) FROM grown),
	       (SELECT count(*) FILTER (WHERE bloom_index_contains('grown_bloom', g)) FROM generate_series(100001, 200000) g),
	       (SELECT count(*) FILTER (WHERE bloom_index_contains('scratch_bloom', id)) FROM scratch),
	       (SELECT string_agg(i::text, ';') FROM (SELECT bloom_index_info('users_id_bloom') UNION ALL
	                                             SELECT bloom_index_info('grown_bloom')) i(i))};
my $layers_before = $old->safe_psql('src', q{SELECT (bloom_index_info('grown_bloom')).layers});
my $extversion = $old->safe_psql('src', q{SELECT extversion FROM pg_extension WHERE extname = 'bloomtype'});
my $bytes_before = $old->safe_psql('src', $bytes);
my $answers_before = $old->safe_psql('src', $answers);
my $index_before = $old->safe_psql('src', $index_answers);
like($index_before, qr/^100000\|\d+\|100000\|\d+\|76000\|\d+\|1000\|/,
	'source: every index finds all its keys');

# Debian's PostgreSQL 15.20 stamps every new column with an attribute
# option pg_attver that no other server accepts: pg_upgrade (and any
# restore into 18) fails on it, with bloomtype or without.  Cleared here,
# as a DBA upgrading such a cluster must (README, "Upgrading PostgreSQL").
foreach my $db ('postgres', 'src', 'template1')
{
	$old->safe_psql($db, q{
		UPDATE pg_attribute SET attoptions = NULL
		 WHERE attrelid >= 16384 AND attoptions::text LIKE '%pg_attver%'});
}
my $grown_file = $old->data_dir . '/'
  . $old->safe_psql('src', q{SELECT pg_relation_filepath('grown_bloom')});
is($old->safe_psql('src', 'SHOW data_checksums'), 'off',
	'source: no data checksums (the metapage is rewritten below)');
$old->stop;

# Makes the index file's metapage what 1.7 wrote: version 1, no layer's
# full pages counted.  BfiMeta lies at byte 24 of page 0
# (src/core/pagefmt.h): magic "BFIX", version at +4, nlayers at +26, the
# layers from +72, 40 bytes each, full_pages at +32 of a layer.
sub make_version_1
{
	my ($file) = @_;
	open(my $fh, '+<:raw', $file) or die "open $file: $!";
	sysread($fh, my $page, 8192) == 8192 or die "read $file: $!";
	die 'not a version 2 bloomfilter metapage'
	  unless substr($page, 24, 4) eq 'BFIX' && unpack('v', substr($page, 28, 2)) == 2;
	my $nlayers = unpack('C', substr($page, 50, 1));
	my @counted;
	substr($page, 28, 2) = pack('v', 1);
	foreach my $l (0 .. $nlayers - 1)
	{
		push @counted, unpack('V', substr($page, 24 + 72 + 40 * $l + 32, 4));
		substr($page, 24 + 72 + 40 * $l + 32, 4) = pack('V', 0);
	}
	sysseek($fh, 0, 0) or die "seek $file: $!";
	syswrite($fh, $page) == 8192 or die "write $file: $!";
	close($fh) or die "close $file: $!";
	return @counted;
}
my @counted = make_version_1($grown_file);
ok($counted[-1] > 0 && @counted == $layers_before,
	"source: the grown index's layers counted full pages (@counted), now uncounted (version 1)");

$new->init(extra => [ '--locale=C', '--encoding=UTF8', '--no-data-checksums' ]);
my $tmp = PostgreSQL::Test::Utils::tempdir();
chdir $tmp;
command_ok(
	[
		'pg_upgrade', '--no-sync',
		'-d', $old->data_dir, '-D', $new->data_dir,
		'-b', $old->config_data('--bindir'), '-B', $new->config_data('--bindir'),
		'-s', $new->host, '-p', $old->port, '-P', $new->port,
		'--copy'
	],
	"pg_upgrade from $from to $to");
$new->append_conf('postgresql.conf', "fsync = off\n");
$new->start;

is($new->safe_psql('src', q{SELECT extversion FROM pg_extension WHERE extname = 'bloomtype'}),
	$extversion, "the extension came over at its version ($extversion)");
is($new->safe_psql('src', q{SELECT current_setting('server_version_num')::int / 10000}),
	$to, "the upgraded cluster runs $to");
is($new->safe_psql('src', $bytes), $bytes_before, 'every value is the same bytes after pg_upgrade');
is($new->safe_psql('src', $answers), $answers_before, 'every value answers every key as before, same info');
is($new->safe_psql('src', $index_answers), $index_before,
	'every index answers every key as before (the same bits), same info');

# the metapage's version, and the full pages of the layer that was the
# newest at the upgrade
my $at = 24 + 72 + 40 * ($layers_before - 1) + 32;
my $meta = qq{
	SELECT get_byte(p, 28) || ':' || (get_byte(p, $at) + 256 * get_byte(p, $at + 1))
	  FROM get_raw_page('grown_bloom', 0) p};
$new->safe_psql('src', 'CREATE EXTENSION pageinspect');
is($new->safe_psql('src', $meta), '1:0', 'the grown index came over as version 1');
# its first write (ten keys) counts the full pages of its newest layer
# from the pages: a count kept from there on would miss the pages already
# past their mark, and the layer would never be called full
$new->safe_psql('src', 'INSERT INTO grown SELECT generate_series(1000001, 1000010)');
my ($version, $full) = split /:/, $new->safe_psql('src', $meta);
ok($version == 2 && $full >= $counted[-1],
	"the version 1 index counted its newest layer's full pages at its first write ($full; $counted[-1] before the upgrade) and is version 2");

# the upgraded indexes keep taking keys: by row, by COPY, into a new layer
$new->safe_psql('src', q{
	INSERT INTO users SELECT g, 'user' || g || '@example.com' FROM generate_series(100001, 100100) g;
	COPY grown FROM PROGRAM 'seq 500001 600000';
	INSERT INTO scratch SELECT generate_series(1001, 1100);
});
is( $new->safe_psql('src', q{
	SELECT (SELECT count(*) FILTER (WHERE bloom_index_contains('users_id_bloom', id)
	                                  AND bloom_index_contains('users_email_bloom', email)) FROM users),
	       (SELECT count(*) FILTER (WHERE bloom_index_contains('grown_bloom', id)) FROM grown),
	       (SELECT count(*) FILTER (WHERE bloom_index_contains('scratch_bloom', id)) FROM scratch),
	       (SELECT (bloom_index_info('grown_bloom')).layers) > } . $layers_before),
	'100100|176010|1100|t',
	'the upgraded indexes take inserts and COPY, and find every key');
$new->safe_psql('src', 'REINDEX TABLE users; REINDEX TABLE grown');
is( $new->safe_psql('src', q{
	SELECT (SELECT count(*) FILTER (WHERE bloom_index_contains('users_id_bloom', id)) FROM users),
	       (SELECT count(*) FILTER (WHERE bloom_index_contains('grown_bloom', id)) FROM grown)}),
	'100100|176010', "and are rebuilt by REINDEX on $to");
# a value made on the new server is the same bytes as the old one's
is( $new->safe_psql('src', q{
	SELECT md5((SELECT bloom_agg(g) FROM generate_series(1, 3000000) g)::bytea) = md5(b::bytea) FROM v WHERE id = 2}),
	't', "bloom_agg on $to makes the bytes $from made");

$new->stop;
done_testing();
