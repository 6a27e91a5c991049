/* unwind.c: keeps exceptions working through hooked functions. The
 * unwinder walks return addresses, and scope replaced those of open calls
 * with scope_exit_stub, so every way into an unwind (throw, rethrow, forced
 * unwinding by pthread_exit/cancel) first puts the real addresses back, and
 * the start of a catch block closes the calls that were unwound and hooks
 * the surviving ones again. The real functions are the next definitions
 * (libgcc_s, libstdc++), looked up on first use. */
#include <dlfcn.h>
#include <stdlib.h>
#include <unwind.h>

#include "log.h"
#include "thread_state.h"

#define EXPORT __attribute__((visibility("default")))

static void *next(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        scope_log("cannot find %s after libscope", name);
        abort();
    }
    return f;
}

#define REAL(type, name) \
    static type real; \
    if (!real) \
        real = (type)next(name)

typedef _Unwind_Reason_Code (*raise_fn)(struct _Unwind_Exception *);
typedef _Unwind_Reason_Code (*forced_fn)(struct _Unwind_Exception *, _Unwind_Stop_Fn, void *);
typedef void *(*begin_catch_fn)(void *);

EXPORT _Unwind_Reason_Code _Unwind_RaiseException(struct _Unwind_Exception *e)
{
    REAL(raise_fn, "_Unwind_RaiseException");
    scope_shadow_unwind_begins(e);
    return real(e);
}

EXPORT _Unwind_Reason_Code _Unwind_Resume_or_Rethrow(struct _Unwind_Exception *e)
{
    REAL(raise_fn, "_Unwind_Resume_or_Rethrow");
    scope_shadow_unwind_begins(e);
    return real(e);
}

EXPORT _Unwind_Reason_Code _Unwind_ForcedUnwind(struct _Unwind_Exception *e, _Unwind_Stop_Fn stop,
                                                void *arg)
{
    REAL(forced_fn, "_Unwind_ForcedUnwind");
    scope_shadow_unwind_begins(e);
    return real(e, stop, arg);
}

/* Called at the top of every catch block, from the catching frame. */
EXPORT __attribute__((noinline)) void *__cxa_begin_catch(void *e)
{
    REAL(begin_catch_fn, "__cxa_begin_catch");
    void *r = real(e);
    uint64_t *caller_sp = (uint64_t *)__builtin_frame_address(0) + 2;
    scope_shadow_rehook(caller_sp);
    return r;
}
