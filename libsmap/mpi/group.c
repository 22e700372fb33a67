/*
 * group.c - process groups: ordered lists of MPI_COMM_WORLD ranks.
 */
#include <stdlib.h>
#include <string.h>
#include "impl.h"

struct smpi_group smpi_group_empty = { SMPI_LIVE_GROUP, 1, 1, 0, MPI_UNDEFINED, NULL, NULL };

struct smpi_group *smpi_group_new(int n, const int *world)
{
	struct smpi_group *g = calloc(1, sizeof *g + n * sizeof(int));
	int me = smap_world_rank(), i;

	if (!g)
		return NULL;
	g->live = SMPI_LIVE_GROUP;
	g->refs = 1;
	g->size = n;
	g->rank = MPI_UNDEFINED;
	g->world = (int *)(g + 1);
	memcpy(g->world, world, n * sizeof(int));
	for (i = 0; i < n; i++)
		if (world[i] == me)
			g->rank = i;
	return g;
}

void smpi_group_release(struct smpi_group *g)
{
	if (!g->predefined && --g->refs == 0) {
		g->live = 0;
		free(g);
	}
}

static int group_check(MPI_Group g, const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)))
		return err;
	if (g == MPI_GROUP_NULL)
		return smpi_err(NULL, MPI_ERR_GROUP, fn, "group is MPI_GROUP_NULL");
	if (!smpi_live(g, SMPI_LIVE_GROUP))
		return smpi_err(NULL, MPI_ERR_GROUP, fn,
				"group %p is not a live group (garbage, freed, or another handle)",
				(void *)g);
	return MPI_SUCCESS;
}

/* A group check, then a NULL output pointer: MPI_ERR_ARG. */
static int group_check_out(MPI_Group g, const void *out, const char *fn)
{
	int err;

	if ((err = group_check(g, fn)))
		return err;
	if (!out)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "NULL output argument");
	return MPI_SUCCESS;
}

/* Group rank of world rank w in g, or MPI_UNDEFINED. */
static int group_find(MPI_Group g, int w)
{
	int i;

	for (i = 0; i < g->size; i++)
		if (g->world[i] == w)
			return i;
	return MPI_UNDEFINED;
}

/* A group made from another keeps its session. */
static int group_make(MPI_Group from, int n, const int *world, MPI_Group *out, const char *fn)
{
	if (n == 0) {
		*out = MPI_GROUP_EMPTY;
		return MPI_SUCCESS;
	}
	*out = smpi_group_new(n, world);
	if (!*out)
		return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory for a group of %d", n);
	(*out)->session = from->session;
	return MPI_SUCCESS;
}

int PMPI_Group_size(MPI_Group group, int *size)
{
	int err;

	if ((err = group_check_out(group, size, "MPI_Group_size")))
		return err;
	*size = group->size;
	return MPI_SUCCESS;
}

int PMPI_Group_rank(MPI_Group group, int *rank)
{
	int err;

	if ((err = group_check_out(group, rank, "MPI_Group_rank")))
		return err;
	*rank = group->rank;
	return MPI_SUCCESS;
}

/* Checks n distinct valid ranks of g; returns their marks in `seen`. */
static int group_ranks_check(MPI_Group g, int n, const int *ranks, char *seen, const char *fn)
{
	int i;

	if (n < 0 || n > g->size)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "n = %d for a group of %d", n, g->size);
	for (i = 0; i < n; i++) {
		if (ranks[i] < 0 || ranks[i] >= g->size)
			return smpi_err(NULL, MPI_ERR_RANK, fn, "rank %d is not in a group of %d",
					ranks[i], g->size);
		if (seen[ranks[i]])
			return smpi_err(NULL, MPI_ERR_RANK, fn, "rank %d is listed twice", ranks[i]);
		seen[ranks[i]] = 1;
	}
	return MPI_SUCCESS;
}

static int group_select(MPI_Group g, int n, const int *ranks, int excl, MPI_Group *out,
			const char *fn)
{
	char *seen;
	int *w, i, k = 0, err;

	if ((err = group_check(g, fn)))
		return err;
	if (!out || (n && !ranks))
		return smpi_err(NULL, MPI_ERR_ARG, fn, "NULL argument");
	seen = calloc(g->size + 1, 1);
	w = malloc((g->size + 1) * sizeof *w);
	if (!seen || !w) {
		free(seen);
		free(w);
		return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory");
	}
	err = group_ranks_check(g, n, ranks, seen, fn);
	if (!err) {
		if (excl) {
			for (i = 0; i < g->size; i++)
				if (!seen[i])
					w[k++] = g->world[i];
		} else {
			for (i = 0; i < n; i++)
				w[k++] = g->world[ranks[i]];
		}
		err = group_make(g, k, w, out, fn);
	}
	free(seen);
	free(w);
	return err;
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
	return group_select(group, n, ranks, 0, newgroup, "MPI_Group_incl");
}

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
	return group_select(group, n, ranks, 1, newgroup, "MPI_Group_excl");
}

