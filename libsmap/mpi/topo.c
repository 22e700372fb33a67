/*
 * topo.c - process topologies (Cartesian, graph, distributed graph) and
 * the neighborhood collectives on them.
 *
 * A topology is a description cached on its communicator (comm->topo),
 * copied by MPI_Comm_dup and freed with the communicator.  Constructors
 * make the communicator with MPI_Comm_split (rank order kept: `reorder`
 * is allowed to change nothing, and on one node's shared memory no
 * placement is better than another); MPI_Dist_graph_create moves each
 * edge to both of its ends with one MPI_Alltoallv.  Neighborhood
 * collectives are one round of a schedule (nbc.h): a send to every
 * out-neighbor and a receive from every in-neighbor.
 */
#include <stdlib.h>
#include <string.h>
#include "nbc.h"

char smpi_weights_empty[1];

struct smpi_topo {
	int kind;		/* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
	int ndims;		/* cart: dims, periods, coords of this rank */
	int *dims, *periods, *coords;
	int nnodes, nedges;	/* graph: index[nnodes], edges[nedges] */
	int *index, *edges;
	int indeg, outdeg;	/* dist graph: in, inw, out, outw */
	int weighted;
	int *in, *inw, *out, *outw;
	int n;			/* ints at mem */
	int mem[];
};

static struct smpi_topo *topo_new(int kind, int n)
{
	struct smpi_topo *t = calloc(1, sizeof *t + (n ? n : 1) * sizeof(int));

	if (!t)
		smpi_fatal("MPI: no memory for a topology of %d entries", n);
	t->kind = kind;
	t->n = n;
	return t;
}

/* Points the arrays of t into its memory, in the order they are laid out. */
static void topo_layout(struct smpi_topo *t)
{
	int *p = t->mem;

	if (t->kind == MPI_CART) {
		t->dims = p;
		t->periods = p + t->ndims;
		t->coords = p + 2 * t->ndims;
	} else if (t->kind == MPI_GRAPH) {
		t->index = p;
		t->edges = p + t->nnodes;
	} else {
		t->in = p;
		t->inw = p + t->indeg;
		t->out = p + 2 * t->indeg;
		t->outw = p + 2 * t->indeg + t->outdeg;
	}
}

int smpi_topo_kind(const struct smpi_topo *t)
{
	return t ? t->kind : MPI_UNDEFINED;
}

void smpi_topo_free(struct smpi_topo *t)
{
	free(t);
}

struct smpi_topo *smpi_topo_dup(const struct smpi_topo *t)
{
	struct smpi_topo *c;

	if (!t)
		return NULL;
	c = topo_new(t->kind, t->n);
	memcpy(c, t, sizeof *t + t->n * sizeof(int));
	topo_layout(c);
	return c;
}

/* MPI_SUCCESS if comm is valid and has a topology of kind (0: any). */
static int topo_get(MPI_Comm comm, int kind, const char *fn)
{
	static const char *const names[] = { "", "graph", "Cartesian", "distributed graph" };
	int err;

	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)) ||
	    (err = smpi_intra_check(comm, fn)))
		return err;
	if (!comm->topo)
		return smpi_err(comm, MPI_ERR_TOPOLOGY, fn, "the communicator has no topology");
	if (kind && comm->topo->kind != kind)
		return smpi_err(comm, MPI_ERR_TOPOLOGY, fn, "the communicator's topology is not %s",
				names[kind]);
	return MPI_SUCCESS;
}

/* The communicator of the first n ranks of comm, in order (NULL for the rest). */
static int topo_comm(MPI_Comm comm, int n, MPI_Comm *out)
{
	return PMPI_Comm_split(comm, comm->rank < n ? 0 : MPI_UNDEFINED, comm->rank, out);
}

/* ---- Cartesian ---- */

static void cart_coords(const int *dims, int ndims, int rank, int *coords)
{
	int i;

	for (i = ndims - 1; i >= 0; i--) {
		coords[i] = rank % dims[i];
		rank /= dims[i];
	}
}

/* Checks ndims and dims; *n gets the number of nodes. */
static int cart_check(MPI_Comm comm, int ndims, const int *dims, const int *periods, int64_t *n,
		      const char *fn)
{
	int i;

	if (ndims < 0)
		return smpi_err(comm, MPI_ERR_DIMS, fn, "ndims %d is negative", ndims);
	if (ndims && (!dims || !periods))
		return smpi_err(comm, MPI_ERR_ARG, fn, "dims or periods is NULL");
	*n = 1;
	for (i = 0; i < ndims; i++) {
		if (dims[i] <= 0)
			return smpi_err(comm, MPI_ERR_DIMS, fn, "dims[%d] is %d", i, dims[i]);
		*n *= dims[i];
		if (*n > comm->size)
			break;
	}
	if (*n > comm->size)
		return smpi_err(comm, MPI_ERR_ARG, fn,
				"the grid has more nodes than the communicator's %d ranks", comm->size);
	return MPI_SUCCESS;
}

