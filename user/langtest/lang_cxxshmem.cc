// lang_cxxshmem.cc - OpenSHMEM from C++ through the generic names
// (shmem_put, shmem_atomic_fetch_add, shmem_sum_reduce, ... as overloads,
// docs/shmem.md), written as C++ codes write them: templates over the
// element type.  PE 0 prints one TAP line per family with every PE's verdict.
#include <shmem.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace {

int me, npes, next, prev;

void report(const std::string &name, bool ok)
{
	static int mine, all;

	mine = ok;
	shmem_barrier_all();
	shmem_and_reduce(SHMEM_TEAM_WORLD, &all, &mine, 1);
	if (me == 0)
		std::printf("%sok %s\n", all ? "" : "not ", name.c_str());
}

// Put, get, p, g, strided and non-blocking forms, plain and with a context,
// and put-with-signal, of T around the ring.
template <typename T> bool rma()
{
	static T dst[8], src[8];
	static uint64_t sig;
	T mine[8], got[8];
	bool ok = true;

	for (int i = 0; i < 8; i++)
		src[i] = mine[i] = (T)(me * 10 + i);
	shmem_barrier_all();
	shmem_put(dst, mine, 8, next);
	shmem_barrier_all();
	for (int i = 0; i < 8; i++)
		ok &= dst[i] == (T)(prev * 10 + i);
	shmem_get(got, src, 8, next);
	shmem_get(SHMEM_CTX_DEFAULT, got + 4, src, 4, next);
	for (int i = 0; i < 8; i++)
		ok &= got[i] == (T)(next * 10 + i % (i < 4 ? 8 : 4));
	ok &= shmem_g(src + 3, next) == (T)(next * 10 + 3);
	ok &= shmem_g(SHMEM_CTX_DEFAULT, src + 5, prev) == (T)(prev * 10 + 5);
	shmem_barrier_all();
	shmem_p(dst, (T)7, next);
	shmem_p(SHMEM_CTX_DEFAULT, dst + 1, (T)9, next);
	shmem_iput(dst + 2, mine, 2, 1, 3, next);	// dst[2], dst[4], dst[6]
	shmem_put_nbi(SHMEM_CTX_DEFAULT, dst + 3, mine + 7, 1, next);
	shmem_quiet();
	shmem_barrier_all();
	ok &= dst[0] == (T)7 && dst[1] == (T)9 && dst[2] == (T)(prev * 10) &&
	      dst[4] == (T)(prev * 10 + 1) && dst[6] == (T)(prev * 10 + 2) &&
	      dst[3] == (T)(prev * 10 + 7);
	shmem_iget(got, src, 1, 2, 4, next);	// src[0], src[2], src[4], src[6]
	shmem_get_nbi(got + 4, src + 1, 1, next);
	shmem_quiet();
	ok &= got[0] == (T)(next * 10) && got[3] == (T)(next * 10 + 6) &&
	      got[4] == (T)(next * 10 + 1);
	shmem_barrier_all();
	sig = 0;
	shmem_barrier_all();
	shmem_put_signal(dst, mine, 8, &sig, 1, SHMEM_SIGNAL_ADD, next);
	shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1);
	for (int i = 0; i < 8; i++)
		ok &= dst[i] == (T)(prev * 10 + i);
	shmem_barrier_all();
	return ok;
}

// Fetch, set, swap and their non-blocking forms (the extended AMO types).
template <typename T> bool amo_ext()
{
	static T x, f;
	bool ok = true;

	x = (T)me;
	shmem_barrier_all();
	ok &= shmem_atomic_fetch(&x, next) == (T)next;
	ok &= shmem_atomic_fetch(SHMEM_CTX_DEFAULT, &x, prev) == (T)prev;
	shmem_barrier_all();
	shmem_atomic_set(&x, (T)(me + 100), next);
	shmem_barrier_all();
	ok &= x == (T)(prev + 100);
	shmem_barrier_all();
	// Only this PE writes next's x from here on.
	ok &= shmem_atomic_swap(&x, (T)(me + 200), next) == (T)(me + 100);
	shmem_atomic_swap_nbi(&f, &x, (T)1, next);
	shmem_quiet();
	ok &= f == (T)(me + 200);
	shmem_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, &f, &x, next);
	shmem_quiet();
	ok &= f == (T)1;
	shmem_barrier_all();
	ok &= x == (T)1;
	shmem_barrier_all();
	return ok;
}

