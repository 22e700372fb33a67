"""The network between QEMU nodes (lwkrun --nodes K): PCI, the e1000
driver, discovery through the switch, the kernel's network engine on its
own CPU, and MPI point-to-point, RMA and SHMEM between nodes over it, also
with frames lost on the way; a wire that loses everything ends the job on
every node with one line naming the operation."""

import harness


def prog(name):
    return harness.build("user", name)


def nodes(name, k, n, program, args=(), extra=(), **kw):
    kw.setdefault("timeout", 200)
    return harness.lwkrun(name, ["--nodes", str(k), "-n", str(n), "-q", "--timeout",
                                 str(kw["timeout"] - 10)] + list(extra) + [prog(program)]
                          + list(args), **kw)


def cases():
    return [
        nodes("net_qemu_p2p_2x2", 2, 2, "mpit_p2p", tap=True, min_tap=17),
        # A switch without jumbo frames, as flashed nodes have by default:
        # every message size in 1500-byte frames, some of them lost.
        harness.lwkrun("net_qemu_p2p_2x2_wire_mtu_1500_drop2",
                       ["--nodes", "2", "-n", "2", "--wire-mtu", "1500", "--drop", "2",
                        "--timeout", "190", prog("mpit_p2p")], tap=True, min_tap=16, timeout=200,
                       expect=[r"\[n1\] net: frames of up to 1500 bytes after the Ethernet "
                               r"header"]),
        # Jumbo frames the switch loses: the node answers pings, so only
        # the acknowledgements that never come can end the job.
        harness.lwkrun("net_qemu_frames_larger_than_the_wire_end_the_job",
                       ["--nodes", "2", "-n", "1", "-q", "--wire-mtu", "1500", "--append",
                        "net_mtu=0 net_dead_ms=3000", "--timeout", "90", prog("mpit_p2p")],
                       rc=122, timeout=100,
                       expect=[r"\[n\d\] net: node \d answers, but none of our frames reach it "
                               r"\(.+, in frames of up to \d+ bytes; more than the wire carries\? "
                               r"see net_mtu\): ending the job"]),
        # The 82574L (QEMU's e1000e) through the same driver, 9014-byte frames.
        harness.lwkrun("net_qemu_e1000e_p2p_2x2_drop2",
                       ["--nodes", "2", "-n", "2", "--nic", "e1000e", "--drop", "2",
                        "--timeout", "190", prog("mpit_p2p")], tap=True, min_tap=17, timeout=200,
                       expect=[r"\[n0\] nic: 82574L \(e1000e\) at 00:\d\d\.0, MAC "
                               r"52:54:00:5a:00:00, link up, frames up to 9014 bytes",
                               r"\[n0\] net: frames of up to 9000 bytes after the Ethernet header"]),
        nodes("net_qemu_shmem_rma_2x2", 2, 2, "shmem_rma", tap=True, min_tap=2 * 21),
        nodes("net_qemu_shmem_nodes_2x2_drop2", 2, 2, "shmem_nodes", ["net"],
              extra=["--drop", "2"], tap=True, min_tap=2 * 5),
        nodes("net_qemu_rma_window_2x2", 2, 2, "rmat_err", ["nodes"], tap=True, min_tap=1),
        # Every synchronisation mode, a transposed matrix and long strided
        # puts and gets (target sides of rows), frames lost on the way.
        # Derived datatypes, columns between nodes moved as rows by the engines.
        nodes("net_qemu_dt_2x2_drop2", 2, 2, "mpit_dt", extra=["--drop", "2"], tap=True,
              min_tap=11),
        nodes("net_qemu_rma_sync_2x2_drop2", 2, 2, "rmat_sync", extra=["--drop", "2"], tap=True,
              min_tap=16),
        nodes("net_qemu_coll_2x2", 2, 2, "mpit_coll", tap=True, min_tap=10),
        # Communicators, attributes, error handlers and processor names on
        # ranks of two kernels: names agree exactly where nodes do.
        nodes("net_qemu_env_2x2", 2, 2, "mpit_env", tap=True, min_tap=16),
        nodes("net_qemu_session_2x2_drop2", 2, 2, "mpit_session", extra=["--drop", "2"], tap=True,
              min_tap=7),
        # Three kernels on one switch: its learning and flooding, and
        # collectives whose node leaders are more than a pair.
        nodes("net_qemu_coll_3x1", 3, 1, "mpit_coll", tap=True, min_tap=10),
        # a flashed node boots UEFI: the NIC, discovery and the I/O server
        # behind OVMF
        nodes("net_qemu_uefi_p2p_2x1", 2, 1, "mpit_p2p", extra=["--uefi"], tap=True,
              min_tap=17),
        # VMware's NIC, the 82545EM
        harness.lwkrun("net_qemu_part_2x1", ["--nodes", "2", "-n", "1", "--nic", "e1000-82545em",
                                             "--append", "net_cluster=16777215",
                                             "--timeout", "190", prog("mpit_part")],
                       tap=True, min_tap=3, timeout=200,
                       expect=[r"\[n1\] nic: 82545EM \(e1000\) at 00:\d\d\.0"]),
        # Nonblocking and persistent collectives progressing over the
        # engine while frames are lost.
        nodes("net_qemu_nbc_2x2_drop2", 2, 2, "mpit_nbc", extra=["--drop", "2"], tap=True,
              min_tap=30),
        # 50 barriers per communicator: every one crosses the emulated wire.
        nodes("net_qemu_span_2x2", 2, 2, "mpit_span", ["50"], tap=True, min_tap=16),
        nodes("net_qemu_shmem_coll_2x2", 2, 2, "shmem_coll", tap=True, min_tap=2 * 16),
        # shmem_global_exit(0) on node 1 is a successful end on node 0 too.
        nodes("net_qemu_shmem_global_exit_0_ends_both_nodes_with_0", 2, 2, "shmem_fail",
              ["global_exit", "0"], rc=0, expect=[r"PE 3 exits the job"],
              reject=[r"was not stopped"]),
        # Not quiet: the boot log must name the NIC and what discovery found.
        harness.lwkrun("net_qemu_dead_wire_ends_the_job_naming_the_operation",
                       ["--nodes", "2", "-n", "1", "--drop", "100", "--append",
                        "net_dead_ms=3000 net_join_ms=3000", "--timeout", "90",
                        prog("mpit_p2p")],
                       rc=122, timeout=100,
                       expect=[r"\[n0\] pci: \d+ functions: .*8086:100e",
                               r"\[n0\] nic: 82540EM \(e1000\) at 00:\d\d\.0, MAC "
                               r"52:54:00:5a:00:00, link",
                               # the first message, MPI_Init's hardware barrier
                               # before it, or, watched from the job's start,
                               # the job itself
                               r"\[n0\] net: node 1 stopped answering during (an? \w+ from rank 0 "
                               r"to rank 1|a hardware barrier|the job): ending the job",
                               r"switch: \d+ frames in, 0 out, \d+ flooded, \d+ dropped"]),
        # Two nodes that booted the same entry of a cluster image each
        # name the other, and the job ends when the missing node never
        # joins.  (lwkrun's I/O server knows nodes by their RAM: iosrv_node.)
        harness.lwkrun("net_qemu_two_nodes_of_one_id_say_so",
                       ["--nodes", "2", "-n", "1", "--append", "net_join_ms=3000 net_dead_ms=3000",
                        "--append-node", "1:node=0", "--timeout", "90", prog("mpit_p2p")],
                       rc=122, timeout=100,
                       expect=[r"\[n0\] net: 52:54:00:5a:00:01 also says it is node 0: every "
                               r"node needs its own node=I",
                               r"\[n1\] net: 52:54:00:5a:00:00 also says it is node 0"]),
        # Another cluster's node on the same wire (its own net_cluster) is
        # no node of this job: ignored, named once.
        harness.lwkrun("net_qemu_a_node_of_another_cluster_is_ignored",
                       ["--nodes", "2", "-n", "1", "--append",
                        "net_cluster=7 net_join_ms=3000 net_dead_ms=3000",
                        "--append-node", "1:net_cluster=8", "--timeout", "90", prog("mpit_p2p")],
                       rc=122, timeout=100,
                       expect=[r"\[n0\] net: 52:54:00:5a:00:01 is a node of another cluster "
                               r"\(its net_cluster 8, ours 7\): ignored",
                               r"\[n1\] net: 52:54:00:5a:00:00 is a node of another cluster"],
                       reject=[r"net: node \d is 52:54"]),
        # node=auto: the nodes number themselves by MAC.  lwkrun's MACs go
        # backwards (its node 1 is the job's node 0), so the I/O server
        # must know nodes by their RAM and stdin still reach world rank 0.
        harness.Case("net_qemu_node_auto_numbers_the_nodes_by_mac",
                     ["sh", "-c", "printf 'hello stdin\\n' | python3 %s --nodes 2 -n 1 "
                      "--node-auto --timeout 90 %s stdin"
                      % (harness.LWKRUN, prog("filetest"))], timeout=100, tap=True, min_tap=1,
                     expect=[r"\[n0\] net: node=auto: this is node 1 of 2, by MAC order "
                             r"\(52:54:00:5a:00:00 \.\. 52:54:00:5a:00:01\)",
                             r"\[n1\] net: node=auto: this is node 0 of 2",
                             r"\[n1\] rank 0: stdin 12 bytes, hash 2728214731339407760",
                             r"\[n0\] rank 1: stdin 0 bytes"]),
        harness.lwkrun("net_qemu_node_auto_and_a_fixed_node_elsewhere_say_so",
                       ["--nodes", "2", "-n", "1", "--node-auto", "--append-node", "1:node=1",
                        "--append", "net_join_ms=3000 net_dead_ms=3000", "--timeout", "90",
                        prog("mpit_p2p")], rc=122, timeout=100,
                       expect=[r"\[n0\] net: node=auto: 52:54:00:5a:00:00 says it is node 1, "
                               r"but its MAC makes it node 0: give every node node=auto, or "
                               r"each its own node=I: no job runs"]),
        harness.lwkrun("net_qemu_node_auto_without_every_node_says_so",
                       ["--nodes", "2", "-n", "1", "--node-auto", "--append-node", "1:nnodes=3",
                        "--append", "net_join_ms=3000", "--timeout", "90", prog("mpit_p2p")],
                       rc=122, timeout=100,
                       expect=[r"\[n0\] net: node=auto: heard 0 of the 1 other nodes in 3 s "
                               r"\(net_join_ms\); every node must boot with nnodes=2 and this "
                               r"net_cluster: no job runs",
                               r"\[n1\] net: node=auto: heard 0 of the 2 other nodes"]),
        harness.lwkrun("net_qemu_a_node_id_past_nnodes_is_refused",
                       ["-n", "1", "--append", "node=2 nnodes=2", "--timeout", "60",
                        prog("mpit_p2p")], rc=2, timeout=70,
                       expect=[r"jobs: node=2 is not a node of nnodes=2 \(0\.\.1\): no job "
                               r"runs"]),
        harness.lwkrun("net_qemu_discovery_and_a_node_without_nic",
                       ["--nodes", "2", "-n", "1", "--timeout", "90", prog("mpit_p2p")],
                       timeout=100, tap=True, min_tap=16,
                       expect=[r"\[n0\] net: node 1 is 52:54:00:5a:00:01",
                               r"\[n1\] net: node 0 is 52:54:00:5a:00:00"]),
        harness.lwkrun("net_single_node_says_it_has_no_nic",
                       ["-n", "1", "--timeout", "60", prog("smaptest_remote")],
                       timeout=70, tap=True,
                       expect=[r"nic: none \(jobs of several nodes need an Intel e1000/e1000e\)"]),
        harness.lwkrun("net_lwkrun_refuses_an_unknown_nic",
                       ["--nodes", "2", "--nic", "virtio", prog("mpit_p2p")], rc=2, timeout=30,
                       expect=[r"^lwkrun: --nic: e1000, e1000-82545em, e1000-82544gc, e1000e, "
                               r"got 'virtio'$"]),
        harness.lwkrun("net_lwkrun_refuses_an_append_node_past_the_nodes",
                       ["--nodes", "2", "--append-node", "2:quiet", prog("mpit_p2p")], rc=2,
                       timeout=30,
                       expect=[r"^lwkrun: --append-node: a QEMU node from 0 to 1 "
                               r"\(--nodes, without --host\)$"]),
        harness.lwkrun("net_lwkrun_refuses_node_auto_on_one_node",
                       ["--node-auto", prog("mpit_p2p")], rc=2, timeout=30,
                       expect=[r"^lwkrun: --node-auto: QEMU nodes number themselves; give "
                               r"--nodes 2 or more, without --host$"]),
        harness.lwkrun("net_lwkrun_refuses_a_wire_mtu_below_576",
                       ["--nodes", "2", "--wire-mtu", "500", prog("mpit_p2p")], rc=2, timeout=30,
                       expect=[r"^lwkrun: --wire-mtu: from 576 to 65535 bytes$"]),
        harness.Case("net_switch_refuses_a_bad_command_line",
                     [harness.build("tools", "switch"), "--ports", "2"], rc=2,
                     expect=[r"^usage: switch --sock PATH --ports K"]),
    ]
