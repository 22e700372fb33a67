/*
 * job.c - from a job spec on the command line to N ranks running and back.
 *
 * The boot CPU does everything that can fail before any rank exists:
 * finding the module, checking the ELF, sizing and allocating the regions,
 * building every rank's page tables and then SMARTMAP (slot r+1 of every
 * rank = rank r's slot 0).  Only then are the CPUs started; each loads its
 * own image and stack (in parallel, and NUMA-local), and all enter user
 * mode together, so no rank can see a peer's memory half-initialised.
 *
 * SMARTMAP mappings never change while the job runs, so no TLB shootdown
 * is ever needed; they are cleared after every rank has left its address
 * space and before any page-table page is freed.
 */
#include <string.h>
#include <arch/arch.h>
#include <arch/cpu.h>
#include <arch/memlayout.h>
#include <arch/paging.h>
#include "smapos_abi.h"
#include "bootinfo.h"
#include "cmdline.h"
#include "cpu.h"
#include "format.h"
#include "hwbarrier.h"
#include "job.h"
#include "knet.h"
#include "kmem.h"
#include "param.h"
#include "printk.h"
#include "proc.h"
#include "random.h"
#include "signal.h"
#include "time.h"

uint64_t job_node, job_nnodes = 1, job_tag_output;
int job_node_auto;

static int set_node(const char *v)
{
	if (!strcmp(v, "auto")) {
		job_node_auto = 1;
		return 0;
	}
	job_node_auto = 0;
	return parse_uint(v, &job_node);
}
KPARAM(node, PARAM_FUNC, set_node,
       "this node's id in a multi-node job (0..nnodes-1), or auto: the place of its MAC among the job's nodes' MACs (the network numbers the nodes)");
KPARAM(nnodes, PARAM_UINT, &job_nnodes, "number of nodes in the job (default 1)");
KPARAM(tag, PARAM_BOOL, &job_tag_output, "prefix every line the ranks write with [world rank]");

static uint64_t default_stack = 8ul << 20;
KPARAM(stack, PARAM_SIZE, &default_stack, "stack size of each rank unless its job says stack=; default 8M");

#define MIN_HEAP	(2ul << 20)

/* Launch errors, with shell-like statuses (see docs/jobs.md). */
#define STATUS_NOT_FOUND	127
#define STATUS_NOT_EXEC		126
#define STATUS_BAD_REQUEST	SMAPOS_EXIT_BADCMD

static const struct bootinfo *boot;

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static uint64_t align_down(uint64_t v, uint64_t a)
{
	return v & ~(a - 1);
}

static const struct boot_module *find_module(const char *name)
{
	char mod[64];

	for (unsigned i = 0; i < boot->nmods; i++) {
		bootinfo_module_name(&boot->mods[i], mod, sizeof(mod));
		if (!strcmp(mod, name))
			return &boot->mods[i];
	}
	return NULL;
}

static void list_modules(void)
{
	char mod[64];

	pr_err("  modules loaded:");
	if (!boot->nmods)
		pr_err(" none");
	for (unsigned i = 0; i < boot->nmods; i++) {
		bootinfo_module_name(&boot->mods[i], mod, sizeof(mod));
		pr_err(" %s", mod);
	}
	pr_err("\n");
}

/* Prot of the page run [lo, hi): the union of the segments over it. */
static unsigned prot_at(const struct elf_image *e, uint64_t lo, uint64_t hi)
{
	unsigned prot = 0;
	int covered = 0;

	for (unsigned i = 0; i < e->nsegs; i++) {
		uint64_t s = align_down(e->segs[i].vaddr, PAGE_SIZE);
		uint64_t t = align_up(e->segs[i].vaddr + e->segs[i].memsz, PAGE_SIZE);

		if (s < hi && lo < t) {
			covered = 1;
			prot |= e->segs[i].prot & SEG_W ? PROT_W | PROT_R : 0;
			prot |= e->segs[i].prot & SEG_X ? PROT_X | PROT_R : 0;
			prot |= e->segs[i].prot & SEG_R ? PROT_R : 0;
		}
	}
	return covered ? prot : PROT_R | PROT_W;
}

static void add_cut(uint64_t *cuts, unsigned *n, uint64_t v)
{
	for (unsigned i = 0; i < *n; i++)
		if (cuts[i] == v)
			return;
	cuts[(*n)++] = v;
}

/* Map p's whole region with per-page protections: 4 KiB pages only in
 * the 2 MiB frames where segment boundaries or the stack guard fall. */