/* Caches a Cartesian topology of ndims dims on c (a new communicator). */
static void cart_attach(MPI_Comm c, int ndims, const int *dims, const int *periods)
{
	struct smpi_topo *t = topo_new(MPI_CART, 3 * ndims);
	int i;

	t->ndims = ndims;
	topo_layout(t);
	for (i = 0; i < ndims; i++) {
		t->dims[i] = dims[i];
		t->periods[i] = periods[i] != 0;
	}
	cart_coords(t->dims, ndims, c->rank, t->coords);
	c->topo = t;
}

int PMPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
		     MPI_Comm *comm_cart)
{
	const char *fn = "MPI_Cart_create";
	int64_t n;
	int err;

	(void)reorder;
	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)) ||
	    (err = smpi_intra_check(comm, fn)) ||
	    (err = cart_check(comm, ndims, dims, periods, &n, fn)))
		return err;
	if (!comm_cart)
		return smpi_err(comm, MPI_ERR_ARG, fn, "comm_cart pointer is NULL");
	if ((err = topo_comm(comm, (int)n, comm_cart)))
		return err;
	if (*comm_cart != MPI_COMM_NULL)
		cart_attach(*comm_cart, ndims, dims, periods);
	return MPI_SUCCESS;
}

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
	const char *fn = "MPI_Cart_map";
	int64_t n;
	int err;

	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)) ||
	    (err = smpi_intra_check(comm, fn)) ||
	    (err = cart_check(comm, ndims, dims, periods, &n, fn)))
		return err;
	if (!newrank)
		return smpi_err(comm, MPI_ERR_ARG, fn, "newrank pointer is NULL");
	*newrank = comm->rank < n ? comm->rank : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
	int err;

	if ((err = topo_get(comm, MPI_CART, "MPI_Cartdim_get")))
		return err;
	if (!ndims)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Cartdim_get", "ndims pointer is NULL");
	*ndims = comm->topo->ndims;
	return MPI_SUCCESS;
}

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
	struct smpi_topo *t;
	int i, err;

	if ((err = topo_get(comm, MPI_CART, "MPI_Cart_get")))
		return err;
	t = comm->topo;
	if (maxdims < t->ndims)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Cart_get",
				"maxdims %d is less than the %d dimensions", maxdims, t->ndims);
	for (i = 0; i < t->ndims; i++) {
		dims[i] = t->dims[i];
		periods[i] = t->periods[i];
		coords[i] = t->coords[i];
	}
	return MPI_SUCCESS;
}

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
	struct smpi_topo *t;
	int i, r = 0, err;

	if ((err = topo_get(comm, MPI_CART, "MPI_Cart_rank")))
		return err;
	t = comm->topo;
	for (i = 0; i < t->ndims; i++) {
		int c = coords[i];

		if (t->periods[i])
			c = ((c % t->dims[i]) + t->dims[i]) % t->dims[i];
		else if (c < 0 || c >= t->dims[i])
			return smpi_err(comm, MPI_ERR_ARG, "MPI_Cart_rank",
					"coordinate %d of dimension %d is outside 0..%d", c, i,
					t->dims[i] - 1);
		r = r * t->dims[i] + c;
	}
	*rank = r;
	return MPI_SUCCESS;
}

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
	struct smpi_topo *t;
	int err;

	if ((err = topo_get(comm, MPI_CART, "MPI_Cart_coords")))
		return err;
	t = comm->topo;
	if (rank < 0 || rank >= comm->size)
		return smpi_err(comm, MPI_ERR_RANK, "MPI_Cart_coords", "rank %d is not in 0..%d", rank,
				comm->size - 1);
	if (maxdims < t->ndims)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Cart_coords",
				"maxdims %d is less than the %d dimensions", maxdims, t->ndims);
	cart_coords(t->dims, t->ndims, rank, coords);
	return MPI_SUCCESS;
}

/* The rank at this rank's coordinates moved by disp along dim d, or
 * MPI_PROC_NULL off the edge of a non-periodic dimension. */
static int cart_step(const struct smpi_topo *t, int d, int disp)
{
	int c = t->coords[d] + disp, r = 0, i;

	if (t->periods[d])
		c = ((c % t->dims[d]) + t->dims[d]) % t->dims[d];
	else if (c < 0 || c >= t->dims[d])
		return MPI_PROC_NULL;
	for (i = 0; i < t->ndims; i++)
		r = r * t->dims[i] + (i == d ? c : t->coords[i]);
	return r;
}

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *source, int *dest)
{
	struct smpi_topo *t;
	int err;

	if ((err = topo_get(comm, MPI_CART, "MPI_Cart_shift")))
		return err;
	t = comm->topo;
	if (direction < 0 || direction >= t->ndims)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Cart_shift",
				"direction %d is not a dimension of %d", direction, t->ndims);
	if (!source || !dest)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Cart_shift", "source or dest pointer is NULL");
	*source = cart_step(t, direction, -disp);
	*dest = cart_step(t, direction, disp);
	return MPI_SUCCESS;
}

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
	struct smpi_topo *t;
	int i, n = 0, color = 0, key = 0, err;
	int *dims, *periods;

	if ((err = topo_get(comm, MPI_CART, "MPI_Cart_sub")))
		return err;
	t = comm->topo;
	if (!newcomm || (t->ndims && !remain_dims))
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Cart_sub", "remain_dims or newcomm is NULL");
	dims = malloc(2 * (t->ndims + 1) * sizeof(int));
	if (!dims)
		smpi_fatal("MPI_Cart_sub: no memory");
	periods = dims + t->ndims + 1;
	/* Members that agree on every dropped coordinate share a sub-grid,
	 * ordered by their remaining coordinates. */
	for (i = 0; i < t->ndims; i++) {
		if (remain_dims[i]) {
			key = key * t->dims[i] + t->coords[i];
			dims[n] = t->dims[i];
			periods[n++] = t->periods[i];
		} else {
			color = color * t->dims[i] + t->coords[i];
		}
	}
	err = PMPI_Comm_split(comm, color, key, newcomm);
	if (!err)
		cart_attach(*newcomm, n, dims, periods);
	free(dims);
	return err;
}

