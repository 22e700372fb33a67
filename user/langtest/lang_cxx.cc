// lang_cxx.cc - a C++ MPI mini-program built by tools/smapcxx (g++, glibc,
// libsmap-glibc.a): iostream, exceptions, std::vector, std::string, static
// constructors and MPI, on the kernel and in host mode.  Rank 0 prints one
// TAP line per behaviour with the verdicts of all ranks.
#include <mpi.h>
#include <shmem.h>
#include <smap.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// Runs before main: static constructors must see a working heap.
struct Early {
	std::vector<int> v;
	Early() : v(100, 7) {}
} early;

int rank, nranks;

// Every rank's verdict reaches rank 0, which prints the line.
void report(const std::string &name, bool ok, const std::string &why = "")
{
	int mine = ok, all = 0;

	MPI_Reduce(&mine, &all, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		if (all)
			std::cout << "ok " << name << std::endl;
		else
			std::cout << "not ok " << name << " - " << why << std::endl;
	}
}

struct Fail : std::runtime_error {
	int code;
	Fail(const std::string &s, int c) : std::runtime_error(s), code(c) {}
};

int thrower(int depth)
{
	if (depth == 0)
		throw Fail("deep", 42);
	std::vector<std::string> local(3, "unwound");
	return thrower(depth - 1) + (int)local.size();
}

}  // namespace

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);

	report("cxx_static_constructor", early.v.size() == 100 && early.v[99] == 7,
	       "static vector not built before main");

	int code = 0;
	try {
		thrower(20);
	} catch (const Fail &e) {
		code = e.code;
	}
	report("cxx_exception_unwinds", code == 42, "exception not caught through 20 frames");

	bool bad_alloc = false;
	try {
		std::vector<char> huge((size_t)1 << 62);
	} catch (const std::bad_alloc &) {
		bad_alloc = true;
	} catch (const std::length_error &) {
		bad_alloc = true;
	}
	report("cxx_bad_alloc", bad_alloc, "2^62-byte vector did not throw");

	std::vector<double> v(100000);
	std::iota(v.begin(), v.end(), (double)rank);
	std::vector<double> sum(v.size());
	MPI_Allreduce(v.data(), sum.data(), (int)v.size(), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	double want = 99999.0 * nranks + nranks * (nranks - 1) / 2.0;
	report("cxx_vector_allreduce", sum.back() == want, "wrong sum");

	std::ostringstream os;
	os << "rank " << rank << " of " << nranks;
	std::string s = os.str();
	std::vector<char> got(64, 0);
	int peer = (rank + 1) % nranks, from = (rank + nranks - 1) % nranks;
	MPI_Sendrecv(s.c_str(), (int)s.size() + 1, MPI_CHAR, peer, 1, got.data(), (int)got.size(),
		     MPI_CHAR, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	std::ostringstream ws;
	ws << "rank " << from << " of " << nranks;
	report("cxx_string_sendrecv", ws.str() == got.data(), "got '" + std::string(got.data()) + "'");

	std::map<int, std::unique_ptr<std::string>> m;
	for (int i = 0; i < 1000; i++)
		m[i].reset(new std::string(i % 50, 'x'));
	report("cxx_map_heap", m.size() == 1000 && m[999]->size() == 49, "map wrong");

	// SMARTMAP from C++: the next rank's copy of a static, directly.
	static int mark;
	mark = 1000 + rank;
	MPI_Barrier(MPI_COMM_WORLD);
	int seen = *(int *)remote_address((unsigned)peer, &mark);
	report("cxx_remote_address", seen == 1000 + peer, "peer's static not seen");

	// Handles as Fortran integers: stable numbers, round trips, NULL is 0.
	MPI_Comm dup;
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Fint fdup = MPI_Comm_c2f(dup);
	MPI_Datatype vec;
	MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
	MPI_Request req;
	MPI_Irecv(&code, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req);
	bool req_ok = MPI_Request_f2c(MPI_Request_c2f(req)) == req;
	MPI_Status st, st2;
	MPI_Wait(&req, &st);
	MPI_Fint fst[sizeof(MPI_Status) / sizeof(MPI_Fint)];
	MPI_Status_c2f(&st, fst);
	MPI_Status_f2c(fst, &st2);
	bool handles = MPI_Comm_c2f(MPI_COMM_WORLD) == 1 && MPI_Comm_f2c(1) == MPI_COMM_WORLD &&
		       MPI_Comm_c2f(MPI_COMM_NULL) == 0 && MPI_Comm_f2c(fdup) == dup &&
		       MPI_Comm_c2f(dup) == fdup && fdup > 2 && MPI_Type_f2c(MPI_Type_c2f(vec)) == vec &&
		       MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) == MPI_DOUBLE &&
		       req_ok && MPI_Comm_f2c(1 << 30) == MPI_COMM_NULL &&
		       st2.MPI_SOURCE == MPI_PROC_NULL && st2.MPI_TAG == MPI_ANY_TAG;
	MPI_Comm_free(&dup);
	MPI_Type_free(&vec);
	report("cxx_handle_c2f_f2c", handles, "handle conversion wrong");

	std::cout << std::flush;
	MPI_Finalize();
	return 0;
}