static int map_rank(struct job *j, struct proc *p)
{
	uint64_t cuts[2 * ELF_SEGS_MAX + 4];
	unsigned n = 0;

	add_cut(cuts, &n, p->base);
	add_cut(cuts, &n, p->end);
	add_cut(cuts, &n, p->guard);
	add_cut(cuts, &n, p->guard + PAGE_SIZE);
	for (unsigned i = 0; i < j->elf.nsegs; i++) {
		add_cut(cuts, &n, align_down(j->elf.segs[i].vaddr, PAGE_SIZE));
		add_cut(cuts, &n, align_up(j->elf.segs[i].vaddr + j->elf.segs[i].memsz, PAGE_SIZE));
	}
	for (unsigned a = 1; a < n; a++)
		for (unsigned b = a; b > 0 && cuts[b - 1] > cuts[b]; b--) {
			uint64_t t = cuts[b];

			cuts[b] = cuts[b - 1];
			cuts[b - 1] = t;
		}
	for (unsigned i = 0; i + 1 < n; i++) {
		uint64_t lo = cuts[i], hi = cuts[i + 1];
		unsigned prot;

		if (lo == p->guard)
			continue;
		prot = prot_at(&j->elf, lo, hi);
		if (!(prot & PROT_W) && p->nro < ELF_SEGS_MAX) {
			p->ro[p->nro].lo = lo;
			p->ro[p->nro++].hi = hi;
		}
		if (paging_map_user(p->pml4, lo, p->phys + (lo - p->base), hi - lo, prot) < 0)
			return -1;
	}
	return 0;
}

static void smartmap_set(struct job *j)
{
	for (unsigned r = 0; r < j->nranks; r++) {
		uint64_t slot0 = paging_slot_get(j->procs[r]->pml4, 0);

		for (unsigned q = 0; q < j->nranks; q++)
			paging_slot_set(j->procs[q]->pml4, r + 1, slot0);
	}
}

static void smartmap_clear(struct job *j)
{
	for (unsigned q = 0; q < j->nranks; q++)
		for (unsigned r = 0; r < j->nranks; r++)
			paging_slot_set(j->procs[q]->pml4, r + 1, 0);
}

static void job_free(struct job *j)
{
	if (j->smartmapped)
		smartmap_clear(j);
	for (unsigned r = 0; r < j->nranks; r++) {
		struct proc *p = j->procs[r];

		if (!p)
			continue;
		if (p->pml4)
			paging_aspace_free(p->pml4);
		if (p->phys != PMEM_NONE)
			kmem_region_free(p->phys, j->region_size);
		kpages_free(p, (sizeof(*p) + PAGE_SIZE - 1) / PAGE_SIZE);
	}
	kpages_free(j, (sizeof(*j) + PAGE_SIZE - 1) / PAGE_SIZE);
}

