# An application's copy of an index kept in step (1.8).
#
# 1. Exactly once, whatever the commit order: transactions of several
#    sessions commit in another order than they began and wrote; each
#    catch-up from a mark returns the keys of exactly the transactions
#    that committed since (none twice, none missed), and a catch-up from an
#    older mark returns the union.
# 2. The Python guard (clients/python/examples/guard.py, driven by
#    t/sync_guard.py) under writers: while 4 pgbench clients insert, the
#    index is REINDEXed, the table TRUNCATEd and refilled, the guard's
#    connections are terminated (once in the middle of a load of a large
#    filter), a burst of 2,000 one-row transactions arrives, and the index
#    grows a layer.  After each, every committed key is in the guard's copy
#    (no false negative), and the guard reloaded when it had to (a gap) and
#    caught up by the keys otherwise.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use File::Basename qw(dirname);
use Cwd qw(abs_path);

my $top = abs_path(dirname(__FILE__) . '/..');
my $node = PostgreSQL::Test::Cluster->new('sync');
$node->init;
$node->append_conf('postgresql.conf', "max_connections = 40\nfsync = off\n");
$node->start;

# 1. exactly once
$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomtype;
	CREATE TABLE o (id bigint);
	CREATE INDEX o_bloom ON o USING bloomfilter (id) WITH (seed = 0);
	CREATE TRIGGER o_log AFTER INSERT ON o REFERENCING NEW TABLE AS n
	  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('o_bloom');
	CREATE TRIGGER o_log_update AFTER UPDATE ON o REFERENCING NEW TABLE AS n
	  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('o_bloom');
	CREATE FUNCTION hashes_of(b bytea) RETURNS SETOF bigint LANGUAGE sql IMMUTABLE STRICT AS $$
	  SELECT ('x' || string_agg(lpad(to_hex(get_byte(b, o + 7 - i)), 2, '0'), '' ORDER BY i))::bit(64)::bigint
	    FROM generate_series(0, length(b) - 8, 8) o, generate_series(0, 7) i GROUP BY o $$;
	-- the keys a catch-up returned, as ranges of the keys whose hashes they are
	CREATE FUNCTION keys_of(b bytea) RETURNS text LANGUAGE sql AS $$
	  SELECT coalesce(string_agg(lo || '-' || hi, ' ' ORDER BY lo), '') || ' n=' || (SELECT count(*) FROM hashes_of(b))
	    FROM (SELECT min(k) AS lo, max(k) AS hi FROM generate_series(1, 100000) k
	           WHERE bloom_key_hash(k::bigint, 0) IN (SELECT hashes_of(b)) GROUP BY k / 1000) r $$;
	CREATE TABLE marks (name text PRIMARY KEY, mark text);
	INSERT INTO marks SELECT 'm0', mark FROM bloom_index_filter_at('o_bloom');
});

sub changes
{
	my ($from, $to) = @_;
	my $r = $node->safe_psql('postgres', qq{
		WITH c AS (SELECT c.* FROM marks m, bloom_index_changes('o_bloom', m.mark) c WHERE m.name = '$from'),
		     s AS (INSERT INTO marks SELECT '$to', mark FROM c WHERE '$to' <> '' RETURNING 1)
		SELECT complete, keys_of(hashes) FROM c});
	return $r;
}

my @s = map { $node->background_psql('postgres') } 1 .. 3;
# three transactions begin and write in the order 1, 2, 3
$s[$_ - 1]->query_safe("BEGIN; INSERT INTO o SELECT generate_series($_ * 1000, $_ * 1000 + 99)") for 1 .. 3;
# 2 commits first
$s[1]->query_safe('COMMIT');
is(changes('m0', 'm1'), 't|2000-2099 n=100', 'the first transaction to commit, alone');
is(changes('m1', 'm1b'), 't| n=0', 'nothing more from its mark');
# a fourth begins now and writes, then 3 and 1 commit
$s[1]->query_safe('BEGIN; INSERT INTO o SELECT generate_series(4000, 4099)');
$s[2]->query_safe('COMMIT');
$s[0]->query_safe('COMMIT');
is(changes('m1', 'm2'), 't|1000-1099 3000-3099 n=200', 'the two that committed later, each once');
$s[1]->query_safe('COMMIT');
is(changes('m2', 'm3'), 't|4000-4099 n=100', 'the one running at both marks, once it committed');
is(changes('m0', ''), 't|1000-1099 2000-2099 3000-3099 4000-4099 n=400',
	'from the first mark: every transaction once');
