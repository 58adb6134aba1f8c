// File chores Swift cannot reach through Glibc's module (fallocate is
// declared only under _GNU_SOURCE).
#define _GNU_SOURCE
#include "CLuaShim.h"

#if defined(__linux__)
#include <fcntl.h>

int fh_punch_hole(int fd, long long offset, long long length) {
    return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length);
}
#else
int fh_punch_hole(int fd, long long offset, long long length) {
    (void)fd; (void)offset; (void)length;
    return -1;
}
#endif
