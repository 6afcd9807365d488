# Crash safety: concurrent adds are cut off by an immediate shutdown, and
# then by a kill -9 of one backend (which makes the postmaster restart every
# backend).  After recovery every committed key is in the filter, the item
# count equals the committed adds, and the value reads cleanly.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);

my $node = PostgreSQL::Test::Cluster->new('crash');
$node->init;
$node->append_conf('postgresql.conf', "restart_after_crash = on\n");
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomtype;
	CREATE TABLE filters (id int PRIMARY KEY, f bloomfilter);
	INSERT INTO filters VALUES (1, bloom_empty(200000, 0.01));
	CREATE TABLE added (k bigint PRIMARY KEY);
	CREATE SEQUENCE keys;
});

my $script = PostgreSQL::Test::Utils::tempdir() . '/add.sql';
PostgreSQL::Test::Utils::append_to_file($script, q{
BEGIN;
SELECT nextval('keys') AS k \gset
UPDATE filters SET f = bloom_add(f, :k::bigint) WHERE id = 1;
INSERT INTO added VALUES (:k);
COMMIT;
});

# pgbench in the background until it is cut off
sub start_writers
{
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start(
		[
			'pgbench', '--no-vacuum', '--client=4', '--time=60',
			'-h', $node->host, '-p', $node->port, '-f', $script, 'postgres'
		],
		'>', \$out, '2>', \$err);
	# wait until some adds have committed
	$node->poll_query_until('postgres', 'SELECT count(*) > 200 FROM added')
	  or die 'writers did not start';
	return $h;
}

sub check_state
{
	my ($what) = @_;
	my $committed = $node->safe_psql('postgres', 'SELECT count(*) FROM added');
	ok($committed > 200, "$what: some adds committed ($committed)");
	is( $node->safe_psql(
			'postgres', q{
		SELECT (bloom_info(f)).items BETWEEN (SELECT count(*) - 5 FROM added) AND (SELECT count(*) FROM added),
		       (SELECT count(*) FROM added a WHERE NOT bloom_contains(f, a.k))
		  FROM filters WHERE id = 1}),
		't|0',
		"$what: item count follows committed adds (a key that is maybe present already is not counted), every committed key found");
	is($node->safe_psql('postgres', 'SELECT f::text::bloomfilter = f FROM filters'),
		't', "$what: the value reads and round-trips");
}

# 1. immediate shutdown in the middle of the adds
my $h = start_writers();
$node->stop('immediate');
$h->finish;
$node->start;
check_state('immediate shutdown');

# 2. kill -9 of one backend in the middle of the adds
$node->safe_psql('postgres', 'TRUNCATE added');
$node->safe_psql('postgres', 'UPDATE filters SET f = bloom_empty(200000, 0.01)');
$h = start_writers();
my $pid = $node->safe_psql('postgres',
	q{SELECT pid FROM pg_stat_activity
	   WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND query LIKE '%filters%'
	   LIMIT 1});
ok($pid =~ /^\d+$/, 'found a writer backend');
kill 'KILL', $pid;
$h->finish;
# the postmaster restarts every backend; wait until it takes queries again
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
check_state('kill -9 of a backend');

$node->stop;
done_testing();