# a rolled-back transaction and a savepoint rolled back: their keys come never
$s[0]->query_safe('BEGIN; INSERT INTO o SELECT generate_series(5000, 5099); ROLLBACK');
$s[0]->query_safe('BEGIN; INSERT INTO o SELECT generate_series(6000, 6009); SAVEPOINT a;'
	  . ' INSERT INTO o SELECT generate_series(6010, 6019); ROLLBACK TO a; COMMIT');
is(changes('m3', ''), 't|6000-6009 n=10', 'aborted work is never delivered');
$_->quit for @s;

# a prune while a writer's transaction is open: it deletes nothing at or
# past the oldest running transaction, so a mark taken meanwhile (which
# sees the writer running) still catches up once the writer commits
my $long = $node->background_psql('postgres');
$long->query_safe('BEGIN; INSERT INTO o SELECT generate_series(8000, 8009)');
$node->safe_psql('postgres', 'INSERT INTO o VALUES (8100)');
is($node->safe_psql('postgres', q{SELECT bloom_index_log_prune('o_bloom', '0') > 0}), 't',
	'the prune deleted the rows older than the writer');
$node->safe_psql('postgres', q{INSERT INTO marks SELECT 'mlong', mark FROM bloom_index_filter_at('o_bloom')});
$long->query_safe('COMMIT');
$long->quit;
is(changes('mlong', ''), 't|8000-8009 n=10', 'a mark taken while the writer ran: its keys, not a gap');

# REINDEX CONCURRENTLY while a writer's transaction is open: the writer's
# trigger named the old index; a mark taken once the new index has the name
# (or before, whichever the REINDEX lets happen first) must come to that
# writer's keys or say it cannot
my $holder = $node->background_psql('postgres');
$holder->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT 1');
my $build = $node->background_psql('postgres', on_error_stop => 0);
$build->query_until(qr/started/, "\\echo started\nREINDEX INDEX CONCURRENTLY o_bloom;\n");
ok($node->poll_query_until('postgres', q{
	SELECT phase = 'waiting for old snapshots' FROM pg_stat_progress_create_index}),
	'REINDEX CONCURRENTLY waits for an old snapshot');
my $old_oid = $node->safe_psql('postgres', q{SELECT 'o_bloom'::regclass::oid});
my $writer = $node->background_psql('postgres');
$writer->query_safe('BEGIN; INSERT INTO o SELECT generate_series(7000, 7009)');
$holder->query_safe('COMMIT');
# the swap, unless the REINDEX waits for the writer first (5 s)
$node->poll_query_until('postgres', qq{SELECT 'o_bloom'::regclass::oid <> $old_oid})
  or note 'the REINDEX waits for the writer before it swaps';
$node->safe_psql('postgres', q{INSERT INTO marks SELECT 'mcc', mark FROM bloom_index_filter_at('o_bloom')});
$writer->query_safe('COMMIT');
$writer->quit;
my ($res, $failed) = $build->query('SELECT 1');
is($failed, 0, 'REINDEX CONCURRENTLY finished') or diag($build->{stderr});
$build->quit;
$holder->quit;
my $cc = changes('mcc', '');
ok($cc =~ /^f\|/ || $cc =~ /7000-7009/,
	"a mark taken around the swap: the writer's keys, or a gap ($cc)");

# 2. the Python guard under writers
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'),
	'-f', "$top/clients/guard_setup.sql" ], 'clients/guard_setup.sql');
$node->safe_psql('postgres', q{
	CREATE SEQUENCE ids START 1000001;
	INSERT INTO users SELECT generate_series(1, 200000);
});
my $script = "$top/tmp_check/sync_insert.sql";
open(my $fh, '>', $script) or die "$script: $!";
print $fh "INSERT INTO users VALUES (nextval('ids'));\n";
close $fh;

my ($gin, $gout, $gerr) = ('', '', '');
my $dsn = $node->connstr('postgres') . ' application_name=guard';
my $guard = IPC::Run::start([ '/usr/bin/python3', '-P', "$top/t/sync_guard.py", $dsn ],
	'<', \$gin, '>', \$gout, '2>', \$gerr);
$guard->pump until $gout =~ /ready\n/ || !$guard->pumpable;
like($gout, qr/ready/, 'the guard loaded its copy') or diag($gerr);
$gout = '';

