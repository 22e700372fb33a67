/*
 * mpit_topo.c - process topologies and neighborhood collectives:
 * Dims_create, Cartesian grids (coords, rank, shift, sub, get, map),
 * graphs, distributed graphs (adjacent and from scattered edges,
 * parallel edges included), Topo_test, and Neighbor_allgather(v) /
 * alltoall(v, w) blocking, nonblocking and persistent, against values
 * computed here from the grid or graph; and the errors the calls name.
 */
#include <stdlib.h>
#include "mpit.h"

static int wrank, wsize, bad;

#define MAXN 16

static void t_dims(void)
{
	int d[3], err, cls;

	d[0] = d[1] = 0;
	MPI_Dims_create(6, 2, d);
	mpit_expect_int("dims 6,2 [0]", 3, d[0]);
	mpit_expect_int("dims 6,2 [1]", 2, d[1]);
	d[0] = d[1] = d[2] = 0;
	MPI_Dims_create(16, 3, d);
	mpit_expect_int("dims 16,3 [0]", 4, d[0]);
	mpit_expect_int("dims 16,3 [1]", 2, d[1]);
	mpit_expect_int("dims 16,3 [2]", 2, d[2]);
	d[0] = 0;
	d[1] = 3;
	d[2] = 0;
	MPI_Dims_create(24, 3, d);
	mpit_expect_int("dims 24,(0,3,0) [0]", 4, d[0]);
	mpit_expect_int("dims 24,(0,3,0) [1]", 3, d[1]);
	mpit_expect_int("dims 24,(0,3,0) [2]", 2, d[2]);
	d[0] = 0;
	MPI_Dims_create(7, 1, d);
	mpit_expect_int("dims 7,1", 7, d[0]);
	/* The most balanced, not a greedy split (12 x 6); between equally
	 * balanced ones, MPICH's choice (20 x 18 x 14 has the same spread). */
	d[0] = d[1] = 0;
	MPI_Dims_create(72, 2, d);
	mpit_expect_int("dims 72,2 [0]", 9, d[0]);
	mpit_expect_int("dims 72,2 [1]", 8, d[1]);
	d[0] = d[1] = d[2] = 0;
	MPI_Dims_create(5040, 3, d);
	mpit_expect_int("dims 5040,3 [0]", 21, d[0]);
	mpit_expect_int("dims 5040,3 [1]", 16, d[1]);
	mpit_expect_int("dims 5040,3 [2]", 15, d[2]);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	d[0] = 2;
	d[1] = 0;
	err = MPI_Dims_create(7, 2, d);
	MPI_Error_class(err, &cls);
	mpit_expect_int("dims 7 with a fixed 2", MPI_ERR_DIMS, cls);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	bad |= mpit_report("dims_create");
}

/* The rank at coords c of grid dims (row-major), wrapping where periodic. */
static int grid_rank(const int *dims, const int *per, int nd, const int *c)
{
	int i, r = 0, x;

	for (i = 0; i < nd; i++) {
		x = c[i];
		if (x < 0 || x >= dims[i]) {
			if (!per[i])
				return MPI_PROC_NULL;
			x = (x % dims[i] + dims[i]) % dims[i];
		}
		r = r * dims[i] + x;
	}
	return r;
}

