/* never_hooked.c: the names scope never hooks, and why (never_hooked.h). A
 * hook replaces the function's return address on the stack and keeps the
 * real one in the thread's shadow stack until the call returns. */
#include "never_hooked.h"

#include <stddef.h>
#include <string.h>

static const char RETURNS_TWICE[] =
    "it returns twice (setjmp, vfork, getcontext): the second return would find its call "
    "already ended";
static const char CALLER_ADDRESS[] =
    "it acts on its caller's address (dlopen's search path, dlsym's RTLD_NEXT): hooked, "
    "it would see libscope as its caller";
static const char STARTUP[] =
    "startup or teardown code, which runs before scope starts or after it stops";
static const char UNWINDER[] =
    "the exception unwinder, which scope's handling of exceptions and thread exits runs "
    "through";
static const char NOT_A_FUNCTION[] =
    "the kernel returns into it from a signal handler: it is never called";
static const char NEW_STACK[] =
    "the new thread or process leaves it on a stack of its own, where no call was opened";

struct never {
    const char *name;
    const char *why;
};

static const struct never never[] = {
    {"setjmp", RETURNS_TWICE},
    {"_setjmp", RETURNS_TWICE},
    {"__setjmp", RETURNS_TWICE},
    {"sigsetjmp", RETURNS_TWICE},
    {"__sigsetjmp", RETURNS_TWICE},
    {"savectx", RETURNS_TWICE},
    {"getcontext", RETURNS_TWICE},
    {"__getcontext", RETURNS_TWICE},
    {"vfork", RETURNS_TWICE},
    {"__vfork", RETURNS_TWICE},
    {"clone", NEW_STACK},
    {"__clone", NEW_STACK},
    {"clone3", NEW_STACK},
    {"__clone3", NEW_STACK},
    {"dlopen", CALLER_ADDRESS},
    {"dlmopen", CALLER_ADDRESS},
    {"dlsym", CALLER_ADDRESS},
    {"dlvsym", CALLER_ADDRESS},
    {"__libc_dlopen_mode", CALLER_ADDRESS},
    {"__libc_dlsym", CALLER_ADDRESS},
    {"__libc_dlvsym", CALLER_ADDRESS},
    {"_start", STARTUP},
    {"_init", STARTUP},
    {"_fini", STARTUP},
    {"__libc_start_main", STARTUP},
    {"__libc_start_call_main", STARTUP},
    {"__libc_csu_init", STARTUP},
    {"__libc_csu_fini", STARTUP},
    {"_dl_relocate_static_pie", STARTUP},
    {"frame_dummy", STARTUP},
    {"register_tm_clones", STARTUP},
    {"deregister_tm_clones", STARTUP},
    {"__do_global_dtors_aux", STARTUP},
    {"__restore_rt", NOT_A_FUNCTION},
    {"__gxx_personality_v0", UNWINDER},
    {"__gcc_personality_v0", UNWINDER},
};

const char *scope_never_hooked(const char *symbol)
{
    if (strncmp(symbol, "_Unwind_", 8) == 0)
        return UNWINDER;
    for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
        if (strcmp(symbol, never[i].name) == 0)
            return never[i].why;
    return NULL;
}
