/* Call sites as text ("label < label ..."), for the CLI's tables and the
 * exports. */
#ifndef SCOPE_CALLSITE_TEXT_H
#define SCOPE_CALLSITE_TEXT_H

#include "scope_reader.h"

/* Frames from .. to-1 of call site `site` as "label<sep>label...", each
 * as scope_frame_label() gives it; "" for site -1. Returns buf. */
const char *callsite_text(const scope_file *f, long site, size_t from, size_t to,
                          const char *sep, char *buf, size_t len);

#endif
