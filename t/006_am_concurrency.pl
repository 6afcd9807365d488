# The bloomfilter index under concurrent writers: an empty table whose
# index grows by layers while 8 pgbench clients insert disjoint id ranges
# and 2 background psql sessions probe rows they can see (a probe that
# misses a visible row raises an error, which fails the test).  Afterwards
# every row's key is found (no false negative), the index grew to several
# layers, and the false-positive rate measured over absent keys is at or
# under fpr.  Then the same with UPDATEs that change the key: every key a
# row ever held stays in the filter (deleted keys are false positives, never
# lost).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $node = PostgreSQL::Test::Cluster->new('am_concurrency');
$node->init;
$node->append_conf('postgresql.conf', "max_connections = 30\nfsync = off\n");
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomtype;
	CREATE SEQUENCE s;
	CREATE TABLE t (id bigint);
	-- the first layer of i spans 8 pages (the default min_pages), the one
	-- of i1 a single page: i1 grows more layers, and its writers meet on
	-- fewer pages
	CREATE INDEX i ON t USING bloomfilter (id) WITH (fpr = 0.01, min_capacity = 1000);
	CREATE INDEX i1 ON t USING bloomfilter (id) WITH (fpr = 0.01, min_capacity = 1000, min_pages = 1);
	CREATE TABLE u (pk int PRIMARY KEY, id bigint);
	INSERT INTO u SELECT g, g FROM generate_series(1, 8000) g;
	CREATE INDEX ui ON u USING bloomfilter (id) WITH (fpr = 0.01, min_capacity = 1000, min_pages = 1);
});
is($node->safe_psql('postgres', q{
	SELECT items, layers FROM bloom_index_info('i') UNION ALL SELECT items, layers FROM bloom_index_info('i1')}),
	"0|1\n0|1", 'the indexes of the empty table start with one empty layer');

# Probers: background psql sessions (one an index given), each a loop of
# transactions that read the rows on a few heap pages by ctid and ask the
# index for each of them, one by one and as an array.  A row a probe sees
# committed before the probe began, and its key went into the index before
# that commit: a miss raises an error.  The loop ends when the table "done"
# has a row for the table.
$node->safe_psql('postgres', q{
	CREATE TABLE done (what text);
	CREATE PROCEDURE probe(tab regclass, idx regclass, maxpage int)
	LANGUAGE plpgsql AS $$
	DECLARE
		b int;
		seen bigint;
		missed bigint;
		each_ok bool;
		rounds bigint := 0;
		total bigint := 0;
	BEGIN
		LOOP
			EXIT WHEN EXISTS (SELECT FROM done WHERE what = tab::text);
			b := floor(random() * (maxpage + 1));
			EXECUTE format(
				'SELECT count(*), count(*) FILTER (WHERE NOT bloom_index_contains(%L, id)),
				        coalesce(false <> ALL (bloom_index_contains_each(%L, array_agg(id))), true)
				   FROM %s WHERE ctid = ANY (ARRAY[''(%s,1)'', ''(%s,40)'', ''(%s,80)'', ''(%s,120)'']::tid[])',
				idx, idx, tab, b, b, b, b)
			  INTO seen, missed, each_ok;
			IF missed > 0 OR NOT each_ok THEN
				RAISE EXCEPTION 'probe of % missed % of % visible rows on page % (each: %)',
					idx, missed, seen, b, each_ok;
			END IF;
			rounds := rounds + 1;
			total := total + seen;
			COMMIT;
		END LOOP;
		RAISE NOTICE 'probes: % rounds, % rows seen', rounds, total;
	END $$;
});

sub start_probers
{
	my ($table, $maxpage, @indexes) = @_;
	my @h;
	for my $index (@indexes)
	{
		my %r = (out => '', err => '');
		$r{h} = IPC::Run::start(
			[
				'psql', '-X', '-v', 'ON_ERROR_STOP=1', '-h', $node->host,
				'-p', $node->port, '-d', 'postgres',
				'-c', "CALL probe('$table', '$index', $maxpage)"
			],
			'>', \$r{out}, '2>', \$r{err});
		push @h, \%r;
	}
	return ($table, \@h);
}

