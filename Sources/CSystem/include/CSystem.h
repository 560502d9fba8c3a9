#ifndef C_SYSTEM_H
#define C_SYSTEM_H
// The Linux system calls that Glibc's Swift module leaves out.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

/// The number of CPUs in the calling thread's affinity mask, or -1 when it cannot be read.
/// In C because sched_getaffinity and CPU_COUNT need _GNU_SOURCE, which Glibc's module lacks.
int csystem_affinity_cpu_count(void);
#endif
