// The system's libedit (BSD-licensed line editing), through its
// readline-compatible interface: the REPL's prompt, history and completion.
#include <stdio.h>
#include <editline/readline.h>