// Add, increment, compare-and-swap, every PE at PE 0's counter.
template <typename T> bool amo_std()
{
	static T c, f;
	bool ok = true;

	c = 0;
	shmem_barrier_all();
	shmem_atomic_add(&c, (T)2, 0);
	shmem_atomic_inc(SHMEM_CTX_DEFAULT, &c, 0);
	(void)shmem_atomic_fetch_add(&c, (T)1, 0);
	(void)shmem_atomic_fetch_inc(&c, 0);
	shmem_atomic_fetch_add_nbi(&f, &c, (T)1, 0);
	shmem_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, &f, &c, 0);
	shmem_quiet();
	shmem_barrier_all();
	ok &= shmem_atomic_fetch(&c, 0) == (T)(7 * npes);
	shmem_barrier_all();
	// Exactly one PE wins the swap from 7 * npes.
	static int wins, won;
	won = shmem_atomic_compare_swap(&c, (T)(7 * npes), (T)1, 0) == (T)(7 * npes);
	shmem_barrier_all();
	shmem_sum_reduce(SHMEM_TEAM_WORLD, &wins, &won, 1);
	ok &= wins == 1 && shmem_atomic_fetch(&c, 0) == (T)1;
	shmem_barrier_all();
	shmem_atomic_compare_swap_nbi(&f, &c, (T)1, (T)5, 0);
	shmem_quiet();
	shmem_barrier_all();
	ok &= shmem_atomic_fetch(&c, 0) == (T)5;
	shmem_barrier_all();
	return ok;
}

// And, or, xor: each PE sets and clears its own bit of PE 0's word.
template <typename T> bool amo_bit()
{
	static T w, f;
	T bit = (T)((T)1 << (me % 30));
	T all = 0;

	for (int p = 0; p < npes; p++)
		all = (T)(all | (T)((T)1 << (p % 30)));
	w = 0;
	shmem_barrier_all();
	(void)shmem_atomic_fetch_or(&w, bit, 0);
	shmem_barrier_all();
	bool ok = shmem_atomic_fetch(&w, 0) == all;
	shmem_barrier_all();
	shmem_atomic_xor(SHMEM_CTX_DEFAULT, &w, bit, 0);
	shmem_fence();
	shmem_atomic_or(&w, bit, 0);
	shmem_fence();
	shmem_atomic_fetch_and_nbi(&f, &w, (T)~bit, 0);
	shmem_quiet();
	shmem_barrier_all();
	ok &= shmem_atomic_fetch(&w, 0) == (T)0;
	shmem_atomic_and(&w, (T)0, 0);
	(void)shmem_atomic_fetch_xor(&w, (T)0, 0);
	(void)shmem_atomic_fetch_and(&w, (T)0, 0);
	shmem_atomic_fetch_or_nbi(&f, &w, (T)0, 0);
	shmem_atomic_fetch_xor_nbi(SHMEM_CTX_DEFAULT, &f, &w, (T)0, 0);
	shmem_quiet();
	shmem_barrier_all();
	return ok;
}

