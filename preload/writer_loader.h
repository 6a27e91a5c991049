/* writer_loader.h: loads libscope-writer.so into a namespace of its own
 * (dlmopen), so that its HDF5 never meets the application's. */
#ifndef SCOPE_WRITER_LOADER_H
#define SCOPE_WRITER_LOADER_H

#include <stddef.h>
#include "scope_writer.h"

const struct scope_writer_api *scope_load_writer(char *err, size_t errlen);

#endif
