#!/usr/bin/perl
#
# gen_sql.pl: writes the extension's install script (bloomtype--<version>.sql)
# from SQL fragments and the list of key types.
#
#   perl scripts/gen_sql.pl src/pg/keytypes.h src/pg/bloomtype.sql.in > bloomtype--1.2.sql
#
# The key types are read from the BT_KEY_TYPES macro of keytypes.h, the list
# the C side expands into its entry points:
#   BT_KEY(suffix, SQL type, encoding, volatility)
#   BT_KEY_ALIAS(suffix, SQL type)   (volatility of the BT_KEY of that suffix)
#
# A fragment is SQL, copied as it is, except for lines that begin with "--@":
#
#   --@include PATH [name=value ...]
#       the fragment PATH (relative to the including file's directory), with
#       @name@ replaced by value in it
#   --@each_key
#   ...
#   --@end
#       the lines between, once per key type in the list's order, with
#       @suffix@, @sqltype@ and @volatility@ replaced
#
# Any other "--@" line, a block not closed or not opened, nested blocks, an
# @name@ left without a value, a missing file or a malformed key list is an
# error: a message on stderr and exit status 1, no output.

use strict;
use warnings;
use File::Basename qw(dirname);

sub fail { print STDERR "gen_sql.pl: @_\n"; exit 1; }

@ARGV == 2 or fail("usage: gen_sql.pl KEYTYPES_H TEMPLATE > OUTPUT");
my ($keytypes_h, $template) = @ARGV;

sub slurp
{
	my ($path) = @_;
	open(my $fh, '<', $path) or fail("cannot read $path: $!");
	my @lines = <$fh>;
	close($fh);
	return @lines;
}

# The key types: the lines continuing "#define BT_KEY_TYPES(...)", each one
# entry.  Returns a list of { suffix, sqltype, volatility }.
sub read_keys
{
	my ($path) = @_;
	my @lines = slurp($path);
	my ($start) = grep { $lines[$_] =~ /^\s*#\s*define\s+BT_KEY_TYPES\s*\(/ } 0 .. $#lines;
	defined $start or fail("$path: no #define BT_KEY_TYPES(...)");
	$lines[$start] =~ /\\\s*$/ or fail("$path:" . ($start + 1) . ": BT_KEY_TYPES has no entries");

	my (@keys, %volatility, %seen);
	for (my $i = $start + 1; $i <= $#lines; $i++)
	{
		my $where = "$path:" . ($i + 1);
		my $line = $lines[$i];
		my $more = ($line =~ s/\\\s*$//);
		$line =~ s/^\s+|\s+$//g;
		last if $line eq '' && !$more;	# a continued last entry
		if ($line =~ /^BT_KEY\(\s*(\w+)\s*,\s*(\w[\w ]*?)\s*,\s*(\w+)\s*,\s*(IMMUTABLE|STABLE|VOLATILE)\s*\)$/)
		{
			my ($suffix, $sqltype, $vol) = ($1, $2, $4);
			fail("$where: suffix $suffix listed twice") if exists $volatility{$suffix};
			$volatility{$suffix} = $vol;
			push @keys, { suffix => $suffix, sqltype => $sqltype, volatility => $vol };
		}
		elsif ($line =~ /^BT_KEY_ALIAS\(\s*(\w+)\s*,\s*(\w[\w ]*?)\s*\)$/)
		{
			my ($suffix, $sqltype) = ($1, $2);
			fail("$where: alias of $suffix, which no BT_KEY above defines")
			  unless exists $volatility{$suffix};
			push @keys, { suffix => $suffix, sqltype => $sqltype, volatility => $volatility{$suffix} };
		}
		else
		{
			fail("$where: not a BT_KEY(suffix, SQL type, encoding, IMMUTABLE|STABLE|VOLATILE) "
				  . "or BT_KEY_ALIAS(suffix, SQL type) entry: $line");
		}
		fail("$where: SQL type $keys[-1]{sqltype} listed twice") if $seen{ $keys[-1]{sqltype} }++;
		last unless $more;
	}
	return @keys;
}

my @keys = read_keys($keytypes_h);

# Replaces @name@ by $values->{name}; an @name@ without a value is an error.
sub substitute
{
	my ($text, $values, $where) = @_;
	$text =~ s{\@(\w+)\@}{
		exists $values->{$1} ? $values->{$1} : fail("$where: no value for \@$1\@")
	}ge;
	return $text;
}

# The text of one fragment, its includes and blocks expanded.
sub expand
{
	my ($path, $params, $depth) = @_;
	fail("$path: includes nested too deep (a cycle?)") if $depth > 8;
	my @lines = slurp($path);
	my ($out, $block, $block_start) = ('', undef, 0);
	for my $n (1 .. @lines)
	{
		my $line = $lines[ $n - 1 ];
		my $where = "$path:$n";
		if ($line =~ /^--\@(\S*)\s*(.*?)\s*$/)
		{
			my ($directive, $rest) = ($1, $2);
			if ($directive eq 'each_key' && $rest eq '')
			{
				fail("$where: --\@each_key inside the block opened at line $block_start") if defined $block;
				($block, $block_start) = ('', $n);
			}
			elsif ($directive eq 'end' && $rest eq '')
			{
				fail("$where: --\@end without --\@each_key") unless defined $block;
				fail("$path:$block_start: empty --\@each_key block") if $block eq '';
				for my $key (@keys)
				{
					$out .= substitute($block, { %$params, %$key }, "$path:$block_start-$n");
				}
				$block = undef;
			}
			elsif ($directive eq 'include' && $rest ne '')
			{
				fail("$where: --\@include inside an --\@each_key block") if defined $block;
				my ($file, @args) = split(' ', $rest);
				my %sub;
				for my $arg (@args)
				{
					$arg =~ /^(\w+)=(.+)$/ or fail("$where: not a name=value parameter: $arg");
					$sub{$1} = $2;
				}
				my $included = dirname($path) . "/$file";
				fail("$where: cannot read $included") unless -r $included && -f $included;
				$out .= expand($included, \%sub, $depth + 1);
			}
			else
			{
				fail("$where: unknown directive: --\@$directive $rest");
			}
		}
		elsif (defined $block)
		{
			$block .= $line;
		}
		else
		{
			$out .= substitute($line, $params, $where);
		}
	}
	fail("$path:$block_start: --\@each_key without --\@end") if defined $block;
	return $out;
}

my $sql = expand($template, {}, 0);
print "-- Generated by scripts/gen_sql.pl from $template and $keytypes_h: do not edit.\n", $sql;
