# bloomtype: PGXS build
EXTENSION = bloomtype
# the version the module reports (PG_MODULE_MAGIC_EXT on 18): the control file's
EXT_VERSION := $(shell sed -n "s/^default_version *= *'\\(.*\\)'/\\1/p" $(dir $(lastword $(MAKEFILE_LIST)))bloomtype.control)
MODULE_big = bloomtype

# the core (plain C, no PostgreSQL): its sources (CORE_SRCS), headers
# (CORE_HDRS) and flags (CORE_CFLAGS), and check-core, in one place that
# the tests, fuzzers and benchmarks use too
include $(dir $(lastword $(MAKEFILE_LIST)))src/core/core.mk
# the glue every family shares, then one folder per family; every file
# name is unique (an error's LOCATION keeps only the base name) and its
# prefix says where it is: glue_, bf_, cb_, cf_, bfi_
PG_SRCS = src/pg/glue_keys.c src/pg/glue_memory.c src/pg/glue_cache.c \
	src/pg/glue_io.c src/pg/glue_batch.c src/pg/glue_agg.c \
	src/pg/glue_params.c src/pg/glue_family.c
BLOOM_SRCS = src/bloom/bf_value.c src/bloom/bf_construct.c src/bloom/bf_window.c \
	src/bloom/bf_funcs.c src/bloom/bf_batch.c src/bloom/bf_agg.c \
	src/bloom/bf_legacy.c
COUNTING_SRCS = src/counting/cb_value.c src/counting/cb_funcs.c \
	src/counting/cb_batch.c src/counting/cb_agg.c src/counting/cb_family.c
CUCKOO_SRCS = src/cuckoo/cf_value.c src/cuckoo/cf_funcs.c \
	src/cuckoo/cf_batch.c src/cuckoo/cf_agg.c src/cuckoo/cf_family.c
# the index access method, on its own
AM_SRCS = src/am/bfi_handler.c src/am/bfi_pages.c src/am/bfi_build.c \
	src/am/bfi_insert.c src/am/bfi_pending.c src/am/bfi_older.c src/am/bfi_wal.c \
	src/am/bfi_validate.c src/am/bfi_access.c \
	src/am/bfi_citus.c src/am/bfi_route.c src/am/bfi_site.c src/am/bfi_read.c \
	src/am/bfi_funcs.c src/am/bfi_log.c src/am/bfi_sync.c

OBJS = bloom_ext.o $(PG_SRCS:.c=.o) $(BLOOM_SRCS:.c=.o) $(AM_SRCS:.c=.o) \
	$(COUNTING_SRCS:.c=.o) $(CUCKOO_SRCS:.c=.o) \
	$(CORE_SRCS:.c=.o)
DATA = bloomtype--1.0.sql bloomtype--1.0--1.1.sql bloomtype--1.1--1.2.sql \
	bloomtype--1.2--1.3.sql bloomtype--1.3--1.4.sql bloomtype--1.4--1.5.sql \
	bloomtype--1.5--1.6.sql bloomtype--1.6--1.7.sql bloomtype--1.7--1.8.sql
DATA_built = bloomtype--1.8.sql
PGFILEDESC = "bloomtype - probabilistic filter data types"

REGRESS = bloom_io bloom_install bloom_module bloom_funcs bloom_keys bloom_agg bloom_setops bloom_stats bloom_cache bloom_memory bloom_hostile bloom_batch bloom_scalable bloom_am bloom_am_plans bloom_am_bulk bloom_am_errors bloom_am_partition bloom_am_cache bloom_am_flood counting_funcs cuckoo_funcs forget_agg forget_random counting_hostile cuckoo_hostile bloom_upgrade bloom_trusted bloom_cancel bloom_window bloom_window_index bloom_sync

PG_CPPFLAGS = $(CORE_CFLAGS) -I$(srcdir)/src/pg -I$(srcdir)/src/am \
	-I$(srcdir)/src/counting -I$(srcdir)/src/cuckoo \
	-DBLOOMTYPE_VERSION='"$(EXT_VERSION)"'
SHLIB_LINK = -lm

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# a build outside the source tree (VPATH=..., as Debian's pg_buildext
# builds each version in build-NN) puts the objects in folders of its own,
# made here (a rule for them would find the source tree's through VPATH)
ifneq ($(srcdir),.)
$(shell mkdir -p $(sort $(dir $(OBJS))))
endif

# the install script of the newest version, from the per-family SQL
# fragments and the key types (scripts/gen_sql.pl says how; PGXS sets
# .DELETE_ON_ERROR, so a failed run leaves no script behind)
SQL_FRAGMENTS = $(addprefix $(srcdir)/,src/pg/bloomtype.sql.in src/pg/type.sql.in \
	src/bloom/bloomfilter.sql.in src/bloom/window.sql.in src/am/bloomindex.sql.in src/am/sync.sql.in \
	src/counting/countingbloom.sql.in src/cuckoo/cuckoofilter.sql.in)
bloomtype--1.8.sql: $(srcdir)/scripts/gen_sql.pl $(srcdir)/src/pg/keytypes.h $(SQL_FRAGMENTS)
	$(PERL) $(srcdir)/scripts/gen_sql.pl $(srcdir)/src/pg/keytypes.h \
		$(srcdir)/src/pg/bloomtype.sql.in > $@

# PGXS tracks no header dependencies
# (and the JIT bitcode PGXS installs beside them)
$(OBJS) $(OBJS:.o=.bc): $(CORE_HDRS) $(wildcard $(srcdir)/src/pg/*.h) \
	$(wildcard $(srcdir)/src/bloom/*.h) $(wildcard $(srcdir)/src/am/*.h) \
	$(wildcard $(srcdir)/src/counting/*.h) $(wildcard $(srcdir)/src/cuckoo/*.h)
# no object is built while a file of the core includes a PostgreSQL header
$(OBJS) $(OBJS:.o=.bc): | check-core

# C unit tests of the core (cmocka), no PostgreSQL needed: one file per
# core module, one binary
UNIT_CFLAGS = -O2 -g -Wall -Wextra $(CORE_CFLAGS)
UNIT_SRCS = $(srcdir)/test/unit/run_unit.c $(wildcard $(srcdir)/test/unit/test_*.c)
test/unit/run_unit: $(UNIT_SRCS) $(wildcard $(srcdir)/test/unit/*.h) $(srcdir)/test/malloc_alloc.h \
		$(addprefix $(srcdir)/,$(CORE_SRCS)) $(CORE_HDRS) | check-core
	$(CC) $(UNIT_CFLAGS) -o $@ $(UNIT_SRCS) $(addprefix $(srcdir)/,$(CORE_SRCS)) -lcmocka -lm

# TAP tests (PostgreSQL::Test::Cluster): they make their own clusters, so
# they run as a user that initdb accepts (scripts/test.sh sees to that).
tap:
	$(prove_installcheck)

unit: test/unit/run_unit
	test/unit/run_unit

# the release archive PGXN takes (scripts/dist.sh): bloomtype-VERSION.zip
dist:
	PG_CONFIG=$(PG_CONFIG) bash $(srcdir)/scripts/dist.sh

.PHONY: unit tap dist
