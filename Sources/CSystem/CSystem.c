#define _GNU_SOURCE
#include <sched.h>
#include "CSystem.h"

int csystem_affinity_cpu_count(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    return CPU_COUNT(&set);
}
