// os.execute and io.popen, as Lua 5.4's loslib.c and liolib.c have them,
// plus one thing: when no standard stream is a terminal (a CI job, a pipe,
// a test worker), the child starts in a process group of its own. A hard
// stop or a time limit ends every descendant (process_tree.c), and a
// whole group of them at once: a child that forks itself and exits without
// end is then never missed one pid at a time — it cannot leave its group.
// On a terminal the stock functions run (the child stays in the foreground
// group, where Ctrl-C and reading the terminal reach it), the guardian
// started first: it finds the child below the command.
#include "control.h"

#include <lauxlib.h>
#include <lualib.h>

#if defined(__linux__) || defined(__APPLE__)
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/// Whether a child may be put in a group of its own: no standard stream is
/// a terminal.
static int detached_from_terminal(void) {
    return !isatty(0) && !isatty(1) && !isatty(2);
}

/// Starts `/bin/sh -c command` in a process group of its own, its
/// `child_fd` (0 or 1; -1: none) being the child's end of `pipe_fds`.
/// Returns the pid, or -1 with errno set.
static pid_t spawn_shell(const char *command, int child_fd, int pipe_fds[2]) {
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_t actions;
    if (posix_spawnattr_init(&attributes) != 0) return -1;
    if (posix_spawn_file_actions_init(&actions) != 0) {
        posix_spawnattr_destroy(&attributes);
        return -1;
    }
    sigset_t empty;
    sigemptyset(&empty);
    posix_spawnattr_setsigmask(&attributes, &empty);     /* not a thread's blocked signals */
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    if (child_fd >= 0) {
        int child_side = child_fd == 0 ? pipe_fds[0] : pipe_fds[1];
        posix_spawn_file_actions_adddup2(&actions, child_side, child_fd);   /* the copy is not close-on-exec */
    }
    char *argv[] = {"sh", "-c", (char *)command, NULL};
    pid_t pid = -1;
    int failed = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (failed) {
        errno = failed;
        return -1;
    }
    fh_note_child_group(pid);
    return pid;
}

/* The process groups of the children waited for (os.execute) or read from
   (io.popen) now, in groups of their own off a terminal: a SIGINT to this
   process is passed on to them, as a terminal passes Ctrl-C to its
   foreground group (the REPL came back only when the command ended). Only
   unreaped children are listed, so each id is still theirs. */
#define FH_INTERRUPTIBLE 32
static volatile pid_t interruptible[FH_INTERRUPTIBLE];

