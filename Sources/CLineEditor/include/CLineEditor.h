// The REPL's line editing over libedit's readline interface. libedit is
// driven through global variables and C callbacks, so this is C: Swift
// sets it up once and reads lines.
#ifndef CLINEEDITOR_H
#define CLINEEDITOR_H

#include <stddef.h>
#include <sys/types.h>

/// Computes completions: the candidates replacing `text` (the word libedit
/// found before the cursor), in readline's form — [0] the substitution,
/// then the matches, NULL-terminated, all malloc'd — or NULL for none.
/// `line` is the whole line up to the cursor.
typedef char **(*fh_edit_completer)(const char *line, const char *text);

/// Loads libedit (dlopen, once) and sets it up: the program name, word
/// breaks, the completer, history capped at `history_limit` entries (read
/// from `history_file` if not NULL). Returns 0; or -1 when libedit could not
/// be loaded, with the reason in `why` — then no other fh_edit_ function
/// may be called.
int fh_edit_setup(const char *name, const char *word_breaks, fh_edit_completer completer,
                  const char *history_file, int history_limit, char *why, size_t why_size);

/// Reads a line with `prompt`. Returns it (malloc'd; the caller frees) or
/// NULL at the end of input. Ctrl-C at the prompt drops the line: NULL with
/// *interrupted set to 1.
char *fh_edit_readline(const char *prompt, int *interrupted);

/// read(2) from `fd`, except that a Ctrl-C (SIGINT) while it waits ends
/// the read (`*was_interrupted` set, whatever it returned) instead of the
/// process: for reading a terminal's lines without libedit. Needs no libedit.
ssize_t fh_read_interruptible(int fd, void *buffer, size_t size, int *was_interrupted);

/// Adds `entry` to the history, and saves the history file (capped).
void fh_edit_remember(const char *entry, const char *history_file, int history_limit);

#endif
