/* signal.h - Linux signal numbers: a rank killed by a fault or by abort()
 * ends with status 128 + signal, like a shell reports it. */
#ifndef SIGNAL_H
#define SIGNAL_H

#define SIGILL		4
#define SIGTRAP		5
#define SIGABRT		6
#define SIGBUS		7
#define SIGFPE		8
#define SIGKILL		9
#define SIGSEGV		11
#define SIGTERM		15
#define NSIG		64

#endif
