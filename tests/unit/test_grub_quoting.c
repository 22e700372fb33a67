/* test_grub_quoting.c - every job argument GRUB can pass reaches the job
 * unchanged.  GRUB's multiboot2 command joins the words it parsed from
 * grub.cfg as join() below does (grub-core/lib/cmdline.c: each \ ' " gets
 * a backslash, a word holding a space is quoted whole); the kernel's
 * parser must undo exactly that. */
#include <stdint.h>
#include "cmdline.h"
#include "unit.h"

static struct cmdline cl;

/* GRUB 2.06's join of its arguments into the kernel command line. */
static void join(char *out, const char *const *words, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		int space = strchr(words[i], ' ') != NULL;

		if (space)
			*out++ = '"';
		for (const char *c = words[i]; *c; c++) {
			if (*c == '\\' || *c == '\'' || *c == '"')
				*out++ = '\\';
			*out++ = *c;
		}
		if (space)
			*out++ = '"';
		*out++ = i + 1 < n ? ' ' : '\0';
	}
}

static void through_grub(const char *name, const char *arg)
{
	char word[256], text[1024];
	const char *words[] = { "job=prog", word };

	snprintf(word, sizeof(word), "arg=%s", arg);
	join(text, words, 2);
	log_clear();
	CHECK(name, cmdline_parse(&cl, text, NULL, 0) == 0 && cl.njobs == 1 &&
	      cl.jobs[0].argc == 1 && !strcmp(cl.jobs[0].argv[0], arg),
	      "expected '%s' from '%s', got '%s' %s", arg, text,
	      cl.njobs && cl.jobs[0].argc ? cl.jobs[0].argv[0] : "(nothing)", unit_log);
}

int main(void)
{
	through_grub("a plain word", "plain");
	through_grub("two words", "two words");
	through_grub("double quotes", "say \"hi\"");
	through_grub("a double quote without a space", "a\"b");
	through_grub("an apostrophe", "it's");
	through_grub("a backslash", "back\\slash");
	through_grub("a trailing backslash", "end\\");
	through_grub("two backslashes", "\\\\");
	through_grub("a backslash before a quote", "\\\"");
	through_grub("shell characters stay literal", "$HOME;{x}|&<>*");
	through_grub("runs of spaces stay", "a  b   c");
	through_grub("an empty argument", "");

	CHECK("a backslash before another character stays",
	      cmdline_parse(&cl, "job=p arg=a\\nb", NULL, 0) == 0 && !strcmp(cl.jobs[0].argv[0],
									  "a\\nb"),
	      "got '%s'", cl.jobs[0].argv[0]);
	CHECK("a quoted word may hold an escaped apostrophe and quote",
	      cmdline_parse(&cl, "job=p \"arg=it\\'s \\\"x\\\"\"", NULL, 0) == 0 &&
	      !strcmp(cl.jobs[0].argv[0], "it's \"x\""), "got '%s'", cl.jobs[0].argv[0]);
	return unit_failed;
}
