/*
 * ktest_fault.c - die in one specific way, so the tests can check that the
 * kernel reports it, ends the job with the right status and survives.
 *
 * usage: ktest_fault KIND   (rank 0 faults; other ranks wait to be killed)
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const unsigned char data_code[] = { 0xC3 };	/* ret, in .rodata */
static unsigned char writable_code[] = { 0xC3 };	/* ret, in .data */

/* Recurse until the stack guard page stops us; the depth limit only
 * exists to keep the compiler from calling this infinite. */
static __attribute__((noinline)) int recurse(volatile long depth)
{
	volatile char pad[4096];

	pad[0] = (char)depth;
	if (depth > (1l << 40))
		return 0;
	return recurse(depth + 1) + pad[0];
}

int main(int argc, char **argv);

static void fault(const char *kind)
{
	if (!strcmp(kind, "null")) {
		volatile int *p = NULL;

		*p = 1;
	} else if (!strcmp(kind, "write-text")) {
		*(volatile unsigned char *)(uintptr_t)main = 0x90;
	} else if (!strcmp(kind, "write-rodata")) {
		*(volatile unsigned char *)data_code = 0x90;
	} else if (!strcmp(kind, "exec-data")) {
		((void (*)(void))(uintptr_t)writable_code)();
	} else if (!strcmp(kind, "kernel-read")) {
		printf("%d\n", *(volatile int *)0xffffffff80100000ul);
	} else if (!strcmp(kind, "kernel-direct-map")) {
		printf("%d\n", *(volatile int *)0xffffff8000100000ul);
	} else if (!strcmp(kind, "noncanonical")) {
		printf("%d\n", *(volatile int *)0x0000900000000000ul);
	} else if (!strcmp(kind, "ud")) {
		__asm__ volatile("ud2");
	} else if (!strcmp(kind, "div")) {
		__asm__ volatile("xor %%edx, %%edx; div %0" : : "r"(0u), "a"(1u) : "rdx");
	} else if (!strcmp(kind, "privileged")) {
		__asm__ volatile("cli");
	} else if (!strcmp(kind, "io-port")) {
		__asm__ volatile("outb %%al, $0x80" : : "a"(0));
	} else if (!strcmp(kind, "stack-overflow")) {
		recurse(0);
	} else if (!strcmp(kind, "smartmap-no-rank")) {
		/* slot 9 = rank 8, which a 2-rank job does not have */
		printf("%d\n", *(volatile int *)((uintptr_t)&writable_code | (9ul << 39)));
	} else if (!strcmp(kind, "abort")) {
		abort();
	} else if (!strcmp(kind, "sigsegv")) {
		raise(SIGSEGV);
	} else {
		fprintf(stderr, "ktest_fault: unknown kind '%s'\n", kind);
		exit(2);
	}
	printf("ktest_fault: %s did not fault\n", kind);
	exit(1);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: ktest_fault KIND\n");
		return 2;
	}
	if (getpid() == 1)
		fault(argv[1]);
	for (;;)
		__asm__ volatile("pause");
}
