/*
 * knet.c - the network engine in the kernel: kernel/net/engine.c's
 * platform hooks over the NIC driver, node discovery, and the engine's
 * loop on a CPU of its own (the node's highest), which no rank uses.
 *
 * The engine CPU polls: it is the only user of the NIC's rings, so the
 * compute CPUs take no NIC interrupts and the engine needs no locking
 * against an interrupt handler.  The one lock (knet.lock) keeps a rank's
 * attach call out of the engine while the loop is inside it.
 *
 * Discovery: every node broadcasts a HELLO (its node id, MAC and the set
 * of nodes it has heard) every 20 ms until it has heard every node and
 * every node has heard it.  Frames to a node whose MAC is not known yet
 * wait in the engine (the transmit hook says "busy").  MACs are kept for
 * the whole boot: every job of a boot spans the same nodes.
 */
#include <errno.h>
#include <string.h>
#include <arch/arch.h>
#include <arch/cpu.h>
#include <arch/memlayout.h>
#include "cpu.h"
#include "crc32c.h"
#include "engine.h"
#include "format.h"
#include "job.h"
#include "kmem.h"
#include "knet.h"
#include "nic.h"
#include "param.h"
#include "printk.h"
#include "proc.h"
#include "proto.h"
#include "smapos_abi.h"
#include "spinlock.h"
#include "time.h"

static uint64_t net_dead_ms = 15000;
KPARAM(net_dead_ms, PARAM_UINT, &net_dead_ms,
       "silence from another node of the job (its engine is pinged when quiet), or as long with none of our frames to it acknowledged, that ends the job (ms; 0: never)");
static uint64_t net_join_ms = 60000;
KPARAM(net_join_ms, PARAM_UINT, &net_join_ms,
       "silence from a node not heard from in this job yet (still booting or starting it) that ends the job, if longer than net_dead_ms (ms)");

/* The wire decides how large a frame may be, not the NIC: a switch
 * without jumbo frames loses every frame above 1500 bytes of payload
 * (the engine then ends the job saying so).  1500 fits every switch;
 * where every port takes jumbo frames, net_mtu=9000 moves large messages
 * in a sixth of the frames. */
static uint64_t net_mtu = 1500;
KPARAM(net_mtu, PARAM_UINT, &net_mtu,
       "bytes a frame carries after its Ethernet header, the wire's MTU: 1500 for any switch, 9000 where every port takes jumbo frames, 0 for the largest the NIC sends (lwkrun's emulated switch); the same on every node");
#define MTU_MIN		576

/* Clusters sharing an Ethernet segment must not take each other's frames:
 * HELLOs carry the number and every frame's job id holds it (the low
 * 8 bits are the boot's job index + 1, JOB_MAX being far below 256). */
static uint64_t net_cluster;
KPARAM(net_cluster, PARAM_UINT, &net_cluster,
       "tells this cluster's nodes from another's on the same Ethernet segment: the same number on every node of a job, below 2^24 (make image NODES=K writes a random one)");
#define CLUSTER_BITS	24

#define HELLO_US	20000
/* Idle polls before the engine naps, and the nap: under emulation a CPU
 * that spins takes the host CPU the NIC's emulation and the other nodes
 * need; on hardware the nap costs a few microseconds of latency. */
#define IDLE_POLLS	256
#define NAP_US		20
#define LINGER_US	200000		/* quiet time before the engine leaves a job */
#define LINGER_MAX_US	2000000

static struct {
	struct eng *eng;
	struct spinlock lock;
	int hw_crc;
	struct job *job;		/* the job the engine serves, or NULL */
	unsigned cpu;			/* the engine's CPU */
	uint64_t wr_lo;			/* lowest writable address of the job's image */
	volatile int stop;		/* the ranks have ended */
	volatile int running;		/* the loop is on its CPU */
	volatile int detached;		/* the engine no longer touches rank memory */
	volatile int abort_pending;
	int hello_due;			/* a node is still discovering: answer it */
	int twin_said;			/* another node with our node id was named */
	int stranger_said;		/* a node of another cluster was named */
	int abort_status;
	uint32_t abort_rank;		/* world rank that failed */
	uint8_t mac[ENG_MAX_NODES][6];
	uint64_t known;			/* nodes whose MAC we have */
	uint64_t known_by;		/* nodes that have ours */
} knet = { .lock = SPINLOCK_INIT };

static const uint8_t broadcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

