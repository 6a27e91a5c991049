/* recording_stop.c: the end of recording, shared by every way a run ends
 * (MPI_Finalize, exit without MPI, a fatal signal): the calling thread's
 * open calls end now, and the clock takes its final reading. */
#include "recording_stop.h"
#include "process_meta.h"
#include "runtime.h"
#include "thread_state.h"

void scope_stop_recording(void)
{
    if (!scope_recording)
        return;
    scope_end_open_calls();
    scope_recording = 0;
    scope_clock_stop(&scope_rt.clock);
    scope_meta_set_stopped(scope_rt.clock.raw1, scope_rt.clock.ns1);
}
