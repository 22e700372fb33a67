"""The network between nodes in host mode (lwkrun --host --nodes K): the
same engine as the kernel's (kernel/net/engine.c) over Unix sockets, under
MPI point-to-point, collectives, RMA and SHMEM; with frames lost on the
way (--drop); and a node that dies."""

import os

import harness
import mpi

P2P_CHECKS = 17
# TAP lines of the SHMEM programs, from the first PE of each node.
SHMEM_CHECKS = {"shmem_rma": 21, "shmem_amo": 12, "shmem_sync": 11, "shmem_coll": 16,
                "shmem_team": 8}


def host(name, nodes, n, prog, extra=(), pargs=(), **kw):
    args = ["--host", "--nodes", str(nodes), "-n", str(n)] + list(extra)
    kw.setdefault("timeout", 120)
    return harness.lwkrun(name, args + [harness.build("user", prog)] + list(pargs), **kw)


MPIEXEC = os.path.join(harness.ROOT, "tools", "mpiexec")


def mpiexec(name, args, **kw):
    kw.setdefault("timeout", 120)
    return harness.Case(name, ["python3", MPIEXEC] + list(args), **kw)


def cases():
    return [
        # mpiexec's -n counts the job's processes: 4 over 2 nodes is 2 x 2
        mpiexec("mpiexec_spreads_n_over_the_nodes",
                ["-n", "6", "--host", "--nodes", "2", "--oversubscribe", "--bind-to", "core",
                 harness.build("user", "mpit_exit"), "size"],
                expect=[r"^a world of 6 ranks, 3 on rank 0's node$"]),
        mpiexec("mpiexec_takes_lwkrun_options_from_SMAPOS_MPIEXEC",
                ["-np", "2", harness.build("user", "mpit_exit"), "clean"],
                env={"SMAPOS_MPIEXEC": "--host"}, expect=[r"every rank passed the barrier"]),
        mpiexec("mpiexec_refuses_n_not_a_multiple_of_the_nodes",
                ["-n", "3", "--host", "--nodes", "2", harness.build("user", "mpit_exit")],
                rc=2, expect=[r"^mpiexec: -n 3: not a multiple of --nodes 2"]),
        mpiexec("mpiexec_refuses_several_programs",
                ["-n", "1", "a", ":", "-n", "1", "b"], rc=2,
                expect=[r"^mpiexec: ':': one program per job"]),
        host("net_host_p2p_2x2", 2, 2, "mpit_p2p", tap=True, min_tap=P2P_CHECKS),
        host("net_host_p2p_3x1", 3, 1, "mpit_p2p", tap=True, min_tap=P2P_CHECKS),
        # heavy loss: slow, never stalled (the retransmission backoff ends
        # at each advance)
        host("net_host_p2p_2x2_drop30", 2, 2, "mpit_p2p", ["--drop", "30"], tap=True,
             min_tap=P2P_CHECKS),
        host("net_host_p2p_2x1_drop2", 2, 1, "mpit_p2p", ["--drop", "2"], tap=True,
             min_tap=P2P_CHECKS),
        host("net_host_shmem_nodes_2x2", 2, 2, "shmem_nodes", [], ["net"], tap=True,
             min_tap=2 * 5),
        # OpenSHMEM from Fortran, PEs on both nodes.
        host("net_host_fshmem_2x2", 2, 2, "lang_fshmem", tap=True, min_tap=8),
        # Collectives and communicators on communicators that span nodes.
        host("net_host_coll_2x2", 2, 2, "mpit_coll", tap=True, min_tap=10),
        host("net_host_coll_3x1_drop2", 3, 1, "mpit_coll", ["--drop", "2"], tap=True,
             min_tap=10),
        # Four nodes: a scan's chain crosses three node boundaries.
        host("net_host_coll_4x1", 4, 1, "mpit_coll", tap=True, min_tap=10),
        host("net_host_env_2x2", 2, 2, "mpit_env", tap=True, min_tap=16),
        # Random datatypes through every call, with ranks on both nodes.
        host("net_host_fuzz_2x2", 2, 2, "mpit_fuzz", [], ["1", "2", "60"], tap=True,
             min_tap=6),
        host("net_host_session_2x2", 2, 2, "mpit_session", tap=True, min_tap=7),
        # Counts past INT_MAX between two nodes (a collective's staging copy of
        # one such buffer too: 13 GB in all).
        mpi.bigc_big("mpit_bigc_host_nodes_big", "7G", ["--nodes", "2", "-n", "1"]),
        # MPI 4.1's buffered sends (process, communicator, session buffers) across nodes.
        host("net_host_mpi41_2x2", 2, 2, "mpit_mpi41", tap=True, min_tap=9),
        host("net_host_session_3x1_drop2", 3, 1, "mpit_session", ["--drop", "2"], ["only"],
             tap=True, min_tap=6),
        # Barriers and broadcasts of communicators spanning nodes, per node.
        host("net_host_span_2x2", 2, 2, "mpit_span", tap=True, min_tap=16),
        host("net_host_span_3x2", 3, 2, "mpit_span", tap=True, min_tap=16),
        host("net_host_span_4x1", 4, 1, "mpit_span", tap=True, min_tap=16),
        host("net_host_span_2x3_drop2", 2, 3, "mpit_span", ["--drop", "2"], tap=True,
             min_tap=16),
        host("net_host_dt_2x2", 2, 2, "mpit_dt", tap=True, min_tap=11),
        host("net_host_dt_3x1_drop2", 3, 1, "mpit_dt", ["--drop", "2"], tap=True, min_tap=11),
        # Nonblocking and persistent collectives: schedules over point-to-point.
        host("net_host_nbc_2x2", 2, 2, "mpit_nbc", tap=True, min_tap=30),
        host("net_host_nbc_3x1_drop2", 3, 1, "mpit_nbc", ["--drop", "2"], tap=True, min_tap=30),
        host("net_host_topo_2x2", 2, 2, "mpit_topo", tap=True, min_tap=9),
        # Partitioned pairs: handshakes and messages on the library context.
        host("net_host_part_2x2", 2, 2, "mpit_part", tap=True, min_tap=3),
        host("net_host_part_3x1_drop2", 3, 1, "mpit_part", ["--drop", "2"], tap=True, min_tap=3),
        # Info, matched probes (messages taken across nodes), Comm_idup.
        host("net_host_info_2x2", 2, 2, "mpit_info", tap=True, min_tap=6),
        host("net_host_info_3x1_drop2", 3, 1, "mpit_info", ["--drop", "2"], tap=True, min_tap=6),
        host("net_host_inter_2x2", 2, 2, "mpit_inter", tap=True, min_tap=7),
        host("net_host_compat_2x2", 2, 2, "mpit_compat", tap=True, min_tap=8),
        host("net_host_inter_3x1_drop2", 3, 1, "mpit_inter", ["--drop", "2"], tap=True,
             min_tap=7),
        host("net_host_rma_acc_2x2", 2, 2, "rmat_acc", tap=True, min_tap=15),
        host("net_host_rma_sync_2x2", 2, 2, "rmat_sync", tap=True, min_tap=16),
        host("net_host_rma_sync_3x1_drop2", 3, 1, "rmat_sync", ["--drop", "2"], tap=True,
             min_tap=16),
        # a fault report names world ranks, as lwkrun does
        host("net_host_fault_names_the_world_rank", 2, 1, "smaptest_fail", pargs=["crash"],
             rc=139, expect=[r"^libsmap: rank 1: SIGSEGV at 0: outside rank 1's region",
                             r"^lwkrun: rank 1 killed by SIGSEGV$"]),
        host("net_host_shmem_global_exit_0_ends_both_nodes_with_0", 2, 2, "shmem_fail",
             pargs=["global_exit", "0"], rc=0, expect=[r"PE 3 exits the job"],
             reject=[r"was not stopped"]),
    ] + [host("net_host_%s_%s" % (p, shape), k, n, p, extra, tap=True, min_tap=k * c)
         for p, c in sorted(SHMEM_CHECKS.items())
         for shape, k, n, extra in (("2x2", 2, 2, []), ("3x1_drop2", 3, 1, ["--drop", "2"]))]
