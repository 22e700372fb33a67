/*
 * extent.c - sorted tables of free address ranges, merged on insert: the
 * host page source's free pages (mem.c) and the holes below the break that
 * released symmetric reservations leave (sym.c).
 */
#include "core.h"

void extent_remove(struct extent_table *t, int i)
{
	for (; i + 1 < t->n; i++)
		t->e[i] = t->e[i + 1];
	t->n--;
}

int extent_insert(struct extent_table *t, uintptr_t s, uintptr_t e)
{
	int i = 0, j;

	if (s >= e)
		return 0;
	while (i < t->n && t->e[i].start < s)
		i++;
	if (i > 0 && t->e[i - 1].end == s) {
		t->e[i - 1].end = e;
		if (i < t->n && t->e[i].start == e) {
			t->e[i - 1].end = t->e[i].end;
			extent_remove(t, i);
		}
		return 0;
	}
	if (i < t->n && t->e[i].start == e) {
		t->e[i].start = s;
		return 0;
	}
	if (t->n == t->max)
		return -1;
	for (j = t->n; j > i; j--)
		t->e[j] = t->e[j - 1];
	t->e[i].start = s;
	t->e[i].end = e;
	t->n++;
	return 0;
}
