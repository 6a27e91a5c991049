/* temp_dir.h: where scope puts temporary files: $TMPDIR when set and not
 * empty, else /tmp (the one place that says so). */
#ifndef SCOPE_TEMP_DIR_H
#define SCOPE_TEMP_DIR_H

const char *scope_temp_dir(void);

#endif
