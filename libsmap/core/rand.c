/*
 * rand.c - rand() and srand() as glibc has them: the generator of random()
 * and srandom(), one state for all four.  A program that seeds with
 * srandom() and draws with rand() (IOR's random offsets, which every rank
 * must draw alike) gets under musl what it gets under glibc; musl's own
 * rand() is a separate generator that srandom() does not seed.  A static
 * link takes these before musl's; glibc builds need nothing.
 */
#include <stdlib.h>

#ifndef __GLIBC__
int rand(void)
{
	return (int)random();
}

void srand(unsigned seed)
{
	srandom(seed);
}
#endif
