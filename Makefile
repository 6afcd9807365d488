# bloomtype: PGXS build
EXTENSION = bloomtype
MODULE_big = bloomtype
OBJS = bloom_ext.o bloom_keys.o bloom_agg.o bloom_batch.o src/bloom_core.o
DATA = bloomtype--1.0.sql bloomtype--1.0--1.1.sql bloomtype--1.1--1.2.sql
PGFILEDESC = "bloomtype - probabilistic filter data types"

REGRESS = bloom_io bloom_funcs bloom_keys bloom_agg bloom_setops bloom_stats bloom_cache bloom_hostile bloom_batch bloom_scalable bloom_upgrade bloom_trusted

PG_CPPFLAGS = -I$(srcdir) -std=gnu99
SHLIB_LINK = -lm

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS tracks no header dependencies
$(OBJS): src/bloom_core.h bloom_ext.h

# C unit tests of the core (cmocka), no PostgreSQL needed
UNIT_CFLAGS = -O2 -g -Wall -Wextra -I$(srcdir)/src
test/unit/test_core: test/unit/test_core.c src/bloom_core.c src/bloom_core.h
	$(CC) $(UNIT_CFLAGS) -o $@ test/unit/test_core.c src/bloom_core.c -lcmocka -lm

# TAP tests (PostgreSQL::Test::Cluster): they make their own clusters, so
# they run as a user that initdb accepts (scripts/test.sh sees to that).
tap:
	$(prove_installcheck)

unit: test/unit/test_core
	test/unit/test_core

.PHONY: unit tap
