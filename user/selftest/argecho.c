/*
 * argecho.c - rank 0 prints its arguments and environment one per line,
 * `argv[1]=<text>` and `env[0]=<text>`, with \\, non-printing bytes as
 * \xNN, so that a test can compare what reached the program byte for byte
 * whichever way the command line travelled (QEMU -append, grub.cfg).
 */
#include <stdio.h>
#include <smap.h>

extern char **environ;

static void show(const char *what, int i, const unsigned char *s)
{
	printf("%s[%d]=", what, i);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", stdout);
		else if (*s < 0x20 || *s >= 0x7f)
			printf("\\x%02x", *s);
		else
			putchar(*s);
	}
	putchar('\n');
}

int main(int argc, char **argv)
{
	if (smap_rank() != 0)
		return 0;
	printf("argc=%d\n", argc);
	for (int i = 1; i < argc; i++)
		show("argv", i, (const unsigned char *)argv[i]);
	for (int i = 0; environ[i]; i++)
		show("env", i, (const unsigned char *)environ[i]);
	return 0;
}