/*
 * The most balanced split of n into k factors, in non-increasing order:
 * the smallest difference between the largest and the smallest (MPI asks
 * for dims "as close to each other as possible").  Between equally
 * balanced splits, the one MPICH returns (its test checks 75,000 cases):
 * the search fills the factors from the smallest up, each candidate in
 * increasing order, the last two as the most balanced pair of what is
 * left, and a later find replaces an equal one.
 */
struct dims_search {
	int k;
	int *cur, *best;
	int64_t bal;		/* of best; -1 while there is none */
};

static void dims_take(struct dims_search *ds, int64_t bal)
{
	if (ds->bal < 0 || bal <= ds->bal) {
		ds->bal = bal;
		memcpy(ds->best, ds->cur, ds->k * sizeof(int));
	}
}

/* Factors pos, pos - 1, ..., 0 of n, each at least lo. */
static void dims_dfs(struct dims_search *ds, int pos, int64_t n, int64_t lo)
{
	int64_t f, p, q = 0, g = 0;
	int j;

	if (pos == 0) {
		if (n >= lo) {
			ds->cur[0] = (int)n;
			dims_take(ds, n - ds->cur[ds->k - 1]);
		}
		return;
	}
	if (pos == 1) {
		for (f = lo; f * f <= n; f++)
			if (n % f == 0)
				g = f;
		if (!g)
			return;
		q = n / g;
		ds->cur[1] = (int)g;
		ds->cur[0] = (int)q;
		dims_take(ds, q - ds->cur[ds->k - 1]);
		return;
	}
	for (f = lo; ; f++) {
		for (p = 1, j = 0; j <= pos && p <= n; j++)
			p *= f;
		if (p > n)
			break;
		if (pos < ds->k - 1 && ds->bal >= 0 && f - ds->cur[ds->k - 1] > ds->bal)
			break;
		if (n % f)
			continue;
		ds->cur[pos] = (int)f;
		dims_dfs(ds, pos - 1, n / f, f);
	}
}

int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
	const char *fn = "MPI_Dims_create";
	int i, j, left = nnodes, nfree = 0;
	struct dims_search ds;

	if (ndims < 0)
		return smpi_err(NULL, MPI_ERR_DIMS, fn, "ndims %d is negative", ndims);
	if (nnodes <= 0)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "nnodes %d is not positive", nnodes);
	if (ndims && !dims)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "dims is NULL");
	for (i = 0; i < ndims; i++) {
		if (dims[i] < 0)
			return smpi_err(NULL, MPI_ERR_DIMS, fn, "dims[%d] is %d", i, dims[i]);
		if (dims[i] == 0)
			nfree++;
		else if (left % dims[i])
			return smpi_err(NULL, MPI_ERR_DIMS, fn,
					"%d nodes do not divide into the dimensions given", nnodes);
		else
			left /= dims[i];
	}
	if (!nfree) {
		if (left != 1)
			return smpi_err(NULL, MPI_ERR_DIMS, fn,
					"the dimensions given make %d nodes, not %d", nnodes / left, nnodes);
		return MPI_SUCCESS;
	}
	ds.k = nfree;
	ds.cur = malloc(2 * nfree * sizeof(int));
	if (!ds.cur)
		smpi_fatal("%s: no memory", fn);
	ds.best = ds.cur + nfree;
	ds.bal = -1;
	dims_dfs(&ds, nfree - 1, left, 1);
	for (i = 0, j = 0; i < ndims; i++)
		if (dims[i] == 0)
			dims[i] = ds.best[j++];
	free(ds.cur);
	return MPI_SUCCESS;
}

/* ---- graph ---- */

static int graph_check(MPI_Comm comm, int nnodes, const int *index, const int *edges,
		       const char *fn)
{
	int i;

	if (nnodes < 0 || nnodes > comm->size)
		return smpi_err(comm, MPI_ERR_ARG, fn, "nnodes %d is not in 0..%d", nnodes,
				comm->size);
	if (nnodes && (!index || !edges))
		return smpi_err(comm, MPI_ERR_ARG, fn, "index or edges is NULL");
	for (i = 0; i < nnodes; i++)
		if (index[i] < (i ? index[i - 1] : 0))
			return smpi_err(comm, MPI_ERR_ARG, fn, "index[%d] = %d decreases", i, index[i]);
	for (i = 0; i < (nnodes ? index[nnodes - 1] : 0); i++)
		if (edges[i] < 0 || edges[i] >= nnodes)
			return smpi_err(comm, MPI_ERR_ARG, fn, "edges[%d] = %d is not a node", i,
					edges[i]);
	return MPI_SUCCESS;
}

int PMPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[],
		      int reorder, MPI_Comm *comm_graph)
{
	const char *fn = "MPI_Graph_create";
	struct smpi_topo *t;
	int err, ne;

	(void)reorder;
	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)) ||
	    (err = smpi_intra_check(comm, fn)) ||
	    (err = graph_check(comm, nnodes, index, edges, fn)))
		return err;
	if (!comm_graph)
		return smpi_err(comm, MPI_ERR_ARG, fn, "comm_graph pointer is NULL");
	if ((err = topo_comm(comm, nnodes, comm_graph)))
		return err;
	if (*comm_graph == MPI_COMM_NULL)
		return MPI_SUCCESS;
	ne = index[nnodes - 1];
	t = topo_new(MPI_GRAPH, nnodes + ne);
	t->nnodes = nnodes;
	t->nedges = ne;
	topo_layout(t);
	memcpy(t->index, index, nnodes * sizeof(int));
	memcpy(t->edges, edges, ne * sizeof(int));
	(*comm_graph)->topo = t;
	return MPI_SUCCESS;
}

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank)
{
	const char *fn = "MPI_Graph_map";
	int err;

	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)) ||
	    (err = smpi_intra_check(comm, fn)) ||
	    (err = graph_check(comm, nnodes, index, edges, fn)))
		return err;
	*newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
	int err;

	if ((err = topo_get(comm, MPI_GRAPH, "MPI_Graphdims_get")))
		return err;
	*nnodes = comm->topo->nnodes;
	*nedges = comm->topo->nedges;
	return MPI_SUCCESS;
}

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
	struct smpi_topo *t;
	int err;

	if ((err = topo_get(comm, MPI_GRAPH, "MPI_Graph_get")))
		return err;
	t = comm->topo;
	if (maxindex < t->nnodes || maxedges < t->nedges)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Graph_get",
				"room for %d nodes and %d edges; the graph has %d and %d", maxindex,
				maxedges, t->nnodes, t->nedges);
	memcpy(index, t->index, t->nnodes * sizeof(int));
	memcpy(edges, t->edges, t->nedges * sizeof(int));
	return MPI_SUCCESS;
}

/* The first edge of node rank and how many it has. */
static int graph_node(MPI_Comm comm, int rank, int *n, const char *fn)
{
	const struct smpi_topo *t = comm->topo;
	int first;

	if (rank < 0 || rank >= t->nnodes) {
		smpi_err(comm, MPI_ERR_RANK, fn, "rank %d is not a node of the graph", rank);
		return -1;
	}
	first = rank ? t->index[rank - 1] : 0;
	*n = t->index[rank] - first;
	return first;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
	const char *fn = "MPI_Graph_neighbors_count";
	int err;

	if ((err = topo_get(comm, MPI_GRAPH, fn)))
		return err;
	if (graph_node(comm, rank, nneighbors, fn) < 0)
		return MPI_ERR_RANK;
	return MPI_SUCCESS;
}

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
	const char *fn = "MPI_Graph_neighbors";
	int err, first, n;

	if ((err = topo_get(comm, MPI_GRAPH, fn)))
		return err;
	if ((first = graph_node(comm, rank, &n, fn)) < 0)
		return MPI_ERR_RANK;
	if (maxneighbors < n)
		return smpi_err(comm, MPI_ERR_ARG, fn, "room for %d neighbors; rank %d has %d",
				maxneighbors, rank, n);
	memcpy(neighbors, comm->topo->edges + first, n * sizeof(int));
	return MPI_SUCCESS;
}

/* ---- distributed graph ---- */

static int dist_ranks(MPI_Comm comm, int n, const int *r, const char *what, const char *fn)
{
	int i;

	if (n < 0)
		return smpi_err(comm, MPI_ERR_ARG, fn, "%s degree %d is negative", what, n);
	if (n && !r)
		return smpi_err(comm, MPI_ERR_ARG, fn, "%s array is NULL", what);
	for (i = 0; i < n; i++)
		if (r[i] < 0 || r[i] >= comm->size)
			return smpi_err(comm, MPI_ERR_RANK, fn, "%s[%d] = %d is not a rank of %d", what,
					i, r[i], comm->size);
	return MPI_SUCCESS;
}

static int dist_weighted(const int *w)
{
	return w != MPI_UNWEIGHTED;
}

/* Caches a distributed graph on c; weights may be MPI_UNWEIGHTED or
 * MPI_WEIGHTS_EMPTY (then every weight is 1). */