/* Everything that can fail, before any CPU is involved. */
static int job_prepare(struct job *j)
{
	const struct job_spec *s = j->spec;
	const struct boot_module *m = find_module(s->module);
	const char *why;
	unsigned online = 0, np;
	uint64_t need, size;

	if (!m) {
		pr_err("job %u: no module named '%s'\n", j->id, s->module);
		list_modules();
		return STATUS_NOT_FOUND;
	}
	j->image = phys_to_virt(m->start);
	j->image_size = m->end - m->start;
	if (elf_parse(j->image, j->image_size, &j->elf, &why) < 0) {
		pr_err("job %u: %s: cannot execute: %s\n", j->id, j->name, why);
		return STATUS_NOT_EXEC;
	}
	if (j->elf.lo < NULL_GUARD) {
		pr_err("job %u: %s: cannot execute: segments below %#lx (the null guard)\n", j->id,
		       j->name, NULL_GUARD);
		return STATUS_NOT_EXEC;
	}
	for (unsigned i = 0; i < ncpus; i++)
		online += cpus[i]->online;
	/* np=all leaves the network engine its CPU (make image's default) */
	np = s->np != JOB_NP_ALL ? s->np : online > 1 ? online - knet_cpus() : online;
	if (np > SMAPOS_MAX_RANKS) {
		pr_err("job %u: %s: %u ranks requested; SMARTMAP allows at most %d per node "
		       "(PML4 slots 1..510)\n", j->id, j->name, np, SMAPOS_MAX_RANKS);
		return STATUS_BAD_REQUEST;
	}
	if (np > online) {
		pr_err("job %u: %s: %u ranks requested but only %u CPUs are online "
		       "(one rank per CPU)\n", j->id, j->name, np, online);
		return STATUS_BAD_REQUEST;
	}
	j->nranks = np;
	j->stack_size = align_up(s->stack ? s->stack : default_stack, PAGE_SIZE);
	j->region_base = align_down(j->elf.lo, LARGE_PAGE_SIZE);
	need = align_up(align_up(j->elf.hi, PAGE_SIZE) - j->region_base + MIN_HEAP +
			PAGE_SIZE + j->stack_size, LARGE_PAGE_SIZE);
	size = s->mem ? align_up(s->mem, LARGE_PAGE_SIZE) : kmem_region_share(j->nranks);
	if (size < need || j->region_base + size > ELF_USER_LIMIT) {
		pr_err("job %u: %s: %u ranks of %lu MiB do not fit: each needs at least %lu MiB "
		       "(image, %lu MiB heap, %lu MiB stack); node share is %lu MiB per rank\n",
		       j->id, j->name, j->nranks, size >> 20, need >> 20, MIN_HEAP >> 20,
		       j->stack_size >> 20, kmem_region_share(j->nranks) >> 20);
		return STATUS_BAD_REQUEST;
	}
	j->region_size = size;

	for (unsigned r = 0; r < j->nranks; r++) {
		struct proc *p = kpages_alloc((sizeof(*p) + PAGE_SIZE - 1) / PAGE_SIZE);

		if (!p)
			goto nomem_kernel;
		j->procs[r] = p;
		p->job = j;
		p->rank = r;
		p->cpu = cpus[r];
		p->phys = kmem_region_alloc(size, p->cpu);
		/* Free memory in all can exceed a rank's size while no single
		 * block holds it (the hole below 4 GiB splits the RAM): say both. */
		if (p->phys == PMEM_NONE) {
			pr_err("job %u: %s: cannot give %u ranks %lu MiB each: no contiguous %lu MiB "
			       "left for rank %u (largest free block %lu MiB, %lu MiB free in all)\n",
			       j->id, j->name, j->nranks, size >> 20, size >> 20, r,
			       kmem_region_largest() >> 20, kmem_user_free() >> 20);
			return STATUS_BAD_REQUEST;
		}
		p->base = j->region_base;
		p->end = j->region_base + size;
		p->guard = p->end - j->stack_size - PAGE_SIZE;
		p->brk_start = p->brk = align_up(j->elf.hi, PAGE_SIZE);
		pmem_init(&p->vfree);
		pmem_add(&p->vfree, p->brk_start, p->guard);
		p->pml4 = paging_aspace_new();
		if (!p->pml4 || map_rank(j, p) < 0)
			goto nomem_kernel;
	}
	smartmap_set(j);
	j->smartmapped = 1;
	return 0;

nomem_kernel:
	pr_err("job %u: %s: the kernel ran out of memory for page tables (kmem=)\n", j->id, j->name);
	return STATUS_BAD_REQUEST;
}

static uint64_t push_bytes(uint8_t *top_k, uint64_t top_u, uint64_t *sp, const void *src, size_t n)
{
	*sp -= n;
	memcpy(top_k - (top_u - *sp), src, n);
	return *sp;
}

static uint64_t push_str(uint8_t *top_k, uint64_t top_u, uint64_t *sp, const char *s)
{
	return push_bytes(top_k, top_u, sp, s, strlen(s) + 1);
}

