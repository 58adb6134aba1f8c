// The processes this one started, and theirs: ended with it. A script's
// os.execute or io.popen child (and what that child started in the
// background) must not outlive a hard stop, and a test runner's workers
// must not outlive the runner. Linux reads the tree from /proc with system
// calls only (no malloc, no stdio): callable from the watchdog thread while
// the main thread is stuck anywhere, and from a signal handler. Elsewhere
// these do nothing.
#include "CLuaShim.h"
#include "control.h"
#include <stdio.h>

#if defined(__linux__)
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <signal.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <limits.h>
#include <sys/syscall.h>
#include <unistd.h>

void fh_adopt_orphans(void) { (void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

static void end_tree_and_die(int sig);
/* Whether a guardian is started at the first child group (fh_guard_child_groups, below). */
static int guardian_wanted;

/* SIGTERM, not SIGKILL, when the parent dies (even by SIGKILL): the handler
   ends this process's own descendants first (a test's background child,
   re-parented here), which SIGKILL would have left to init. */
void fh_die_with_parent(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = end_tree_and_die;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    guardian_wanted = 0;                             /* a worker ends its own tree when its runner dies */
    pid_t parent = getppid();
    (void)prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
    if (getppid() != parent) end_tree_and_die(SIGTERM);   /* the parent died before the call */
}

#define FH_MAX_PROCESSES 32768
static pid_t process_ids[FH_MAX_PROCESSES];
static pid_t parent_ids[FH_MAX_PROCESSES];
static pid_t group_ids[FH_MAX_PROCESSES];

/// The parent of process `pid` from /proc/<pid>/stat (the field after the
/// command, which may itself hold spaces and parentheses), and its process
/// group in `group`; -1 if gone.
static pid_t parent_of(const char *pid_text, pid_t *group) {
    char path[64] = "/proc/";
    size_t at = 6;
    for (const char *p = pid_text; *p && at < sizeof path - 6; p++) path[at++] = *p;
    const char *tail = "/stat";
    for (const char *p = tail; *p; p++) path[at++] = *p;
    path[at] = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buffer[512];
    ssize_t length = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (length <= 0) return -1;
    buffer[length] = 0;
    char *close_paren = NULL;
    for (char *p = buffer; *p; p++) if (*p == ')') close_paren = p;
    if (close_paren == NULL) return -1;
    char *p = close_paren + 1;
    while (*p == ' ') p++;
    if (*p == 'Z' || *p == 'X') return -1;       /* a zombie: nothing to end, and it forks no more */
    if (*p) p++;                                 /* the state */
    while (*p == ' ') p++;
    pid_t parent = 0;
    while (*p >= '0' && *p <= '9') parent = parent * 10 + (*p++ - '0');
    while (*p == ' ') p++;
    pid_t pgrp = 0;
    while (*p >= '0' && *p <= '9') pgrp = pgrp * 10 + (*p++ - '0');
    *group = pgrp;
    return parent;
}

/// Calls `visit` with each entry of directory `path` whose name is a number
/// (a pid in /proc, a thread id in /proc/self/task), read with getdents64:
/// no malloc, no stdio (safe in a signal handler).
static void each_numbered_entry(const char *path, void (*visit)(const char *name, pid_t number, void *context), void *context) {
    int dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return;
    char buffer[8192];
    for (;;) {
        long length = syscall(SYS_getdents64, dir, buffer, sizeof buffer);
        if (length <= 0) break;
        for (long offset = 0; offset < length;) {
            struct { unsigned long long ino; long long off; unsigned short reclen; unsigned char type; char name[]; } *entry =
                (void *)(buffer + offset);
            offset += entry->reclen;
            const char *name = entry->name;
            if (name[0] < '1' || name[0] > '9') continue;
            pid_t number = 0;
            int numeric = 1;
            for (const char *p = name; *p; p++) {
                if (*p < '0' || *p > '9') { numeric = 0; break; }
                number = number * 10 + (*p - '0');
            }
            if (numeric) visit(name, number, context);
        }
    }
    close(dir);
}

static void add_process(const char *name, pid_t pid, void *context) {
    int *count = context;
    if (*count >= FH_MAX_PROCESSES) return;
    pid_t group = 0;
    pid_t parent = parent_of(name, &group);
    if (parent < 0) return;
    process_ids[*count] = pid;
    parent_ids[*count] = parent;
    group_ids[*count] = group;
    (*count)++;
}

/// Reads every process and its parent into the tables; returns how many.
static int read_processes(void) {
    int count = 0;
    each_numbered_entry("/proc", add_process, &count);
    return count;
}

/* Index arrays sorted by a key (heapsort: no malloc, no recursion — safe
   in a signal handler), for finding a process's children and a group's
   members by binary search instead of scanning every process for each. */
static int by_parent[FH_MAX_PROCESSES], by_group[FH_MAX_PROCESSES], pending[FH_MAX_PROCESSES];
static unsigned char ours[FH_MAX_PROCESSES];

static void sift_down(int *order, const pid_t *key, int start, int end) {
    int root = start;
    while (2 * root + 1 < end) {
        int child = 2 * root + 1;
        if (child + 1 < end && key[order[child + 1]] > key[order[child]]) child++;
        if (key[order[root]] >= key[order[child]]) return;
        int swap = order[root]; order[root] = order[child]; order[child] = swap;
        root = child;
    }
}

static void sort_by(int *order, const pid_t *key, int count) {
    for (int i = 0; i < count; i++) order[i] = i;
    for (int start = count / 2 - 1; start >= 0; start--) sift_down(order, key, start, count);
    for (int end = count - 1; end > 0; end--) {
        int swap = order[0]; order[0] = order[end]; order[end] = swap;
        sift_down(order, key, 0, end);
    }
}

/* The first position in `order` whose key is at least `value`. */
static int lower_bound(const int *order, const pid_t *key, int count, pid_t value) {
    int low = 0, high = count;
    while (low < high) {
        int middle = low + (high - low) / 2;
        if (key[order[middle]] < value) low = middle + 1; else high = middle;
    }
    return low;
}

/* The process groups os.execute and io.popen started their children in
   (child_processes.c), newest last: ended as a whole even when the scan
   cannot link their members to this process — a process that forks and
   exits every few milliseconds is read with a parent that is gone (a
   zombie, skipped) by the time it is read. */
#define FH_CHILD_GROUPS 64
static volatile pid_t child_groups[FH_CHILD_GROUPS];
static volatile int child_group_count;

static void tell_guardian(int32_t word);

void fh_note_child_group(pid_t group) {
    int at = __atomic_fetch_add(&child_group_count, 1, __ATOMIC_ACQ_REL);
    child_groups[at % FH_CHILD_GROUPS] = group;
    tell_guardian((int32_t)group);
}

/* A word that names no group: the guardian starts, and looks below the command. */
#define FH_WATCH_ONLY INT32_MAX
/* A word saying that the next is a process (a child of the command) to watch. */
#define FH_WATCH_PID (INT32_MAX - 1)

void fh_guard_descendants(void) { tell_guardian(FH_WATCH_ONLY); }

void fh_child_group_waited(pid_t group) {
    /* Its leader is reaped; with no member left, its number may be reused: forgotten. */
    if (kill(-group, 0) != 0 && errno == ESRCH) tell_guardian(-(int32_t)group);
}

/* A guardian for what a script starts, against this process's sudden death.
   SIGTERM, SIGINT, a time limit end the tree here (fh_kill_descendants), but
   SIGKILL cannot be caught: the script's children, each in a group of its
   own (child_processes.c), re-parented to init and ran on, out of reach of
   even a kill of the command's process group. So at the first child group,
   a small process is forked, in a group of its own, that learns each group
   through a socket; when the socket closes without this process having said
   it ends normally (at exit, where lua5.4 leaves background children
   running, and so does this), it kills every group still known. A group is
   forgotten once its shell is reaped with no member left, so a number the
   system may hand out again is never killed. */
static int guardian_socket = -1;
static pthread_mutex_t guardian_lock = PTHREAD_MUTEX_INITIALIZER;

void fh_guard_child_groups(void) { guardian_wanted = 1; }

static void each_child_of_thread(const char *tid, void (*each)(const char *number, void *context), void *context);

/* Tells the guardian (under its lock) to watch child `number`. */
static void send_child(const char *number, void *unused) {
    (void)unused;
    int32_t words[2] = { FH_WATCH_PID, 0 };
    for (const char *p = number; *p; p++) words[1] = words[1] * 10 + (*p - '0');
    if (words[1] <= 0) return;
    ssize_t sent;
    do { sent = send(guardian_socket, words, sizeof words, MSG_NOSIGNAL); } while (sent < 0 && errno == EINTR);
}

static void send_children_of_thread(const char *tid, pid_t unused, void *context) {
    (void)unused;
    each_child_of_thread(tid, send_child, context);
}

void fh_guardian_look_now(void) {
    if (!guardian_wanted) return;
    pthread_mutex_lock(&guardian_lock);
    /* This process's children now — a child's own child that left its group
       is one of them once that child ended (this process adopts orphans) —
       each told to the guardian: it reads what was sent even after this
       process dies, so no answer is awaited. */
    if (guardian_socket >= 0) each_numbered_entry("/proc/self/task", send_children_of_thread, NULL);
    pthread_mutex_unlock(&guardian_lock);
}

/* Reads /proc/<pid>/stat into `buffer` (NUL-terminated); its length, or <= 0. */
static ssize_t read_stat(pid_t pid, char *buffer, size_t size) {
    char path[64] = "/proc/", digits[16];
    int n = 0;
    do { digits[n++] = (char)('0' + pid % 10); pid /= 10; } while (pid > 0 && n < 15);
    size_t at = 6;
    while (n > 0) path[at++] = digits[--n];
    const char *tail = "/stat";
    for (const char *p = tail; *p; p++) path[at++] = *p;
    path[at] = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t length = read(fd, buffer, size - 1);
    close(fd);
    if (length > 0) buffer[length] = 0;
    return length;
}

/* When process `pid_text` started (the 22nd field of its stat: clock ticks
   since boot), or 0 if it is gone: with the pid, what names one process
   (a pid alone may be handed out again). */
static unsigned long long start_time_of(pid_t pid) {
    char buffer[1024];
    if (read_stat(pid, buffer, sizeof buffer) <= 0) return 0;
    char *p = NULL;
    for (char *q = buffer; *q; q++) if (*q == ')') p = q;
    if (p == NULL) return 0;
    p++;
    for (int field = 3; field < 22; field++) {           /* from the state (3) to the start time (22) */
        while (*p == ' ') p++;
        while (*p && *p != ' ') p++;
    }
    while (*p == ' ') p++;
    unsigned long long start = 0;
    while (*p >= '0' && *p <= '9') start = start * 10 + (unsigned long long)(*p++ - '0');
    return start;
}

/* Whether process `pid`, started at `start`, still runs: there, the same
   one, and no zombie (a killed command stays one until its parent reaps
   it, its children gone to init). */
static int still_running(pid_t pid, unsigned long long start) {
    char buffer[1024];
    if (start_time_of(pid) != start || read_stat(pid, buffer, sizeof buffer) <= 0) return 0;
    char *close_paren = NULL;
    for (char *q = buffer; *q; q++) if (*q == ')') close_paren = q;
    if (close_paren == NULL || close_paren[1] != ' ') return 0;
    char state = close_paren[2];
    return state != 'Z' && state != 'X' && state != 'x';
}

#define FH_GUARDED_GROUPS 4096
#define FH_WATCHED 4096
/* What the guardian last saw below the command (and when each started). */
static pid_t watched_ids[FH_WATCHED];
static unsigned long long watched_starts[FH_WATCHED];
static int watched_count;
/* The look before, while a look is made. */
static pid_t saved_ids[FH_WATCHED];
static unsigned long long saved_starts[FH_WATCHED];

/* Adds `pid` (with its start time) to what the guardian watches; 0 when full or known. */
static int watch(pid_t pid) {
    if (watched_count >= FH_WATCHED) return 0;
    for (int k = 0; k < watched_count; k++) if (watched_ids[k] == pid) return 0;
    unsigned long long start = start_time_of(pid);
    if (start == 0) return 0;
    watched_ids[watched_count] = pid;
    watched_starts[watched_count] = start;
    watched_count++;
    return 1;
}

/* Everything below the `count` processes of `roots` now, but the guardian
   (one read of /proc; children found by their parent). */
static void watch_descendants(const pid_t *roots, int count_of_roots, pid_t self) {
    int count = read_processes();
    sort_by(by_parent, parent_ids, count);
    int head = 0, tail = 0;
    for (int r = 0; r < count_of_roots && r < FH_MAX_PROCESSES; r++) pending[tail++] = -1 - r;   /* below -1: a root */
    while (head < tail) {
        pid_t parent = pending[head] < 0 ? roots[-1 - pending[head]] : process_ids[pending[head]];
        head++;
        for (int k = lower_bound(by_parent, parent_ids, count, parent); k < count && parent_ids[by_parent[k]] == parent; k++) {
            int child = by_parent[k];
            if (process_ids[child] == self || tail >= FH_MAX_PROCESSES) continue;
            watch(process_ids[child]);
            pending[tail++] = child;
        }
    }
}

/* Monotonic milliseconds (clock_gettime is async-signal-safe). */
static long long milliseconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* The guardian's life: async-signal-safe calls only (forked from a process
   with threads). Every quarter second it notes what is below the command —
   a child that left its process group (setsid) is found there — and when
   the command is gone without saying it ended normally, it stops all it
   noted (so none forks on), notes their children, then kills them, and
   every group it was told of. */
_Noreturn static void guard(int socket_fd, pid_t command) {
    setpgid(0, 0);                                   /* a kill of the command's group leaves it to do its work */
    static const int quiet[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
    for (unsigned i = 0; i < sizeof quiet / sizeof quiet[0]; i++) signal(quiet[i], SIG_IGN);
    if (socket_fd != 3) { dup2(socket_fd, 3); socket_fd = 3; }
    for (int fd = 0; fd < 3; fd++) close(fd);        /* holds no pipe of the command's open */
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 4U, ~0U, 0U) != 0)
#endif
        for (int fd = 4; fd < 1024; fd++) close(fd);
    pid_t self = getpid();
    static pid_t groups[FH_GUARDED_GROUPS];
    int count = 0, released = 0;
    int32_t word;
    size_t have = 0;
    long long next_look = milliseconds_now();
    unsigned long long command_start = start_time_of(command);
    int next_is_pid = 0;                              /* the word after FH_WATCH_PID */
    for (;;) {
        /* A look every quarter second by the clock, however busy the socket
           (a script that starts a child every 100 ms once kept it from ever looking). */
        long long now = milliseconds_now();
        if (now >= next_look) {
            /* What is below the command now (those gone are dropped) — kept
               only if the command still ran after the look: one made as it
               died found nothing below it (its children went to init), and
               what the look before saw went unkilled. */
            int before = watched_count;
            memcpy(saved_ids, watched_ids, sizeof(pid_t) * (size_t)before);
            memcpy(saved_starts, watched_starts, sizeof(unsigned long long) * (size_t)before);
            watched_count = 0;
            watch_descendants(&command, 1, self);
            if (!still_running(command, command_start)) {
                memcpy(watched_ids, saved_ids, sizeof(pid_t) * (size_t)before);
                memcpy(watched_starts, saved_starts, sizeof(unsigned long long) * (size_t)before);
                watched_count = before;
                /* No more looks; what the socket still holds (a group the
                   command told of as it died) is read to its end first. */
                next_look = LLONG_MAX;
                continue;
            }
            next_look = now + 250;
        }
        struct pollfd ready = { socket_fd, POLLIN, 0 };
        int polled = poll(&ready, 1, next_look == LLONG_MAX ? -1 : (int)(next_look - now));
        if (polled == 0) continue;
        if (polled < 0) { if (errno == EINTR) continue; break; }
        ssize_t got = read(socket_fd, (char *)&word + have, sizeof word - have);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        have += (size_t)got;
        if (have < sizeof word) continue;
        have = 0;
        if (next_is_pid) {
            /* A child of the command, told as a child just ended or began:
               watched at once (a SIGKILL before the next look let it escape). */
            next_is_pid = 0;
            if (word > 0 && word != self) watch((pid_t)word);     /* (the guardian is a child of the command too) */
            continue;
        }
        if (word == 0) { released = 1; continue; }
        if (word == FH_WATCH_ONLY) continue;
        if (word == FH_WATCH_PID) { next_is_pid = 1; continue; }
        if (word > 0) {
            if (count < FH_GUARDED_GROUPS) groups[count++] = word;
            else { for (int k = 1; k < count; k++) groups[k - 1] = groups[k]; groups[count - 1] = word; }
            continue;
        }
        for (int k = 0; k < count; k++) {
            if (groups[k] != -word) continue;
            groups[k] = groups[--count];
            break;
        }
    }
    if (!released) {
        /* Stopped first, those still the ones noted; then what they started meanwhile, until nothing is new. */
        int stopped = 0;
        for (int round = 0; round < 50 && stopped < watched_count; round++) {
            int before = watched_count;
            for (int k = stopped; k < before; k++) {
                if (start_time_of(watched_ids[k]) == watched_starts[k]) kill(watched_ids[k], SIGSTOP);
            }
            watch_descendants(watched_ids + stopped, before - stopped, self);
            stopped = before;
        }
        for (int k = 0; k < watched_count; k++) {
            if (start_time_of(watched_ids[k]) == watched_starts[k]) kill(watched_ids[k], SIGKILL);
        }
        for (int k = 0; k < count; k++) kill(-groups[k], SIGKILL);
    }
    _exit(0);
}

