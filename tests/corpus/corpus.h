/* corpus.h: what every program of the control-flow/ABI corpus shares: the
 * attribute that keeps a hooked function a real, separately patchable
 * function at every optimisation level, a value the compiler cannot
 * constant-fold, and the check that exits 1 with a message on a mismatch. */
#ifndef SCOPE_CORPUS_H
#define SCOPE_CORPUS_H

#include <stdio.h>
#include <stdlib.h>

/* Global, never inlined or cloned (so the symbol is the code that runs),
 * kept even if unused. IPA-RA stays on: callers may rely on the callee's
 * actual register use, which the hooks must respect. */
#define HOOKED __attribute__((noinline, noclone, used))

/* Volatile reads stop the optimiser from knowing argument values, so the
 * results checked really went through the hooked call. */
extern volatile int corpus_seed;
#define SEED (corpus_seed)

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

/* Define the seed once per program: in the file that includes this with
 * CORPUS_MAIN defined. */
#ifdef CORPUS_MAIN
volatile int corpus_seed = 1;
#endif

#endif