static void dist_attach(MPI_Comm c, int indeg, const int *in, const int *inw, int outdeg,
			const int *out, const int *outw, int weighted)
{
	struct smpi_topo *t = topo_new(MPI_DIST_GRAPH, 2 * (indeg + outdeg));
	int i;

	t->indeg = indeg;
	t->outdeg = outdeg;
	t->weighted = weighted;
	topo_layout(t);
	for (i = 0; i < indeg; i++) {
		t->in[i] = in[i];
		t->inw[i] = weighted && inw && inw != MPI_WEIGHTS_EMPTY ? inw[i] : 1;
	}
	for (i = 0; i < outdeg; i++) {
		t->out[i] = out[i];
		t->outw[i] = weighted && outw && outw != MPI_WEIGHTS_EMPTY ? outw[i] : 1;
	}
	c->topo = t;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
				    const int sourceweights[], int outdegree,
				    const int destinations[], const int destweights[],
				    MPI_Info info, int reorder, MPI_Comm *newcomm)
{
	const char *fn = "MPI_Dist_graph_create_adjacent";
	int err;

	(void)info;
	(void)reorder;
	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)) ||
	    (err = smpi_intra_check(comm, fn)) ||
	    (err = dist_ranks(comm, indegree, sources, "sources", fn)) ||
	    (err = dist_ranks(comm, outdegree, destinations, "destinations", fn)))
		return err;
	if (!newcomm)
		return smpi_err(comm, MPI_ERR_ARG, fn, "newcomm pointer is NULL");
	if ((indegree && !sourceweights) || (outdegree && !destweights))
		return smpi_err(comm, MPI_ERR_ARG, fn, "a weights array is NULL");
	if ((err = topo_comm(comm, comm->size, newcomm)))
		return err;
	dist_attach(*newcomm, indegree, sources, sourceweights, outdegree, destinations,
		    destweights, dist_weighted(sourceweights) && dist_weighted(destweights));
	return MPI_SUCCESS;
}

/* An edge on its way to one of its ends: to its source (out) or its
 * destination (in); seq keeps the order the edges were given in. */
struct dist_edge {
	int in, src, dst, w;
};

struct dist_sorted {
	int peer, seq, w;
};

static int dist_cmp(const void *a, const void *b)
{
	const struct dist_sorted *x = a, *y = b;

	if (x->peer != y->peer)
		return x->peer < y->peer ? -1 : 1;
	return x->seq - y->seq;
}

int PMPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
			   const int destinations[], const int weights[], MPI_Info info,
			   int reorder, MPI_Comm *newcomm)
{
	const char *fn = "MPI_Dist_graph_create";
	int p, i, j, k, e, ne = 0, nrecv, err, weighted, nin = 0, nout = 0;
	int *scnt, *sdsp, *rcnt, *rdsp, *in, *inw, *out, *outw;
	struct dist_edge *sbuf, *rbuf;
	struct dist_sorted *sin, *sout;

	(void)info;
	(void)reorder;
	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)) ||
	    (err = smpi_intra_check(comm, fn)))
		return err;
	if (n < 0 || (n && (!sources || !degrees)) || !newcomm)
		return smpi_err(comm, MPI_ERR_ARG, fn, "bad n (%d), sources, degrees or newcomm", n);
	if ((err = dist_ranks(comm, n, sources, "sources", fn)))
		return err;
	for (i = 0; i < n; i++) {
		if (degrees[i] < 0)
			return smpi_err(comm, MPI_ERR_ARG, fn, "degrees[%d] = %d is negative", i,
					degrees[i]);
		ne += degrees[i];
	}
	if ((err = dist_ranks(comm, ne, destinations, "destinations", fn)))
		return err;
	if (ne && !weights)
		return smpi_err(comm, MPI_ERR_ARG, fn, "weights is NULL");
	weighted = dist_weighted(weights);
	p = comm->size;
	scnt = malloc(4 * p * sizeof(int));
	sbuf = malloc((2 * ne + 1) * sizeof *sbuf);
	if (!scnt || !sbuf)
		smpi_fatal("%s: no memory for %d edges", fn, ne);
	sdsp = scnt + p;
	rcnt = sdsp + p;
	rdsp = rcnt + p;
	memset(scnt, 0, p * sizeof(int));
	for (i = 0, e = 0; i < n; i++)
		for (j = 0; j < degrees[i]; j++, e++) {
			scnt[sources[i]]++;
			scnt[destinations[e]]++;
		}
	for (i = 0, k = 0; i < p; i++) {
		sdsp[i] = k;
		k += scnt[i];
		scnt[i] = 0;
	}
	for (i = 0, e = 0; i < n; i++)
		for (j = 0; j < degrees[i]; j++, e++) {
			struct dist_edge d = { 0, sources[i], destinations[e], weighted ? weights[e] : 1 };
			int to = sources[i];

			sbuf[sdsp[to] + scnt[to]++] = d;
			d.in = 1;
			to = destinations[e];
			sbuf[sdsp[to] + scnt[to]++] = d;
		}
	/* Counts and displacements in ints: four per edge. */
	for (i = 0; i < p; i++) {
		scnt[i] *= 4;
		sdsp[i] *= 4;
	}
	PMPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, comm);
	for (i = 0, nrecv = 0; i < p; i++) {
		rdsp[i] = nrecv;
		nrecv += rcnt[i];
	}
	rbuf = malloc((nrecv / 4 + 1) * sizeof *rbuf);
	sin = malloc((nrecv / 4 + 1) * 2 * sizeof *sin);
	if (!rbuf || !sin)
		smpi_fatal("%s: no memory for %d edges", fn, nrecv / 4);
	sout = sin + nrecv / 4 + 1;
	PMPI_Alltoallv(sbuf, scnt, sdsp, MPI_INT, rbuf, rcnt, rdsp, MPI_INT, comm);
	for (i = 0; i < nrecv / 4; i++) {
		if (rbuf[i].in)
			sin[nin++] = (struct dist_sorted){ rbuf[i].src, i, rbuf[i].w };
		else
			sout[nout++] = (struct dist_sorted){ rbuf[i].dst, i, rbuf[i].w };
	}
	/* Both ends of the edges between two ranks list them in the same
	 * order (by who gave them, then as given), so neighborhood messages
	 * along parallel edges match in order. */
	qsort(sin, nin, sizeof *sin, dist_cmp);
	qsort(sout, nout, sizeof *sout, dist_cmp);
	in = malloc((2 * (nin + nout) + 1) * sizeof(int));
	if (!in)
		smpi_fatal("%s: no memory", fn);
	inw = in + nin;
	out = inw + nin;
	outw = out + nout;
	for (i = 0; i < nin; i++) {
		in[i] = sin[i].peer;
		inw[i] = sin[i].w;
	}
	for (i = 0; i < nout; i++) {
		out[i] = sout[i].peer;
		outw[i] = sout[i].w;
	}
	err = topo_comm(comm, p, newcomm);
	if (!err)
		dist_attach(*newcomm, nin, in, inw, nout, out, outw, weighted);
	free(in);
	free(sin);
	free(rbuf);
	free(sbuf);
	free(scnt);
	return err;
}

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
	int err;

	if ((err = topo_get(comm, MPI_DIST_GRAPH, "MPI_Dist_graph_neighbors_count")))
		return err;
	*indegree = comm->topo->indeg;
	*outdegree = comm->topo->outdeg;
	*weighted = comm->topo->weighted;
	return MPI_SUCCESS;
}

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
			      int maxoutdegree, int destinations[], int destweights[])
{
	const char *fn = "MPI_Dist_graph_neighbors";
	struct smpi_topo *t;
	int err;

	if ((err = topo_get(comm, MPI_DIST_GRAPH, fn)))
		return err;
	t = comm->topo;
	if (maxindegree < t->indeg || maxoutdegree < t->outdeg)
		return smpi_err(comm, MPI_ERR_ARG, fn,
				"room for %d sources and %d destinations; the rank has %d and %d",
				maxindegree, maxoutdegree, t->indeg, t->outdeg);
	memcpy(sources, t->in, t->indeg * sizeof(int));
	memcpy(destinations, t->out, t->outdeg * sizeof(int));
	if (t->weighted && sourceweights != MPI_UNWEIGHTED)
		memcpy(sourceweights, t->inw, t->indeg * sizeof(int));
	if (t->weighted && destweights != MPI_UNWEIGHTED)
		memcpy(destweights, t->outw, t->outdeg * sizeof(int));
	return MPI_SUCCESS;
}