// Wait and test on flags the previous PE sets.
template <typename T> bool p2p()
{
	static T flag[4];
	int status[4] = {0, 0, 0, 0};
	T want[4] = {1, 1, 1, 1};
	size_t ix[4];
	bool ok = true;

	for (int i = 0; i < 4; i++)
		flag[i] = 0;
	shmem_barrier_all();
	ok &= !shmem_test(flag, SHMEM_CMP_EQ, (T)1);
	shmem_barrier_all();
	shmem_p(flag, (T)1, next);
	shmem_wait_until(flag, SHMEM_CMP_EQ, (T)1);
	ok &= shmem_test(flag, SHMEM_CMP_EQ, (T)1) == 1;
	ok &= shmem_test_any(flag, 4, status, SHMEM_CMP_EQ, (T)1) == 0;
	ok &= shmem_test_some(flag, 4, ix, status, SHMEM_CMP_EQ, (T)1) == 1 && ix[0] == 0;
	shmem_barrier_all();
	for (int i = 1; i < 4; i++)
		shmem_p(flag + i, (T)1, next);
	shmem_wait_until_all_vector(flag, 4, status, SHMEM_CMP_EQ, want);
	ok &= shmem_test_all(flag, 4, status, SHMEM_CMP_EQ, (T)1) == 1;
	ok &= shmem_wait_until_any(flag, 4, status, SHMEM_CMP_GE, (T)1) < 4;
	shmem_barrier_all();
	return ok;
}

template <typename T> bool collectives()
{
	static T src[4], dst[4 * 64], one;
	bool ok = true;
	int n = npes < 64 ? npes : 64;

	for (int i = 0; i < 4; i++)
		src[i] = (T)(me + i);
	shmem_barrier_all();
	shmem_broadcast(SHMEM_TEAM_WORLD, dst, src, 4, 0);
	for (int i = 0; i < 4; i++)
		ok &= dst[i] == (T)i;
	shmem_fcollect(SHMEM_TEAM_WORLD, dst, src, 1);
	for (int p = 0; p < n; p++)
		ok &= dst[p] == (T)p;
	shmem_collect(SHMEM_TEAM_WORLD, dst, src, 2);
	for (int p = 0; p < n; p++)
		ok &= dst[2 * p + 1] == (T)(p + 1);
	shmem_sum_reduce(SHMEM_TEAM_WORLD, &one, src, 1);
	ok &= one == (T)(npes * (npes - 1) / 2);
	shmem_max_reduce(SHMEM_TEAM_WORLD, &one, src + 1, 1);
	ok &= one == (T)npes;
	shmem_min_reduce(SHMEM_TEAM_WORLD, &one, src + 1, 1);
	ok &= one == (T)1;
	shmem_prod_reduce(SHMEM_TEAM_WORLD, &one, src + 1, 1);
	T prod = 1;
	for (int p = 1; p <= npes; p++)
		prod = (T)(prod * (T)p);
	ok &= one == prod;
	shmem_barrier_all();
	return ok;
}

template <typename T> bool bit_reduce()
{
	static T v, r;

	v = (T)((T)1 << (me % 7));
	shmem_barrier_all();
	shmem_or_reduce(SHMEM_TEAM_WORLD, &r, &v, 1);
	T want = 0;
	for (int p = 0; p < npes; p++)
		want = (T)(want | (T)((T)1 << (p % 7)));
	bool ok = r == want;
	shmem_and_reduce(SHMEM_TEAM_WORLD, &r, &v, 1);
	ok &= r == (npes == 1 ? v : (T)0);
	shmem_xor_reduce(SHMEM_TEAM_WORLD, &r, &v, 1);
	T x = 0;
	for (int p = 0; p < npes; p++)
		x = (T)(x ^ (T)((T)1 << (p % 7)));
	ok &= r == x;
	shmem_barrier_all();
	return ok;
}

bool alltoall_and_complex()
{
	static long src[64], dst[64];
	static double _Complex z, zsum;	// GNU C++ takes C's complex types
	bool ok = true;
	int n = npes < 64 ? npes : 64;

	if (npes > 64)
		return true;
	for (int p = 0; p < n; p++)
		src[p] = me * 100 + p;
	__real__ z = me;
	__imag__ z = me;
	shmem_barrier_all();
	shmem_alltoall(SHMEM_TEAM_WORLD, dst, src, 1);
	for (int p = 0; p < n; p++)
		ok &= dst[p] == p * 100 + me;
	shmem_alltoalls(SHMEM_TEAM_WORLD, dst, src, 1, 1, 1);
	ok &= dst[n - 1] == (n - 1) * 100 + me;
	shmem_sum_reduce(SHMEM_TEAM_WORLD, &zsum, &z, 1);
	double s = npes * (npes - 1) / 2.0;
	ok &= __real__ zsum == s && __imag__ zsum == s;
	shmem_barrier_all();
	return ok;
}

