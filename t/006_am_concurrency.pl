# The bloomfilter index under concurrent writers: an empty table whose
# index grows by layers while 8 pgbench clients insert disjoint id ranges
# and 2 background psql sessions probe rows they can see (a probe that
# misses a visible row raises an error, which fails the test).  Afterwards
# every row's key is found (no false negative), the index grew to several
# layers, and the false-positive rate measured over absent keys is at or
# under fpr.  Then the same with UPDATEs that change the key: every key a
# row ever held stays in the filter (deleted keys are false positives, never
# lost).  Then bulk loaders (COPY and INSERT ... SELECT of disjoint ranges
# into two indexes, bigint and text, in transactions of one or several
# statements, some rolled back whole or to a savepoint), with probers
# running: every committed key found, the indexes grew by layers, fpr held.
# Last, a transaction's own keys in the parallel workers of its next query
# (written when the query starts, before the workers read the index).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use JSON::PP;

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
# index for each of their keys (column id, or the one given), one by one
# and as an array.  A row a probe sees committed before the probe began,
# and its key went into the index before that commit: a miss raises an
# error.  The loop ends when the table "done" has a row for the table.
$node->safe_psql('postgres', q{
	CREATE TABLE done (what text);
	CREATE PROCEDURE probe(tab regclass, idx regclass, maxpage int, col name DEFAULT 'id')
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
				'SELECT count(*), count(*) FILTER (WHERE NOT bloom_index_contains(%L, %I)),
				        coalesce(false <> ALL (bloom_index_contains_each(%L, array_agg(%I))), true)
				   FROM %s WHERE ctid = ANY (ARRAY[''(%s,1)'', ''(%s,40)'', ''(%s,80)'', ''(%s,120)'']::tid[])',
				idx, col, idx, col, tab, b, b, b, b)
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

# an index given as "index:column" is asked for that column's keys
sub start_probers
{
	my ($table, $maxpage, @indexes) = @_;
	my @h;
	for my $spec (@indexes)
	{
		my ($index, $col) = split /:/, $spec;
		$col //= 'id';
		my %r = (out => '', err => '');
		$r{h} = IPC::Run::start(
			[
				'psql', '-X', '-v', 'ON_ERROR_STOP=1', '-h', $node->host,
				'-p', $node->port, '-d', 'postgres',
				'-c', "CALL probe('$table', '$index', $maxpage, '$col')"
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

# 3. bulk loaders: 3 clients load disjoint key ranges with COPY and
# INSERT ... SELECT, in transactions of one or several statements, some
# rolled back (whole, or to a savepoint), most passing the pending keys of
# an index in one backend (65,536) at least once, while probers ask both
# indexes (bigint and text) for the rows they see
$node->safe_psql('postgres', q{
	CREATE TABLE bl (id bigint, s text);
	CREATE INDEX bli ON bl USING bloomfilter (id) WITH (fpr = 0.01, min_capacity = 1000, min_pages = 1);
	CREATE INDEX bls ON bl USING bloomfilter (s) WITH (fpr = 0.01, min_capacity = 1000);
});

# Each loader's transactions: how each ends (undef: one statement in
# autocommit) and its statements, COPY or INSERT ... SELECT of n rows, or
# "sp": an INSERT ... SELECT of n rows rolled back to a savepoint.  The
# rows of a statement are ids block * 1000000 + 1 .. n, 'k' || id, the
# block its own.
my @loaders = (
	[
		[ 'COMMIT', [ copy => 40000 ], [ copy => 40000 ] ],
		[ undef, [ copy => 70000 ] ],
		[ 'ROLLBACK', [ copy => 70000 ] ],
		[ 'COMMIT', [ copy => 30000 ], [ copy => 30000 ] ],
	],
	[
		[ undef, [ insert => 100000 ] ],
		[ 'COMMIT', [ insert => 40000 ], [ insert => 40000 ] ],
		[ 'ROLLBACK', [ insert => 80000 ] ],
		[ 'COMMIT', [ insert => 30000 ], [ sp => 20000 ], [ insert => 10000 ] ],
	],
	[
		[ 'COMMIT', [ copy => 50000 ], [ insert => 50000 ] ],
		[ 'ROLLBACK', [ insert => 70000 ], [ copy => 10000 ] ],
		[ 'COMMIT', [ insert => 40000 ], [ copy => 40000 ] ],
	]);
my (%committed, @lost, @scripts);
my $block = 100;
for my $loader (@loaders)
{
	my $sql = '';
	for my $xact (@$loader)
	{
		my ($end, @statements) = @$xact;
		$sql .= "BEGIN;\n" if defined $end;
		for my $st (@statements)
		{
			my ($kind, $n) = @$st;
			my ($from, $to) = ($block * 1000000 + 1, $block * 1000000 + $n);
			if ($kind eq 'copy')
			{
				$sql .= "COPY bl FROM STDIN;\n" . join('', map { "$_\tk$_\n" } $from .. $to) . "\\.\n";
			}
			else
			{
				$sql .= "SAVEPOINT sp;\n" if $kind eq 'sp';
				$sql .= "INSERT INTO bl SELECT g, 'k' || g FROM generate_series($from, $to) g;\n";
				$sql .= "ROLLBACK TO SAVEPOINT sp;\n" if $kind eq 'sp';
			}
			if (($end // 'COMMIT') eq 'COMMIT' && $kind ne 'sp')
			{
				$committed{$block} = $n;
			}
			else
			{
				push @lost, [ $from, $to ];
			}
			$block++;
		}
		$sql .= "$end;\n" if defined $end;
	}
	push @scripts, $sql;
}
my $rows = 0;
$rows += $_ for values %committed;

@p = start_probers('bl', 4000, 'bli', 'bls:s');
my @loads;
for my $i (0 .. $#scripts)
{
	my $file = $node->basedir . "/load$i.sql";
	PostgreSQL::Test::Utils::append_to_file($file, $scripts[$i]);
	my %r = (out => '', err => '');
	$r{h} = IPC::Run::start(
		[
			'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', $node->host,
			'-p', $node->port, '-d', 'postgres', '-f', $file
		],
		'>', \$r{out}, '2>', \$r{err});
	push @loads, \%r;
}
for my $i (0 .. $#loads)
{
	$loads[$i]{h}->finish;
	is($loads[$i]{h}->result(0), 0, "bulk loads: loader $i ends cleanly") or diag($loads[$i]{err});
}
stop_probers('bulk loads', @p);

is( $node->safe_psql('postgres', q{SELECT id / 1000000, count(*) FROM bl GROUP BY 1 ORDER BY 1}),
	join("\n", map { "$_|$committed{$_}" } sort { $a <=> $b } keys %committed),
	"bulk loads: the table holds the $rows rows of the committed statements, none rolled back");
is( $node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE NOT bloom_index_contains('bli', id)),
	       count(*) FILTER (WHERE NOT bloom_index_contains('bls', s))
	  FROM bl}),
	'0|0', 'bulk loads: every committed key found by both indexes');
is( $node->safe_psql('postgres', q{
	SELECT (SELECT count(*) FROM unnest(bloom_index_contains_each('bli', ARRAY(SELECT id FROM bl))) c WHERE NOT c),
	       (SELECT count(*) FROM unnest(bloom_index_contains_each('bls', ARRAY(SELECT s FROM bl))) c WHERE NOT c)}),
	'0|0', 'bulk loads: bloom_index_contains_each finds every committed key too');
my $lost_keys = 0;
$lost_keys += $_->[1] - $_->[0] + 1 for @lost;
note 'bulk loads: keys of the rolled-back rows found (bigint|text) of ' . $lost_keys . ': '
  . $node->safe_psql('postgres',
	'SELECT count(*) FILTER (WHERE bloom_index_contains(\'bli\', g)), count(*) FILTER (WHERE bloom_index_contains(\'bls\', \'k\' || g)) FROM ('
	  . join(' UNION ALL ', map { "SELECT generate_series($_->[0]::bigint, $_->[1]) g" } @lost) . ') r');
my ($layers_i, $layers_s) = split /\n/, $node->safe_psql('postgres', q{
	SELECT layers FROM bloom_index_info('bli') UNION ALL SELECT layers FROM bloom_index_info('bls')});
my $fpr_i = $node->safe_psql('postgres', sprintf($absent, 'bli'));
my $fpr_s = $node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE bloom_index_contains('bls', 'k' || g))::float8 / count(*)
	  FROM generate_series(-200000, -1) g});
note "bulk loads: layers $layers_i, $layers_s; measured fpr $fpr_i, $fpr_s";
# Three loaders flush at once: a pass that finds another backend adding a
# layer waits for it, and never pours its keys into the full layer (which
# would saturate it, drop every later key as maybe present, and stop the
# growth: the rate rose to 0.99 before bfi_insert_keys waited).
ok($layers_i >= 5 && $layers_s >= 3,
	"bulk loads: the indexes grew by layers ($layers_i, $layers_s)");
ok($fpr_i <= 0.01,
	"bulk loads, bli: measured false-positive rate over 200k absent keys is at most fpr ($fpr_i)");
ok($fpr_s <= 0.01,
	"bulk loads, bls: measured false-positive rate over 200k absent keys is at most fpr ($fpr_s)");

# 4. a session's own keys in parallel workers: a transaction inserts 50,000
# rows (fewer than the pending keys an index holds: on 15 and 16 none is
# written when the statement ends) and then runs a query whose workers, not
# the leader (parallel_leader_participation off), ask the index for them;
# the query's start writes the pending keys before the workers read
$node->safe_psql('postgres', q{
	CREATE TABLE pv (id bigint, s text);
	INSERT INTO pv SELECT g, 'k' || g FROM generate_series(1, 100000) g;
	CREATE INDEX pvi ON pv USING bloomfilter (id) WITH (fpr = 0.01);
	CREATE INDEX pvs ON pv USING bloomfilter (s) WITH (fpr = 0.01);
	ANALYZE pv;
});
my $parallel = q{
	SET parallel_setup_cost = 0;
	SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0;
	SET max_parallel_workers_per_gather = 2;
	SET parallel_leader_participation = off;
};
my $count = q{
	SELECT count(*) FILTER (WHERE NOT bloom_index_contains('pvi', id)),
	       count(*) FILTER (WHERE NOT bloom_index_contains('pvs', s)), count(*)
	  FROM pv WHERE id > %d};
my @out = split /\n/, $node->safe_psql('postgres', $parallel . q{
	BEGIN;
	INSERT INTO pv SELECT g, 'k' || g FROM generate_series(100001, 150000) g;
} . sprintf($count, 100000) . ";\n" . q{EXPLAIN (COSTS OFF) } . sprintf($count, 100000) . ";\nCOMMIT;\n");
is($out[0], '0|0|50000', 'parallel: a query of the inserting transaction finds each of its 50000 new keys');
my $plan = join("\n", @out[ 1 .. $#out ]);
like($plan, qr/Gather.*Workers Planned: 2/s, 'parallel: the query runs in parallel workers') or diag($plan);

# the same, the query under EXPLAIN ANALYZE: workers ran it, and no row
# came out of the filter that keeps the keys the index misses
my $json = $node->safe_psql('postgres', $parallel . q{
	BEGIN;
	INSERT INTO pv SELECT g, 'k' || g FROM generate_series(150001, 200000) g;
	EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON)
	SELECT id FROM pv
	 WHERE id > 150000 AND (NOT bloom_index_contains('pvi', id) OR NOT bloom_index_contains('pvs', s));
	COMMIT;
});
my $top = JSON::PP::decode_json($json)->[0]{Plan};
is($top->{'Node Type'}, 'Gather', 'parallel, EXPLAIN ANALYZE: a Gather') or diag($json);
cmp_ok($top->{'Workers Launched'} // 0, '>=', 1, 'parallel, EXPLAIN ANALYZE: workers launched');
cmp_ok($top->{'Actual Rows'}, '==', 0, 'parallel, EXPLAIN ANALYZE: the workers found each new key');
is($node->safe_psql('postgres', sprintf($count, 100000)), '0|0|100000',
	'parallel: after COMMIT every key found');

$node->stop;
done_testing();
