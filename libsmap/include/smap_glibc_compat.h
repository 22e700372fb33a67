/*
 * smap_glibc_compat.h - glibc's own names for the fixed-width integer
 * types, which musl does not have.  tools/smapcc force-includes it when it
 * compiles C against musl, so codes that use them (OSU micro-benchmarks
 * 7.4's validation code: __int8_t .. __uint64_t) build unmodified.  The
 * types are exactly glibc's (bits/types.h, x86-64).  Also the BSD names
 * glibc's <sys/types.h> gives every program by default and musl's only
 * under _GNU_SOURCE or _BSD_SOURCE (u_int32_t: PnetCDF's benchmarks),
 * the very types musl gives them then.  For anything else
 * glibc-specific, build against glibc: SMAPCC_LIBC=glibc (docs/languages.md).
 */
#ifndef SMAP_GLIBC_COMPAT_H
#define SMAP_GLIBC_COMPAT_H
#if !defined(__ASSEMBLER__) && !defined(__GLIBC__)

typedef signed char __int8_t;
typedef unsigned char __uint8_t;
typedef signed short int __int16_t;
typedef unsigned short int __uint16_t;
typedef signed int __int32_t;
typedef unsigned int __uint32_t;
typedef signed long int __int64_t;
typedef unsigned long int __uint64_t;

typedef unsigned char u_int8_t;
typedef unsigned short u_int16_t;
typedef unsigned u_int32_t;
typedef unsigned long u_int64_t;
typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned u_int;
typedef unsigned long u_long;

#endif
#endif
