/* fault_signals.h: what scope does when a run ends abnormally: a
 * terminating signal (SIGTERM, SIGINT, SIGXCPU) or MPI_Abort. Recording
 * stops, the clock calibration is closed, and the records stay in shared
 * memory for `scope recover`; then the run ends as it would have. */
#ifndef SCOPE_FAULT_SIGNALS_H
#define SCOPE_FAULT_SIGNALS_H

/* Installs the handlers where the program left the default action. */
void scope_install_signal_handlers(void);

/* Stops recording and says, in one line, that the records are kept. */
void scope_keep_records_for_recover(const char *why);

#endif