static void interruptible_add(pid_t group) {
    for (int i = 0; i < FH_INTERRUPTIBLE; i++) {
        pid_t none = 0;
        if (__atomic_compare_exchange_n(&interruptible[i], &none, group, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return;
    }
}

static void interruptible_remove(pid_t group) {
    for (int i = 0; i < FH_INTERRUPTIBLE; i++) {
        pid_t listed = group;
        if (__atomic_compare_exchange_n(&interruptible[i], &listed, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return;
    }
}

void fh_interrupt_children(void) {
    for (int i = 0; i < FH_INTERRUPTIBLE; i++) {
        pid_t group = __atomic_load_n(&interruptible[i], __ATOMIC_ACQUIRE);
        if (group > 0) kill(-group, SIGINT);
    }
}

/// waitpid, again when a signal interrupts it; the status, or -1.
static int wait_for(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return -1;
    }
    return status;
}

/// os.execute([command]); upvalue 1 is the stock function.
static int grouped_execute(lua_State *L) {
    const char *command = luaL_optstring(L, 1, NULL);
    if (command == NULL || !detached_from_terminal()) {
        if (command != NULL) fh_guard_descendants();   /* a SIGKILL of the command ends it too (attack 10) */
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_insert(L, 1);
        if (command != NULL) fh_note_blocking(L, "os.execute");
        lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
        fh_note_unblocked(L);
        if (command != NULL) fh_guardian_look_now();   /* what it left in the background, noted */
        return lua_gettop(L);
    }
    errno = 0;
    fh_note_blocking(L, "os.execute");                 /* a hard stop names it, and where it was called */
    pid_t pid = spawn_shell(command, -1, NULL);
    if (pid > 0) interruptible_add(pid);
    int status = pid < 0 ? -1 : wait_for(pid);
    int saved = errno;
    if (pid > 0) interruptible_remove(pid);
    fh_note_unblocked(L);
    if (pid > 0) fh_child_group_waited(pid);
    fh_guardian_look_now();                            /* what it left, setsid or not, noted before the script goes on */
    errno = saved;
    return luaL_execresult(L, status);
}

/// A popen'd file: Lua's stream, then the child to wait for at close.
typedef struct grouped_stream {
    luaL_Stream stream;          /* first: the io library reads it as its own */
    pid_t pid;
} grouped_stream;

/// The stream's close function (file:close(), io.close, or collection).
static int grouped_pclose(lua_State *L) {
    grouped_stream *p = (grouped_stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
    fh_note_blocking(L, "closing an io.popen stream (it waits for the command)");
    fclose(p->stream.f);
    errno = 0;
    int status = wait_for(p->pid);
    int saved = errno;
    if (p->pid > 0) interruptible_remove(p->pid);
    fh_note_unblocked(L);
    if (p->pid > 0) fh_child_group_waited(p->pid);
    fh_guardian_look_now();
    errno = saved;
    return luaL_execresult(L, status);
}

/// io.popen(command [, mode]); upvalue 1 is the stock function.
static int grouped_popen(lua_State *L) {
    const char *command = luaL_checkstring(L, 1);
    const char *mode = luaL_optstring(L, 2, "r");
    if (!detached_from_terminal()) {
        fh_guard_descendants();
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_insert(L, 1);
        lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
        fh_guardian_look_now();
        return lua_gettop(L);
    }
    grouped_stream *p = (grouped_stream *)lua_newuserdatauv(L, sizeof(grouped_stream), 0);
    p->stream.closef = NULL;                          /* closed, until it is open */
    p->stream.f = NULL;
    p->pid = -1;
    luaL_setmetatable(L, LUA_FILEHANDLE);
    luaL_argcheck(L, (mode[0] == 'r' || mode[0] == 'w') && mode[1] == '\0', 2, "invalid mode");
    int fds[2];
    errno = 0;
    if (pipe(fds) != 0) return luaL_fileresult(L, 0, command);
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    int reading = mode[0] == 'r';
    pid_t pid = spawn_shell(command, reading ? 1 : 0, fds);
    int saved = errno;
    close(reading ? fds[1] : fds[0]);                 /* the child's end */
    int own = reading ? fds[0] : fds[1];
    if (pid < 0) {
        close(own);
        errno = saved;
        return luaL_fileresult(L, 0, command);
    }
    p->stream.f = fdopen(own, mode);
    if (p->stream.f == NULL) {
        saved = errno;
        close(own);
        (void)kill(-pid, SIGKILL);
        (void)wait_for(pid);
        errno = saved;
        return luaL_fileresult(L, 0, command);
    }
    p->pid = pid;
    p->stream.closef = grouped_pclose;
    interruptible_add(pid);                           /* until the stream's close reaps it */
    fh_guardian_look_now();
    return 1;
}

/// Replaces `library.name` by `wrapper`, the stock function its upvalue.
static void wrap(lua_State *L, const char *library, const char *name, lua_CFunction wrapper) {
    int top = lua_gettop(L);
    if (lua_getglobal(L, library) == LUA_TTABLE && lua_getfield(L, -1, name) == LUA_TFUNCTION) {
        lua_pushcclosure(L, wrapper, 1);
        lua_setfield(L, -2, name);
    }
    lua_settop(L, top);
}

void fh_group_child_processes(lua_State *L) {
    wrap(L, LUA_OSLIBNAME, "execute", grouped_execute);
    wrap(L, LUA_IOLIBNAME, "popen", grouped_popen);
}

#else
void fh_group_child_processes(lua_State *L) { (void)L; }
#endif

// Parts of this file follow Lua 5.4's loslib.c (os_execute) and liolib.c
// (io_popen, io_pclose), whose licence asks for this notice:
//
// Copyright (C) 1994-2022 Lua.org, PUC-Rio.
//
// Permission is hereby granted, free of charge, to any person obtaining
// a copy of this software and associated documentation files (the
// "Software"), to deal in the Software without restriction, including
// without limitation the rights to use, copy, modify, merge, publish,
// distribute, sublicense, and/or sell copies of the Software, and to
// permit persons to whom the Software is furnished to do so, subject to
// the following conditions:
//
// The above copyright notice and this permission notice shall be
// included in all copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
// EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
// MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.
// IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
// CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
// TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
// SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