void knet_init(void)
{
	uint32_t most, mtu;

	if (!nic_present())
		return;
	if (net_cluster >> CLUSTER_BITS) {
		pr_err("net: net_cluster=%lu is 2^%d or more: %lu\n", net_cluster, CLUSTER_BITS,
		       net_cluster & ((1ul << CLUSTER_BITS) - 1));
		net_cluster &= (1ul << CLUSTER_BITS) - 1;
	}
	most = nic_max_frame() - SNET_ETH_HLEN;
	mtu = net_mtu == 0 || net_mtu > most ? most : net_mtu < MTU_MIN ? MTU_MIN : (uint32_t)net_mtu;
	if (net_mtu && mtu != net_mtu)
		pr_info("net: net_mtu=%lu is outside %u..%u (this NIC): %u\n", net_mtu, MTU_MIN, most,
			mtu);
	knet.eng = kpages_alloc((eng_size(mtu) + 4095) / 4096);
	if (!knet.eng) {
		pr_err("net: no memory for the network engine\n");
		return;
	}
	knet.hw_crc = arch_has_crc32c();
	crc32c_init();
	eng_init(knet.eng, mtu, 0);
	pr_info("net: frames of up to %u bytes after the Ethernet header (net_mtu)\n", mtu);
}

/* ---- platform hooks ---- */

uint64_t eng_plat_now(struct eng *e)
{
	(void)e;
	return tsc_to_ns(rdtsc()) / 1000;
}

uint32_t eng_plat_crc32c(uint32_t crc, const void *p, size_t n)
{
	return knet.hw_crc ? crc32c_hw(crc, p, n) : crc32c_sw(crc, p, n);
}

static int send_frame(const uint8_t *dst, const struct eng_frag *f, unsigned nf)
{
	uint8_t head[NIC_HEAD_MAX];
	uint32_t hl = SNET_ETH_HLEN;
	unsigned i;

	memcpy(head, dst, 6);
	memcpy(head + 6, nic_mac(), 6);
	head[12] = SNET_ETHERTYPE >> 8;
	head[13] = SNET_ETHERTYPE & 0xff;
	for (i = 0; i < nf && i < 2; i++) {
		if (hl + f[i].len > sizeof(head))
			return -EINVAL;
		memcpy(head + hl, f[i].base, f[i].len);
		hl += f[i].len;
	}
	return nic_tx(head, hl, nf > 2 ? f[2].base : NULL, nf > 2 ? f[2].len : 0);
}

int eng_plat_tx(struct eng *e, unsigned node, const struct eng_frag *f, unsigned nf)
{
	(void)e;
	if (node >= ENG_MAX_NODES || !(knet.known & 1ull << node))
		return -EAGAIN;		/* discovery is not done with it yet */
	return send_frame(knet.mac[node], f, nf);
}

void *eng_plat_rank_mem(struct eng *e, unsigned lrank, uint64_t a, uint64_t n, int write)
{
	struct job *j = knet.job;
	const struct proc *p;

	(void)e;
	if (!j || knet.detached || lrank >= j->nranks)
		return NULL;
	p = j->procs[lrank];
	if (a < p->base || n > p->end - p->base || a - p->base > p->end - p->base - n)
		return NULL;
	if (write && a < knet.wr_lo)
		return NULL;	/* text and read-only data stay read-only */
	return phys_to_virt(p->phys + (a - p->base));
}

void eng_plat_fail(struct eng *e, unsigned node, enum eng_fail why, const char *what)
{
	(void)e;
	if (why == ENG_FAIL_LOST)
		pr_err("net: node %u answers, but none of our frames reach it (%s; more than the "
		       "wire carries? see net_mtu): ending the job\n", node, what);
	else
		pr_err("net: node %u stopped answering during %s: ending the job\n", node, what);
	if (knet.job)
		job_fail(knet.job, SMAPOS_EXIT_NET);
}

void eng_plat_abort(struct eng *e, unsigned rank, int status)
{
	(void)e;
	pr_err("net: rank %u failed on another node (status %d): ending the job\n", rank, status);
	if (knet.job)
		job_fail(knet.job, status);	/* 0 too: shmem_global_exit(0) */
}

/* ---- discovery ---- */

