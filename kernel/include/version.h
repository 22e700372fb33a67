#ifndef VERSION_H
#define VERSION_H
#define SMAPOS_VERSION "0.1"
#endif
