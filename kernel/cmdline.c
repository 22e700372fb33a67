/* cmdline.c - parse the kernel command line (see cmdline.h).  Pure logic:
 * compiled into the kernel and into tests/unit/test_cmdline. */
#include <string.h>
#include "cmdline.h"
#include "printk.h"

int parse_uint(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	char num[32];
	size_t n = strlen(s);
	unsigned shift = 0;
	uint64_t v;

	if (n == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, s, n + 1);
	switch (num[n - 1]) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	}
	if (shift)
		num[n - 1] = '\0';
	if (parse_uint(num, &v) < 0 || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*out = v << shift;
	return 0;
}

static int parse_bool(const char *s, uint64_t *out)
{
	static const char *const yes[] = { "1", "y", "yes", "on", "true" };
	static const char *const no[] = { "0", "n", "no", "off", "false" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

/* Split buf in place into NUL-terminated words.  Double quotes group; a
 * backslash makes the next \\, " or ' literal, inside quotes or not (any
 * other backslash is itself).  That is the inverse of how GRUB joins the
 * words of its multiboot2 command (each \\ ' " escaped, a word holding a
 * space quoted whole), so grub.cfg and QEMU's -append deliver the same
 * words.  Returns the number of words or -1. */
static int split_words(char *buf, char **words, int max)
{
	char *r = buf, *w = buf;
	int n = 0;

	for (;;) {
		while (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r')
			r++;
		if (!*r)
			return n;
		if (n == max) {
			pr_err("cmdline: more than %d words\n", max);
			return -1;
		}
		words[n++] = w;
		int quoted = 0;

		for (; *r; r++) {
			if (*r == '\\' && (r[1] == '"' || r[1] == '\\' || r[1] == '\'')) {
				*w++ = *++r;
				continue;
			}
			if (*r == '"') {
				quoted = !quoted;
				continue;
			}
			if (!quoted && (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r'))
				break;
			*w++ = *r;
		}
		if (quoted) {
			pr_err("cmdline: unterminated quote in '%s'\n", words[n - 1]);
			return -1;
		}
		if (*r)
			r++;
		*w++ = '\0';
	}
}

static int set_param(const struct kparam *p, const char *val)
{
	uint64_t v;

	switch (p->type) {
	case PARAM_BOOL:
		if (!val) {
			*(uint64_t *)p->var = 1;
			return 0;
		}
		if (parse_bool(val, &v) < 0)
			break;
		*(uint64_t *)p->var = v;
		return 0;
	case PARAM_UINT:
		if (!val || parse_uint(val, &v) < 0)
			break;
		*(uint64_t *)p->var = v;
		return 0;
	case PARAM_SIZE:
		if (!val || parse_size(val, &v) < 0)
			break;
		*(uint64_t *)p->var = v;
		return 0;
	case PARAM_STR:
		if (!val || !*val)
			break;
		*(const char **)p->var = val;
		return 0;
	case PARAM_FUNC:
		if (!val)
			break;
		return ((int (*)(const char *))p->var)(val) < 0 ? -1 : 0;
	}
	pr_err("cmdline: bad value for %s: '%s'\n", p->name, val ? val : "(none)");
	return -1;
}

static int is_job_key(const char *key)
{
	static const char *const keys[] = { "np", "mem", "stack", "time", "arg", "env" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

/* Apply a job key; 1 if `key` is not one. */
static int job_key(struct job_spec *job, const char *key, const char *val)
{
	uint64_t v;

	if (!strcmp(key, "np")) {
		if (val && !strcmp(val, "all")) {
			job->np = JOB_NP_ALL;
			return 0;
		}
		if (!val || parse_uint(val, &v) < 0 || v == 0 || v > 0xffff)
			goto bad;
		job->np = (unsigned)v;
	} else if (!strcmp(key, "mem")) {
		if (!val || parse_size(val, &v) < 0 || v == 0)
			goto bad;
		job->mem = v;
	} else if (!strcmp(key, "stack")) {
		if (!val || parse_size(val, &v) < 0 || v == 0)
			goto bad;
		job->stack = v;
	} else if (!strcmp(key, "time")) {
		if (!val || parse_uint(val, &v) < 0 || v == 0 || v > 1000000000)
			goto bad;
		job->time = v;
	} else if (!strcmp(key, "arg")) {
		if (!val)
			goto bad;
		if (job->argc == JOB_ARGS_MAX - 1) {
			pr_err("cmdline: job %s: more than %d arguments\n", job->module,
			       JOB_ARGS_MAX - 1);
			return -1;
		}
		job->argv[job->argc++] = val;
	} else if (!strcmp(key, "env")) {
		if (!val || !strchr(val, '=') || val[0] == '=')
			goto bad;
		if (job->envc == JOB_ENV_MAX) {
			pr_err("cmdline: job %s: more than %d environment entries\n",
			       job->module, JOB_ENV_MAX);
			return -1;
		}
		job->envp[job->envc++] = val;
	} else {
		return 1;
	}
	return 0;
bad:
	pr_err("cmdline: job %s: bad value for %s: '%s'\n", job->module, key,
	       val ? val : "(none)");
	return -1;
}

int cmdline_parse(struct cmdline *cl, const char *text,
		  const struct kparam *params, size_t nparams)
{
	static char *words[512];
	struct job_spec *job = NULL;
	size_t len = strlen(text);
	int n;

	memset(cl, 0, sizeof(*cl));
	if (len >= sizeof(cl->buf)) {
		pr_err("cmdline: longer than %d characters\n", CMDLINE_MAX - 1);
		return -1;
	}
	memcpy(cl->buf, text, len + 1);
	n = split_words(cl->buf, words, (int)(sizeof(words) / sizeof(words[0])));
	if (n < 0)
		return -1;

	for (int i = 0; i < n; i++) {
		char *key = words[i];
		char *val = strchr(key, '=');

		if (val)
			*val++ = '\0';
		if (!strcmp(key, "job")) {
			if (!val || !*val) {
				pr_err("cmdline: job= needs a module name\n");
				return -1;
			}
			if (cl->njobs == JOB_MAX) {
				pr_err("cmdline: more than %d jobs\n", JOB_MAX);
				return -1;
			}
			job = &cl->jobs[cl->njobs++];
			job->module = val;
			job->np = 1;
			continue;
		}
		if (job) {
			int r = job_key(job, key, val);

			if (r <= 0) {
				if (r < 0)
					return -1;
				continue;
			}
		}

		const struct kparam *p = NULL;

		for (size_t k = 0; k < nparams; k++) {
			if (!strcmp(params[k].name, key)) {
				p = &params[k];
				break;
			}
		}
		if (p) {
			if (set_param(p, val) < 0)
				return -1;
		} else if (!job && is_job_key(key)) {
			pr_err("cmdline: %s= belongs to a job: put it after job=MODULE\n", key);
			return -1;
		} else {
			pr_warn("cmdline: unknown option '%s' ignored\n", key);
			cl->nwarn++;
		}
	}
	return 0;
}