static void release_guardian(void) { tell_guardian(0); }

static void tell_guardian(int32_t word) {
    if (!guardian_wanted) return;
    pthread_mutex_lock(&guardian_lock);
    struct pollfd peer = { guardian_socket, 0, 0 };
    if (guardian_socket >= 0 && word > 0 && poll(&peer, 1, 0) > 0 && (peer.revents & (POLLHUP | POLLERR))) {
        /* Gone (a hard stop, or Ctrl-C at the REPL, ends every descendant, the guardian too): a new one. */
        close(guardian_socket);
        guardian_socket = -1;
    }
    if (guardian_socket < 0 && word > 0) {
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0) {
            pid_t command = getpid();
            pid_t pid = fork();
            if (pid == 0) guard(pair[1], command);
            close(pair[1]);
            if (pid > 0) {
                static int registered;
                guardian_socket = pair[0];
                if (!registered) atexit(release_guardian);
                registered = 1;
            } else {
                close(pair[0]);
                guardian_wanted = 0;                 /* no guardian: as before */
            }
        }
    }
    if (guardian_socket >= 0) {
        ssize_t sent;
        do { sent = send(guardian_socket, &word, sizeof word, MSG_NOSIGNAL); } while (sent < 0 && errno == EINTR);
    }
    pthread_mutex_unlock(&guardian_lock);
}

