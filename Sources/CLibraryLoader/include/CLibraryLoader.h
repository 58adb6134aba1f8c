// CLibraryLoader — opening an optional system library with dlopen, for the
// loaders of libsqlite3, libcurl and libedit.
#ifndef CLIBRARYLOADER_H
#define CLIBRARYLOADER_H

#include <stddef.h>

/// Opens the first of `names` (NULL-terminated) that loads, with
/// RTLD_NOW | RTLD_LOCAL. Returns NULL if none did, with the most telling
/// reason in `reason` (NUL-terminated): the first error that is not "no such
/// file" (a file that is there but broken), else the first error.
///
///     static const char *const names[] = { "libsqlite3.so.0", "libsqlite3.dylib", NULL };
///     char why[512];
///     void *lib = fh_dlopen_first(names, why, sizeof why);
void *fh_dlopen_first(const char *const *names, char *reason, size_t reason_size);

/// One symbol a loader needs: its name and where its address goes.
typedef struct fh_symbol {
    const char *name;
    void **slot;
} fh_symbol;

/// Looks up every symbol of `symbols` in `lib`, storing each address in its
/// slot: 0, or -1 at the first one missing, with "`library` has no `name`"
/// in `failure` (NUL-terminated).
///
///     const fh_symbol symbols[] = { { "curl_easy_init", (void **)&curl.easy_init } };
///     if (fh_load_symbols(lib, symbols, 1, "libcurl", curl.failure, sizeof curl.failure) != 0) return;
int fh_load_symbols(void *lib, const fh_symbol *symbols, size_t count, const char *library, char *failure, size_t failure_size);

#endif
