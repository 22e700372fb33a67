/*
 * hub.c - tools/barrier-hub: the barrier box in software, for smapos
 * nodes under QEMU.
 *
 *   barrier-hub [-v] [--stats] [--stall SECONDS] NODES MOUNTPOINT
 *
 * Mounts a FUSE filesystem with one file per node, node0..node<K-1>, and
 * a read-only `status`.  QEMU opened with
 *   -chardev parallel,id=bar,path=MOUNTPOINT/nodeI -device isa-parallel,chardev=bar
 * forwards its guest's parallel-port register accesses to the node file
 * as the ppdev ioctls a real port would get (PPWDATA, PPRSTATUS, ...),
 * which this program answers from the two-state machine in hubstate.c.
 *
 * One thread serves every request, so the machine needs no lock and
 * each ioctl sees the box exactly as the previous one left it.  The
 * figures the benchmark needs are taken here: o_p, the time from the
 * write that completes a barrier until the last node's status read shows
 * it.  SIGINT, SIGTERM and SIGHUP end the loop and unmount (a hub killed
 * outright leaves a dead mount: `fusermount3 -u -z MOUNTPOINT` clears it,
 * as lwkrun does).
 */
#define FUSE_USE_VERSION 35

#include <errno.h>
#include <fuse.h>
#include <getopt.h>
#include <linux/parport.h>
#include <linux/ppdev.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include "hubstate.h"

#define STATUS_FH	(~(uint64_t)0)
#define STATUS_TEXT	4096

static const char usage[] =
	"usage: barrier-hub [-v] [--stats] [--stall SECONDS] NODES MOUNTPOINT\n"
	"Serves MOUNTPOINT/node0..node<NODES-1> as QEMU parallel-port backends wired to one\n"
	"barrier box (1..256 nodes), and MOUNTPOINT/status.\n"
	"  -v             log every barrier; twice: every OUT line change\n"
	"  --stats        print the box's counters and o_p on exit\n"
	"  --stall S      report the missing nodes of a barrier stuck for S seconds (default 2)\n";

static struct hub hub;
static int verbose, stats;
static uint64_t stall_ns = 2000000000ull;
static uint64_t t0;

static struct {
	uint64_t reads, writes, others;
	uint64_t fire_ns;		/* when the box last changed state */
	uint64_t first_ns;		/* first arrival at the pending barrier */
	int stall_reported;
	unsigned seen;			/* ports whose read showed the last change */
	uint64_t seen_by[HUB_MAX_PORTS];	/* barrier count each port last saw */
	uint64_t op_sum, op_max, op_n;	/* o_p: fire to the last node's read */
} st;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One line, in one write: the nodes' output shares the hub's stderr, and
 * a line written in pieces came out with a node's line inside it. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	uint64_t t = now_ns() - t0;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "barrier-hub: +%llu.%06llu %s\n", (unsigned long long)(t / 1000000000ull),
		(unsigned long long)(t % 1000000000ull / 1000), msg);
}

/* "0,2,5": the ports that have (or have not) entered the pending barrier. */
static void port_list(char *buf, size_t size, int arrived)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < hub.nports && n + 8 < size; i++)
		if (hub_port_arrived(&hub, i) == arrived)
			n += (size_t)snprintf(buf + n, size - n, "%s%u", n ? "," : "", i);
}

static void check_stall(uint64_t t)
{
	char missing[512], there[512];

	if (st.stall_reported || !hub_arrived(&hub) || t - st.first_ns < stall_ns)
		return;
	st.stall_reported = 1;
	port_list(missing, sizeof(missing), 0);
	port_list(there, sizeof(there), 1);
	say("barrier %llu stuck for %.1f s: waiting for node %s (arrived: node %s)",
	    (unsigned long long)hub.barriers + 1, (double)(t - st.first_ns) / 1e9, missing, there);
}

/* A node only backs out of a barrier when its kernel gave up waiting:
 * say which nodes it waited for, as only the box can know. */
static void report_withdrawal(unsigned port, uint64_t t)
{
	char missing[512];

	port_list(missing, sizeof(missing), 0);
	say("node %u gave up on barrier %llu (open for %.1f s); missing: node %s", port,
	    (unsigned long long)hub.barriers + 1, (double)(t - st.first_ns) / 1e9, missing);
}

