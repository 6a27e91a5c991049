/* recording_stop.h: the end of recording (recording_stop.c). */
#ifndef SCOPE_RECORDING_STOP_H
#define SCOPE_RECORDING_STOP_H

/* Ends the calling thread's open calls (they are in the file, ending now),
 * stops recording and takes the final clock reading (idempotent). */
void scope_stop_recording(void);

#endif
