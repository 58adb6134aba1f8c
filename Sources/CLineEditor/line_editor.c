#include "CLineEditor.h"
#include "CLibraryLoader.h"

#include <errno.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <editline/readline.h>

// MARK: - libedit, loaded when the REPL starts on a terminal

/* readline.h gives the types; the functions and variables are reached
   through dlopen, so that no other command pays for loading libedit (and
   libtinfo, libbsd, libmd behind it): ~600 symbol bindings at start-up. */
static struct {
    __typeof__(&readline) readline;
    __typeof__(&using_history) using_history;
    __typeof__(&stifle_history) stifle_history;
    __typeof__(&read_history) read_history;
    __typeof__(&write_history) write_history;
    __typeof__(&add_history) add_history;
    __typeof__(&history_truncate_file) history_truncate_file;
    __typeof__(&rl_readline_name) readline_name;
    __typeof__(&rl_line_buffer) line_buffer;
    __typeof__(&rl_completer_word_break_characters) completer_word_break_characters;
    __typeof__(&rl_attempted_completion_function) attempted_completion_function;
    __typeof__(&rl_attempted_completion_over) attempted_completion_over;
    __typeof__(&rl_completion_append_character) completion_append_character;
    __typeof__(&rl_catch_signals) catch_signals;
    __typeof__(&rl_getc_function) getc_function;
    char failure[256];          /* why loading failed ("" if it did not) */
} edit;

static pthread_once_t edit_once = PTHREAD_ONCE_INIT;

static void load_edit(void) {
    static const char *const names[] = {
        "libedit.so.2", "libedit.so", "libedit.0.dylib", "libedit.3.dylib", "libedit.dylib", "/usr/lib/libedit.dylib", NULL
    };
    /* FACTORYHOST_LIBEDIT names the library to use instead (a libedit outside
       the loader's path, say Homebrew's). */
    const char *chosen = getenv("FACTORYHOST_LIBEDIT");
    const char *const only_chosen[] = { chosen, NULL };
    char reason[512];
    void *lib = fh_dlopen_first(chosen != NULL && chosen[0] != 0 ? only_chosen : names, reason, sizeof reason);
    if (lib == NULL) {
        snprintf(edit.failure, sizeof edit.failure, "libedit could not be loaded: %s", reason[0] != 0 ? reason : "not found");
        return;
    }
    const fh_symbol symbols[] = {
        { "readline", (void **)&edit.readline },
        { "using_history", (void **)&edit.using_history },
        { "stifle_history", (void **)&edit.stifle_history },
        { "read_history", (void **)&edit.read_history },
        { "write_history", (void **)&edit.write_history },
        { "add_history", (void **)&edit.add_history },
        { "history_truncate_file", (void **)&edit.history_truncate_file },
        { "rl_readline_name", (void **)&edit.readline_name },
        { "rl_line_buffer", (void **)&edit.line_buffer },
        { "rl_completer_word_break_characters", (void **)&edit.completer_word_break_characters },
        { "rl_attempted_completion_function", (void **)&edit.attempted_completion_function },
        { "rl_attempted_completion_over", (void **)&edit.attempted_completion_over },
        { "rl_completion_append_character", (void **)&edit.completion_append_character },
        { "rl_catch_signals", (void **)&edit.catch_signals },
        { "rl_getc_function", (void **)&edit.getc_function },
    };
    if (fh_load_symbols(lib, symbols, sizeof symbols / sizeof symbols[0], "libedit", edit.failure, sizeof edit.failure) != 0) return;
}

// MARK: - Line editing

static fh_edit_completer completer = NULL;
static volatile sig_atomic_t interrupted = 0;

/// One byte from the terminal; EOF at its end, or when a Ctrl-C (SIGINT,
/// whose handler sets `interrupted`) makes the read fail with EINTR — then
/// the line is given up (libedit itself would retry the read and keep it).
static int read_byte(FILE *stream) {
    unsigned char c;
    for (;;) {
        ssize_t n = read(fileno(stream), &c, 1);
        if (n == 1) return c;
        if (n < 0 && errno == EINTR) {
            if (interrupted) return EOF;
            continue;
        }
        return EOF;
    }
}

