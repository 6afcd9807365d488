# src/core/core.mk: what the core is and how it is compiled, for every
# build of it.  The core is the filter algorithms in plain C; it includes
# no PostgreSQL header (check-core below sees to that).
#
# The Makefile includes this file (PGXS compiles the module and
# test/unit/run_unit from it); the scripts that compile the core on their
# own (scripts/fuzz.sh, bench/*.sh) ask it, from the repository's root:
#	make -s --no-print-directory -f src/core/core.mk print-core-srcs
#	make -s --no-print-directory -f src/core/core.mk print-core-cflags
#	make -s --no-print-directory -f src/core/core.mk check-core
#	make -s --no-print-directory -f src/core/core.mk print-core-modules

# the core's folder: under PGXS $(srcdir) (set for VPATH builds too),
# src/core from the repository's root otherwise
CORE_DIR = $(patsubst ./%,%,$(if $(srcdir),$(patsubst %/,%,$(srcdir))/src/core,src/core))

# the sources, relative to the repository's root (PGXS makes objects of
# them beside the module's): a new file of the core is added here
CORE_SRCS = src/core/format.c src/core/sizing.c src/core/blocked.c \
	src/core/hashlist.c src/core/kinds.c \
	src/core/scalable.c src/core/aggstate.c src/core/distinct.c \
	src/core/materialize.c src/core/pagefmt.c src/core/counting.c \
	src/core/cuckoo_format.c src/core/cuckoo.c src/core/sparse.c \
	src/core/counting_light.c src/core/lightview.c src/core/cuckoo_list.c \
	src/core/counting_value.c src/core/cuckoo_value.c src/core/windowed.c
CORE_HDRS = $(wildcard $(CORE_DIR)/*.h)

# what compiling the core needs, whoever compiles it
CORE_CFLAGS = -std=gnu99 -I$(CORE_DIR)

# PostgreSQL's headers, which the core must not include: the top-level ones
# (pg_*.h and pl*.h by their prefix) and the folders of the server's
# include tree; under PGXS, anything else found in that tree
# ($(includedir_server)) counts too
CORE_PG_HEADERS = postgres.h postgres_ext.h postgres_fe.h c.h fmgr.h \
	funcapi.h miscadmin.h pgstat.h pgtar.h pgtime.h port.h varatt.h \
	windowapi.h getaddrinfo.h getopt_long.h rusagestub.h ppport.h \
	libpq-fe.h libpq-events.h
CORE_PG_DIRS = access archive backup bootstrap catalog commands common \
	datatype executor extension fe_utils foreign internal jit lib libpq mb \
	nodes optimizer parser partitioning port portability postmaster regex \
	replication rewrite snowball statistics storage tcop tsearch utils

# the targets below leave the including makefile's default goal alone
core_saved_goal := $(.DEFAULT_GOAL)

print-core-srcs:
	@echo $(CORE_SRCS)

print-core-cflags:
	@echo $(CORE_CFLAGS)

# Fails, naming file and line, when a file of the core includes anything
# but a file of src/core ("name.h", no folder) or a C standard or system
# header (<name.h>) that is not PostgreSQL's nor the glue's; when a .c
# file of src/core is missing from CORE_SRCS; and when the core's modules,
# as their #include lines link them, form a cycle, or a file of the core
# includes core.h (modules.awk says what a module is).  The module's
# objects and the unit tests are built after it.
check-core:
	@awk -v core="$(notdir $(wildcard $(CORE_DIR)/*.[ch]))" \
		-v listed="$(notdir $(CORE_SRCS))" \
		-v pgh="$(CORE_PG_HEADERS)" -v pgd="$(CORE_PG_DIRS)" \
		-v glue="$(filter-out $(notdir $(CORE_HDRS)),$(notdir $(wildcard $(CORE_DIR)/../*/*.h)))" \
		-v pginc="$(includedir_server)" ' \
	BEGIN { \
		n = split(core, a, " "); for (i = 1; i <= n; i++) ours[a[i]] = 1; \
		n = split(pgh, a, " "); for (i = 1; i <= n; i++) pg[a[i]] = 1; \
		n = split(pgd, a, " "); for (i = 1; i <= n; i++) pgdir[a[i]] = 1; \
		n = split(glue, a, " "); for (i = 1; i <= n; i++) gl[a[i]] = 1; \
		n = split(listed, a, " "); for (i = 1; i <= n; i++) inlist[a[i]] = 1; \
		for (f in ours) \
			if (f ~ /\.c$$/ && !(f in inlist)) { \
				printf "check-core: src/core/%s is not in CORE_SRCS (src/core/core.mk)\n", f > "/dev/stderr"; bad = 1 \
			} \
	} \
	/^[ \t]*#[ \t]*include/ { \
		arg = $$0; sub(/^[ \t]*#[ \t]*include[ \t]*/, "", arg); why = ""; \
		quoted = arg ~ /^"/; name = substr(arg, 2); \
		if (quoted) sub(/".*/, "", name); else sub(/>.*/, "", name); \
		top = name; hasdir = sub(/\/.*/, "", top); base = name; sub(/.*\//, "", base); \
		if (!quoted && arg !~ /^</) why = "neither <header> nor \"file of src/core\""; \
		else if (quoted && !hasdir && (name in ours)) why = ""; \
		else if ((hasdir && (top in pgdir)) || (base in pg) || base ~ /^pg_/ || base ~ /^pl[a-z_]*\.h$$/) why = "a PostgreSQL header"; \
		else if (pginc != "" && system("test -e \"" pginc "/" name "\"") == 0) why = "a PostgreSQL header"; \
		else if (base in gl) why = "a header of the glue (src/pg, src/am, a family)"; \
		else if (quoted) why = "not a file of src/core"; \
		if (why != "") { \
			line = $$0; sub(/^[ \t]+/, "", line); \
			printf "%s:%d: %s: %s; the core includes only its own files and C or system headers\n", FILENAME, FNR, line, why > "/dev/stderr"; \
			bad = 1 \
		} \
	} \
	END { exit bad }' $(sort $(wildcard $(CORE_DIR)/*.[ch])) || \
		{ echo "check-core: src/core must not depend on PostgreSQL (see above)" >&2; exit 1; }
	@awk -v core="$(notdir $(wildcard $(CORE_DIR)/*.[ch]))" -f $(CORE_DIR)/modules.awk \
		$(sort $(wildcard $(CORE_DIR)/*.[ch])) || \
		{ echo "check-core: the modules of src/core must form a DAG (README.md, \"Layout of the source\")" >&2; exit 1; }

# The modules of the core and the edges between them, one a line
# ("module: files", "module -> module it includes"), as check-core sees them
print-core-modules:
	@awk -v core="$(notdir $(wildcard $(CORE_DIR)/*.[ch]))" -v mode=print \
		-f $(CORE_DIR)/modules.awk $(sort $(wildcard $(CORE_DIR)/*.[ch])) | LC_ALL=C sort

.PHONY: print-core-srcs print-core-cflags print-core-modules check-core
.DEFAULT_GOAL := $(core_saved_goal)
