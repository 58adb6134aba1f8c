// CDryRun — the functions `check` and `graph` put in place before a script
// runs, so that running it only to collect its declarations changes nothing
// outside the process. In C because the dry run begins at every check: the
// Lua source it replaces cost a fifth of check's start-up to compile.
#ifndef CDRYRUN_H
#define CDRYRUN_H

#include <lua.h>

/// A lua_CFunction; call it protected, once per state, before any script:
/// `fh_dry_run_library(stop, spec_stubs_source)`. `stop(place, reason)` is
/// the host's function that ends the run for good (it raises; `place` is
/// "file:line: " of the nearest Lua caller, or ""). It
///  - restricts `debug` to getinfo and traceback, and `load`, `loadfile`,
///    `dofile` to text chunks;
///  - replaces what would change something outside the process with
///    functions that call `stop`: io.open and io.output for writing,
///    io.popen, io.tmpfile, os.remove, os.rename, os.tmpname, os.execute,
///    os.exit, package.loadlib, and the C searchers when they would load
///    native code;
/// and returns a table of
///  - `stopped(module, reach)`: a copy of a plugin module whose every
///    function calls stop with "path: reach, which check never does";
///  - `spec_stubs()`: installs the spec-file stubs (`spec_stubs_source`, a
///    Lua chunk compiled only when called) and returns what they record;
///  - `loaded_files(initial)` (when there is a package library): the files
///    of the modules loaded since, found on package.path or on `initial`.
int fh_dry_run_library(lua_State *L);

#endif
