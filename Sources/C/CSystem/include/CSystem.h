#ifndef C_SYSTEM_H
#define C_SYSTEM_H
// The Linux system calls and the allocator settings that Glibc's Swift module leaves out.
#include <malloc.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#endif
