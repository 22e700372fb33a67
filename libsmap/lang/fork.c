/*
 * fork.c - fork() in a libsmap program (smapcc links with -Wl,--wrap=fork).
 *
 * A rank's whole memory (image, heap, stack) is its region, which every
 * peer maps: on the kernel there is no second process to make, and in host
 * mode a child would share the region's pages with its parent (a memfd
 * mapped MAP_SHARED), so the two would write each other's stack and heap
 * (OSU's osu_latency_mp crashed so).  fork therefore fails cleanly, as Linux
 * does where fork is not supported: -1 with ENOSYS, and one line saying
 * why.  posix_spawn and system() keep working in host mode (both C
 * libraries start the new program with a vfork-style clone).
 */
#include <errno.h>
#include <sys/types.h>
#include "../core/core.h"
#include "smap.h"

pid_t __wrap_fork(void);

pid_t __wrap_fork(void)
{
	core_warn("libsmap: rank %d: fork() is not supported: a rank's memory is shared with "
		  "its peers, a child would share it too (see docs/languages.md)", smap_rank());
	errno = ENOSYS;
	return -1;
}