static void t_cart(void)
{
	int dims[2] = { 0, 0 }, per[2] = { 1, 0 }, c[2], g[2], gp[2], gc[2], r, i, k, src, dst, t;
	int sb[4], rb[4], nd, sz;
	MPI_Comm cart, dup, row;
	MPI_Request req;

	MPI_Dims_create(wsize, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &cart);
	MPI_Topo_test(cart, &t);
	mpit_expect_int("topo_test cart", MPI_CART, t);
	MPI_Topo_test(MPI_COMM_WORLD, &t);
	mpit_expect_int("topo_test world", MPI_UNDEFINED, t);
	MPI_Cartdim_get(cart, &nd);
	mpit_expect_int("cartdim_get", 2, nd);
	MPI_Comm_rank(cart, &r);
	MPI_Cart_get(cart, 2, g, gp, gc);
	MPI_Cart_coords(cart, r, 2, c);
	for (i = 0; i < 2; i++) {
		mpit_expect_int("cart_get dims", dims[i], g[i]);
		mpit_expect_int("cart_get periods", per[i], gp[i]);
		mpit_expect_int("cart_get coords", c[i], gc[i]);
	}
	mpit_expect_int("coords row-major 0", r / dims[1], c[0]);
	mpit_expect_int("coords row-major 1", r % dims[1], c[1]);
	for (k = 0; k < wsize; k++) {
		int cc[2];

		MPI_Cart_coords(cart, k, 2, cc);
		MPI_Cart_rank(cart, cc, &i);
		mpit_expect_int("cart_rank(cart_coords)", k, i);
	}
	/* A periodic coordinate wraps. */
	c[0] += dims[0];
	MPI_Cart_rank(cart, c, &i);
	mpit_expect_int("cart_rank wraps periodic", r, i);
	c[0] -= dims[0];
	for (k = 0; k < 2; k++)
		for (i = -2; i <= 2; i++) {
			int cs[2] = { c[0], c[1] }, cd[2] = { c[0], c[1] };

			MPI_Cart_shift(cart, k, i, &src, &dst);
			cs[k] -= i;
			cd[k] += i;
			mpit_expect_int("cart_shift source", grid_rank(dims, per, 2, cs), src);
			mpit_expect_int("cart_shift dest", grid_rank(dims, per, 2, cd), dst);
		}
	MPI_Comm_dup(cart, &dup);
	MPI_Topo_test(dup, &t);
	mpit_expect_int("comm_dup keeps the cart", MPI_CART, t);
	MPI_Cart_shift(dup, 0, 1, &src, &dst);
	mpit_expect_int("dup cart_shift", grid_rank(dims, per, 2, (int[]){ c[0] + 1, c[1] }), dst);
	MPI_Comm_free(&dup);
	bad |= mpit_report("cart_create_coords_rank_shift_get_dup");

	/* Rows: remain dimension 1. */
	{
		int rem[2] = { 0, 1 }, rr;

		MPI_Cart_sub(cart, rem, &row);
		MPI_Comm_size(row, &sz);
		MPI_Comm_rank(row, &rr);
		mpit_expect_int("cart_sub size", dims[1], sz);
		mpit_expect_int("cart_sub rank", c[1], rr);
		MPI_Cartdim_get(row, &nd);
		mpit_expect_int("cart_sub ndims", 1, nd);
		MPI_Cart_get(row, 1, g, gp, gc);
		mpit_expect_int("cart_sub dims", dims[1], g[0]);
		mpit_expect_int("cart_sub periods", per[1], gp[0]);
		/* The row's members are the same row of the grid. */
		k = r;
		MPI_Allreduce(MPI_IN_PLACE, &k, 1, MPI_INT, MPI_MIN, row);
		mpit_expect_int("cart_sub row", c[0] * dims[1], k);
		MPI_Comm_free(&row);
	}
	bad |= mpit_report("cart_sub_rows");

	/* Neighbor alltoall: block i goes to neighbor i (per dim: below,
	 * above); block j received comes from neighbor j, which sent it as
	 * its block j ^ 1.  Periodic dims of 1 or 2 have one rank both ways. */
	{
		int nb[4];

		MPI_Cart_shift(cart, 0, 1, &nb[0], &nb[1]);
		MPI_Cart_shift(cart, 1, 1, &nb[2], &nb[3]);
		for (i = 0; i < 4; i++) {
			sb[i] = r * 100 + i;
			rb[i] = -1;
		}
		MPI_Neighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, cart);
		for (i = 0; i < 4; i++)
			mpit_expect_int("neighbor_alltoall cart",
					nb[i] == MPI_PROC_NULL ? -1 : nb[i] * 100 + (i ^ 1), rb[i]);
		for (i = 0; i < 4; i++)
			rb[i] = -1;
		MPI_Ineighbor_allgather(&r, 1, MPI_INT, rb, 1, MPI_INT, cart, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		for (i = 0; i < 4; i++)
			mpit_expect_int("ineighbor_allgather cart", nb[i] == MPI_PROC_NULL ? -1 : nb[i],
					rb[i]);
	}
	bad |= mpit_report("neighbor_alltoall_allgather_cart");
	MPI_Comm_free(&cart);

	/* A 1-d non-periodic line of all but the last rank: the last gets
	 * MPI_COMM_NULL, the ends have MPI_PROC_NULL neighbors. */
	{
		int n = wsize > 1 ? wsize - 1 : 1, p0 = 0;
		MPI_Comm line;

		MPI_Cart_create(MPI_COMM_WORLD, 1, &n, &p0, 1, &line);
		if (wrank >= n) {
			if (line != MPI_COMM_NULL)
				mpit_fail("a rank outside the grid got a communicator");
		} else {
			int cnt[2] = { 1, 2 }, dsp[2] = { 3, 0 }, out[5] = { -1, -1, -1, -1, -1 };
			int v[3] = { wrank, wrank + 50, wrank + 70 }, nsz[2] = { 2, 1 }, ndsp[2] = { 0, 2 };

			MPI_Cart_map(MPI_COMM_WORLD, 1, &n, &p0, &k);
			mpit_expect_int("cart_map", wrank, k);
			/* v form: 2 values go down, 1 goes up; from below 1, above 2. */
			MPI_Ineighbor_alltoallv(v, nsz, ndsp, MPI_INT, out, cnt, dsp, MPI_INT, line, &req);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
			if (wrank > 0)
				mpit_expect_int("alltoallv from below", wrank - 1 + 70, out[3]);
			else
				mpit_expect_int("alltoallv no one below", -1, out[3]);
			if (wrank < n - 1) {
				mpit_expect_int("alltoallv from above [0]", wrank + 1, out[0]);
				mpit_expect_int("alltoallv from above [1]", wrank + 51, out[1]);
			} else {
				mpit_expect_int("alltoallv no one above", -1, out[0]);
			}
			MPI_Comm_free(&line);
		}
		MPI_Cart_map(MPI_COMM_WORLD, 1, &n, &p0, &k);
		mpit_expect_int("cart_map", wrank < n ? wrank : MPI_UNDEFINED, k);
	}
	bad |= mpit_report("cart_line_proc_null_alltoallv");
}

