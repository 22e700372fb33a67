/*
 * uaccess.c - checked access to user memory (see uaccess.h).
 *
 * Every check is one urange_ok: the range must not wrap, must be
 * canonical, must stay inside one PML4 slot, and inside the region of the
 * rank that slot maps (slot 0: our own; slot r+1: rank r's, SMARTMAP),
 * above the null guard and off the stack guard page.  The kernel then
 * uses the direct map of that region.
 */
#include <string.h>
#include <arch/memlayout.h>
#include "errno.h"
#include "job.h"
#include "proc.h"
#include "uaccess.h"
#include "urange.h"

/* The rank whose region the slot of addr maps, and addr's offset in it. */
static struct proc *owner_of(struct proc *p, uint64_t addr, uint64_t *off)
{
	unsigned slot = pml4_slot(addr);

	*off = addr & (PML4_SLOT_SIZE - 1);
	if (slot == 0)
		return p;
	if (slot - 1 < p->job->nranks)
		return p->job->procs[slot - 1];
	return NULL;
}

int urange_ok(struct proc *p, uint64_t addr, uint64_t len, int write)
{
	const struct proc *owner;
	uint64_t off, last;

	if (len == 0)
		len = 1;
	if (!range_within(addr, len, 0, UINT64_MAX))
		return 0;
	last = addr + len - 1;
	if (!pml4_canonical(addr) || !pml4_canonical(last) || pml4_slot(addr) != pml4_slot(last))
		return 0;
	owner = owner_of(p, addr, &off);
	if (!owner || off < NULL_GUARD || !range_within(off, len, owner->base, owner->end))
		return 0;
	last = off + len - 1;
	if (off < owner->guard + PAGE_SIZE && last >= owner->guard)
		return 0;
	if (write)
		for (unsigned i = 0; i < owner->nro; i++)
			if (off < owner->ro[i].hi && last >= owner->ro[i].lo)
				return 0;
	return 1;
}

void *uaddr(struct proc *p, uint64_t addr, uint64_t len, int write)
{
	const struct proc *owner;
	uint64_t off;

	if (!urange_ok(p, addr, len, write))
		return NULL;
	owner = owner_of(p, addr, &off);
	return phys_to_virt(owner->phys + (off - owner->base));
}

long copy_from_user(struct proc *p, void *dst, uint64_t src, size_t len)
{
	const void *s;

	if (!len)
		return 0;
	s = uaddr(p, src, len, 0);
	if (!s)
		return -EFAULT;
	memcpy(dst, s, len);
	return 0;
}

long copy_to_user(struct proc *p, uint64_t dst, const void *src, size_t len)
{
	void *d;

	if (!len)
		return 0;
	d = uaddr(p, dst, len, 1);
	if (!d)
		return -EFAULT;
	memcpy(d, src, len);
	return 0;
}

long clear_user(struct proc *p, uint64_t dst, size_t len)
{
	void *d;

	if (!len)
		return 0;
	d = uaddr(p, dst, len, 1);
	if (!d)
		return -EFAULT;
	memset(d, 0, len);
	return 0;
}

long strncpy_from_user(struct proc *p, char *dst, uint64_t src, size_t max)
{
	/* Byte by byte: each byte is checked, read once and kept, so a peer
	 * moving the NUL cannot make the kernel read past what it checked. */
	for (size_t n = 0; n < max; n++) {
		const volatile char *c = uaddr(p, src + n, 1, 0);

		if (!c)
			return -EFAULT;
		dst[n] = *c;
		if (dst[n] == '\0')
			return (long)n;
	}
	return -ENAMETOOLONG;
}

long copy_record(struct proc *p, uint64_t buf, uint64_t size, const void *rec, uint64_t len)
{
	if (size > len)
		size = len;
	return copy_to_user(p, buf, rec, size) < 0 ? -EFAULT : (long)len;
}
