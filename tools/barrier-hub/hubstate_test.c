/*
 * hubstate_test.c - host unit test of the barrier box (hubstate.c):
 * hand-made cases, then the machine against a direct model for 1..64
 * ports under random writes, then K simulated nodes running the node
 * protocol in random interleavings.
 */
#include <stdint.h>
#include <stdio.h>
#include "hubstate.h"
#include "unit.h"

#define MAX_MODEL	64

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned in_line(const struct hub *h)
{
	return hub_status(h) >> HUB_IN_SHIFT & 1;
}

static void test_fixed(void)
{
	static struct hub h;
	int fired = 0;

	CHECK("init_rejects_0_ports", hub_init(&h, 0) < 0, "hub_init(0) accepted");
	CHECK("init_rejects_too_many_ports", hub_init(&h, HUB_MAX_PORTS + 1) < 0,
	      "hub_init(%d) accepted", HUB_MAX_PORTS + 1);
	CHECK("init_accepts_max_ports", hub_init(&h, HUB_MAX_PORTS) == 0,
	      "hub_init(%d) refused", HUB_MAX_PORTS);

	hub_init(&h, 4);
	for (unsigned p = 0; p < 3; p++)
		fired |= hub_write_data(&h, p, 1);
	CHECK("in_stays_low_until_last_arrival", !fired && in_line(&h) == 0 && hub_arrived(&h) == 3,
	      "expected IN 0 with 3 arrived, got fired %d IN %u arrived %u", fired, in_line(&h),
	      hub_arrived(&h));
	fired = hub_write_data(&h, 3, 1);
	CHECK("last_arrival_raises_every_in_line", fired && in_line(&h) == 1 && hub_arrived(&h) == 0,
	      "expected a transition to IN 1, got fired %d IN %u arrived %u", fired, in_line(&h),
	      hub_arrived(&h));
	fired = hub_write_data(&h, 2, 0x01);
	CHECK("rewriting_the_same_level_is_no_arrival", !fired && hub_arrived(&h) == 0,
	      "expected nothing, got fired %d arrived %u", fired, hub_arrived(&h));
	fired = hub_write_data(&h, 2, 0xFF);
	CHECK("other_data_bits_are_ignored", !fired && hub_arrived(&h) == 0 && in_line(&h) == 1,
	      "expected nothing, got fired %d arrived %u", fired, hub_arrived(&h));
	hub_write_data(&h, 0, 0);
	hub_write_data(&h, 0, 1);
	CHECK("leaving_before_the_barrier_completes_withdraws", hub_arrived(&h) == 0 &&
	      !hub_port_arrived(&h, 0), "expected 0 arrived, got %u", hub_arrived(&h));
	for (unsigned p = 0; p < 4; p++)
		fired = hub_write_data(&h, p, 0xAA);
	CHECK("state_1_drops_every_in_line_when_all_out_low", fired && in_line(&h) == 0,
	      "expected IN 0 after all OUT low, got fired %d IN %u", fired, in_line(&h));

	hub_init(&h, 1);
	fired = hub_write_data(&h, 0, 1);
	CHECK("one_port_completes_at_once", fired && in_line(&h) == 1,
	      "expected a transition, got fired %d IN %u", fired, in_line(&h));

	hub_init(&h, 2);
	for (unsigned k = 1; k <= 11; k++) {
		hub_write_data(&h, 0, k & 1);
		hub_write_data(&h, 1, k & 1);
	}
	CHECK("count_lines_show_barriers_mod_8",
	      (hub_status(&h) >> HUB_COUNT_SHIFT & HUB_COUNT_MASK) == 11 % 8 && h.barriers == 11,
	      "expected count 3 (11 barriers), got %u (%llu)",
	      hub_status(&h) >> HUB_COUNT_SHIFT & HUB_COUNT_MASK, (unsigned long long)h.barriers);
}

/* Random writes, mostly arrivals so that barriers complete even with 64
 * ports, compared after each one with the machine recomputed from all
 * OUT lines. */
static void test_model(unsigned n)
{
	static struct hub h;
	unsigned out[MAX_MODEL] = { 0 }, state = 0, step;
	uint64_t barriers = 0;
	char name[64];
	const char *why = NULL;

	hub_init(&h, n);
	for (step = 0; step < 20000 && !why; step++) {
		unsigned p = rnd() % n, all = 1, arrived = 0;
		uint8_t v = (uint8_t)(rnd() & ~1u);
		int fired, want = 0;

		v |= rnd() % 10 ? state ^ 1 : rnd() & 1;
		fired = hub_write_data(&h, p, v);
		out[p] = v & 1;
		for (unsigned i = 0; i < n; i++)
			all &= out[i] == (state ^ 1);
		if (all) {
			state ^= 1;
			barriers++;
			want = 1;
		}
		for (unsigned i = 0; i < n; i++)
			arrived += out[i] != state;
		if (fired != want)
			why = "transition";
		else if (in_line(&h) != state)
			why = "IN line";
		else if (h.barriers != barriers)
			why = "barrier count";
		else if (hub_arrived(&h) != arrived || hub_port_arrived(&h, p) != (out[p] != state))
			why = "arrivals";
	}
	snprintf(name, sizeof(name), "matches_model_%u_ports", n);
	CHECK(name, !why, "%s differs from the model at write %u", why, step);
}

/* K nodes each at some step of the protocol; a random node takes one
 * step at a time.  A node leaving barrier b requires every node to have
 * entered it. */
static int simulate(unsigned n, unsigned rounds, unsigned *bad_n)
{
	static struct hub h;
	unsigned state[MAX_MODEL], done[MAX_MODEL], waiting[MAX_MODEL], entered[MAX_MODEL];
	unsigned finished = 0;

	hub_init(&h, n);
	for (unsigned i = 0; i < n; i++) {
		state[i] = in_line(&h);
		done[i] = entered[i] = waiting[i] = 0;
		hub_write_data(&h, i, (uint8_t)state[i]);
	}
	while (finished < n) {
		unsigned i = rnd() % n;

		if (done[i] == rounds)
			continue;
		if (!waiting[i]) {
			state[i] ^= 1;
			entered[i]++;
			waiting[i] = 1;
			hub_write_data(&h, i, (uint8_t)(state[i] | (rnd() & 0xFE)));
		} else if (in_line(&h) == state[i]) {
			for (unsigned j = 0; j < n; j++)
				if (entered[j] <= done[i]) {
					*bad_n = n;
					return -1;
				}
			waiting[i] = 0;
			if (++done[i] == rounds)
				finished++;
		}
	}
	return h.barriers == rounds ? 0 : (*bad_n = n, -1);
}

int main(void)
{
	unsigned bad = 0;
	int ok = 1;

	test_fixed();
	for (unsigned n = 1; n <= MAX_MODEL; n++)
		test_model(n);
	for (unsigned n = 1; n <= MAX_MODEL && ok; n++)
		ok = simulate(n, 200, &bad) == 0;
	CHECK("protocol_no_node_leaves_early_1_to_64_ports", ok,
	      "expected 200 barriers with no early exit, got a violation with %u ports", bad);
	return unit_failed;
}
