# REINDEX INDEX CONCURRENTLY and CREATE INDEX CONCURRENTLY of a bloomfilter
# index while a background pgbench inserts.  Each is held in its last wait
# ("waiting for old snapshots") by a session with an older snapshot: then
# the index being made is not valid and reading it is an ERROR that says
# so (never a false "absent"), while the old index still finds every
# committed key.  Afterwards both indexes are valid, find every row
# (no false negative: keys inserted during the build come in through
# aminsert or the validation scan), and the rebuild dropped the keys of
# deleted rows.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $node = PostgreSQL::Test::Cluster->new('am_reindex');
$node->init;
$node->append_conf('postgresql.conf', "fsync = off\n");
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomtype;
	CREATE TABLE t (id bigint);
	INSERT INTO t SELECT g FROM generate_series(1, 40000) g;
	CREATE INDEX i ON t USING bloomfilter (id) WITH (fpr = 0.01);
	CREATE SEQUENCE keys START 1000000;
	DELETE FROM t WHERE id <= 20000;
});
is( $node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE bloom_index_contains('i', g)), (bloom_index_info('i')).build_items
	  FROM generate_series(1, 20000) g}),
	'20000|40000', 'keys of deleted rows stay in the filter until a rebuild');

# writers in the background, until they are stopped
my $script = $node->basedir . '/insert.sql';
PostgreSQL::Test::Utils::append_to_file($script, q{
INSERT INTO t VALUES (nextval('keys'));
});
my ($out, $err) = ('', '');
my $writers = IPC::Run::start(
	[
		'pgbench', '--no-vacuum', '--client=4', '--time=300',
		'-h', $node->host, '-p', $node->port, '-f', $script, 'postgres'
	],
	'>', \$out, '2>', \$err);
$node->poll_query_until('postgres', 'SELECT count(*) > 25000 FROM t')
  or die 'writers did not start';

# Runs a concurrent build in a background session, held in its wait for
# old snapshots by another session's repeatable-read snapshot taken first;
# checks what readers see meanwhile, then lets it finish.
sub held_build
{
	my ($what, $sql, $building, $checks) = @_;
	my $holder = $node->background_psql('postgres');
	$holder->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT 1');
	my $before = $node->safe_psql('postgres', 'SELECT count(*) FROM t');

	my $build = $node->background_psql('postgres', on_error_stop => 0);
	$build->query_until(qr/started/, "\\echo started\n$sql;\n");
	ok( $node->poll_query_until('postgres', q{
		SELECT phase = 'waiting for old snapshots' FROM pg_stat_progress_create_index}),
		"$what: the build waits for the old snapshot");
	is( $node->safe_psql('postgres', qq{
		SELECT indisready, indisvalid FROM pg_index WHERE indexrelid = '$building'::regclass}),
		't|f', "$what: the index being made takes inserts and is not valid yet");
	my ($ret, $o, $e) = $node->psql('postgres', "SELECT bloom_index_contains('$building', 1000001)");
	isnt($ret, 0, "$what: reading the index being made fails");
	like($e, qr/index "$building" is not valid/, "$what: and says the index is not valid");
	($ret, $o, $e) = $node->psql('postgres', "SELECT bloom_index_contains_each('$building', ARRAY[1000001])");
	like($e, qr/index "$building" is not valid/, "$what: bloom_index_contains_each says so too");
	$checks->() if $checks;

	$holder->query_safe('COMMIT');
	$holder->quit;
	# the build session runs its statement to the end before this one
	my ($res, $failed) = $build->query('SELECT 1');
	is($failed, 0, "$what: the build finished without error") or diag($build->{stderr});
	$build->quit;
	my $after = $node->safe_psql('postgres', 'SELECT count(*) FROM t');
	ok($after > $before, "$what: writers went on meanwhile ($before rows, then $after)");
}

# 1. REINDEX INDEX CONCURRENTLY: the new index is i_ccnew until the swap
my $old_oid = $node->safe_psql('postgres', q{SELECT 'i'::regclass::oid});
held_build('reindex concurrently', 'REINDEX INDEX CONCURRENTLY i', 'i_ccnew', sub {
	is( $node->safe_psql('postgres', q{
		SELECT count(*) FILTER (WHERE NOT bloom_index_contains('i', id)) FROM t}),
		'0', 'reindex concurrently: meanwhile the old index finds every committed key');
});
is( $node->safe_psql('postgres', q{
	SELECT 'i'::regclass::oid <> } . $old_oid . q{, indisvalid, indisready,
	       (SELECT count(*) FROM pg_index WHERE indrelid = 't'::regclass)
	  FROM pg_index WHERE indexrelid = 'i'::regclass}),
	't|t|t|1', 'reindex concurrently: a new index, valid, and no leftover');
my ($deleted, $build_items) = split /\|/, $node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE bloom_index_contains('i', g)), (bloom_index_info('i')).build_items
	  FROM generate_series(1, 20000) g});
cmp_ok($deleted, '<=', 400,
	"reindex concurrently: keys of deleted rows are gone but for false positives ($deleted of 20000)");
cmp_ok($build_items, '>', 20000, "reindex concurrently: built from the rows that remain ($build_items)");

# 2. CREATE INDEX CONCURRENTLY of a second index
held_build('create index concurrently',
	'CREATE INDEX CONCURRENTLY i2 ON t USING bloomfilter (id) WITH (fpr = 0.001)', 'i2', sub {
	is( $node->safe_psql('postgres', q{
		SELECT count(*) FILTER (WHERE NOT bloom_index_contains('i', id)) FROM t}),
		'0', 'create index concurrently: meanwhile the reindexed index finds every committed key');
});

# 3. REINDEX TABLE CONCURRENTLY rebuilds both under the writers
$node->safe_psql('postgres', 'REINDEX TABLE CONCURRENTLY t');

$writers->signal('TERM');
$writers->finish;

for my $index ('i', 'i2')
{
	is( $node->safe_psql('postgres', qq{
		SELECT indisvalid, indisready,
		       (SELECT count(*) FILTER (WHERE NOT bloom_index_contains('$index', id)) FROM t),
		       (SELECT count(*) FROM unnest(bloom_index_contains_each('$index', ARRAY(SELECT id FROM t))) c WHERE NOT c)
		  FROM pg_index WHERE indexrelid = '$index'::regclass}),
		't|t|0|0', "after the writers: $index is valid and finds every row");
}
is( $node->safe_psql('postgres', q{
	SELECT count(*), bool_and(indisvalid) FROM pg_index WHERE indrelid = 't'::regclass}),
	'2|t', 'after the writers: two valid indexes and no leftover of the rebuilds');
# inserts go on into the rebuilt indexes
$node->safe_psql('postgres', 'INSERT INTO t SELECT -g FROM generate_series(1, 5000) g');
is( $node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE NOT bloom_index_contains('i', id) OR NOT bloom_index_contains('i2', id)) FROM t}),
	'0', 'inserts after the rebuilds are found by both');

$node->stop;
done_testing();
