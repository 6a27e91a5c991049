/* shared_state.c: the variables every part of libscope reads: the runtime
 * (runtime.h) and what the hot path reads on every call (thread_state.h).
 * Defined here, in a file that calls nothing, so that reading the state
 * never ties a part back to the one that sets it (lifecycle.c). */
#include "runtime.h"
#include "thread_state.h"

struct scope_runtime scope_rt;

__thread struct scope_thread scope_tls __attribute__((tls_model("initial-exec")));
volatile int scope_recording;
uintptr_t scope_hook_targets[SCOPE_MAX_HOOKS];
uint8_t scope_hook_callsite_depth[SCOPE_MAX_HOOKS];
uint8_t scope_hook_values[SCOPE_MAX_HOOKS];
uint64_t scope_xsave_size;
uintptr_t scope_exit_stub_address;
