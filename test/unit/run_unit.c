/*
 * C unit tests of the bloomtype core (cmocka): runs the group of every
 * core module (test_*.c).  Exits non-zero when any test failed.
 */
#include "unit.h"

int
main(void)
{
	int			failed = 0;

	failed += unit_hash_tests();
	failed += unit_sizing_tests();
	failed += unit_format_tests();
	failed += unit_blocked_tests();
	failed += unit_scalable_tests();
	failed += unit_aggstate_tests();
	failed += unit_materialize_tests();
	failed += unit_pagefmt_tests();
	failed += unit_pagemap_tests();
	failed += unit_counting_tests();
	failed += unit_cuckoo_tests();
	failed += unit_sparse_tests();
	failed += unit_cancel_tests();
	failed += unit_lightview_tests();
	failed += unit_light_read_tests();
	failed += unit_value_tests();
	failed += unit_windowed_tests();
	return failed != 0;
}