/* Expands (first, last, stride) triplets into a rank list. */
static int group_ranges(MPI_Group g, int n, int ranges[][3], int **out, int *count,
			const char *fn)
{
	int i, r, k = 0, *list;

	if ((r = group_check(g, fn)))
		return r;
	if (n < 0 || (n && !ranges))
		return smpi_err(NULL, MPI_ERR_ARG, fn, "n = %d, or ranges NULL", n);
	list = malloc((g->size + 1) * sizeof *list);
	if (!list)
		return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory");
	for (i = 0; i < n; i++) {
		int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];

		if (stride == 0 || (last - first) / stride < 0) {
			free(list);
			return smpi_err(NULL, MPI_ERR_ARG, fn, "range %d (%d, %d, %d) is empty or endless",
					i, first, last, stride);
		}
		for (r = first; stride > 0 ? r <= last : r >= last; r += stride) {
			if (k >= g->size) {
				free(list);
				return smpi_err(NULL, MPI_ERR_RANK, fn, "ranges list more ranks than the group has");
			}
			list[k++] = r;
		}
	}
	*out = list;
	*count = k;
	return MPI_SUCCESS;
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
	int *list, k, err;

	if ((err = group_ranges(group, n, ranges, &list, &k, "MPI_Group_range_incl")))
		return err;
	err = group_select(group, k, list, 0, newgroup, "MPI_Group_range_incl");
	free(list);
	return err;
}

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
	int *list, k, err;

	if ((err = group_ranges(group, n, ranges, &list, &k, "MPI_Group_range_excl")))
		return err;
	err = group_select(group, k, list, 1, newgroup, "MPI_Group_range_excl");
	free(list);
	return err;
}

int PMPI_Group_translate_ranks(MPI_Group g1, int n, const int ranks1[], MPI_Group g2, int ranks2[])
{
	int i, err;

	if ((err = group_check(g1, "MPI_Group_translate_ranks")) ||
	    (err = group_check(g2, "MPI_Group_translate_ranks")))
		return err;
	if (n < 0 || (n && (!ranks1 || !ranks2)))
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Group_translate_ranks",
				"n = %d, or a NULL rank array", n);
	for (i = 0; i < n; i++) {
		if (ranks1[i] == MPI_PROC_NULL) {
			ranks2[i] = MPI_PROC_NULL;
			continue;
		}
		if (ranks1[i] < 0 || ranks1[i] >= g1->size)
			return smpi_err(NULL, MPI_ERR_RANK, "MPI_Group_translate_ranks",
					"rank %d is not in a group of %d", ranks1[i], g1->size);
		ranks2[i] = group_find(g2, g1->world[ranks1[i]]);
	}
	return MPI_SUCCESS;
}

int PMPI_Group_compare(MPI_Group g1, MPI_Group g2, int *result)
{
	int i, err;

	if ((err = group_check(g1, "MPI_Group_compare")) ||
	    (err = group_check_out(g2, result, "MPI_Group_compare")))
		return err;
	if (g1->size != g2->size) {
		*result = MPI_UNEQUAL;
		return MPI_SUCCESS;
	}
	*result = MPI_IDENT;
	for (i = 0; i < g1->size; i++)
		if (g1->world[i] != g2->world[i])
			*result = MPI_SIMILAR;
	if (*result == MPI_SIMILAR)
		for (i = 0; i < g1->size; i++)
			if (group_find(g2, g1->world[i]) == MPI_UNDEFINED)
				*result = MPI_UNEQUAL;
	return MPI_SUCCESS;
}

/* op 0: union, 1: intersection, 2: difference; order of g1 first. */
static int group_setop(MPI_Group g1, MPI_Group g2, int op, MPI_Group *out, const char *fn)
{
	int *w, i, k = 0, err;

	if ((err = group_check(g1, fn)) || (err = group_check_out(g2, out, fn)))
		return err;
	w = malloc((g1->size + g2->size + 1) * sizeof *w);
	if (!w)
		return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory");
	for (i = 0; i < g1->size; i++) {
		int in2 = group_find(g2, g1->world[i]) != MPI_UNDEFINED;

		if (op == 0 || (op == 1 && in2) || (op == 2 && !in2))
			w[k++] = g1->world[i];
	}
	if (op == 0)
		for (i = 0; i < g2->size; i++)
			if (group_find(g1, g2->world[i]) == MPI_UNDEFINED)
				w[k++] = g2->world[i];
	err = group_make(g1->session ? g1 : g2, k, w, out, fn);
	free(w);
	return err;
}

int PMPI_Group_union(MPI_Group g1, MPI_Group g2, MPI_Group *newgroup)
{
	return group_setop(g1, g2, 0, newgroup, "MPI_Group_union");
}

int PMPI_Group_intersection(MPI_Group g1, MPI_Group g2, MPI_Group *newgroup)
{
	return group_setop(g1, g2, 1, newgroup, "MPI_Group_intersection");
}

int PMPI_Group_difference(MPI_Group g1, MPI_Group g2, MPI_Group *newgroup)
{
	return group_setop(g1, g2, 2, newgroup, "MPI_Group_difference");
}

int PMPI_Group_free(MPI_Group *group)
{
	int err;

	if (!group)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Group_free", "NULL argument");
	if ((err = group_check(*group, "MPI_Group_free")))
		return err;
	smpi_group_release(*group);
	*group = MPI_GROUP_NULL;
	return MPI_SUCCESS;
}

SMPI_ALIAS(Group_size)
SMPI_ALIAS(Group_rank)
SMPI_ALIAS(Group_incl)
SMPI_ALIAS(Group_excl)
SMPI_ALIAS(Group_range_incl)
SMPI_ALIAS(Group_range_excl)
SMPI_ALIAS(Group_translate_ranks)
SMPI_ALIAS(Group_compare)
SMPI_ALIAS(Group_union)
SMPI_ALIAS(Group_intersection)
SMPI_ALIAS(Group_difference)
SMPI_ALIAS(Group_free)
