/* errno.h - Linux error numbers (the values user space sees, negated). */
#ifndef ERRNO_H
#define ERRNO_H

#define EPERM		1
#define ENOENT		2
#define ESRCH		3
#define EINTR		4
#define EIO		5
#define E2BIG		7
#define ENOEXEC		8
#define EBADF		9
#define EAGAIN		11
#define ENOMEM		12
#define EACCES		13
#define EFAULT		14
#define EBUSY		16
#define EEXIST		17
#define ENODEV		19
#define EINVAL		22
#define EMFILE		24
#define ENOTTY		25
#define EFBIG		27
#define ENOSPC		28
#define ESPIPE		29
#define ERANGE		34
#define ENAMETOOLONG	36
#define ENOSYS		38
#define ETIMEDOUT	110

#endif
