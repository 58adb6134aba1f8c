#include "CActiveResolve.h"

__thread fh_active_resolve fh_active = {0, 0};
__thread uint64_t fh_next_token = 0;
__thread int fh_scopes_stack = 0;
