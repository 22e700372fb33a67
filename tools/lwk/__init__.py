"""Support code for tools/lwkrun: argument parsing (cli), the QEMU launcher
(qemu), multi-node runs with the barrier hub (nodes) and host mode (host)."""