/* The initial stack exactly as Linux builds it for a static program. */
static uint64_t build_stack(struct job *j, struct proc *p)
{
	const struct job_spec *s = j->spec;
	uint8_t *top_k = phys_to_virt(p->phys + (p->end - p->base));
	uint64_t sp = p->end, execfn, platform, rnd, argv[JOB_ARGS_MAX], envp[JOB_ENV_MAX];
	uint8_t random[16];
	unsigned argc = s->argc + 1, words, w = 0;
	uint32_t a, b, c, d;

	random_bytes(random, sizeof(random));
	execfn = push_str(top_k, p->end, &sp, j->name);
	platform = push_str(top_k, p->end, &sp, "x86_64");
	argv[0] = push_str(top_k, p->end, &sp, j->name);
	for (unsigned i = 0; i < s->argc; i++)
		argv[i + 1] = push_str(top_k, p->end, &sp, s->argv[i]);
	for (unsigned i = 0; i < s->envc; i++)
		envp[i] = push_str(top_k, p->end, &sp, s->envp[i]);
	rnd = push_bytes(top_k, p->end, &sp, random, sizeof(random));
	sp &= ~15ul;

	cpuid(1, 0, &a, &b, &c, &d);
	const uint64_t auxv[][2] = {
		{ 3, j->elf.phdr_vaddr },	/* AT_PHDR */
		{ 4, j->elf.phentsize },	/* AT_PHENT */
		{ 5, j->elf.phnum },		/* AT_PHNUM */
		{ 6, PAGE_SIZE },		/* AT_PAGESZ */
		{ 7, 0 },			/* AT_BASE: no interpreter */
		{ 8, 0 },			/* AT_FLAGS */
		{ 9, j->elf.entry },		/* AT_ENTRY */
		{ 11, 0 }, { 12, 0 }, { 13, 0 }, { 14, 0 },	/* AT_UID .. AT_EGID */
		{ 15, platform },		/* AT_PLATFORM */
		{ 16, d },			/* AT_HWCAP */
		{ 17, 100 },			/* AT_CLKTCK */
		{ 23, 0 },			/* AT_SECURE */
		{ 25, rnd },			/* AT_RANDOM */
		{ 26, 0 },			/* AT_HWCAP2 */
		{ 31, execfn },			/* AT_EXECFN */
		{ 0, 0 },			/* AT_NULL */
	};
	words = 1 + argc + 1 + s->envc + 1 + 2 * (sizeof(auxv) / sizeof(auxv[0]));
	if (words & 1)
		sp -= 8;
	sp -= words * 8;

	uint64_t *v = (uint64_t *)(top_k - (p->end - sp));

	v[w++] = argc;
	for (unsigned i = 0; i < argc; i++)
		v[w++] = argv[i];
	v[w++] = 0;
	for (unsigned i = 0; i < s->envc; i++)
		v[w++] = envp[i];
	v[w++] = 0;
	for (unsigned i = 0; i < sizeof(auxv) / sizeof(auxv[0]); i++) {
		v[w++] = auxv[i][0];
		v[w++] = auxv[i][1];
	}
	return sp;
}

/*
 * No job sees another job's bytes: the whole region is mapped and readable
 * by every rank of the job from its first instruction, so all of it must
 * be zero before any rank runs, whatever an earlier job (or an earlier
 * boot) left there.  Each CPU scrubs its own region, in parallel and
 * NUMA-local.  A page is read first and written only when it is not
 * already zero: reading is what scrubbing costs on memory nobody dirtied
 * (and under QEMU it does not make the host commit the page, as a write
 * would).  docs/jobs.md gives the cost.
 */
static void scrub_region(uint8_t *region, uint64_t size)
{
	for (uint64_t off = 0; off < size; off += PAGE_SIZE) {
		const uint64_t *w = (const uint64_t *)(region + off);
		uint64_t any = 0;

		/* unrolled: under TCG the cost is per instruction */
		for (unsigned i = 0; i < PAGE_SIZE / 8; i += 8)
			any |= w[i] | w[i + 1] | w[i + 2] | w[i + 3] | w[i + 4] | w[i + 5] |
			       w[i + 6] | w[i + 7];
		if (any)
			memset(region + off, 0, PAGE_SIZE);
	}
}

uint64_t job_load_rank(struct proc *p, uint64_t *sp)
{
	struct job *j = p->job;
	uint8_t *region = phys_to_virt(p->phys);

	scrub_region(region, p->end - p->base);
	for (unsigned i = 0; i < j->elf.nsegs; i++) {
		const struct elf_seg *s = &j->elf.segs[i];

		memcpy(region + (s->vaddr - p->base), j->image + s->offset, s->filesz);
	}
	*sp = build_stack(j, p);

	/* All ranks loaded before any runs: peers read each other's data. */
	if (__atomic_add_fetch(&j->loaded, 1, __ATOMIC_ACQ_REL) == j->nranks) {
		for (unsigned r = 0; r < j->nranks; r++)
			if (j->procs[r] != p)
				apic_send_ipi(j->procs[r]->cpu->arch.apic_id, IPI_WAKE);
	} else {
		irq_disable();
		while (__atomic_load_n(&j->loaded, __ATOMIC_ACQUIRE) < j->nranks)
			cpu_idle();
	}
	return j->elf.entry;
}

void job_fail(struct job *j, int status)
{
	uint64_t f = spin_lock_irqsave(&j->lock);

	if (!j->failing) {
		j->failing = 1;
		j->status = status;
		knet_job_failed(j, status);
		for (unsigned r = 0; r < j->nranks; r++) {
			struct proc *q = j->procs[r];

			if (q->cpu == this_cpu() || q->done)
				continue;
			q->killed = 1;
			apic_send_ipi(q->cpu->arch.apic_id, IPI_KILL);
		}
	}
	spin_unlock_irqrestore(&j->lock, f);
}

