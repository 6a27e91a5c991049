/* fault_signals.h: what scope does when a run ends abnormally: a
 * terminating signal (SIGTERM, SIGINT, SIGXCPU), a fault (SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL, SIGABRT) or MPI_Abort. Recording stops, the clock
 * calibration is closed, and the records stay in shared memory for
 * `scope recover`; a fault also prints the faulting thread's backtrace;
 * then the run ends as it would have. */
#ifndef SCOPE_FAULT_SIGNALS_H
#define SCOPE_FAULT_SIGNALS_H

/* Installs the handlers where the program left the default action. */
void scope_install_signal_handlers(void);

/* Puts scope's fault handler first where the action is the default or a
 * shared library's handler (a crash reporter, run after scope's); leaves
 * the program's own handlers alone. At start and again after MPI_Init. */
void scope_take_fault_signals(void);

/* Stops recording and says, in one line, that the records are kept. */
void scope_keep_records_for_recover(const char *why);

#endif