/* ---- neighborhood collectives ---- */

/*
 * The neighbors of this rank: in[nin] it receives from, out[nout] it
 * sends to (malloc'd, one block), and whether the topology is Cartesian.
 * A Cartesian rank's neighbors are, per dimension, the one below and the
 * one above (MPI_PROC_NULL off a non-periodic edge); the graph's are its
 * edges both ways.
 */
struct topo_nbrs {
	int nin, nout, cart;
	int *in, *out;
};

static int topo_nbrs(MPI_Comm comm, struct topo_nbrs *nb, const char *fn)
{
	const struct smpi_topo *t;
	int err, i, first = 0, n = 0;

	if ((err = topo_get(comm, 0, fn)))
		return err;
	t = comm->topo;
	nb->cart = t->kind == MPI_CART;
	if (t->kind == MPI_CART)
		n = 2 * t->ndims;
	else if (t->kind == MPI_GRAPH)
		first = graph_node(comm, comm->rank, &n, fn);
	else
		n = t->indeg + t->outdeg;
	nb->in = malloc((2 * n + 1) * sizeof(int));
	if (!nb->in)
		smpi_fatal("%s: no memory", fn);
	if (t->kind == MPI_CART) {
		nb->nin = nb->nout = n;
		nb->out = nb->in + n;
		for (i = 0; i < t->ndims; i++) {
			nb->in[2 * i] = nb->out[2 * i] = cart_step(t, i, -1);
			nb->in[2 * i + 1] = nb->out[2 * i + 1] = cart_step(t, i, 1);
		}
	} else if (t->kind == MPI_GRAPH) {
		nb->nin = nb->nout = n;
		nb->out = nb->in + n;
		memcpy(nb->in, t->edges + first, n * sizeof(int));
		memcpy(nb->out, t->edges + first, n * sizeof(int));
	} else {
		nb->nin = t->indeg;
		nb->nout = t->outdeg;
		nb->out = nb->in + t->indeg;
		memcpy(nb->in, t->in, t->indeg * sizeof(int));
		memcpy(nb->out, t->out, t->outdeg * sizeof(int));
	}
	return MPI_SUCCESS;
}

/*
 * Which of a collective's two tags a message takes: a Cartesian rank's
 * neighbors below and above may be the same rank (a periodic dimension of
 * 1 or 2), and what goes down must meet the receive from above.  Block 2d
 * goes down with tag 0 and is received by the neighbor below as its block
 * 2d + 1, from above; so a receive of block j takes tag (j & 1) ^ 1.
 */