sub stop_probers
{
	my ($what, $table, $h) = @_;
	$node->safe_psql('postgres', "INSERT INTO done VALUES ('$table')");
	for my $r (@$h)
	{
		$r->{h}->finish;
		my ($rows) = $r->{err} =~ /probes: \d+ rounds, (\d+) rows seen/;
		is($r->{h}->result(0), 0, "$what: prober exits cleanly")
		  or diag($r->{err});
		ok(defined $rows && $rows > 0,
			"$what: prober saw and found rows while writers ran (" . ($rows // 'none') . ')');
	}
}

# 1. inserts: 8 writers x 4000 transactions x 5 rows, disjoint ranges by client
my @p = start_probers('t', 700, 'i', 'i1');
$node->pgbench(
	'--no-vacuum --client=8 --jobs=2 --transactions=4000',
	0,
	[qr{processed: 32000/32000}],
	[qr{^$}],
	'8 clients insert 5 keys a transaction into disjoint ranges',
	{
		'006_insert' => q{
SELECT :client_id::bigint * 1000000000 + (nextval('s') - 1) * 5 AS base \gset
INSERT INTO t SELECT :base + g FROM generate_series(1, 5) g;
}
	});
stop_probers('inserts', @p);

is( $node->safe_psql('postgres', q{SELECT count(*), count(DISTINCT id / 1000000000) FROM t}),
	'160000|8', 'inserts: 160000 rows of 8 writers');

my $absent = q{
	SELECT count(*) FILTER (WHERE bloom_index_contains('%1$s', g))::float8 / count(*)
	  FROM generate_series(-200000, -1) g};
for my $index ('i', 'i1')
{
	my $minlayers = $index eq 'i' ? 3 : 5;
	is( $node->safe_psql('postgres', qq{
		SELECT count(*) FILTER (WHERE NOT bloom_index_contains('$index', id)) FROM t}),
		'0', "inserts, $index: every key found");
	is( $node->safe_psql('postgres', qq{
		SELECT count(*) FROM unnest(bloom_index_contains_each('$index', ARRAY(SELECT id FROM t))) c
		 WHERE NOT c}),
		'0', "inserts, $index: bloom_index_contains_each finds every key too");

	my ($layers, $items, $est) = split /\|/, $node->safe_psql('postgres', qq{
		SELECT layers, items, estimated_fpr FROM bloom_index_info('$index')});
	note "inserts, $index: layers $layers, items $items, estimated fpr $est";
	cmp_ok($layers, '>=', $minlayers, "inserts, $index: the index grew to $layers layers under load (at least $minlayers)");
	# a key an older layer may hold is not added again: items fall short of
	# the rows by the false positives only
	ok($items <= 160000 && $items >= 160000 * 0.98,
		"inserts, $index: items ($items) counts the keys, less false positives");

	my $fpr = $node->safe_psql('postgres', sprintf($absent, $index));
	cmp_ok($fpr, '<=', 0.01,
		"inserts, $index: measured false-positive rate over 200k absent keys is at most fpr ($fpr)");
	cmp_ok($fpr, '>', 0, "inserts, $index: and the filter is not degenerate (some false positives)");
}

# 2. UPDATEs that change the key: each client moves keys of its own rows
# by 10^8 (a row updated j times holds pk + j * 10^8)
@p = start_probers('u', 150, 'ui', 'ui');
$node->pgbench(
	'--no-vacuum --client=8 --jobs=2 --transactions=4000',
	0,
	[qr{processed: 32000/32000}],
	[qr{^$}],
	'8 clients update keys of their own rows',
	{
		'006_update' => q{
\set r random(1, 1000)
UPDATE u SET id = id + 100000000 WHERE pk = :client_id * 1000 + :r;
}
	});
stop_probers('updates', @p);

is( $node->safe_psql('postgres', q{
	SELECT sum((id - pk) / 100000000), count(*) FILTER (WHERE NOT bloom_index_contains('ui', id)) FROM u}),
	'32000|0', 'updates: 32000 key changes, every current key found');
is( $node->safe_psql('postgres', q{
	SELECT count(*), count(*) FILTER (WHERE NOT bloom_index_contains('ui', pk + j * 100000000::bigint))
	  FROM u, generate_series(0, 100) j WHERE pk + j * 100000000::bigint < id}),
	'32000|0', 'updates: every key a row held before stays in the filter');
my ($layers) = $node->safe_psql('postgres', q{SELECT layers FROM bloom_index_info('ui')});
cmp_ok($layers, '>=', 3, "updates: the index grew by layers under updates ($layers)");
my $fpr = $node->safe_psql('postgres', sprintf($absent, 'ui'));
cmp_ok($fpr, '<=', 0.01, "updates: measured false-positive rate over 200k absent keys is at most fpr ($fpr)");

$node->stop;
done_testing();
