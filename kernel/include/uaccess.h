/*
 * uaccess.h - the only way the kernel reaches user memory.
 *
 * A user range is checked against the rank's layout (urange_ok) and then
 * reached through the direct map of the region that holds it (regions are
 * physically contiguous), so the kernel never touches user mappings and
 * cannot fault on a bad pointer: the answer is -EFAULT, decided up front.
 *
 * Any peer can rewrite any of this memory through SMARTMAP while a call
 * runs, so a structure (iovec, timespec, sigaction, rlimit, futex word...)
 * is copied into kernel memory once with copy_from_user and only the copy
 * is used.  uaddr() hands out a direct-map pointer and is for byte streams
 * only (the bytes of a write, getrandom's output), never for anything the
 * kernel decides on.
 */
#ifndef UACCESS_H
#define UACCESS_H

#include <stddef.h>
#include <stdint.h>

struct proc;

/* 1 if [addr, addr + len) is reachable by p: not wrapping, canonical,
 * inside one PML4 slot (its own region or a peer's through SMARTMAP), in
 * that region, above the null guard, off the stack guard page, and not in
 * read-only pages when `write`. */
int urange_ok(struct proc *p, uint64_t addr, uint64_t len, int write);
/* The direct-map pointer of a range urange_ok accepts; NULL otherwise. */
void *uaddr(struct proc *p, uint64_t addr, uint64_t len, int write);

/* 0, or -EFAULT with nothing copied. */
long copy_from_user(struct proc *p, void *dst, uint64_t src, size_t len);
long copy_to_user(struct proc *p, uint64_t dst, const void *src, size_t len);
/* Zero [dst, dst + len) of user memory: 0 or -EFAULT. */
long clear_user(struct proc *p, uint64_t dst, size_t len);
/* Copy a NUL-terminated string of at most max bytes (NUL included) into
 * dst: its length, -EFAULT, or -ENAMETOOLONG when no NUL comes in time. */
long strncpy_from_user(struct proc *p, char *dst, uint64_t src, size_t max);

/* Copy a record for an LWK "info" call: at most `size` bytes of it to the
 * user's buf; returns the record's full length (so newer records can
 * grow) or -EFAULT. */
long copy_record(struct proc *p, uint64_t buf, uint64_t size, const void *rec, uint64_t len);

#endif