/* node: our id, or SNET_NODE_AUTO while node=auto is numbering. */
static void hello_send(uint32_t node)
{
	struct snet_hdr h;
	struct snet_hello body;
	struct eng_frag f[2] = { { &h, sizeof(h) }, { &body, sizeof(body) } };

	memset(&h, 0, sizeof(h));
	memset(&body, 0, sizeof(body));
	body.node = node;
	body.nnodes = (uint32_t)job_nnodes;
	memcpy(body.mac, nic_mac(), 6);
	body.known = node == SNET_NODE_AUTO ? 0 : knet.known | 1ull << job_node;
	body.cluster = (uint32_t)net_cluster;
	h.version = SNET_VERSION;
	h.kind = SNET_HELLO;
	h.src = (uint16_t)node;
	h.dst = 0xffff;
	h.len = sizeof(body);
	h.crc = eng_plat_crc32c(eng_plat_crc32c(0, &body, sizeof(body)), &h, sizeof(h));
	send_frame(broadcast, f, 2);
}

static void mac_str(char *buf, const uint8_t *m)
{
	snprintf(buf, 18, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

/* 0 if frame is an intact HELLO of this cluster's; its body in *body. */
static int hello_parse(const uint8_t *frame, uint32_t len, struct snet_hello *body)
{
	struct snet_hdr h;
	uint32_t crc;

	if (len < SNET_ETH_HLEN + sizeof(h) + sizeof(*body) || frame[SNET_ETH_HLEN + 1] != SNET_HELLO)
		return -1;
	memcpy(&h, frame + SNET_ETH_HLEN, sizeof(h));
	memcpy(body, frame + SNET_ETH_HLEN + sizeof(h), sizeof(*body));
	crc = h.crc;
	h.crc = 0;
	if (h.version != SNET_VERSION || h.len != sizeof(*body) ||
	    eng_plat_crc32c(eng_plat_crc32c(0, body, sizeof(*body)), &h, sizeof(h)) != crc)
		return -1;
	if (body->cluster != net_cluster) {
		char m[18];

		mac_str(m, body->mac);
		if (!knet.stranger_said)
			pr_info("net: %s is a node of another cluster (its net_cluster %u, ours %lu): "
				"ignored\n", m, body->cluster, net_cluster);
		knet.stranger_said = 1;
		return -1;
	}
	return 0;
}

static void hello_take(const uint8_t *frame, uint32_t len)
{
	struct snet_hello body;
	char m[18];

	if (hello_parse(frame, len, &body) < 0)
		return;
	mac_str(m, body.mac);
	if (body.node == job_node && memcmp(body.mac, nic_mac(), 6) && !knet.twin_said) {
		/* two nodes booted the same entry of a cluster image */
		pr_err("net: %s also says it is node %lu: every node needs its own node=I\n", m,
		       job_node);
		knet.twin_said = 1;
	}
	if (body.nnodes != job_nnodes || body.node >= job_nnodes || body.node == job_node ||
	    body.node >= ENG_MAX_NODES)
		return;
	if (!(knet.known & 1ull << body.node))
		pr_info("net: node %u is %s\n", body.node, m);
	memcpy(knet.mac[body.node], body.mac, 6);
	knet.known |= 1ull << body.node;
	/* A node that does not know us yet hears from us at once; answering
	 * every HELLO would keep two finished nodes saying it to each other. */
	if (body.known & 1ull << job_node)
		knet.known_by |= 1ull << body.node;
	else
		knet.hello_due = 1;
}

static int discovery_done(void)
{
	uint64_t all = (job_nnodes >= 64 ? ~0ull : (1ull << job_nnodes) - 1) & ~(1ull << job_node);

	return (knet.known & all) == all && (knet.known_by & all) == all;
}

/* ---- node=auto ---- */

/* The node's id is its MAC's place among the nnodes MACs of the cluster,
 * so one boot entry serves every node.  Each node broadcasts HELLOs
 * without an id until it has heard nnodes different MACs (its own
 * included); one that numbered itself first goes on saying HELLO, with
 * its id, in its first job's discovery, so a late node still hears every
 * MAC.  A node with a fixed node=I counts too, and must sit where the
 * order puts it. */
static int number_by_mac(void)
{
	struct {
		uint8_t mac[6];
		uint32_t said;	/* the id its HELLO carried */
	} seen[ENG_MAX_NODES];
	unsigned heard = 1, me = 0;
	uint64_t start = eng_plat_now(knet.eng), hello_at = 0;
	char a[18], b[18];

	memcpy(seen[0].mac, nic_mac(), 6);
	seen[0].said = SNET_NODE_AUTO;
	irq_disable();
	while (heard < job_nnodes) {
		uint64_t now = eng_plat_now(knet.eng);
		const uint8_t *f;
		uint32_t len;
		int got = 0;

		if (now - start > net_join_ms * 1000) {
			apic_timer_at(0);
			irq_enable();
			pr_err("net: node=auto: heard %u of the %lu other nodes in %lu s (net_join_ms); "
			       "every node must boot with nnodes=%lu and this net_cluster: no job runs\n",
			       heard - 1, job_nnodes - 1, net_join_ms / 1000, job_nnodes);
			return -1;
		}
		if (now - hello_at >= HELLO_US) {
			hello_send(SNET_NODE_AUTO);
			hello_at = now;
		}
		while (heard < job_nnodes && (f = nic_rx(&len))) {
			struct snet_hello body;
			unsigned i = 0;

			got = 1;
			if (len >= SNET_ETH_HLEN + 2 && (f[12] << 8 | f[13]) == SNET_ETHERTYPE &&
			    !hello_parse(f, len, &body) && body.nnodes == job_nnodes) {
				while (i < heard && memcmp(seen[i].mac, body.mac, 6))
					i++;
				if (i == heard) {
					memcpy(seen[heard].mac, body.mac, 6);
					seen[heard++].said = body.node;
				}
			}
			nic_rx_release();
		}
		if (!got) {
			apic_timer_at(rdtsc() + ns_to_tsc(1000000));
			cpu_idle();
		}
	}
	apic_timer_at(0);
	irq_enable();
	/* Sort the MACs, ours included (insertion: at most 64). */
	for (unsigned i = 1; i < heard; i++)
		for (unsigned k = i; k > 0 && memcmp(seen[k - 1].mac, seen[k].mac, 6) > 0; k--) {
			__typeof__(seen[0]) t = seen[k];

			seen[k] = seen[k - 1];
			seen[k - 1] = t;
		}
	for (unsigned i = 0; i < heard; i++) {
		if (!memcmp(seen[i].mac, nic_mac(), 6))
			me = i;
		if (seen[i].said != SNET_NODE_AUTO && seen[i].said != i) {
			mac_str(a, seen[i].mac);
			pr_err("net: node=auto: %s says it is node %u, but its MAC makes it node %u: "
			       "give every node node=auto, or each its own node=I: no job runs\n", a,
			       seen[i].said, i);
			return -1;
		}
	}
	job_node = me;
	mac_str(a, seen[0].mac);
	mac_str(b, seen[heard - 1].mac);
	pr_info("net: node=auto: this is node %lu of %lu, by MAC order (%s .. %s)\n", job_node,
		job_nnodes, a, b);
	return 0;
}

unsigned knet_cpus(void)
{
	return job_nnodes > 1 && job_nnodes <= ENG_MAX_NODES && knet.eng ? 1 : 0;
}

int knet_number(void)
{
	if (job_nnodes > ENG_MAX_NODES) {
		pr_err("net: nnodes=%lu; the network engine takes at most %d: no job runs\n",
		       job_nnodes, ENG_MAX_NODES);
		return -1;
	}
	if (!knet.eng) {
		pr_err("net: node=auto numbers the nodes over the network, and this node has none "
		       "(see above): no job runs\n");
		return -1;
	}
	return number_by_mac();
}

/* ---- the engine's CPU ---- */

/* 1 if a frame came in. */
static int receive(void)
{
	const uint8_t *f;
	uint32_t len;
	int got = 0;

	for (int budget = 64; budget-- && (f = nic_rx(&len));) {
		got = 1;
		if (len >= SNET_ETH_HLEN + sizeof(struct snet_hdr) &&
		    (f[12] << 8 | f[13]) == SNET_ETHERTYPE) {
			if (f[SNET_ETH_HLEN + 1] == SNET_HELLO)
				hello_take(f, len);
			else
				eng_input(knet.eng, f + SNET_ETH_HLEN, len - SNET_ETH_HLEN);
		}
		nic_rx_release();
	}
	return got;
}

static void engine_loop(void)
{
	uint64_t hello_at = 0, quiet_since = 0, stop_at = 0;
	unsigned idle = 0;

	irq_disable();
	for (;;) {
		uint64_t now;
		int busy;

		spin_lock(&knet.lock);
		now = eng_plat_now(knet.eng);
		busy = receive();
		if ((!discovery_done() && now - hello_at >= HELLO_US) || knet.hello_due) {
			hello_send((uint32_t)job_node);
			hello_at = now;
			knet.hello_due = 0;
		}
		if (knet.abort_pending) {
			knet.abort_pending = 0;
			eng_job_abort(knet.eng, knet.abort_rank, knet.abort_status);
		}
		if (eng_poll(knet.eng))
			busy = 1;
		if (busy || !eng_idle(knet.eng))
			quiet_since = now;
		if (knet.stop) {
			if (!knet.detached) {
				eng_job_end(knet.eng);
				knet.detached = 1;
				stop_at = quiet_since = now;
			}
			if ((now - quiet_since > LINGER_US && discovery_done()) ||
			    now - stop_at > LINGER_MAX_US) {
				eng_job_leave(knet.eng);
				spin_unlock(&knet.lock);
				break;
			}
		}
		spin_unlock(&knet.lock);
		if (busy) {
			idle = 0;
		} else if (++idle > IDLE_POLLS) {
			apic_timer_at(rdtsc() + ns_to_tsc(NAP_US * 1000));
			cpu_idle();
		} else {
			cpu_relax();
		}
	}
	apic_timer_at(0);
	__atomic_store_n(&knet.running, 0, __ATOMIC_RELEASE);
}

static uint64_t lowest_writable(const struct job *j)
{
	uint64_t lo = UINT64_MAX;

	for (unsigned i = 0; i < j->elf.nsegs; i++)
		if ((j->elf.segs[i].prot & SEG_W) && j->elf.segs[i].vaddr < lo)
			lo = j->elf.segs[i].vaddr & ~(PAGE_SIZE - 1);
	return lo == UINT64_MAX ? j->region_base : lo;
}

unsigned knet_job_begin(struct job *j, unsigned ncpu)
{
	struct eng_job ej = { .id = (uint32_t)net_cluster << 8 | (j->id + 1),
			      .node = (uint32_t)job_node, .nnodes = (uint32_t)job_nnodes,
			      .dead_us = net_dead_ms * 1000, .join_us = net_join_ms * 1000,
			      .watch_all = true };

	if (job_nnodes < 2 || !knet.eng)
		return ncpu;
	if (job_nnodes > ENG_MAX_NODES) {
		pr_err("net: %lu nodes; the network engine takes at most %d\n", job_nnodes,
		       ENG_MAX_NODES);
		return ncpu;
	}
	if (j->nranks >= ncpu) {
		pr_err("net: no CPU to spare for the network engine (give the node one more): "
		       "this job cannot reach other nodes\n");
		return ncpu;
	}
	for (unsigned n = 0; n <= job_nnodes; n++)
		ej.first_rank[n] = n * j->nranks;
	spin_lock(&knet.lock);
	if (eng_job_begin(knet.eng, &ej) < 0) {
		spin_unlock(&knet.lock);
		return ncpu;
	}
	knet.job = j;
	knet.wr_lo = lowest_writable(j);
	knet.stop = knet.detached = knet.abort_pending = 0;
	knet.cpu = ncpu - 1;
	knet.running = 1;
	spin_unlock(&knet.lock);
	__atomic_store_n(&cpus[knet.cpu]->task, engine_loop, __ATOMIC_RELEASE);
	apic_send_ipi(cpus[knet.cpu]->arch.apic_id, IPI_WAKE);
	return ncpu - 1;
}

void knet_job_end(struct job *j)
{
	if (knet.job != j)
		return;
	knet.stop = 1;
	while (__atomic_load_n(&knet.running, __ATOMIC_ACQUIRE))
		cpu_relax();
	knet.job = NULL;
}

void knet_job_failed(struct job *j, int status)
{
	const struct proc *p = this_cpu()->proc;

	if (knet.job != j || knet.abort_pending)
		return;
	/* On the failing rank's CPU when the rank itself failed. */
	knet.abort_rank = (uint32_t)(job_node * j->nranks + (p && p->job == j ? p->rank : 0));
	knet.abort_status = status;
	knet.abort_pending = 1;
}

int knet_watch(struct job *j, int on)
{
	if (knet.job != j || knet.detached)
		return 0;
	eng_watch(knet.eng, on);
	return 1;
}

uint64_t knet_gone(struct job *j)
{
	uint64_t m;

	if (knet.job != j)
		return 0;
	spin_lock(&knet.lock);
	m = eng_gone(knet.eng);
	spin_unlock(&knet.lock);
	return m;
}

long knet_sys_attach(struct proc *p, const uint64_t *a)
{
	long r;

	if (!knet.job || knet.job != p->job || knet.detached)
		return -ENODEV;
	spin_lock(&knet.lock);
	r = eng_attach(knet.eng, p->rank, a[0]);
	spin_unlock(&knet.lock);
	return r;
}
