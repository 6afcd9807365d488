#!/usr/bin/env bash
# The release metadata, checked (scripts/test.sh): META.json holds what
# PGXN's META spec 1.0.0 requires (https://pgxn.org/spec/: name, abstract,
# maintainer, license, version as semver, provides with a file and a
# version for each extension, meta-spec), and the versions agree: META.json,
# its provides, debian/changelog's upstream version, and bloomtype.control's
# default_version as META.json's major.minor.  Then scripts/dist.sh makes
# the archive of COMMIT and its contents are checked: one folder, the
# install script "provides" names, META.json, LICENSE, the control file, the
# Makefile, the suites, debian/.
#
#   bash scripts/release_check.sh COMMIT DIR    the archive made in DIR
#
# One "release: ... ok" or "... FAILED" line a check (5 in all).
set -uo pipefail
cd "$(dirname "$0")/.."
rev=$1
out=$2/bloomtype-$(git show "$rev:META.json" | perl -MJSON::PP -e 'local $/; print decode_json(<STDIN>)->{version}').zip
step() {
	local what=$1
	shift
	if "$@"; then echo "release: $what ... ok"; else echo "release: $what ... FAILED"; fi
}
meta_valid() {
	git show "$rev:META.json" | perl -MJSON::PP -e '
		local $/; my $m = eval { decode_json(<STDIN>) } or die "META.json: not JSON: $@";
		my @bad;
		for my $k (qw(name abstract maintainer license version provides meta-spec)) {
			push @bad, "no $k" unless defined $m->{$k};
		}
		my $semver = qr/^\d+\.\d+\.\d+$/;
		push @bad, "version $m->{version} is not semver" unless ($m->{version} // "") =~ $semver;
		push @bad, "meta-spec version is not 1.0.0" unless ($m->{"meta-spec"}{version} // "") eq "1.0.0";
		push @bad, "license $m->{license} is not postgresql" unless ($m->{license} // "") eq "postgresql";
		for my $e (sort keys %{ $m->{provides} // {} }) {
			my $p = $m->{provides}{$e};
			push @bad, "provides $e: no file" unless $p->{file};
			push @bad, "provides $e: version $p->{version} is not semver" unless ($p->{version} // "") =~ $semver;
		}
		die join("; ", @bad) . "\n" if @bad;'
}
versions_agree() {
	local meta provides deb control
	meta=$(git show "$rev:META.json" | perl -MJSON::PP -e 'local $/; print decode_json(<STDIN>)->{version}')
	provides=$(git show "$rev:META.json" | perl -MJSON::PP -e 'local $/; print decode_json(<STDIN>)->{provides}{bloomtype}{version}')
	deb=$(git show "$rev:debian/changelog" | sed -n '1s/^bloomtype (\([^-)]*\)-[^)]*).*/\1/p')
	control=$(git show "$rev:bloomtype.control" | sed -n "s/^default_version *= *'\(.*\)'/\1/p")
	echo "META.json $meta, provides $provides, debian/changelog $deb, default_version $control"
	[ "$meta" = "$provides" ] && [ "$meta" = "$deb" ] && [ "${meta%.*}" = "$control" ]
}
dist_made() {
	bash scripts/dist.sh "$rev" "$out" >/dev/null
}
dist_contents() {
	local list name script f
	name=$(basename "$out" .zip)
	script=$(git show "$rev:META.json" | perl -MJSON::PP -e 'local $/; print decode_json(<STDIN>)->{provides}{bloomtype}{file}')
	list=$(unzip -Z1 "$out") || return 1
	# one top folder, NAME-VERSION
	[ -z "$(echo "$list" | grep -v "^$name/")" ] || { echo "files outside $name/"; return 1; }
	for f in "$script" META.json LICENSE README.md bloomtype.control Makefile bloom_ext.c \
		sql/bloom_io.sql expected/bloom_io.out debian/control.in debian/rules debian/tests/installcheck; do
		# (a here-string: under pipefail, echo into a grep -q that stops
		# at its first match can die of SIGPIPE and fail the pipe)
		grep -qx "$name/$f" <<<"$list" || { echo "$out: no $f"; return 1; }
	done
}
step "META.json holds what PGXN's spec requires" meta_valid
step "the versions agree" versions_agree
step "scripts/dist.sh makes $(basename "$out")" dist_made
step "the archive holds the install script, metadata, sources, suites and debian/" dist_contents
# every file of the commit is in the archive (the same count, plus the script)
step "the archive holds every file of the commit" \
	test "$(unzip -Z1 "$out" | grep -vc '/$')" -eq "$(( $(git ls-tree -r --name-only "$rev" | wc -l) + 1 ))"
