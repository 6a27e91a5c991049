/* thread_end.c: the end of a thread that recorded (thread_end.h). Calls it
 * left open (a frame skipped by a context switch scope did not see, a
 * longjmp out of the thread's function) would otherwise never end; they end
 * with the thread. */
#include "thread_end.h"
#include "thread_buffer.h"
#include "thread_state.h"

void scope_thread_end(void *unused)
{
    (void)unused;
    if (scope_thread_end_later(&scope_tls))
        return;
    scope_end_open_calls();
    scope_thread_release(&scope_tls);
}
