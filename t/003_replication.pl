# Logical replication of tables with filter columns: after the initial
# copy and after updates, the values on the subscriber are byte-identical
# to the publisher's, through the text form (binary = false) and the binary
# form (binary = true).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $pub = PostgreSQL::Test::Cluster->new('publisher');
$pub->init(allows_streaming => 'logical');
$pub->start;
my $sub = PostgreSQL::Test::Cluster->new('subscriber');
$sub->init;
$sub->start;

my $schema = q{
	CREATE EXTENSION bloomtype;
	CREATE TABLE text_form (id int PRIMARY KEY, f bloomfilter);
	CREATE TABLE binary_form (id int PRIMARY KEY, f bloomfilter);
};
$pub->safe_psql('postgres', $schema);
$sub->safe_psql('postgres', $schema);

my $rows = q{
	INSERT INTO %1$s VALUES
	  (1, bloom_empty(10)),
	  (2, bloom_add(bloom_empty(1000), 'alice')),
	  (3, (SELECT bloom_agg(g) FROM generate_series(1, 50000) g)),
	  (4, (SELECT bloom_agg(g, 2000000, 0.001) FROM generate_series(1, 1000) g)),
	  (5, (SELECT bloom_agg(md5(g::text)::uuid) FROM generate_series(1, 100) g)),
	  (6, NULL);
};
foreach my $t ('text_form', 'binary_form')
{
	$pub->safe_psql('postgres', sprintf($rows, $t));
}
$pub->safe_psql('postgres', q{
	CREATE PUBLICATION pub_text FOR TABLE text_form;
	CREATE PUBLICATION pub_binary FOR TABLE binary_form;
});
my $connstr = $pub->connstr() . ' dbname=postgres';
$sub->safe_psql('postgres', qq{
	CREATE SUBSCRIPTION sub_text CONNECTION '$connstr' PUBLICATION pub_text;
	CREATE SUBSCRIPTION sub_binary CONNECTION '$connstr' PUBLICATION pub_binary WITH (binary = true);
});
$sub->poll_query_until('postgres',
	q{SELECT count(*) = 0 FROM pg_subscription_rel WHERE srsubstate NOT IN ('r', 's')})
  or die 'initial sync did not finish';

my $digest = q{SELECT string_agg(id || ':' || coalesce(md5(f::bytea), 'null'), ',' ORDER BY id) FROM %1$s};
sub compare
{
	my ($what) = @_;
	foreach my $t ('text_form', 'binary_form')
	{
		my $p = $pub->safe_psql('postgres', sprintf($digest, $t));
		my $s = $sub->safe_psql('postgres', sprintf($digest, $t));
		is($s, $p, "$what: $t byte-identical on both sides");
	}
}
compare('initial copy');

foreach my $t ('text_form', 'binary_form')
{
	$pub->safe_psql('postgres', qq{
		UPDATE $t SET f = bloom_add(f, 424242) WHERE id IN (1, 3);
		UPDATE $t SET f = bloom_add(f, 'bob') WHERE id = 2;
		UPDATE $t SET f = f | (SELECT bloom_agg(g, 2000000, 0.001) FROM generate_series(5000, 6000) g) WHERE id = 4;
		INSERT INTO $t VALUES (7, (SELECT bloom_agg('k' || g) FROM generate_series(1, 20000) g));
		DELETE FROM $t WHERE id = 5;
	});
}
$pub->wait_for_catchup('sub_text');
$pub->wait_for_catchup('sub_binary');
compare('after updates');
is($sub->safe_psql('postgres', q{SELECT bloom_contains(f, 424242) FROM text_form WHERE id = 3}),
	't', 'an added key is found on the subscriber');

$sub->stop;
$pub->stop;
done_testing();