static void write_data(unsigned port, uint8_t v)
{
	unsigned before = hub_arrived(&hub), was = hub.port[port].data & HUB_OUT_BIT;
	uint64_t t = now_ns();

	st.writes++;
	if (hub_port_arrived(&hub, port) && (v & HUB_OUT_BIT) != was)
		report_withdrawal(port, t);
	if (hub_write_data(&hub, port, v)) {
		st.fire_ns = t;
		st.seen = 0;
		st.stall_reported = 0;
		if (verbose)
			say("barrier %llu complete (node %u last): IN lines %u",
			    (unsigned long long)hub.barriers, port, hub.state);
		return;
	}
	if (!before && hub_arrived(&hub))
		st.first_ns = t;
	if (verbose > 1 && was != (v & HUB_OUT_BIT))
		say("node %u OUT %u: %u of %u in barrier %llu", port, v & HUB_OUT_BIT,
		    hub_arrived(&hub), hub.nports, (unsigned long long)hub.barriers + 1);
}

static uint8_t read_status(unsigned port)
{
	uint64_t t = now_ns();

	st.reads++;
	if (hub.barriers && st.seen_by[port] != hub.barriers) {
		st.seen_by[port] = hub.barriers;
		if (++st.seen == hub.nports) {
			st.op_sum += t - st.fire_ns;
			st.op_n++;
			if (t - st.fire_ns > st.op_max)
				st.op_max = t - st.fire_ns;
		}
	}
	check_stall(t);
	return hub_status(&hub);
}

static int node_of(const char *path, unsigned *port)
{
	char *end;
	unsigned long v;

	if (strncmp(path, "/node", 5) || !path[5])
		return -1;
	v = strtoul(path + 5, &end, 10);
	if (*end || v >= hub.nports || (path[5] == '0' && path[6]))
		return -1;
	*port = (unsigned)v;
	return 0;
}

static int status_text(char *buf, size_t size)
{
	char there[512];

	port_list(there, sizeof(there), 1);
	return snprintf(buf, size,
			"nodes %u\nstate %u\nbarriers %llu\narrived %s\n"
			"status_reads %llu\ndata_writes %llu\n",
			hub.nports, hub.state, (unsigned long long)hub.barriers, there,
			(unsigned long long)st.reads, (unsigned long long)st.writes);
}

static void *hub_fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->direct_io = 1;
	return NULL;
}

static int hub_getattr(const char *path, struct stat *sb, struct fuse_file_info *fi)
{
	unsigned port;

	(void)fi;
	memset(sb, 0, sizeof(*sb));
	if (!strcmp(path, "/")) {
		sb->st_mode = S_IFDIR | 0755;
		sb->st_nlink = 2;
	} else if (!strcmp(path, "/status")) {
		sb->st_mode = S_IFREG | 0444;
		sb->st_nlink = 1;
	} else if (!node_of(path, &port)) {
		sb->st_mode = S_IFREG | 0600;
		sb->st_nlink = 1;
	} else {
		return -ENOENT;
	}
	return 0;
}

static int hub_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		       struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	char name[16];

	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOTDIR;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "status", NULL, 0, 0);
	for (unsigned i = 0; i < hub.nports; i++) {
		snprintf(name, sizeof(name), "node%u", i);
		fill(buf, name, NULL, 0, 0);
	}
	return 0;
}

static int hub_open(const char *path, struct fuse_file_info *fi)
{
	unsigned port;

	if (!strcmp(path, "/status")) {
		if ((fi->flags & O_ACCMODE) != O_RDONLY)
			return -EACCES;
		fi->fh = STATUS_FH;
		return 0;
	}
	if (node_of(path, &port))
		return -ENOENT;
	fi->fh = port;
	return 0;
}

static int hub_read(const char *path, char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	char text[STATUS_TEXT];
	int n;

	(void)path;
	if (fi->fh != STATUS_FH)
		return 0;	/* a port has no byte stream in the modes QEMU uses here */
	n = status_text(text, sizeof(text));
	if (off >= n)
		return 0;
	if ((size_t)(n - off) < size)
		size = (size_t)(n - off);
	memcpy(buf, text + off, size);
	return (int)size;
}

/* Printer-style writes (QEMU's software mode): nothing on the wire. */
static int hub_write(const char *path, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	(void)path;
	(void)buf;
	(void)off;
	return fi->fh == STATUS_FH ? -EBADF : (int)size;
}