// The OpenSHMEM 1.3 names: overloads for int and long long, the C
// functions for long (shmem_swap, shmem_wait, shmem_wait_until).
bool deprecated()
{
	static int i;
	static long l, w;
	static long long ll;
	static double d;
	bool ok = true;

	i = 0, l = 0, ll = 0, d = 0, w = 0;
	shmem_barrier_all();
	shmem_add(&i, 2, 0);
	shmem_inc(&ll, 0);
	(void)shmem_fadd(&ll, 1LL, 0);
	(void)shmem_finc(&i, 0);
	shmem_set(&d, 1.5, next);
	shmem_barrier_all();
	ok &= shmem_fetch(&i, 0) == 3 * npes && shmem_fetch(&ll, 0) == 2LL * npes && d == 1.5;
	shmem_barrier_all();
	ok &= shmem_swap(&l, (long)me + 1, next) == 0;
	shmem_barrier_all();
	ok &= l == prev + 1 && shmem_swap(&i, 0, me) == (me == 0 ? 3 * npes : 0);
	if (me == 0)
		ok &= shmem_cswap(&ll, 2LL * npes, -1LL, 0) == 2LL * npes;
	shmem_barrier_all();
	shmem_long_p(&w, 1, next);
	shmem_wait(&w, 0L);
	shmem_wait_until(&w, SHMEM_CMP_EQ, 1L);
	shmem_sync(SHMEM_TEAM_WORLD);
	ok &= w == 1;
	shmem_barrier_all();
	return ok;
}

}  // namespace

int main()
{
	shmem_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	next = (me + 1) % npes;
	prev = (me + npes - 1) % npes;

	report("cxxshmem_rma_generic",
	       rma<float>() && rma<double>() && rma<long double>() && rma<char>() &&
	       rma<signed char>() && rma<short>() && rma<int>() && rma<long>() &&
	       rma<long long>() && rma<unsigned char>() && rma<unsigned short>() &&
	       rma<unsigned int>() && rma<unsigned long>() && rma<unsigned long long>() &&
	       rma<int8_t>() && rma<uint64_t>() && rma<size_t>() && rma<ptrdiff_t>());
	report("cxxshmem_atomics_generic",
	       amo_ext<int>() && amo_ext<long>() && amo_ext<long long>() &&
	       amo_ext<unsigned int>() && amo_ext<unsigned long>() &&
	       amo_ext<unsigned long long>() && amo_ext<float>() && amo_ext<double>() &&
	       amo_std<int>() && amo_std<long>() && amo_std<long long>() &&
	       amo_std<unsigned int>() && amo_std<unsigned long>() &&
	       amo_std<unsigned long long>() && amo_std<int64_t>() &&
	       amo_bit<unsigned int>() && amo_bit<unsigned long>() &&
	       amo_bit<unsigned long long>() && amo_bit<int32_t>() && amo_bit<int64_t>());
	report("cxxshmem_wait_test_generic",
	       p2p<short>() && p2p<int>() && p2p<long>() && p2p<long long>() &&
	       p2p<unsigned short>() && p2p<unsigned int>() && p2p<unsigned long>() &&
	       p2p<unsigned long long>() && p2p<size_t>());
	report("cxxshmem_collectives_generic",
	       collectives<int>() && collectives<long>() && collectives<double>() &&
	       collectives<float>() && collectives<unsigned long long>() &&
	       collectives<long double>() && bit_reduce<unsigned char>() &&
	       bit_reduce<int>() && bit_reduce<uint64_t>() && bit_reduce<int16_t>() &&
	       alltoall_and_complex());
	report("cxxshmem_deprecated_generic", deprecated());
	shmem_finalize();
	return 0;
}