void job_time_exceeded(struct job *j)
{
	if (!j->failing)
		pr_err("job %u: %s: time limit of %lu s reached, stopping the job\n", j->id, j->name,
		       j->spec->time);
	job_fail(j, 128 + SIGKILL);
}

static void summary(struct job *j)
{
	char line[256];
	uint64_t launch = 0, us = tsc_to_ns(j->t_end - j->t_start) / 1000;
	size_t n = 0;

	for (unsigned r = 0; r < j->nranks; r++)
		if (j->procs[r]->t_user > j->t_start && j->procs[r]->t_user - j->t_start > launch)
			launch = j->procs[r]->t_user - j->t_start;
	launch = tsc_to_ns(launch) / 1000;
	for (unsigned r = 0; r < j->nranks && n < sizeof(line) - 16; r++) {
		const struct proc *p = j->procs[r];

		if (r == 32) {
			n += snprintf(line + n, sizeof(line) - n, " ...");
			break;
		}
		if (p->killed && !p->culprit)
			n += snprintf(line + n, sizeof(line) - n, " killed");
		else
			n += snprintf(line + n, sizeof(line) - n, " %d", p->status);
	}
	pr_err("job %u: %s: %u rank%s, status %d (ranks:%s), %lu.%03lu ms, launch %lu.%03lu ms\n",
	       j->id, j->name, j->nranks, j->nranks == 1 ? "" : "s", j->status, line,
	       us / 1000, us % 1000, launch / 1000, launch % 1000);
}

static int job_run(const struct job_spec *spec, unsigned id)
{
	struct job *j = kpages_alloc((sizeof(*j) + PAGE_SIZE - 1) / PAGE_SIZE);
	int st;

	if (!j) {
		pr_err("job %u: the kernel is out of memory\n", id);
		return STATUS_BAD_REQUEST;
	}
	j->id = id;
	j->spec = spec;
	snprintf(j->name, sizeof(j->name), "%s", spec->module);
	st = job_prepare(j);
	if (st) {
		pr_err("job %u: %s: not started, status %d\n", id, j->name, st);
		job_free(j);
		return st;
	}
	pr_info("job %u: %s: %u rank%s x %lu MiB at %#lx, stack %lu KiB\n", id, j->name,
		j->nranks, j->nranks == 1 ? "" : "s", j->region_size >> 20, j->region_base,
		j->stack_size >> 10);
	knet_job_begin(j, ncpus);
	j->running = j->nranks;
	j->t_start = rdtsc();
	if (spec->time)
		j->deadline = j->t_start + spec->time * tsc_hz;
	for (unsigned r = 1; r < j->nranks; r++) {
		__atomic_store_n(&cpus[r]->next, j->procs[r], __ATOMIC_RELEASE);
		apic_send_ipi(cpus[r]->arch.apic_id, IPI_WAKE);
	}
	proc_run(j->procs[0]);
	/* Rank 0 is done; the others may not be.  The time limit still holds. */
	irq_disable();
	while (__atomic_load_n(&j->running, __ATOMIC_ACQUIRE)) {
		if (j->deadline && rdtsc() >= j->deadline)
			job_time_exceeded(j);
		apic_timer_at(j->deadline && !j->failing ? j->deadline : 0);
		cpu_idle();
	}
	apic_timer_at(0);
	irq_enable();
	knet_job_end(j);
	j->t_end = rdtsc();
	if (!j->failing)
		for (unsigned r = 0; r < j->nranks && !j->status; r++)
			j->status = j->procs[r]->status;
	summary(j);
	hwbarrier_job_end(j->id);
	st = j->status;
	job_free(j);
	return st;
}

int jobs_run(const struct cmdline *cl, const struct bootinfo *bi)
{
	int status = 0;

	boot = bi;
	if (cl->njobs == 0)
		pr_info("jobs: none on the command line (job=MODULE np=N ...)\n");
	else if (job_nnodes > 1 && job_node_auto && knet_number() < 0)
		return SMAPOS_EXIT_NET;
	else if (job_nnodes > 1 && job_node >= job_nnodes) {
		pr_err("jobs: node=%lu is not a node of nnodes=%lu (0..%lu): no job runs\n", job_node,
		       job_nnodes, job_nnodes - 1);
		return SMAPOS_EXIT_BADCMD;
	}
	for (unsigned i = 0; i < cl->njobs; i++) {
		int st = job_run(&cl->jobs[i], i);

		if (st && !status)
			status = st;
	}
	return status;
}
