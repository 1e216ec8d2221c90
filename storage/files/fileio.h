/* fileio.h - whole-file reads and atomic writes (temp file in the same folder + fsync + rename,
 * htop Settings_write), shared by every format. */
#ifndef KP_FILEIO_H
#define KP_FILEIO_H

#include "util.h"

#include <stddef.h>

/* Reads the whole file. NULL on failure with *err set (caller frees; err may be NULL). The
 * result is NUL-terminated; *len (may be NULL) excludes the NUL. Caller frees. */
char *fileio_read(const char *path, size_t *len, char **err);

/* Writes data to path atomically; "-" writes to stdout. KP_IO on failure with *err set (caller
 * frees; err may be NULL); the old file is then untouched. */
kp_status fileio_write_atomic(const char *path, const char *data, size_t len, char **err);

#endif
