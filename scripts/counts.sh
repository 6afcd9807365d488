# How scripts/test.sh and scripts/pgroot.sh count what a stage printed
# (sourced).  Each function prints "PASSED FAILED" for an output FILE.

# pg_regress: 15 prints "test NAME ... ok" (or "     NAME ... ok" in a
# parallel group), 16 and later TAP lines: "ok 3  - NAME  12 ms", "not ok
# 3 - NAME".  RC is make's exit status: pg_regress stopped without
# counting a failure (say, a missing file) counts one.
count_regress() {
	local file=$1 rc=$2 p f
	p=$(grep -cE '^(test | +)?[a-z0-9_]+ +\.\.\. ok|^ok +[0-9]+ +[-+] +[a-z0-9_]+' "$file")
	f=$(grep -cE '\.\.\. (FAILED|failed)|^not ok +[0-9]+ ' "$file")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	echo "$p $f"
}

# scripts/clients.sh: "clients: ... ok" lines, 9 in all; one it did not
# report (it stopped early) is a failure
count_clients() {
	local file=$1 p f
	p=$(grep -c '^clients: .* \.\.\. ok$' "$file")
	f=$(grep -c '^clients: .* \.\.\. FAILED$' "$file")
	[ "$((p + f))" -lt 9 ] && f=$((9 - p))
	echo "$p $f"
}

# prove, its lines labelled "t/ (PostgreSQL N) NAME.pl .. ok" (a test
# that failed ends "(Wstat: ...)"); prove that ran nothing, or that failed
# (RC, make's exit status) with no test counted as failed, is a failure
count_tap() {
	local file=$1 rc=$2 p f
	p=$(grep -cE '^t/ \(PostgreSQL [0-9]+\) [^ ]+\.pl \.+ ok' "$file")
	f=$(grep -cE '^t/ \(PostgreSQL [0-9]+\) [^ ]+\.pl +\(Wstat' "$file")
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	echo "$p $f"
}

# the compiler's and linker's warnings in a build's output (PGXS prints
# them as FILE:LINE:COL: warning:, or cc1:, <command-line>:, ld:)
build_warnings() {
	grep -E '^[^ ]+:[0-9]+:[0-9]+: warning:|^(cc1|<command-line>|[^ ]*ld): warning:' "$1"
}
