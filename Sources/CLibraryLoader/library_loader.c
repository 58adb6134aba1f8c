// CLibraryLoader — see include/CLibraryLoader.h.
#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

void *fh_dlopen_first(const char *const *names, char *reason, size_t reason_size) {
    int telling = 0;            /* `reason` holds a file-that-is-there error */
    if (reason_size > 0) reason[0] = 0;
    for (int i = 0; names[i] != NULL; i++) {
        void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (lib != NULL) return lib;
        const char *why = dlerror();
        if (why == NULL || reason_size == 0) continue;
        int found = strstr(why, "No such file") == NULL && strstr(why, "not found") == NULL;
        if (reason[0] == 0 || (found && !telling)) {
            snprintf(reason, reason_size, "%s", why);
            telling = found;
        }
    }
    return NULL;
}

int fh_load_symbols(void *lib, const fh_symbol *symbols, size_t count, const char *library, char *failure, size_t failure_size) {
    for (size_t i = 0; i < count; i++) {
        *symbols[i].slot = dlsym(lib, symbols[i].name);
        if (*symbols[i].slot == NULL) {
            if (failure_size > 0) snprintf(failure, failure_size, "%s has no %s", library, symbols[i].name);
            return -1;
        }
    }
    return 0;
}