static int by_pid[FH_MAX_PROCESSES];

/* Whether group `group` (one this process started) may be killed whole: no
   member was started by a process outside it that is not ours — which a
   group whose number was reused by an unrelated process would have. */
static int child_group_is_ours(pid_t group, int count) {
    for (int k = lower_bound(by_group, group_ids, count, group); k < count && group_ids[by_group[k]] == group; k++) {
        int member = by_group[k];
        if (ours[member]) continue;
        int p = lower_bound(by_pid, process_ids, count, parent_ids[member]);
        if (p >= count || process_ids[by_pid[p]] != parent_ids[member]) continue;   /* its parent is gone */
        int parent = by_pid[p];
        if (!ours[parent] && group_ids[parent] != group && process_ids[parent] != getpid()) return 0;
    }
    return 1;
}

/* Kills this process's children now — listed by the kernel in
   /proc/self/task/<tid>/children, read in one go — and returns how many were
   alive (not zombies). A full scan of /proc is a snapshot taken before it
   reads each process: a chain whose every process starts the next and
   exits within a millisecond (`setsid -f sh hop.sh`) is always newer than
   the snapshot. Its newest is always a child of this process, though (a
   subreaper: orphans come here), so reading the children again and again
   catches it before it forks once more. */
/* Kills process `number` (its pid as text) unless it is gone or a zombie; 1 if it was alive. */
static int kill_if_alive(const char *number) {
    pid_t pid = 0, group = 0;
    for (const char *p = number; *p; p++) pid = pid * 10 + (*p - '0');
    return pid > 1 && parent_of(number, &group) >= 0 && kill(pid, SIGKILL) == 0;
}