static int nbr_stag(const struct topo_nbrs *nb, int i)
{
	return nb->cart ? i & 1 : 0;
}

static int nbr_rtag(const struct topo_nbrs *nb, int j)
{
	return nb->cart ? (j & 1) ^ 1 : 0;
}

/* Neighbor_allgather(v): v set takes rcounts and displs. */
static int b_nallgather(const void *sbuf, int64_t scount, MPI_Datatype stype, void *rbuf,
			int64_t rcount, int v, struct smpi_ints rcounts, struct smpi_ints displs,
			MPI_Datatype rtype, MPI_Comm comm, struct smpi_nbc **out, const char *fn)
{
	struct topo_nbrs nb;
	struct smpi_nbc *s;
	int i, err;

	if ((err = topo_nbrs(comm, &nb, fn)))
		return err;
	if (scount < 0 || (!v && rcount < 0))
		err = smpi_err(comm, MPI_ERR_COUNT, fn, "a count is negative");
	else if (v && nb.nin && (!rcounts.p || !displs.p))
		err = smpi_err(comm, MPI_ERR_ARG, fn, "recvcounts or displs is NULL");
	else if (!(err = smpi_type_check(comm, stype, fn)))
		err = smpi_type_check(comm, rtype, fn);
	for (i = 0; !err && v && i < nb.nin; i++)
		if (smpi_at(rcounts, i) < 0)
			err = smpi_err(comm, MPI_ERR_COUNT, fn, "recvcounts[%d] is %lld", i,
				       (long long)smpi_at(rcounts, i));
	if (err) {
		free(nb.in);
		return err;
	}
	s = nbc_new(comm);
	for (i = 0; i < nb.nout; i++)
		nbc_send(s, sbuf, scount, stype, nb.out[i], nbr_stag(&nb, i));
	for (i = 0; i < nb.nin; i++)
		nbc_recv(s, (char *)rbuf + (v ? smpi_at(displs, i) : i * rcount) *
				       smpi_type_extent(rtype),
			 v ? smpi_at(rcounts, i) : rcount, rtype, nb.in[i], nbr_rtag(&nb, i));
	free(nb.in);
	*out = s;
	return MPI_SUCCESS;
}

/* A side's blocks of Neighbor_alltoall(v, w): form 0 is count elements
 * of type each, in order; 1 (v) counts[i] of type at displs[i] extents;
 * 2 (w) counts[i] of types[i] at displs[i] bytes. */
struct nbr_side {
	const void *buf;
	int64_t count;
	int form;
	struct smpi_ints counts, displs;
	const MPI_Datatype *types;
	MPI_Datatype type;
};

static int nbr_side_check(MPI_Comm comm, const struct nbr_side *b, int n, const char *fn)
{
	int i, err;

	if (!n)
		return MPI_SUCCESS;
	if (b->form && (!b->counts.p || !b->displs.p || (b->form == 2 && !b->types)))
		return smpi_err(comm, MPI_ERR_ARG, fn, "an array of counts, displs or types is NULL");
	for (i = 0; i < n; i++) {
		int64_t c = b->form ? smpi_at(b->counts, i) : b->count;

		if (c < 0)
			return smpi_err(comm, MPI_ERR_COUNT, fn, "count %lld of block %d is negative",
					(long long)c, i);
		if ((err = smpi_type_check(comm, b->form == 2 ? b->types[i] : b->type, fn)))
			return err;
	}
	return MPI_SUCCESS;
}

/* Block i of side b: its address, count and type. */
static void *nbr_block(const struct nbr_side *b, int i, int64_t *count, MPI_Datatype *type)
{
	int64_t d;

	*type = b->form == 2 ? b->types[i] : b->type;
	*count = b->form ? smpi_at(b->counts, i) : b->count;
	if (b->form == 2)
		d = smpi_at(b->displs, i);
	else if (b->form == 1)
		d = smpi_at(b->displs, i) * smpi_type_extent(*type);
	else
		d = i * b->count * smpi_type_extent(*type);
	return (char *)b->buf + d;
}

static int b_nalltoall(const struct nbr_side *sb, const struct nbr_side *rb, MPI_Comm comm,
		       struct smpi_nbc **out, const char *fn)
{
	struct topo_nbrs nb;
	struct smpi_nbc *s;
	MPI_Datatype t;
	int64_t c;
	int i, err;

	if ((err = topo_nbrs(comm, &nb, fn)))
		return err;
	if ((err = nbr_side_check(comm, sb, nb.nout, fn)) ||
	    (err = nbr_side_check(comm, rb, nb.nin, fn))) {
		free(nb.in);
		return err;
	}
	s = nbc_new(comm);
	for (i = 0; i < nb.nout; i++) {
		const void *b = nbr_block(sb, i, &c, &t);

		nbc_send(s, b, c, t, nb.out[i], nbr_stag(&nb, i));
	}
	for (i = 0; i < nb.nin; i++) {
		void *b = nbr_block(rb, i, &c, &t);

		nbc_recv(s, b, c, t, nb.in[i], nbr_rtag(&nb, i));
	}
	free(nb.in);
	*out = s;
	return MPI_SUCCESS;
}

/* MPI_Neighbor_X runs the schedule, MPI_Ineighbor_X starts it,
 * MPI_Neighbor_X_init (MPI 4.0) keeps it for MPI_Start; sfx is empty, or
 * _c for the large-count forms (params, those of the nonblocking ones). */
