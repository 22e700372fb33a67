/*
 * switch.c - the Ethernet switch between QEMU nodes (lwkrun --nodes K).
 *
 * QEMU's `-netdev stream` connects each node's NIC to a Unix-domain
 * stream socket and sends every frame as a 4-byte big-endian length and
 * the frame.  The switch listens on one such socket, takes K connections
 * (ports), learns which source MAC lives on which port, forwards unicast
 * frames to their port and floods broadcasts and unknown destinations.
 * It is also the fault injector: --drop P loses P percent of the frames
 * it would forward (every direction, every node), --dup and --corrupt
 * duplicate or flip a byte of some, all from --seed.  --mtu N makes it a
 * switch without jumbo frames (N = 1500): a frame of more than N bytes
 * after its Ethernet header is lost, as such a switch loses it.  Nothing
 * here uses an IP address: only the Unix socket lwkrun gives.
 *
 * usage: switch --sock PATH --ports K [--drop P] [--dup P] [--corrupt P]
 *               [--mtu N] [--seed N]
 * On SIGTERM/SIGINT it prints its counters on stderr and exits 0.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_PORTS	64
#define MAX_FRAME	65536
#define MACS		256

struct port {
	int fd;
	size_t have;			/* bytes of the current record in buf */
	uint8_t buf[4 + MAX_FRAME];
};

static struct port ports[MAX_PORTS];
static unsigned nports, want_ports;
static struct { uint8_t mac[6]; int port; } macs[MACS];
static unsigned nmacs;
static double drop_p, dup_p, corrupt_p;
static unsigned long mtu = MAX_FRAME;
static unsigned long long n_in, n_out, n_drop, n_dup, n_corrupt, n_flood, n_big;
static unsigned long long bytes_in;	/* frames' bytes, without the length words */
static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static int chance(double pct)
{
	return pct > 0 && (double)random() / ((double)RAND_MAX + 1) * 100.0 < pct;
}

static int mac_port(const uint8_t *mac)
{
	for (unsigned i = 0; i < nmacs; i++)
		if (!memcmp(macs[i].mac, mac, 6))
			return macs[i].port;
	return -1;
}

static void learn(const uint8_t *mac, int port)
{
	if (mac[0] & 1)
		return;		/* a group address is never a source */
	for (unsigned i = 0; i < nmacs; i++)
		if (!memcmp(macs[i].mac, mac, 6)) {
			macs[i].port = port;
			return;
		}
	if (nmacs < MACS) {
		memcpy(macs[nmacs].mac, mac, 6);
		macs[nmacs++].port = port;
	}
}

static void put_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;		/* that node is gone: the others go on */
		p += w;
		n -= (size_t)w;
	}
}

static void send_to(int to, uint8_t *rec, size_t len)
{
	if (chance(drop_p)) {
		n_drop++;
		return;
	}
	if (chance(corrupt_p) && len > 4 + 14) {
		rec[4 + 14 + (size_t)random() % (len - 4 - 14)] ^= 0x5a;
		n_corrupt++;
	}
	put_all(ports[to].fd, rec, len);
	n_out++;
	if (chance(dup_p)) {
		put_all(ports[to].fd, rec, len);
		n_dup++;
	}
}

static void forward(unsigned from, uint8_t *rec, size_t len)
{
	const uint8_t *frame = rec + 4;
	int to;

	n_in++;
	bytes_in += len - 4;
	if (len < 4 + 14)
		return;
	if (len - 4 - 14 > mtu) {
		n_big++;
		return;
	}
	learn(frame + 6, (int)from);
	to = (frame[0] & 1) ? -1 : mac_port(frame);
	if (to >= 0) {
		if ((unsigned)to != from)
			send_to(to, rec, len);
		return;
	}
	n_flood++;
	for (unsigned p = 0; p < nports; p++)
		if (p != from && ports[p].fd >= 0)
			send_to((int)p, rec, len);
}