static void t_graph(void)
{
	int index[MAXN], edges[2 * MAXN], i, n = wsize, t, nn, ne, cnt, nb[2], got[2], gi[MAXN],
	    ge[2 * MAXN];
	MPI_Comm g;
	MPI_Request req;

	/* A ring: node i's neighbors are i - 1 and i + 1. */
	for (i = 0; i < n; i++) {
		index[i] = 2 * (i + 1);
		edges[2 * i] = (i + n - 1) % n;
		edges[2 * i + 1] = (i + 1) % n;
	}
	MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g);
	MPI_Topo_test(g, &t);
	mpit_expect_int("topo_test graph", MPI_GRAPH, t);
	MPI_Graphdims_get(g, &nn, &ne);
	mpit_expect_int("graphdims nnodes", n, nn);
	mpit_expect_int("graphdims nedges", 2 * n, ne);
	MPI_Graph_get(g, MAXN, 2 * MAXN, gi, ge);
	for (i = 0; i < n; i++)
		mpit_expect_int("graph_get index", index[i], gi[i]);
	for (i = 0; i < 2 * n; i++)
		mpit_expect_int("graph_get edges", edges[i], ge[i]);
	MPI_Graph_neighbors_count(g, wrank, &cnt);
	mpit_expect_int("graph_neighbors_count", 2, cnt);
	MPI_Graph_neighbors(g, wrank, 2, nb);
	mpit_expect_int("graph_neighbors 0", (wrank + n - 1) % n, nb[0]);
	mpit_expect_int("graph_neighbors 1", (wrank + 1) % n, nb[1]);
	MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &t);
	mpit_expect_int("graph_map", wrank, t);
	i = wrank * 3;
	MPI_Neighbor_allgather(&i, 1, MPI_INT, got, 1, MPI_INT, g);
	mpit_expect_int("neighbor_allgather graph 0", nb[0] * 3, got[0]);
	mpit_expect_int("neighbor_allgather graph 1", nb[1] * 3, got[1]);
	/* Persistent, started twice. */
	MPI_Neighbor_allgather_init(&i, 1, MPI_INT, got, 1, MPI_INT, g, MPI_INFO_NULL, &req);
	for (t = 0; t < 2; t++) {
		i = wrank + t * 1000;
		MPI_Start(&req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		mpit_expect_int("neighbor_allgather_init 0", nb[0] + t * 1000, got[0]);
		mpit_expect_int("neighbor_allgather_init 1", nb[1] + t * 1000, got[1]);
	}
	MPI_Request_free(&req);
	MPI_Comm_free(&g);
	bad |= mpit_report("graph_ring_neighbors_allgather");
}