/* Calls `each` with the number of every child of thread `tid` of this
   process (as /proc/self/task/<tid>/children lists them). */
static void each_child_of_thread(const char *tid, void (*each)(const char *number, void *context), void *context) {
    char path[96] = "/proc/self/task/";
    size_t at = strlen(path);
    for (const char *p = tid; *p && at < sizeof path - 10; p++) path[at++] = *p;
    memcpy(path + at, "/children", 10);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    /* Read whole, a buffer at a time: the zombies this process never
       reaped are listed too, oldest first — the newest child, the one
       to catch, is at the end (past the first 4 KB, it was missed). */
    char list[4096];
    char number[16];
    size_t digits = 0;
    for (;;) {
        ssize_t got = read(fd, list, sizeof list);
        if (got <= 0) break;
        for (ssize_t i = 0; i < got; i++) {
            if (list[i] >= '0' && list[i] <= '9') {
                if (digits < sizeof number - 1) number[digits++] = list[i];
            } else if (digits > 0) {
                number[digits] = 0;
                digits = 0;
                each(number, context);
            }
        }                                          /* (a number may go on in the next buffer) */
    }
    close(fd);
    if (digits > 0) {                              /* the last number, with nothing after it */
        number[digits] = 0;
        each(number, context);
    }
}

static void count_if_killed(const char *number, void *context) { *(int *)context += kill_if_alive(number); }