#define NBR_CALLS(name, sfx, params, build) \
	int PMPI_Neighbor_##name##sfx(params) \
	{ \
		const char *fn = "MPI_Neighbor_" #name #sfx; \
		struct smpi_nbc *s; \
		int err; \
		if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)) || \
		    (err = build)) \
			return err; \
		if ((err = nbc_run(s))) \
			return smpi_err(comm, err, fn, "a message was truncated"); \
		return MPI_SUCCESS; \
	} \
	NBC_ENTRY(Ineighbor_##name##sfx, (params, MPI_Request *request), build, nbc_post) \
	NBC_ENTRY(Neighbor_##name##_init##sfx, (params, MPI_Info info, MPI_Request *request), \
		  build, (void)info; nbc_persist) \
	SMPI_ALIAS(Neighbor_##name##sfx)
#define NO_INTS	SMPI_INTS(NULL)
#define NBR_PARAMS(...) __VA_ARGS__

NBR_CALLS(allgather, , NBR_PARAMS(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
				   int rcount, MPI_Datatype rtype, MPI_Comm comm),
	  b_nallgather(sbuf, scount, stype, rbuf, rcount, 0, NO_INTS, NO_INTS, rtype, comm, &s, fn))

/* The v and w forms: C the count's type, A the displacement's, W how
 * the arrays are read. */
#define NBR_ALLGATHERV(sfx, C, A, W) \
	NBR_CALLS(allgatherv, sfx, \
		  NBR_PARAMS(const void *sbuf, C scount, MPI_Datatype stype, void *rbuf, \
			     const C rcounts[], const A displs[], MPI_Datatype rtype, MPI_Comm comm), \
		  b_nallgather(sbuf, scount, stype, rbuf, 0, 1, W(rcounts), W(displs), rtype, comm, \
			       &s, fn))
NBR_ALLGATHERV(, int, int, SMPI_INTS)
NBR_ALLGATHERV(_c, MPI_Count, MPI_Aint, SMPI_WIDE)

NBR_CALLS(alltoall, , NBR_PARAMS(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
				  int rcount, MPI_Datatype rtype, MPI_Comm comm),
	  b_nalltoall(&(struct nbr_side){ sbuf, scount, 0, NO_INTS, NO_INTS, NULL, stype },
		      &(struct nbr_side){ rbuf, rcount, 0, NO_INTS, NO_INTS, NULL, rtype }, comm, &s,
		      fn))

#define NBR_ALLTOALLV(sfx, C, A, W) \
	NBR_CALLS(alltoallv, sfx, \
		  NBR_PARAMS(const void *sbuf, const C scounts[], const A sdispls[], \
			     MPI_Datatype stype, void *rbuf, const C rcounts[], const A rdispls[], \
			     MPI_Datatype rtype, MPI_Comm comm), \
		  b_nalltoall(&(struct nbr_side){ sbuf, 0, 1, W(scounts), W(sdispls), NULL, stype }, \
			      &(struct nbr_side){ rbuf, 0, 1, W(rcounts), W(rdispls), NULL, rtype }, \
			      comm, &s, fn))
NBR_ALLTOALLV(, int, int, SMPI_INTS)
NBR_ALLTOALLV(_c, MPI_Count, MPI_Aint, SMPI_WIDE)

/* The w form's displacements are MPI_Aint in both forms. */
#define NBR_ALLTOALLW(sfx, C, W) \
	NBR_CALLS(alltoallw, sfx, \
		  NBR_PARAMS(const void *sbuf, const C scounts[], const MPI_Aint sdispls[], \
			     const MPI_Datatype stypes[], void *rbuf, const C rcounts[], \
			     const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm), \
		  b_nalltoall(&(struct nbr_side){ sbuf, 0, 2, W(scounts), SMPI_WIDE(sdispls), \
						  stypes, NULL }, \
			      &(struct nbr_side){ rbuf, 0, 2, W(rcounts), SMPI_WIDE(rdispls), \
						  rtypes, NULL }, comm, &s, fn))
NBR_ALLTOALLW(, int, SMPI_INTS)
NBR_ALLTOALLW(_c, MPI_Count, SMPI_WIDE)

SMPI_ALIAS(Cart_create)
SMPI_ALIAS(Cart_map)
SMPI_ALIAS(Cartdim_get)
SMPI_ALIAS(Cart_get)
SMPI_ALIAS(Cart_rank)
SMPI_ALIAS(Cart_coords)
SMPI_ALIAS(Cart_shift)
SMPI_ALIAS(Cart_sub)
SMPI_ALIAS(Dims_create)
SMPI_ALIAS(Graph_create)
SMPI_ALIAS(Graph_map)
SMPI_ALIAS(Graphdims_get)
SMPI_ALIAS(Graph_get)
SMPI_ALIAS(Graph_neighbors_count)
SMPI_ALIAS(Graph_neighbors)
SMPI_ALIAS(Dist_graph_create_adjacent)
SMPI_ALIAS(Dist_graph_create)
SMPI_ALIAS(Dist_graph_neighbors_count)
SMPI_ALIAS(Dist_graph_neighbors)
