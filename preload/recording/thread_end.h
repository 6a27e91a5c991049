/* thread_end.h: what happens when a thread that recorded ends. */
#ifndef SCOPE_THREAD_END_H
#define SCOPE_THREAD_END_H

/* Run by libc as the thread ends (a thread-specific key's destructor, in
 * its last round): the thread's calls still open end now, and its buffer,
 * shadow stack and signal stack go to the next new thread. What libc does
 * after that to tear the thread down is not recorded. */
void scope_thread_end(void *unused);

#endif
