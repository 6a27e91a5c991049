/* Call sites as text ("label < label ..."), for the CLI's tables and the
 * exports. */
#ifndef SCOPE_CALLSITE_TEXT_H
#define SCOPE_CALLSITE_TEXT_H

#include "scope_reader.h"

#include <stdint.h>

/* Frames from .. to-1 of call site `site` as "label<sep>label...", each
 * as scope_frame_label() gives it; "" for site -1. Returns buf. */
const char *callsite_text(const scope_file *f, long site, size_t from, size_t to,
                          const char *sep, char *buf, size_t len);

/* The first-frame texts of sites[0 .. n) (-1: "(none)"), malloc'd, for
 * rows that share a group when group[i] == group[j] (a region, say) and
 * also, when `also` is given, also[i] equals also[j]: two different sites
 * of one group whose texts read alike (two calls on one line, or one line
 * inlined into two places) end with their return address's offset in the
 * function, " [+0x38]", so that the rows can be told apart. Free with
 * callsite_texts_free; NULL when out of memory. */
char **callsite_texts_apart(const scope_file *f, const long *sites, const uint64_t *group,
                            const char *const *also, size_t n);
void callsite_texts_free(char **texts, size_t n);

#endif
