/*
 * smap_bench.h - what the two SMARTMAP benchmarks share: a helper thread
 * pinned to another CPU, for the in-process comparison host mode prints
 * next to the rank-to-rank figures.
 */
#ifndef SMAP_BENCH_H
#define SMAP_BENCH_H

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <smap.h>

struct bench_thread {
	void *(*fn)(void *);
	void *arg;
	int cpu;
};

static void *bench_pinned(void *p)
{
	struct bench_thread *bt = p;
	cpu_set_t set;

	if (bt->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(bt->cpu, &set);
		sched_setaffinity(0, sizeof set, &set);
	}
	return bt->fn(bt->arg);
}

/* Starts fn(arg) on a thread pinned to `cpu` (-1: anywhere). */
static void bench_on_thread(struct bench_thread *bt, pthread_t *t)
{
	if (pthread_create(t, NULL, bench_pinned, bt) != 0) {
		fprintf(stderr, "smap bench: pthread_create failed\n");
		exit(1);
	}
}

static void bench_need_two(const char *name)
{
	if (smap_size() < 2) {
		if (smap_rank() == 0)
			fprintf(stderr, "%s: needs 2 ranks (lwkrun --host -n 2 %s)\n", name, name);
		exit(2);
	}
}

#endif