/* Kills the living children listed for thread `tid` (see kill_children_now), counting them into `context`. */
static void kill_children_of_thread(const char *tid, pid_t unused, void *context) {
    (void)unused;
    each_child_of_thread(tid, count_if_killed, context);
}

static int kill_children_now(void) {
    int alive = 0;
    each_numbered_entry("/proc/self/task", kill_children_of_thread, &alive);
    return alive;
}

int fh_kill_descendants(void) {
    static volatile int busy = 0;                 /* one at a time (a signal during a hard stop) */
    if (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQ_REL)) return 0;
    pid_t self = getpid();
    pid_t own_group = getpgrp();
    int killed = 0;
    /* Pass after pass until one finds nothing: a child may fork while we
       look, and a chain whose every process starts the next in a new session
       and exits (`setsid -f sh hop.sh`) outran three passes 5 times in 12. A
       killed process forks no more, so each pass catches the chain's newest;
       it ends when one is killed before it forked. Bounded (2 s, 2,000 passes). */
    struct timespec started, now;
    clock_gettime(CLOCK_MONOTONIC, &started);
    for (int pass = 0; pass < 2000; pass++) {
        if (pass > 0) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            if ((now.tv_sec - started.tv_sec) * 1000000000L + (now.tv_nsec - started.tv_nsec) > 2000000000L) break;
        }
        /* The children first, until none has been alive for a while (bounded):
           see kill_children_now. A killed process's children come here only
           once it has finished exiting, so a look that finds none alive is
           not the end: five in a row, 0.2 ms apart, are. */
        struct timespec pause = { 0, 200000 };
        for (int round = 0, quiet = 0; round < 20000 && quiet < 5; round++) {
            if (kill_children_now() > 0) quiet = 0;
            else { quiet++; nanosleep(&pause, NULL); }
        }
        int count = read_processes();
        sort_by(by_parent, parent_ids, count);
        /* Descendants: from this process down, children found by parent. */
        for (int i = 0; i < count; i++) ours[i] = 0;
        int queued = 0, found = 0;
        pending[queued++] = -1;                    /* -1: this process itself */
        while (queued > 0) {
            int at = pending[--queued];
            pid_t parent = at < 0 ? self : process_ids[at];
            for (int k = lower_bound(by_parent, parent_ids, count, parent); k < count && parent_ids[by_parent[k]] == parent; k++) {
                int child = by_parent[k];
                if (ours[child] || process_ids[child] == self) continue;
                ours[child] = 1;
                found = 1;
                if (queued < FH_MAX_PROCESSES) pending[queued++] = child;
            }
        }
        int noted = __atomic_load_n(&child_group_count, __ATOMIC_ACQUIRE);
        if (!found && noted == 0) break;
        /* A process group other than ours whose every member descends from
           this process (a test worker's, a setsid child's): ended at once — a
           process that forks itself and exits, without end, is never caught
           one pid at a time. */
        sort_by(by_group, group_ids, count);
        for (int k = 0; k < count;) {
            pid_t group = group_ids[by_group[k]];
            int all_ours = 1, any_ours = 0, end = k;
            for (; end < count && group_ids[by_group[end]] == group; end++) {
                if (ours[by_group[end]]) any_ours = 1; else all_ours = 0;
            }
            if (group > 0 && group != own_group && any_ours && all_ours) (void)kill(-group, SIGKILL);
            k = end;
        }
        if (noted > 0) {
            sort_by(by_pid, process_ids, count);
            for (int i = 0; i < noted && i < FH_CHILD_GROUPS; i++) {
                pid_t group = child_groups[i];
                if (group > 1 && group != own_group && child_group_is_ours(group, count)) (void)kill(-group, SIGKILL);
            }
        }
        if (!found) break;
        for (int i = 0; i < count; i++) {
            if (ours[i] && kill(process_ids[i], SIGKILL) == 0) killed++;
        }
    }
    __atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
    return killed;
}

