/*
 * cmdline.h - the kernel command line: global options (the KPARAM table),
 * then zero or more jobs, each opened by job=MODULE and described by the
 * job keys that follow it:
 *
 *   quiet tag exit=poweroff job=hello np=4 arg=-v arg="two words" env=K=V
 *
 * Values may be double-quoted.  The parser works on a private copy and is
 * pure: the host unit tests run the same code.
 */
#ifndef CMDLINE_H
#define CMDLINE_H

#include <stddef.h>
#include <stdint.h>
#include "param.h"

#define CMDLINE_MAX		4096
#define JOB_MAX			32
#define JOB_ARGS_MAX		64
#define JOB_ENV_MAX		64
#define JOB_NP_ALL		0	/* one rank on every online CPU */

struct job_spec {
	const char *module;	/* module name: basename of its multiboot string */
	unsigned np;		/* ranks; 1 if not given, JOB_NP_ALL for np=all */
	uint64_t mem;		/* bytes per rank; 0 means an even share */
	uint64_t stack;		/* bytes of stack; 0 means the global default */
	uint64_t time;		/* wall-time limit in seconds; 0 means none */
	unsigned argc;		/* arguments after argv[0] */
	const char *argv[JOB_ARGS_MAX];
	unsigned envc;
	const char *envp[JOB_ENV_MAX];
};

struct cmdline {
	char buf[CMDLINE_MAX];
	unsigned njobs;
	struct job_spec jobs[JOB_MAX];
	unsigned nwarn;		/* unknown options (warned, ignored) */
};

/*
 * Parse `text` into `cl`, setting the options in params[0..nparams).
 * Unknown options are warned about and skipped; malformed values, job keys
 * outside a job and overflowing limits are errors.  Returns 0, or -1 after
 * printing a one-line error.
 */
int cmdline_parse(struct cmdline *cl, const char *text,
		  const struct kparam *params, size_t nparams);

/* "64M" -> bytes; -1 on malformed input.  Shared with the job keys. */
int parse_size(const char *s, uint64_t *out);
int parse_uint(const char *s, uint64_t *out);

#endif
