# src/core/modules.awk: the graph of the core's modules, from the
# #include "..." lines of its files, and the check that it is a DAG.
# check-core (core.mk) runs it over every file of src/core:
#
#	awk -v core="NAMES" -f src/core/modules.awk src/core/*.[ch]
#	awk -v core="NAMES" -v mode=print -f src/core/modules.awk src/core/*.[ch]
#
# core: the names of the files of src/core (other includes are not looked
# at here: check-core's first rule refuses them).
#
# A module is a header and the files that implement it.  A file's module:
#	- a header's: its name up to the first "_" or "." (cuckoo_impl.h is
#	  cuckoo's);
#	- a .c file's: the same, when a header of that module exists
#	  (counting_light.c is counting's, cuckoo_list.c cuckoo's); else the
#	  module of the first file of src/core it includes, its own header
#	  (sparse.c and materialize.c include aggstate.h first: aggstate's).
# Module M depends on module N when a file of M includes a header of N.
#
# Fails, naming the files and lines that make each edge, when the modules
# form a cycle (a module that depends, through others, on itself: say,
# format.c including a header that includes the families, whose headers
# include format.h), and when a file of src/core includes core.h, the
# umbrella of the glue.  mode=print: the modules and their edges, one a
# line ("M: files" and "M -> N"), for README.md's picture.

function stem(f,	s)
{
	s = f
	sub(/[_.].*/, "", s)
	return s
}

# the first module in name order of the live targets of m ("" if none)
function next_of(m,	k, o, x, best)
{
	best = ""
	k = split(out[m], o, " ")
	for (x = 1; x <= k; x++)
		if (!(o[x] in gone) && (best == "" || o[x] < best))
			best = o[x]
	return best
}

BEGIN {
	n = split(core, a, " ")
	for (i = 1; i <= n; i++)
	{
		ours[a[i]] = 1
		if (a[i] ~ /\.h$/)
			hdrmod[stem(a[i])] = 1
	}
}

FNR == 1 {
	file = FILENAME
	sub(/.*\//, "", file)
	files[++nf] = file
	path[file] = FILENAME
}

/^[ \t]*#[ \t]*include[ \t]*"/ {
	name = $0
	sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", name)
	sub(/".*/, "", name)
	if (!(name in ours))
		next
	ninc[file]++
	inc[file, ninc[file]] = name
	incline[file, ninc[file]] = FNR
	if (name == "core.h")
	{
		printf "%s:%d: includes core.h, the umbrella of the glue: %s\n", FILENAME, FNR,
			"a file of the core includes the modules it uses" > "/dev/stderr"
		bad = 1
	}
}

END {
	for (i = 1; i <= nf; i++)
	{
		f = files[i]
		if (f ~ /\.h$/ || (stem(f) in hdrmod) || ninc[f] == 0)
			mod[f] = stem(f)
		else
			mod[f] = stem(inc[f, 1])
		nodes[mod[f]] = 1
		members[mod[f]] = members[mod[f]] " " f
	}
	for (i = 1; i <= nf; i++)
	{
		f = files[i]
		for (j = 1; j <= ninc[f]; j++)
		{
			m = mod[f]
			t = stem(inc[f, j])
			if (m == t || ((m, t) in why))
				continue
			why[m, t] = path[f] ":" incline[f, j] ": #include \"" inc[f, j] "\""
			out[m] = out[m] " " t
			nodes[t] = 1
		}
	}
	if (mode == "print")
	{
		for (m in nodes)
		{
			printf "%s:%s\n", m, members[m]
			k = split(out[m], o, " ")
			for (x = 1; x <= k; x++)
				printf "%s -> %s\n", m, o[x]
		}
		exit 0
	}

	# take away the modules that depend on none left, while there are any
	do
	{
		changed = 0
		for (m in nodes)
			if (!(m in gone) && next_of(m) == "")
			{
				gone[m] = 1
				changed = 1
			}
	} while (changed)

	# each module left depends on one left: walk until one comes back
	start = ""
	for (m in nodes)
		if (!(m in gone) && (start == "" || m < start))
			start = m
	if (start != "")
	{
		cur = start
		steps = 0
		while (!(cur in seen))
		{
			seen[cur] = ++steps
			order[steps] = cur
			cur = next_of(cur)
		}
		cycle = cur
		for (s = seen[cur] + 1; s <= steps; s++)
			cycle = cycle " -> " order[s]
		printf "check-core: the modules of src/core form a cycle: %s -> %s\n",
			cycle, cur > "/dev/stderr"
		for (s = seen[cur]; s <= steps; s++)
		{
			t = s < steps ? order[s + 1] : cur
			printf "  %s -> %s: %s\n", order[s], t, why[order[s], t] > "/dev/stderr"
		}
		bad = 1
	}
	exit bad
}
