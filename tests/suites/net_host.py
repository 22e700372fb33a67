"""The network between nodes in host mode (lwkrun --host --nodes K): the
same engine as the kernel's (kernel/net/engine.c) over Unix sockets, under
MPI point-to-point, collectives, RMA and SHMEM; with frames lost on the
way (--drop); and a node that dies."""

import harness

P2P_CHECKS = 15


def host(name, nodes, n, prog, extra=(), **kw):
    args = ["--host", "--nodes", str(nodes), "-n", str(n)] + list(extra)
    kw.setdefault("timeout", 120)
    return harness.lwkrun(name, args + [harness.build("user", prog)], **kw)


def cases():
    return [
        host("net_host_p2p_2x2", 2, 2, "mpit_p2p", tap=True, min_tap=P2P_CHECKS),
        host("net_host_p2p_3x1", 3, 1, "mpit_p2p", tap=True, min_tap=P2P_CHECKS),
        host("net_host_p2p_2x1_drop2", 2, 1, "mpit_p2p", ["--drop", "2"], tap=True,
             min_tap=P2P_CHECKS),
    ]