static volatile sig_atomic_t tree_ending;    /* the signal ending this process, once one is */

int fh_tree_is_ending(void) { return tree_ending; }

/* Dying of SIGQUIT writes no core file: the signal says "stop", not "debug me". */
static void no_core_for(int sig) {
    if (sig != SIGQUIT) return;
    struct rlimit none = { 0, 0 };
    (void)setrlimit(RLIMIT_CORE, &none);
}

static void end_tree_and_die(int sig) {
    tree_ending = sig;                   /* before the kill: a worker's death is not news now */
    fh_kill_descendants();
    no_core_for(sig);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Dies of the signal that is ending the process (SIGALRM's handler too:
   the runner had three seconds to report what finished). */
static void die_of_ending_signal(int unused) {
    (void)unused;
    int sig = tree_ending ? tree_ending : SIGTERM;
    no_core_for(sig);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
}

void fh_die_of_ending_signal(void) {
    if (tree_ending) die_of_ending_signal(0);
}

/* A runner's: the descendants are killed at once, then the runner reports
   the tests that finished and dies of the signal (fh_die_of_ending_signal);
   within three seconds, or SIGALRM does it. A second signal ends it at once. */
static void end_tree_then_report(int sig) {
    if (tree_ending) {
        no_core_for(sig);
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    tree_ending = sig;
    fh_kill_descendants();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = die_of_ending_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGALRM, &action, NULL);
    alarm(3);
}

void fh_end_tree_on_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = end_tree_then_report;
    sigemptyset(&action.sa_mask);
    /* SIGQUIT too: it printed the Swift runtime's crash report, and the
       runner went on waiting with its workers alive. */
    int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    /* Unblocked too: a parent may have passed on a mask that blocks them
       (the runner would then never hear it is cancelled). */
    sigset_t set;
    sigemptyset(&set);
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) sigaddset(&set, signals[i]);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction previous;
        /* SIGINT, SIGHUP and SIGQUIT the parent set to be ignored stay
           ignored (a shell's background job, nohup); SIGTERM always ends the tree. */
        if (signals[i] != SIGTERM && sigaction(signals[i], NULL, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
        sigaction(signals[i], &action, NULL);
    }
}

