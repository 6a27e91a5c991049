/* exit_unwind.c: the personality routine of scope_exit_stub's unwind entry
 * (stubs.S). An unwind that scope's hooks of the unwinder did not see
 * start (the forced unwind of pthread_exit and of cancellation, which glibc
 * runs through its own handle on libgcc_s) meets the exit stub in a hooked
 * call's return-address slot and calls this before reading the slot: the
 * real return address goes back, so destructors and cleanups of the
 * callers run and the unwind reaches the thread's start; in the phase that
 * really unwinds, the call ends now, unfinished when the unwind is forced
 * (the thread ends under it). */
#include <stdint.h>
#include <unwind.h>

#include "thread_state.h"

__attribute__((visibility("hidden"))) _Unwind_Reason_Code
scope_exit_personality(int version, _Unwind_Action actions, _Unwind_Exception_Class cls,
                       struct _Unwind_Exception *exception, struct _Unwind_Context *context)
{
    (void)version;
    (void)cls;
    (void)exception;
    /* The CFA here is the hooked function's: its return-address slot lies
     * just below. */
    uint64_t *slot = (uint64_t *)_Unwind_GetCFA(context) - 1;
    scope_shadow_unwind_through(slot, (actions & _UA_CLEANUP_PHASE) != 0,
                                (actions & _UA_FORCE_UNWIND) != 0);
    return _URC_CONTINUE_UNWIND;
}