/* Reads what port p has; forwards every complete record.  -1: closed. */
static int drain(unsigned p)
{
	struct port *pt = &ports[p];
	ssize_t r = read(pt->fd, pt->buf + pt->have, sizeof(pt->buf) - pt->have);

	if (r <= 0)
		return r < 0 && errno == EINTR ? 0 : -1;
	pt->have += (size_t)r;
	while (pt->have >= 4) {
		size_t len = (size_t)pt->buf[0] << 24 | pt->buf[1] << 16 | pt->buf[2] << 8 | pt->buf[3];

		if (len > MAX_FRAME)
			return -1;
		if (pt->have < 4 + len)
			break;
		forward(p, pt->buf, 4 + len);
		memmove(pt->buf, pt->buf + 4 + len, pt->have - 4 - len);
		pt->have -= 4 + len;
	}
	return 0;
}

static double pct_arg(const char *opt, const char *v)
{
	char *end;
	double x = strtod(v, &end);

	if (*end || x < 0 || x > 100) {
		fprintf(stderr, "switch: %s: expected a percentage, got '%s'\n", opt, v);
		exit(2);
	}
	return x;
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	unsigned long seed = 1;
	int lfd;

	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v) {
			fprintf(stderr, "switch: %s needs a value\n", argv[i]);
			return 2;
		}
		if (!strcmp(argv[i], "--sock"))
			path = v;
		else if (!strcmp(argv[i], "--ports"))
			want_ports = (unsigned)atoi(v);
		else if (!strcmp(argv[i], "--drop"))
			drop_p = pct_arg(argv[i], v);
		else if (!strcmp(argv[i], "--dup"))
			dup_p = pct_arg(argv[i], v);
		else if (!strcmp(argv[i], "--corrupt"))
			corrupt_p = pct_arg(argv[i], v);
		else if (!strcmp(argv[i], "--mtu"))
			mtu = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoul(v, NULL, 0);
		else {
			fprintf(stderr, "switch: unknown option %s\n", argv[i]);
			return 2;
		}
		i++;
	}
	if (!path || want_ports < 1 || want_ports > MAX_PORTS ||
	    strlen(path) >= sizeof(sa.sun_path) || mtu < 64) {
		fprintf(stderr, "usage: switch --sock PATH --ports K (1..%d) [--drop P] [--dup P] "
				"[--corrupt P] [--mtu N (64 or more)] [--seed N]\n", MAX_PORTS);
		return 2;
	}
	srandom((unsigned)seed);
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	signal(SIGPIPE, SIG_IGN);
	strcpy(sa.sun_path, path);
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	unlink(path);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, MAX_PORTS) < 0) {
		fprintf(stderr, "switch: %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (!stop) {
		struct pollfd pf[MAX_PORTS + 1];
		unsigned n = 0;

		if (nports < want_ports)
			pf[n++] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		for (unsigned p = 0; p < nports; p++)
			pf[n++] = (struct pollfd){ .fd = ports[p].fd, .events = POLLIN };
		if (poll(pf, n, 500) < 0)
			continue;
		for (unsigned k = 0; k < n; k++) {
			if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (pf[k].fd == lfd) {
				int fd = accept(lfd, NULL, NULL);

				if (fd >= 0)
					ports[nports++] = (struct port){ .fd = fd };
				continue;
			}
			for (unsigned p = 0; p < nports; p++)
				if (ports[p].fd == pf[k].fd && drain(p) < 0) {
					close(ports[p].fd);
					ports[p].fd = -1;
				}
		}
	}
	fprintf(stderr, "switch: %llu frames in, %llu out, %llu flooded, %llu dropped, "
			"%llu duplicated, %llu corrupted, %llu over the MTU; %llu bytes in\n", n_in, n_out,
		n_flood, n_drop, n_dup, n_corrupt, n_big, bytes_in);
	unlink(path);
	return 0;
}
