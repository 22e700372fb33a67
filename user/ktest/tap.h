/* tap.h - TAP lines for the kernel test programs. */
#ifndef KTEST_TAP_H
#define KTEST_TAP_H

#include <stdio.h>

static int tap_failed;

#define CHECK(name, cond, ...)						\
	do {								\
		if (cond) {						\
			printf("ok %s\n", name);			\
		} else {						\
			printf("not ok %s - ", name);			\
			printf(__VA_ARGS__);				\
			printf("\n");					\
			tap_failed = 1;					\
		}							\
		fflush(stdout);						\
	} while (0)

#endif
