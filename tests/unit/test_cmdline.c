/* test_cmdline.c - the kernel command line: options, values, quoting, jobs,
 * and every kind of mistake. */
#include <stdint.h>
#include <stdlib.h>
#include "cmdline.h"
#include "unit.h"

static uint64_t opt_bool, opt_uint, opt_size;
static const char *opt_str;
static char func_seen[64];

static int opt_func(const char *v)
{
	if (!strcmp(v, "bad"))
		return -22;
	snprintf(func_seen, sizeof(func_seen), "%s", v);
	return 0;
}

static const struct kparam params[] = {
	{ "quiet", PARAM_BOOL, &opt_bool, "" },
	{ "port", PARAM_UINT, &opt_uint, "" },
	{ "kmem", PARAM_SIZE, &opt_size, "" },
	{ "console", PARAM_STR, &opt_str, "" },
	{ "exit", PARAM_FUNC, (void *)opt_func, "" },
};

static struct cmdline cl;

static int parse(const char *s)
{
	opt_bool = opt_uint = opt_size = 0;
	opt_str = NULL;
	func_seen[0] = '\0';
	log_clear();
	return cmdline_parse(&cl, s, params, sizeof(params) / sizeof(params[0]));
}

static void test_options(void)
{
	CHECK("a bare boolean sets it", parse("quiet") == 0 && opt_bool == 1, "%lu", opt_bool);
	CHECK("boolean values off/no/0 clear it", parse("quiet=off") == 0 && opt_bool == 0 &&
	      parse("quiet=no") == 0 && opt_bool == 0, "%lu", opt_bool);
	CHECK("a hexadecimal number", parse("port=0x378") == 0 && opt_uint == 0x378, "%#lx", opt_uint);
	CHECK("a decimal number", parse("port=888") == 0 && opt_uint == 888, "%lu", opt_uint);
	CHECK("sizes take K/M/G suffixes", parse("kmem=64M") == 0 && opt_size == 64ul << 20 &&
	      parse("kmem=2g") == 0 && opt_size == 2ul << 30 && parse("kmem=4096") == 0 &&
	      opt_size == 4096, "%lu", opt_size);
	CHECK("a string option points at its value", parse("console=serial") == 0 && opt_str &&
	      !strcmp(opt_str, "serial"), "'%s'", opt_str ? opt_str : "(null)");
	CHECK("a function option receives its value", parse("exit=halt") == 0 &&
	      !strcmp(func_seen, "halt"), "'%s'", func_seen);
	CHECK("extra spaces, tabs and newlines separate words", parse("  quiet \t port=5\n") == 0 &&
	      opt_bool == 1 && opt_uint == 5, "%lu %lu", opt_bool, opt_uint);
	CHECK("an empty command line is fine", parse("") == 0 && cl.njobs == 0, "%u jobs", cl.njobs);
}

static void test_mistakes(void)
{
	CHECK("an unknown option is a warning, not an error", parse("frobnicate=1 quiet") == 0 &&
	      cl.nwarn == 1 && opt_bool == 1 && log_has("unknown option 'frobnicate'"),
	      "log '%s'", unit_log);
	CHECK("a malformed number is an error naming the option", parse("port=12x") == -1 &&
	      log_has("bad value for port"), "log '%s'", unit_log);
	CHECK("a number too large for 64 bits is an error", parse("port=99999999999999999999") == -1,
	      "accepted");
	CHECK("a size overflowing with its suffix is an error", parse("kmem=99999999999G") == -1,
	      "accepted");
	CHECK("a malformed boolean is an error", parse("quiet=maybe") == -1, "accepted");
	CHECK("a number option without a value is an error", parse("port") == -1, "accepted");
	CHECK("a function refusing its value is an error", parse("exit=bad") == -1, "accepted");
	CHECK("an unterminated quote is an error", parse("console=\"serial") == -1 &&
	      log_has("unterminated quote"), "log '%s'", unit_log);
	CHECK("a job key before any job is an error", parse("np=4 job=a") == -1 &&
	      log_has("np= belongs to a job"), "log '%s'", unit_log);
	CHECK("job= without a module is an error", parse("job=") == -1, "accepted");

	char big[CMDLINE_MAX + 10];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK("an overlong command line is an error", parse(big) == -1 && log_has("longer than"),
	      "log '%s'", unit_log);
}

static void test_jobs(void)
{
	int r = parse("quiet job=hello np=4 mem=64M stack=16M arg=-v arg=\"two words\" "
		      "arg=\"say \\\"hi\\\"\" env=OMP_NUM_THREADS=1 job=ring np=all");

	CHECK("two jobs parse", r == 0 && cl.njobs == 2, "returned %d, %u jobs: %s", r, cl.njobs,
	      unit_log);
	const struct job_spec *j = &cl.jobs[0];

	CHECK("job module and rank count", !strcmp(j->module, "hello") && j->np == 4, "'%s' %u",
	      j->module, j->np);
	CHECK("job memory and stack sizes", j->mem == 64ul << 20 && j->stack == 16ul << 20,
	      "%lu %lu", j->mem, j->stack);
	CHECK("job arguments in order, quotes removed", j->argc == 3 && !strcmp(j->argv[0], "-v") &&
	      !strcmp(j->argv[1], "two words"), "argc %u", j->argc);
	CHECK("escaped quotes inside a quoted argument", !strcmp(j->argv[2], "say \"hi\""),
	      "'%s'", j->argv[2]);
	CHECK("job environment", j->envc == 1 && !strcmp(j->envp[0], "OMP_NUM_THREADS=1"),
	      "envc %u", j->envc);
	CHECK("np=all asks for every CPU", cl.jobs[1].np == JOB_NP_ALL, "%u", cl.jobs[1].np);
	CHECK("time= sets the job's time limit in seconds", parse("job=x time=90") == 0 &&
	      cl.jobs[0].time == 90, "%lu", cl.jobs[0].time);
	CHECK("time=0 is an error", parse("job=x time=0") == -1, "accepted");
	CHECK("a job without np= has one rank", parse("job=x") == 0 && cl.jobs[0].np == 1,
	      "%u", cl.jobs[0].np);
	CHECK("global options may follow a job", parse("job=x quiet") == 0 && opt_bool == 1,
	      "%lu", opt_bool);
	CHECK("np=0 is an error", parse("job=x np=0") == -1 && log_has("bad value for np"),
	      "log '%s'", unit_log);
	CHECK("env= without '=' is an error", parse("job=x env=FOO") == -1, "accepted");
	CHECK("mem=0 is an error", parse("job=x mem=0") == -1, "accepted");

	char many[CMDLINE_MAX];
	size_t n = (size_t)snprintf(many, sizeof(many), "job=x");

	for (int i = 0; i < JOB_ARGS_MAX + 1; i++)
		n += (size_t)snprintf(many + n, sizeof(many) - n, " arg=%d", i);
	CHECK("too many arguments is an error", parse(many) == -1 && log_has("arguments"),
	      "log '%s'", unit_log);
	n = 0;
	for (int i = 0; i < JOB_MAX + 1; i++)
		n += (size_t)snprintf(many + n, sizeof(many) - n, " job=j%d", i);
	CHECK("too many jobs is an error", parse(many) == -1 && log_has("jobs"), "log '%s'", unit_log);
}

int main(void)
{
	test_options();
	test_mistakes();
	test_jobs();
	return unit_failed;
}
