/* random.h - random bytes for AT_RANDOM and getrandom(). */
#ifndef RANDOM_H
#define RANDOM_H

#include <stddef.h>

void random_bytes(void *buf, size_t n);
/* "RDSEED", "RDRAND" or "TSC jitter (not cryptographic)" */
const char *random_source(void);

#endif
