/* power.h - how a boot ends: the final status and the exit= policy. */
#ifndef POWER_H
#define POWER_H

/* Print the final status line and power off, halt or reboot as the
 * command line asked.  Under QEMU the status becomes QEMU's exit code. */
_Noreturn void power_end(int status);

#endif