static void t_dist_graph(void)
{
	int n = wsize, me = wrank, prev = (me + n - 1) % n, next = (me + 1) % n;
	int in[1] = { prev }, inw[1] = { prev + 10 }, out[1] = { next }, outw[1] = { me + 10 };
	int a, b, w, s[4], sw[4], d[4], dw[4], i, t, v[4], got[4];
	MPI_Comm g;

	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, in, inw, 1, out, outw, MPI_INFO_NULL, 0,
				       &g);
	MPI_Topo_test(g, &t);
	mpit_expect_int("topo_test dist_graph", MPI_DIST_GRAPH, t);
	MPI_Dist_graph_neighbors_count(g, &a, &b, &w);
	mpit_expect_int("indegree", 1, a);
	mpit_expect_int("outdegree", 1, b);
	mpit_expect_int("weighted", 1, w);
	MPI_Dist_graph_neighbors(g, 1, s, sw, 1, d, dw);
	mpit_expect_int("source", prev, s[0]);
	mpit_expect_int("source weight", prev + 10, sw[0]);
	mpit_expect_int("dest", next, d[0]);
	mpit_expect_int("dest weight", me + 10, dw[0]);
	v[0] = me * 7;
	got[0] = -1;
	MPI_Neighbor_alltoall(v, 1, MPI_INT, got, 1, MPI_INT, g);
	mpit_expect_int("neighbor_alltoall dist ring", prev * 7, got[0]);
	MPI_Comm_free(&g);
	bad |= mpit_report("dist_graph_create_adjacent_ring");

	/* Scattered edges: rank r names r -> r+1 twice (parallel edges) and,
	 * on rank 0 only, every edge k -> k+2 for all k (unweighted). */
	{
		int *src = malloc((n + 1) * sizeof(int)), *deg = malloc((n + 1) * sizeof(int));
		int *dst = malloc((2 * n + 2) * sizeof(int)), ns = 0, ne = 0, nin, nout;
		MPI_Datatype types[4] = { MPI_INT, MPI_INT, MPI_INT, MPI_INT };
		int cnt[4] = { 1, 1, 1, 1 };
		MPI_Aint sd[4], rd[4];

		src[ns] = me;
		deg[ns++] = 2;
		dst[ne++] = next;
		dst[ne++] = next;
		if (me == 0)
			for (i = 0; i < n; i++) {
				src[ns] = i;
				deg[ns++] = 1;
				dst[ne++] = (i + 2) % n;
			}
		MPI_Dist_graph_create(MPI_COMM_WORLD, ns, src, deg, dst, MPI_UNWEIGHTED,
				      MPI_INFO_NULL, 0, &g);
		MPI_Dist_graph_neighbors_count(g, &nin, &nout, &w);
		mpit_expect_int("dist_graph_create indegree", 3, nin);
		mpit_expect_int("dist_graph_create outdegree", 3, nout);
		mpit_expect_int("dist_graph_create unweighted", 0, w);
		MPI_Dist_graph_neighbors(g, 4, s, MPI_UNWEIGHTED, 4, d, MPI_UNWEIGHTED);
		/* Each end lists its edges by peer, parallel edges in order. */
		{
			int e_in[3] = { prev, prev, (me + n - 2) % n }, e_out[3] = { next, next, (me + 2) % n };
			int x;

			for (i = 0; i < 3; i++) {
				int j;

				for (j = i + 1; j < 3; j++) {
					if (e_in[j] < e_in[i])
						x = e_in[i], e_in[i] = e_in[j], e_in[j] = x;
					if (e_out[j] < e_out[i])
						x = e_out[i], e_out[i] = e_out[j], e_out[j] = x;
				}
			}
			for (i = 0; i < 3; i++) {
				mpit_expect_int("dist_graph_create sources", e_in[i], s[i]);
				mpit_expect_int("dist_graph_create dests", e_out[i], d[i]);
			}
		}
		/* Alltoallw along them: each out edge k carries me*10 + k; the
		 * parallel edges' values must arrive in order. */
		for (i = 0; i < 3; i++) {
			v[i] = me * 10 + i;
			got[i] = -1;
			sd[i] = i * (MPI_Aint)sizeof(int);
			rd[i] = (2 - i) * (MPI_Aint)sizeof(int);
		}
		MPI_Neighbor_alltoallw(v, cnt, sd, types, got, cnt, rd, types, g);
		for (i = 0; i < 3; i++) {
			/* In-edge i comes from s[i]; it is that rank's out-edge
			 * number k where its dests list has me, counting repeats. */
			int from = s[i], k, seen = 0, want = -1, fd[3] = { (from + 1) % n, (from + 1) % n,
									   (from + 2) % n }, j, x, rep = 0;

			for (j = 0; j < i; j++)
				if (s[j] == from)
					rep++;
			for (j = 0; j < 3; j++)
				for (k = j + 1; k < 3; k++)
					if (fd[k] < fd[j])
						x = fd[j], fd[j] = fd[k], fd[k] = x;
			for (k = 0; k < 3; k++)
				if (fd[k] == me && seen++ == rep)
					want = from * 10 + k;
			mpit_expect_int("neighbor_alltoallw dist parallel edges", want, got[2 - i]);
		}
		MPI_Comm_free(&g);
		free(src);
		free(deg);
		free(dst);
	}
	bad |= mpit_report("dist_graph_create_parallel_edges_alltoallw");
}