void fh_end_tree_on_termination(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = end_tree_and_die;
    sigemptyset(&action.sa_mask);
    struct sigaction previous;
    /* Unblocked: a parent may pass on a mask that blocks them (Foundation's
       Process does), and then neither the handler nor the default ends it. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    /* SIGQUIT as SIGTERM: it printed the Swift runtime's "Program crashed"
       report, and `run` went on running. Ignored ones stay ignored (nohup's SIGHUP). */
    int optional[] = { SIGHUP, SIGQUIT };
    for (unsigned i = 0; i < sizeof optional / sizeof optional[0]; i++) {
        if (sigaction(optional[i], NULL, &previous) == 0 && previous.sa_handler != SIG_IGN) sigaddset(&set, optional[i]);
    }
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    sigaction(SIGTERM, &action, NULL);
    for (unsigned i = 0; i < sizeof optional / sizeof optional[0]; i++) {
        if (sigaction(optional[i], NULL, &previous) == 0 && previous.sa_handler != SIG_IGN) sigaction(optional[i], &action, NULL);
    }
}

#else
void fh_end_tree_on_termination(void) {}
void fh_end_tree_on_signals(void) {}
void fh_note_child_group(pid_t group) { (void)group; }
void fh_guard_descendants(void) {}
void fh_guardian_look_now(void) {}
void fh_child_group_waited(pid_t group) { (void)group; }
void fh_guard_child_groups(void) {}
int fh_tree_is_ending(void) { return 0; }
void fh_die_of_ending_signal(void) {}
void fh_adopt_orphans(void) {}
void fh_die_with_parent(void) {}
int fh_kill_descendants(void) { return 0; }
#endif

