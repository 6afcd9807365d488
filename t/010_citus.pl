# bloomtype on a real Citus cluster: a coordinator and two workers on this
# machine.  Every aggregate of the extension, in each form and for every key
# type, is pushed down to the shards (worker_partial_agg / coord_combine_agg)
# and gives the same bytes as the same rows in a plain table; GROUP BY; a
# filter built in a subquery and used in a distributed WHERE; a filter in a
# reference table joined to a distributed table; empty results; what a
# partial state costs on the wire; Citus #4043; a bloomfilter index on a
# distributed table.
#
# Citus comes from scripts/citus.sh (run by scripts/test.sh, which exports
# BLOOMTYPE_CITUS_INSTALL, a PostgreSQL tree with Citus, or
# BLOOMTYPE_CITUS_SYSTEM=1 when Citus is installed in the system's own);
# without either the suite is skipped, with the reason.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $inst = $ENV{BLOOMTYPE_CITUS_INSTALL} // '';
my $system = $ENV{BLOOMTYPE_CITUS_SYSTEM} // '';
plan skip_all => 'Citus not available: '
  . ($ENV{BLOOMTYPE_CITUS_WHY}
	  // 'BLOOMTYPE_CITUS_INSTALL is not set (scripts/test.sh sets it from scripts/citus.sh)')
  unless ($inst ne '' && -d $inst) || $system;

my %opt = $inst ne '' ? (install_path => $inst) : ();
my @nodes;
for my $name (qw(coord worker1 worker2))
{
	my $n = PostgreSQL::Test::Cluster->new($name, %opt);
	$n->init;
	$n->append_conf('postgresql.conf',
		"shared_preload_libraries = 'citus'\nfsync = off\nmax_connections = 100\n"
		  . "citus.shard_count = 16\n");
	$n->start;
	$n->safe_psql('postgres',
		'CREATE EXTENSION citus; CREATE EXTENSION bloomtype;');
	push @nodes, $n;
}
my ($coord, @workers) = @nodes;
$coord->safe_psql('postgres',
	"SELECT citus_set_coordinator_host('" . $coord->host . "', " . $coord->port . ')');
for my $w (@workers)
{
	$coord->safe_psql('postgres',
		"SELECT citus_add_node('" . $w->host . "', " . $w->port . ')');
}
is($coord->safe_psql('postgres',
		'SELECT count(*) FROM citus_get_active_worker_nodes()'),
	'2', 'a coordinator and two workers');

sub sql { return $coord->safe_psql('postgres', shift); }

# The same 20,000 rows in a distributed table t and a plain table p.  Every
# key type of the extension's overloads has a column; d (a date) goes
# through the anyelement overload.
sql(q{
	CREATE TABLE t (id bigint, k4 int, k2 smallint, s text, v varchar,
	                b bytea, u uuid, d date, g int);
	SELECT create_distributed_table('t', 'id');
	CREATE TABLE p (LIKE t);
	INSERT INTO p
	SELECT i, i * 7, (i % 30000)::smallint, 'key ' || i, 'v' || i,
	       int8send(i), md5(i::text)::uuid, date '2000-01-01' + i::int, i % 10
	  FROM generate_series(1, 20000) i;
	INSERT INTO t SELECT * FROM p;
	ANALYZE t; ANALYZE p;
});
is(sql('SELECT count(*) FROM pg_dist_shard WHERE logicalrelid = \'t\'::regclass'),
	'16', 't is distributed over 16 shards');

# the key types with their own overloads (d, through anyelement, below)
my @cols = qw(id k4 k2 s v b u);

# 1. Every aggregate, each form, every key type: pushed down and
# byte-identical to one node.
my @forms = (
	[ 'bloom_agg', '' ],
	[ 'bloom_agg', ', 0.001' ],
	[ 'bloom_agg', ', 30000, 0.01' ],
	[ 'counting_agg', '' ],
	[ 'counting_agg', ', 0.001' ],
	[ 'counting_agg', ', 30000, 0.01' ],
	[ 'cuckoo_agg', '' ],
	[ 'cuckoo_agg', ', 0.001' ],
	[ 'cuckoo_agg', ', 30000, 0.01' ]);
for my $f (@forms)
{
	my ($agg, $args) = @$f;
	my $list = join(', ', map { "md5($agg($_$args)::text)" } @cols);
	my $dist = sql("SELECT $list FROM t");
	my $one = sql("SELECT $list FROM p");
	is($dist, $one, "$agg(key$args): every key type byte-identical to one node");
	my $plan = sql("EXPLAIN (VERBOSE, COSTS OFF) SELECT $agg(id$args) FROM t");
	like($plan, qr/worker_partial_agg.*coord_combine_agg|coord_combine_agg(?s:.*)worker_partial_agg/s,
		"$agg(key$args) is pushed down to the shards");
}

# 1b. The windowed bloom_agg (1.7): pushed down; the same slices and bits
# as one node, so the same answers (the item counts of a union add up
# across shards, as a parallel plan's do)
my $wagg = "bloom_agg(%s, timestamptz '2026-11-01 00:00+00' + make_interval(mins => id::int), '1 hour', 6, 5000, 0.01)";
for my $c (qw(id s u))
{
	my $a = sprintf($wagg, $c);
	my $q = "SELECT (bloom_info(f)).bits_set, (SELECT string_agg(slice_start::text, ',' ORDER BY slice_start) FROM bloom_slices(f)),
	                md5(bloom_contains_each(f, ARRAY(SELECT $c FROM p WHERE id % 3 = 0 ORDER BY id))::text)
	           FROM (SELECT $a AS f FROM TBL) x";
	(my $qt = $q) =~ s/TBL/t/;
	(my $qp = $q) =~ s/TBL/p/;
	is(sql($qt), sql($qp), "windowed bloom_agg($c, at, ...): the same slices, bits and answers as one node");
}
like(sql("EXPLAIN (VERBOSE, COSTS OFF) SELECT " . sprintf($wagg, 'id') . " FROM t"),
	qr/worker_partial_agg.*coord_combine_agg|coord_combine_agg(?s:.*)worker_partial_agg/s,
	'the windowed bloom_agg is pushed down to the shards');

# Keys of other types go through the anyelement overloads, which Citus
# cannot push down: worker_partial_agg compares the aggregate's declared
# argument types with the column's.  Pulling the rows to the coordinator
# (a subquery with OFFSET 0) gives one node's bytes.
for my $agg ('bloom_agg', 'counting_agg', 'cuckoo_agg')
{
	my ($rc, $out, $err) = $coord->psql('postgres', "SELECT $agg(d) FROM t");
	like($err, qr/worker_partial_agg_sfunc could not confirm type correctness/,
		"$agg(date): Citus refuses to push down an anyelement aggregate");
	is(sql("SELECT md5($agg(d)::text) FROM (SELECT d FROM t OFFSET 0) x"),
		sql("SELECT md5($agg(d)::text) FROM p"),
		"$agg(date) over rows pulled to the coordinator: as one node");
}

# the union aggregates: over filters kept in a distributed table (pushed
# down), and over per-group filters built on the shards
sql(q{
	CREATE TABLE tf (g int, bf bloomfilter, cf countingbloom, kf cuckoofilter);
	SELECT create_distributed_table('tf', 'g');
	CREATE TABLE pf (LIKE tf);
	INSERT INTO pf SELECT g, bloom_agg(s, 25000, 0.01), counting_agg(s, 25000, 0.01),
	                      cuckoo_agg(s, 25000, 0.01) FROM p GROUP BY g;
	INSERT INTO tf SELECT * FROM pf;
});
for my $f ([ 'bloom', 'bloom_agg', 'bf' ], [ 'counting', 'counting_agg', 'cf' ],
	[ 'cuckoo', 'cuckoo_agg', 'kf' ])
{
	my ($fam, $agg, $c) = @$f;
	like(sql("EXPLAIN (VERBOSE, COSTS OFF) SELECT ${fam}_union_agg($c) FROM tf"),
		qr/worker_partial_agg/, "${fam}_union_agg is pushed down to the shards");
	my $sql = "SELECT md5(${fam}_union_agg(f)::text) FROM (SELECT g, $agg(s, 25000, 0.01) AS f FROM %s GROUP BY g) x";
	if ($fam ne 'cuckoo')
	{
		is(sql("SELECT md5(${fam}_union_agg($c)::text) FROM tf"),
			sql("SELECT md5(${fam}_union_agg($c)::text) FROM pf"),
			"${fam}_union_agg over a distributed table of filters: byte-identical");
		is(sql(sprintf($sql, 't')), sql(sprintf($sql, 'p')),
			"${fam}_union_agg over filters built per group on the shards: byte-identical");
		next;
	}

	# A cuckoo union reinserts fingerprints, and where a kick moves one
	# depends on what came before: its bytes depend on the order the
	# partial states meet (as in a parallel plan), its keys do not.
	for my $from ('tf', "(SELECT g, $agg(s, 25000, 0.01) AS $c FROM t GROUP BY g) x")
	{
		is(sql("SELECT (cuckoo_info(f)).items, (SELECT count(*) FROM p WHERE NOT cuckoo_contains(f, s))
			FROM (SELECT cuckoo_union_agg($c) AS f FROM $from) y"),
			'20000|0', "cuckoo_union_agg on Citus over " . ($from eq 'tf' ? 'a distributed table of filters' : 'filters built per group on the shards')
			  . ": every key, no false negative (bytes depend on the order)");
	}
}

# 2. GROUP BY: a column that is not the distribution column (partial states
# of every group cross), and one whose groups each live in one shard
for my $g ('g', 'id % 1000', 'id')
{
	for my $agg ('bloom_agg(s, 3000, 0.01)', 'bloom_agg(s)', 'counting_agg(k4, 3000, 0.01)',
		'cuckoo_agg(u)')
	{
		my $sql = "SELECT md5(string_agg(x::text, ',' ORDER BY k)) FROM "
		  . "(SELECT $g AS k, $agg AS x FROM %s GROUP BY 1) y";
		is(sql(sprintf($sql, 't')), sql(sprintf($sql, 'p')),
			"GROUP BY $g: $agg byte-identical per group");
	}
}

# 3. a filter built in a subquery, used in a distributed WHERE
my $sub = 'SELECT count(*), sum(id) FROM %s WHERE bloom_contains('
  . '(SELECT bloom_agg(s, 3000, 0.001) FROM %s WHERE id %% 7 = 0), s)';
my $want = sql(sprintf($sub, 'p', 'p'));
like($want, qr/^(\d+)\|/, 'the one-node answer is a count');
is(sql(sprintf($sub, 't', 't')), $want,
	'a filter from a subquery in a distributed WHERE: same rows as one node');
my ($n) = split /\|/, $want;
cmp_ok($n, '>=', 2857, 'no key of the filter is missed (2857 multiples of 7)');

# 4. a filter in a reference table joined to the distributed table
sql(q{
	CREATE TABLE rf (name text PRIMARY KEY, f bloomfilter);
	SELECT create_reference_table('rf');
	CREATE TABLE rp (LIKE rf);
	INSERT INTO rf SELECT 'sevens', bloom_agg(id, 3000, 0.01) FROM t WHERE id % 7 = 0;
	INSERT INTO rf SELECT 'elevens', bloom_agg(id) FROM t WHERE id % 11 = 0;
	INSERT INTO rp SELECT 'sevens', bloom_agg(id, 3000, 0.01) FROM p WHERE id % 7 = 0;
	INSERT INTO rp SELECT 'elevens', bloom_agg(id) FROM p WHERE id % 11 = 0;
});
is(sql('SELECT md5(string_agg(f::text, \',\' ORDER BY name)) FROM rf'),
	sql('SELECT md5(string_agg(f::text, \',\' ORDER BY name)) FROM rp'),
	'filters built from the distributed table into a reference table: same bytes');
my $join = 'SELECT r.name, count(*), sum(x.id) FROM %s x JOIN %s r ON bloom_contains(r.f, x.id) '
  . 'GROUP BY r.name ORDER BY r.name';
is(sql(sprintf($join, 't', 'rf')), sql(sprintf($join, 'p', 'rp')),
	'a reference-table filter joined to the distributed table: same rows as one node');
like(sql('EXPLAIN (COSTS OFF) ' . sprintf($join, 't', 'rf')),
	qr/Task Count: 16/, 'the reference-table join runs on every shard');

# 5. empty results: the final step on the coordinator sees no partial state
# and no constants.  The auto-sized forms give what one node gives (an empty
# hash list); a capacity form gives that empty hash list too, where one node
# gives an empty filter of the capacity (as a parallel plan can).
for my $agg ('bloom_agg(id)', 'counting_agg(id)', 'cuckoo_agg(id)')
{
	is(sql("SELECT $agg::text FROM t WHERE id < 0"),
		sql("SELECT $agg::text FROM p WHERE id < 0"),
		"no rows: $agg as on one node");
}
is(sql('SELECT length(bloom_agg(id, 5000, 0.01)::bytea), (bloom_info(bloom_agg(id, 5000, 0.01))).capacity FROM t WHERE id < 0'),
	'64|1000', 'no rows on Citus: bloom_agg(key, 5000, 0.01) is the 64-byte empty hash list');
is(sql('SELECT (bloom_info(bloom_agg(id, 5000, 0.01))).capacity FROM p WHERE id < 0'),
	'5000', 'no rows on one node: bloom_agg(key, 5000, 0.01) is an empty 5000-key filter');
is(sql('SELECT bloom_agg(id, 5000, 0.01) | bloom_empty(5000, 0.01) = bloom_empty(5000, 0.01) FROM t WHERE id < 0'),
	't', 'no rows on Citus: | bloom_empty(capacity, fpr) gives the sized filter');
is(sql('SELECT bool_or(bloom_contains(f, 1)) FROM (SELECT bloom_agg(id, 5000, 0.01) AS f FROM t WHERE id < 0) x'),
	'f', 'the empty result contains nothing');

# 5b. partial states travel light: with a capacity, a shard's state is the
# hashes of its rows (1.5: kinds 7 and 8), 64 + 8 bytes a row, sent as text
# ("\x" and two hex digits a byte), not the filter's bits and counters
for my $agg ('bloom_agg(bigint,bigint,double precision)',
	'counting_agg(bigint,bigint,double precision)')
{
	is(sql(qq{SELECT sum(result::bigint) FROM run_command_on_shards('t',
		\$\$SELECT length(worker_partial_agg('$agg'::regprocedure, ROW(id, 30000::bigint, 0.01::float8))::text) FROM %s\$\$)}),
		16 * (2 + 2 * 64) + 20000 * 16,
		"$agg: the shards send 16 characters a row and a header, not the capacity's bits");
}

# 6. an index on a distributed table: one per shard; read on the
# coordinator it is refused, and the hinted query asks the shards (the
# shards' indexes are built one by one: they share a seed, and their
# filters unite, only with the seed option)
sql('CREATE INDEX ti ON t USING bloomfilter (id) WITH (seed = 0)');
is(sql(q{SELECT count(*) FROM run_command_on_shards('t',
	$$SELECT to_regclass('ti_' || substring('%s' from '_([0-9]+)$')) IS NOT NULL$$) WHERE result = 't'}),
	'16', 'CREATE INDEX on a distributed table makes one index per shard');
for my $f ("bloom_index_contains('ti', 5::bigint)", "bloom_index_contains_each('ti', ARRAY[5::bigint])",
	"bloom_index_filter('ti')", "bloom_index_info('ti')")
{
	my ($rc, $out, $err) = $coord->psql('postgres', "SELECT $f");
	like($err, qr/cannot read index "ti": table "t" is a Citus table.*HINT:  Ask the shards' indexes/s,
		"$f on the coordinator is an ERROR with a hint, never an answer from the empty shell index");
}
# the query each hint gives works as it is (with a key in place of KEY)
my %hinted;
for my $f ("bloom_index_contains('ti', 5::bigint)", "bloom_index_filter('ti')")
{
	my ($rc, $out, $err) = $coord->psql('postgres', "SELECT $f");
	my ($q) = $err =~ /for example: (.*)$/m;
	$q //= 'SELECT NULL';		# no hint: the checks below fail
	$q =~ s/\bKEY\b/14000::bigint/;
	$hinted{$f} = sql($q);
}
is($hinted{"bloom_index_contains('ti', 5::bigint)"}, 't',
	"bloom_index_contains's hint, run as given, finds a key of the table");
is(sql(qq{SELECT count(*) FROM generate_series(1, 20000) k
	WHERE NOT bloom_contains('$hinted{"bloom_index_filter('ti')"}'::bloomfilter, k)}),
	'0', "bloom_index_filter's hint, run as given, gives a filter of every key");
my $ask = q{SELECT bool_or(result::boolean) FROM run_command_on_shards('t',
	$$SELECT bloom_index_contains(('ti_' || substring('%%s' from '_([0-9]+)$'))::regclass, %s::bigint)$$)};
is(join(',', map { sql(sprintf($ask, $_)) } (5, 14000, 20000)), 't,t,t',
	'the hinted query finds keys that are in the table');
is(sql(q{SELECT count(*) FROM generate_series(1, 20000) k
	WHERE NOT bloom_contains((SELECT bloom_union_agg(result::bloomfilter) FROM run_command_on_shards('t',
	  $$SELECT bloom_index_filter(('ti_' || substring('%s' from '_([0-9]+)$'))::regclass)$$)), k)}),
	'0', 'the union of the shards\' index filters holds every key of the table');

# a table and an index whose names hold quotes, "%" and "$$": the hint's query
# still runs as given (the shards' command is a quoted literal, the shard's
# name a %L of run_command_on_shards' format())
sql(q{CREATE TABLE "t$$'%x" (id bigint)});
sql(q{SELECT create_distributed_table('"t$$''%x"', 'id', shard_count => 4)});
sql(q{INSERT INTO "t$$'%x" SELECT generate_series(1, 1000)});
sql(q{CREATE INDEX "i$$'%x" ON "t$$'%x" USING bloomfilter (id)});
{
	my ($rc, $out, $err) = $coord->psql('postgres',
		q{SELECT bloom_index_contains('"i$$''%x"', 5::bigint)});
	my ($q) = $err =~ /for example: (.*)$/m;
	$q //= 'SELECT NULL';
	$q =~ s/\bKEY\b/500::bigint/;
	is(sql($q), 't', 'the hint for an index named with quotes and $$ runs as given');
}

# 7. Citus #4043: EXPLAIN ANALYZE of a pushed-down custom aggregate fails
my ($rc, $out, $err) = $coord->psql('postgres',
	'EXPLAIN ANALYZE SELECT bloom_agg(id) FROM t');
like($err, qr/field_0.*pseudo-type cstring/,
	'EXPLAIN ANALYZE of a pushed-down aggregate fails (Citus #4043; if this test fails, Citus fixed it: update the docs)');

done_testing();