static int hub_ioctl(const char *path, unsigned int cmd, void *arg, struct fuse_file_info *fi,
		     unsigned int flags, void *data)
{
	unsigned port = (unsigned)fi->fh;
	uint8_t *byte = data;

	(void)path;
	(void)arg;
	if (fi->fh == STATUS_FH || (flags & FUSE_IOCTL_DIR))
		return -ENOTTY;
	switch (cmd) {
	case PPRSTATUS:
		*byte = read_status(port);
		return 0;
	case PPWDATA:
		write_data(port, *byte);
		return 0;
	case PPRDATA:
		*byte = hub.port[port].data;
		break;
	case PPWCONTROL:
		hub.port[port].control = *byte;
		break;
	case PPRCONTROL:
		*byte = hub.port[port].control;
		break;
	case PPFCONTROL: {
		const struct ppdev_frob_struct *f = data;

		hub.port[port].control = (uint8_t)((hub.port[port].control & ~f->mask) ^ f->val);
		break;
	}
	case PPSETMODE:
		if (*(int *)data != IEEE1284_MODE_COMPAT)
			return -EINVAL;	/* EPP/ECP transfers are not wired */
		break;
	case PPGETMODE:
		*(int *)data = IEEE1284_MODE_COMPAT;
		break;
	case PPDATADIR:
	case PPCLAIM:
	case PPRELEASE:
	case PPEXCL:
	case PPYIELD:
		break;
	default:
		return -ENOTTY;
	}
	st.others++;
	return 0;
}

static const struct fuse_operations hub_ops = {
	.init = hub_fs_init,
	.getattr = hub_getattr,
	.readdir = hub_readdir,
	.open = hub_open,
	.read = hub_read,
	.write = hub_write,
	.ioctl = hub_ioctl,
};

static void print_stats(void)
{
	double op = st.op_n ? (double)st.op_sum / (double)st.op_n / 1e3 : 0;

	fprintf(stderr,
		"barrier-hub: %llu barriers on %u nodes; %llu status reads, %llu data writes, "
		"%llu other ioctls; o_p(%u) mean %.1f us max %.1f us\n",
		(unsigned long long)hub.barriers, hub.nports, (unsigned long long)st.reads,
		(unsigned long long)st.writes, (unsigned long long)st.others, hub.nports, op,
		(double)st.op_max / 1e3);
}

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno || *end || *out > max ? -1 : 0;
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "barrier-hub: %s\n", msg);
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "stats", no_argument, NULL, 's' },
		{ "stall", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse *f;
	unsigned long nodes;
	double secs;
	char *end;
	int c, rc;

	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			verbose++;
			break;
		case 's':
			stats = 1;
			break;
		case 't':
			secs = strtod(optarg, &end);
			if (*end || end == optarg || !(secs > 0 && secs < 1e6))
				return fail("--stall: expected seconds > 0, got '%s'", optarg);
			stall_ns = (uint64_t)(secs * 1e9);
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			return fail("bad option (see barrier-hub --help)");
		}
	}
	if (argc - optind != 2)
		return fail("expected NODES MOUNTPOINT (see barrier-hub --help)");
	if (parse_uint(argv[optind], HUB_MAX_PORTS, &nodes) || hub_init(&hub, (unsigned)nodes))
		return fail("NODES: expected 1..%d, got '%s'", HUB_MAX_PORTS, argv[optind]);

	t0 = now_ns();
	if (fuse_opt_add_arg(&args, argv[0]))
		return fail("out of memory");
	f = fuse_new(&args, &hub_ops, sizeof(hub_ops), NULL);
	if (!f)
		return fail("cannot set up the FUSE filesystem");
	if (fuse_mount(f, argv[optind + 1])) {
		fuse_destroy(f);
		return fail("cannot mount on %s (is it an empty directory? is /dev/fuse there?)",
			    argv[optind + 1]);
	}
	if (fuse_set_signal_handlers(fuse_get_session(f))) {
		fuse_unmount(f);
		fuse_destroy(f);
		return fail("cannot install signal handlers");
	}
	if (verbose)
		say("%lu nodes on %s", nodes, argv[optind + 1]);
	rc = fuse_loop(f);
	fuse_remove_signal_handlers(fuse_get_session(f));
	fuse_unmount(f);
	fuse_destroy(f);
	fuse_opt_free_args(&args);
	if (stats)
		print_stats();
	return rc < 0 ? 1 : 0;
}