// MARK: - The whole command's deadline

#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static char deadline_message[1024];
static int deadline_status = 1;

/// SIGALRM at the deadline: the message, the descendants, the exit — all
/// async-signal-safe (write, kill, _exit), wherever the command is.
static void deadline_reached(int sig) {
    (void)sig;
    size_t length = strlen(deadline_message);
    const char *text = deadline_message;
    while (length > 0) {
        ssize_t n = write(2, text, length);
        if (n <= 0) break;
        text += n;
        length -= (size_t)n;
    }
    fh_kill_descendants();
    _exit(deadline_status);
}

int fh_arm_command_deadline(double seconds, const char *message, int status) {
    if (!(seconds > 0) || seconds > 1e8) return 0;
    deadline_status = status;
    snprintf(deadline_message, sizeof deadline_message, "%s\n", message);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = deadline_reached;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGALRM, &action, NULL) != 0) return 0;
    /* A mask the parent passed on must not hold it back. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGALRM);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    /* A timer of the kernel's (no thread to start: a run with a limit stays
       one thread); fork does not pass it on to a child. */
    struct itimerval when;
    memset(&when, 0, sizeof when);
    when.it_value.tv_sec = (time_t)seconds;
    when.it_value.tv_usec = (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6);
    if (when.it_value.tv_sec == 0 && when.it_value.tv_usec == 0) when.it_value.tv_usec = 1;
    return setitimer(ITIMER_REAL, &when, NULL) == 0;
}
