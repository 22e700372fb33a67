/*
 * param.h - boot tunables.  Each option is declared next to the code that
 * uses it with KPARAM(); the linker gathers them in .kparam, the command
 * line parser (cmdline.c) sets them, and tools/gen-params builds the
 * reference in docs/cmdline.md from the same declarations.
 */
#ifndef PARAM_H
#define PARAM_H

#include <stdint.h>

enum param_type {
	PARAM_BOOL,	/* bare name sets 1; name=0/1/yes/no/on/off */
	PARAM_UINT,	/* decimal or 0x hex, into a uint64_t */
	PARAM_SIZE,	/* bytes with optional K/M/G suffix, into a uint64_t */
	PARAM_STR,	/* pointer into the command line, into a const char * */
	PARAM_FUNC,	/* int fn(const char *value): 0 or -EINVAL */
};

struct kparam {
	const char *name;
	enum param_type type;
	void *var;
	const char *help;
};

#define KPARAM(nm, ty, v, hlp)						\
	static const struct kparam kparam_##nm				\
	__attribute__((used, section(".kparam"), aligned(8))) =		\
		{ #nm, ty, (void *)(v), hlp }

#endif
