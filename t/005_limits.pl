# Limits: the largest filter that fits (512 MB) is created, used, stored,
# dumped and restored; one key more of capacity fails cleanly before any
# allocation; an auto-sized aggregate's memory stays as documented.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('limits');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 128MB\nmax_wal_size = 4GB\n");
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', 'CREATE EXTENSION bloomtype');

my $max = 429577369;    # the largest fixed capacity at 1% (bloom_empty's hint says so)
my ($ret, $out, $err) = $node->psql('src', "SELECT bloom_empty($max + 1, 0.01, 0)");
isnt($ret, 0, 'one step larger fails');
like($err, qr/largest capacity that fits at this rate is $max/, 'and names the largest capacity');

$node->safe_psql('src', qq{
	CREATE TABLE big (id int, f bloomfilter);
	INSERT INTO big VALUES (1, bloom_add(bloom_empty($max, 0.01, 0), 42));
});
is( $node->safe_psql('src', q{
	SELECT bytes, bytes <= 512 * 1024 * 1024, bloom_contains(f, 42), bloom_contains(f, 43)
	  FROM big, bloom_info(f)}),
	(64 + 4 + 64 * 8388591) . '|t|t|f',
	'the largest filter is stored and answers');

my $dir = PostgreSQL::Test::Utils::tempdir();
$node->command_ok([ 'pg_dump', '-h', $node->host, '-p', $node->port,
	'--format', 'custom', '-f', "$dir/big.dump", 'src' ], 'pg_dump of the largest filter');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
$node->command_ok([ 'pg_restore', '-h', $node->host, '-p', $node->port,
	'--exit-on-error', '-d', 'dst', "$dir/big.dump" ], 'pg_restore of the largest filter');
is($node->safe_psql('dst', 'SELECT md5(f::bytea) FROM big'),
	$node->safe_psql('src', 'SELECT md5(f::bytea) FROM big'),
	'restored byte-identical');

# auto-sized bloom_agg state: at most 12 bytes a row (plus a header), as
# the README says; measured as the hash aggregate's peak memory
my $plan = $node->safe_psql('src', q{
	SET enable_sort = off;
	SET work_mem = '2GB';
	EXPLAIN (ANALYZE, FORMAT JSON) SELECT g % 1, bloom_agg(g) FROM generate_series(1, 5000000) g GROUP BY 1;
});
my ($kb) = $plan =~ /"Peak Memory Usage": (\d+)/;
ok(defined $kb && $kb * 1024 <= 5000000 * 12 + 1024 * 1024,
	"auto-sized state of 5M rows within 12 bytes a row (peak ${kb} kB)");

$node->stop;
done_testing();