# the guard's copy against every id in users: a catch-up that began after
# the ids were read must have brought every one (no second chance)
sub settled
{
	$gin .= "check\n";
	$guard->pump until $gout =~ /\n/ || !$guard->pumpable;
	my ($line, $rest) = ($gout =~ /^(.*?)\n(.*)$/s);
	$gout = $rest // '';
	diag($gerr) unless defined $line;
	return $line // '';
}

sub counters
{
	my ($line) = @_;
	my %c = $line =~ /(\w+)=(\d+)/g;
	return \%c;
}

sub writers
{
	my ($secs) = @_;
	my ($out, $err) = ('', '');
	return IPC::Run::start(
		[ 'pgbench', '--no-vacuum', '--client=4', '--jobs=2', "--time=$secs",
		  '-h', $node->host, '-p', $node->port, '-f', $script, 'postgres' ],
		'>', \$out, '2>', \$err);
}

my $c0 = counters(settled());
is($c0->{missing}, 0, 'the first load holds every id');

# writers, and a REINDEX under them
my $w = writers(3);
sleep 1;
$node->safe_psql('postgres', 'REINDEX INDEX users_id_bloom');
$w->finish;
my $c1 = counters(settled());
is($c1->{missing}, 0, "writers and a REINDEX: every committed id in the copy ($c1->{ids} ids)");
cmp_ok($c1->{reloads}, '>', $c0->{reloads}, 'the REINDEX made the guard reload');
cmp_ok($c1->{catchups}, '>', $c0->{catchups} + 2, 'and it caught up by the keys otherwise');

# TRUNCATE, then new rows
$node->safe_psql('postgres', 'TRUNCATE users');
$w = writers(1);
$w->finish;
my $c2 = counters(settled());
is($c2->{missing}, 0, "TRUNCATE and new rows: every committed id in the copy ($c2->{ids} ids)");
cmp_ok($c2->{reloads}, '>', $c1->{reloads}, 'the TRUNCATE made the guard reload');

# a small index made again under the guard's name: writers make it grow
# layers, each a gap the guard bridges by a reload
$node->safe_psql('postgres', q{
	DROP INDEX users_id_bloom;
	CREATE INDEX users_id_bloom ON users USING bloomfilter (id) WITH (min_capacity = 20000, min_pages = 1);
});
my $layers0 = $node->safe_psql('postgres', q{SELECT (bloom_index_info('users_id_bloom')).layers});
# 60,000 rows in statements of 5,000 (whatever the machine's speed), with
# writers beside them
$w = writers(2);
$node->safe_psql('postgres', q{INSERT INTO users SELECT nextval('ids') FROM generate_series(1, 5000)})
  for 1 .. 12;
$w->finish;
my $c2b = counters(settled());
my $layers1 = $node->safe_psql('postgres', q{SELECT (bloom_index_info('users_id_bloom')).layers});
cmp_ok($layers1, '>', $layers0, "the index grew layers under the guard ($layers0 to $layers1)");
is($c2b->{missing}, 0, "across the new layers: every committed id in the copy ($c2b->{ids} ids)");
cmp_ok($c2b->{reloads}, '>', $c2->{reloads} + 1, 'the guard reloaded for the new index and its layers');

# the guard's connections ended again and again while writers insert and
# REINDEX makes it load the filter again (some of the ends fall in a load)
$w = writers(3);
for my $i (1 .. 15)
{
	$node->safe_psql('postgres', 'REINDEX INDEX users_id_bloom') if $i % 5 == 1;
	$node->safe_psql('postgres',
		q{SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'guard'});
	select(undef, undef, undef, 0.15);
}
$w->finish;
my $c3 = counters(settled());
is($c3->{missing}, 0, "connections ended under the guard: every committed id in the copy ($c3->{ids} ids)");

# a burst of 2,000 one-row transactions: caught up in far fewer catch-ups
$node->command_ok([ 'pgbench', '--no-vacuum', '--client=4', '--jobs=2', '--transactions=500',
	'-h', $node->host, '-p', $node->port, '-f', $script, 'postgres' ], '2,000 one-row transactions');
my $c4 = counters(settled());
is($c4->{missing}, 0, 'after the burst: every committed id in the copy');
cmp_ok($c4->{catchups} - $c3->{catchups}, '<', 2000,
	'notifications of many commits make fewer catch-ups (' . ($c4->{catchups} - $c3->{catchups}) . ')');

$gin .= "quit\n";
$guard->finish;
is($?, 0, 'the guard ended cleanly') or diag($gerr);

done_testing();