/// Reads a character for libedit: a whole UTF-8 sequence, as its code point
/// (libedit takes what this returns as a wide character; a lone byte of 0x80
/// or more would be taken for a Meta key). Bytes that are not UTF-8 come back
/// as U+FFFD.
static int read_character(FILE *stream) {
    int first = read_byte(stream);
    if (first == EOF || first < 0x80) return first;
    int length = first >= 0xF0 && first <= 0xF4 ? 4 : first >= 0xE0 ? 3 : first >= 0xC2 && first <= 0xDF ? 2 : 0;
    if (length == 0) return 0xFFFD;
    int code = first & (0xFF >> (length + 1));
    for (int i = 1; i < length; i++) {
        int next = read_byte(stream);
        if (next == EOF) return EOF;
        if ((next & 0xC0) != 0x80) return 0xFFFD;
        code = (code << 6) | (next & 0x3F);
    }
    if ((length == 3 && code < 0x800) || (length == 4 && (code < 0x10000 || code > 0x10FFFF))
        || (code >= 0xD800 && code <= 0xDFFF)) return 0xFFFD;
    return code;
}

static char **attempt_completion(const char *text, int start, int end) {
    (void)start;
    *edit.attempted_completion_over = 1;        /* never fall back to file names */
    *edit.completion_append_character = 0;      /* code, not shell words: no space after a completion */
    const char *buffer = *edit.line_buffer;
    if (completer == NULL || buffer == NULL) return NULL;
    size_t length = strlen(buffer);
    size_t cursor = end < 0 ? 0 : (size_t)end;
    if (cursor > length) cursor = length;
    char *line = malloc(cursor + 1);
    if (line == NULL) return NULL;
    memcpy(line, buffer, cursor);
    line[cursor] = 0;
    char **matches = completer(line, text != NULL ? text : "");
    free(line);
    return matches;
}

int fh_edit_setup(const char *name, const char *word_breaks, fh_edit_completer fn,
                  const char *history_file, int history_limit, char *why, size_t why_size) {
    pthread_once(&edit_once, load_edit);
    if (edit.failure[0] != 0) {
        if (why != NULL && why_size > 0) snprintf(why, why_size, "%s", edit.failure);
        return -1;
    }
    /* libedit shows and returns the line through the C library's multibyte
       functions: they need a UTF-8 character type (the environment's, else
       C.UTF-8). Only LC_CTYPE: numbers and the rest stay as Lua expects. */
    const char *ctype = setlocale(LC_CTYPE, "");
    if (ctype == NULL || strstr(ctype, "UTF-8") == NULL && strstr(ctype, "utf8") == NULL) {
        if (setlocale(LC_CTYPE, "C.UTF-8") == NULL) setlocale(LC_CTYPE, "en_US.UTF-8");
    }
    completer = fn;
    *edit.readline_name = strdup(name);
    *edit.catch_signals = 0;
    *edit.completer_word_break_characters = strdup(word_breaks);
    *edit.attempted_completion_function = attempt_completion;
    *edit.getc_function = read_character;
    *edit.completion_append_character = 0;
    edit.using_history();
    edit.stifle_history(history_limit);
    if (history_file != NULL) edit.read_history(history_file);
    return 0;
}

static void on_interrupt(int sig) {
    (void)sig;
    interrupted = 1;
}

/// What catching Ctrl-C for one read replaced, to put back after it.
typedef struct interrupt_catch {
    struct sigaction previous;
    sigset_t saved_mask;
} interrupt_catch;

/// Catches SIGINT in `on_interrupt` until `end_catching`, with no
/// SA_RESTART: a read waiting on the terminal returns (EINTR) on Ctrl-C.
static void begin_catching(interrupt_catch *c) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    interrupted = 0;
    sigaction(SIGINT, &action, &c->previous);
    /* A process started with SIGINT blocked (from a thread that blocks it)
       would never see Ctrl-C. */
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &unblock, &c->saved_mask);
}

static void end_catching(interrupt_catch *c) {
    pthread_sigmask(SIG_SETMASK, &c->saved_mask, NULL);
    sigaction(SIGINT, &c->previous, NULL);
}

char *fh_edit_readline(const char *prompt, int *was_interrupted) {
    interrupt_catch c;
    begin_catching(&c);                          /* the read returns and libedit gives the line up */
    char *line = edit.readline(prompt);
    end_catching(&c);
    *was_interrupted = interrupted && line == NULL;
    if (interrupted && line != NULL) {           /* a line finished as Ctrl-C arrived: drop it */
        free(line);
        line = NULL;
        *was_interrupted = 1;
    }
    return line;
}

ssize_t fh_read_interruptible(int fd, void *buffer, size_t size, int *was_interrupted) {
    interrupt_catch c;
    begin_catching(&c);                          /* Ctrl-C ends the read */
    ssize_t n;
    do {
        n = read(fd, buffer, size);
    } while (n < 0 && errno == EINTR && !interrupted);
    end_catching(&c);
    *was_interrupted = interrupted;
    return n;
}

void fh_edit_remember(const char *entry, const char *history_file, int history_limit) {
    edit.add_history(entry);
    if (history_file != NULL) {
        edit.write_history(history_file);
        edit.history_truncate_file(history_file, history_limit);
    }
}
