/*
 * mpi_match_test.c - host unit tests of MPI message matching
 * (libsmap/mpi/match.c): MPI's ordering rules for posted receives and
 * unexpected messages, wildcards, probe, cancel of a receive and the drop
 * of a cancelled send's unexpected message.
 */
#include <stdio.h>
#include "../../libsmap/mpi/match.h"

static int failed;

static void expect(const char *name, const void *want, const void *got)
{
	if (want == got) {
		printf("ok %s\n", name);
		return;
	}
	printf("not ok %s - expected entry %p, got %p\n", name, want, got);
	failed = 1;
}

static struct match_entry *entry(struct match_entry *e, int src, int tag)
{
	e->src = src;
	e->tag = tag;
	return e;
}

static void test_posted_for_source_matches_first(void)
{
	struct match_ctx m;
	struct match_entry a, b;

	match_init(&m, 4);
	match_post(&m, entry(&a, 2, 7));
	match_post(&m, entry(&b, 2, 7));
	expect("posted_receives_match_in_posting_order", &a, match_arrive(&m, 2, 7));
	expect("second_message_takes_second_receive", &b, match_arrive(&m, 2, 7));
	expect("no_receive_left_gives_null", NULL, match_arrive(&m, 2, 7));
	match_destroy(&m);
}

static void test_any_source_posted_earlier_wins(void)
{
	struct match_ctx m;
	struct match_entry any, spec;

	match_init(&m, 4);
	match_post(&m, entry(&any, MATCH_ANY, 5));
	match_post(&m, entry(&spec, 1, 5));
	expect("earlier_any_source_receive_wins", &any, match_arrive(&m, 1, 5));
	expect("later_specific_receive_takes_next", &spec, match_arrive(&m, 1, 5));
	match_post(&m, entry(&spec, 1, 5));
	match_post(&m, entry(&any, MATCH_ANY, 5));
	expect("earlier_specific_receive_wins", &spec, match_arrive(&m, 1, 5));
	match_destroy(&m);
}

static void test_tags(void)
{
	struct match_ctx m;
	struct match_entry a, b, any;

	match_init(&m, 2);
	match_post(&m, entry(&a, 0, 1));
	match_post(&m, entry(&b, 0, 2));
	expect("tag_skips_nonmatching_receive", &b, match_arrive(&m, 0, 2));
	expect("other_source_does_not_match", NULL, match_arrive(&m, 1, 1));
	match_post(&m, entry(&any, 1, MATCH_ANY));
	expect("any_tag_matches", &any, match_arrive(&m, 1, 99));
	match_destroy(&m);
}

static void test_unexpected(void)
{
	struct match_ctx m;
	struct match_entry x, y, z;

	match_init(&m, 3);
	match_keep(&m, entry(&x, 2, 4));
	match_keep(&m, entry(&y, 0, 4));
	match_keep(&m, entry(&z, 2, 4));
	expect("probe_does_not_remove", &x, match_find(&m, 2, 4, 0));
	expect("receive_for_source_takes_its_first", &x, match_find(&m, 2, MATCH_ANY, 1));
	expect("any_source_takes_earliest_arrival", &y, match_find(&m, MATCH_ANY, 4, 1));
	expect("tag_mismatch_finds_nothing", NULL, match_find(&m, 2, 5, 1));
	expect("last_message_left", &z, match_find(&m, MATCH_ANY, MATCH_ANY, 1));
	expect("empty_after_all_taken", NULL, match_find(&m, MATCH_ANY, MATCH_ANY, 1));
	match_destroy(&m);
}

static void test_cancel(void)
{
	struct match_ctx m;
	struct match_entry a, b;

	match_init(&m, 2);
	match_post(&m, entry(&a, 1, 3));
	match_post(&m, entry(&b, 1, 3));
	match_cancel(&m, &a);
	expect("cancelled_receive_never_matches", &b, match_arrive(&m, 1, 3));
	match_destroy(&m);
}

static int is_entry(const struct match_entry *e, const void *arg)
{
	return e == arg;
}

static void test_drop(void)
{
	struct match_ctx m;
	struct match_entry x, y, z;

	match_init(&m, 3);
	match_keep(&m, entry(&x, 1, 4));
	match_keep(&m, entry(&y, 1, 4));
	match_keep(&m, entry(&z, 2, 4));
	expect("drop_removes_the_message_picked", &y, match_drop(&m, 1, is_entry, &y));
	expect("drop_of_a_message_not_there", NULL, match_drop(&m, 1, is_entry, &y));
	expect("drop_looks_at_its_source_only", NULL, match_drop(&m, 1, is_entry, &z));
	expect("a_source_receive_skips_the_dropped", &x, match_find(&m, 1, 4, 1));
	expect("the_source_has_none_left", NULL, match_find(&m, 1, 4, 1));
	expect("any_source_skips_the_dropped", &z, match_find(&m, MATCH_ANY, 4, 1));
	match_destroy(&m);
}

int main(void)
{
	test_posted_for_source_matches_first();
	test_any_source_posted_earlier_wins();
	test_tags();
	test_unexpected();
	test_cancel();
	test_drop();
	return failed;
}