static void t_errors(void)
{
	int err, cls, dims[1] = { wsize + 1 }, per[1] = { 0 }, a, b, c[1];
	MPI_Comm cm = MPI_COMM_NULL;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	err = MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &cm);
	MPI_Error_class(err, &cls);
	mpit_expect_int("cart_create larger than the communicator", MPI_ERR_ARG, cls);
	err = MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &a, &b);
	MPI_Error_class(err, &cls);
	mpit_expect_int("cart_shift without a topology", MPI_ERR_TOPOLOGY, cls);
	dims[0] = -1;
	err = MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &cm);
	MPI_Error_class(err, &cls);
	mpit_expect_int("cart_create negative dim", MPI_ERR_DIMS, cls);
	dims[0] = wsize;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &cm);
	MPI_Comm_set_errhandler(cm, MPI_ERRORS_RETURN);
	c[0] = wsize;
	err = MPI_Cart_rank(cm, c, &a);
	MPI_Error_class(err, &cls);
	mpit_expect_int("cart_rank outside a non-periodic dim", MPI_ERR_ARG, cls);
	err = MPI_Graphdims_get(cm, &a, &b);
	MPI_Error_class(err, &cls);
	mpit_expect_int("graphdims_get on a cart", MPI_ERR_TOPOLOGY, cls);
	err = MPI_Neighbor_allgather(&a, 1, MPI_INT, &b, 1, MPI_INT, MPI_COMM_WORLD);
	MPI_Error_class(err, &cls);
	mpit_expect_int("neighbor_allgather without a topology", MPI_ERR_TOPOLOGY, cls);
	MPI_Comm_free(&cm);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	bad |= mpit_report("topology_errors");
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
	MPI_Comm_size(MPI_COMM_WORLD, &wsize);
	if (wsize > MAXN) {
		if (wrank == 0)
			printf("1..0 # more than %d ranks\n", MAXN);
		MPI_Finalize();
		return 0;
	}
	t_dims();
	t_cart();
	t_graph();
	t_dist_graph();
	t_errors();
	MPI_Finalize();
	return bad;
}
