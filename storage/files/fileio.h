/* fileio.h - bounded whole-file reads and atomic writes (temp file in the same folder + fsync +
 * rename + fsync of the folder, htop Settings_write), shared by every format.
 *
 * Writes never replace what is not a regular file: a directory, a device node, a FIFO or a
 * socket at the target path is refused with a message, before anything is written. A symbolic
 * link is followed: its target is written (atomically, beside the target), the link stays. An
 * existing file keeps its permission bits (and, when running as root, its owner). */
#ifndef KP_FILEIO_H
#define KP_FILEIO_H

#include "util.h"

#include <stddef.h>

/* The most a text input (a design, a NoSQL Workbench model, a CSV table) may hold: 64 MiB. */
#define FILEIO_MAX_TEXT ((size_t)64 << 20)

/* Reads the whole file ("-" is standard input), at most FILEIO_MAX_TEXT bytes. NULL on failure
 * with *err set (caller frees; err may be NULL): cannot open, a directory, a read error, or more
 * than the bound ("more than 64 MiB; expected a design file" — so an endless input like /dev/zero
 * or a FIFO that never ends is refused instead of exhausting memory). The result is
 * NUL-terminated; *len (may be NULL) excludes the NUL. Caller frees. */
char *fileio_read(const char *path, size_t *len, char **err);

/* The reason in a message of fileio's about `path`: the text after its leading "PATH: ", for a
 * caller that names the file itself (a located diagnostic). Points into msg. */
const char *fileio_reason(const char *path, const char *msg);

/* The same with another bound (max bytes; 0 = FILEIO_MAX_TEXT). */
char *fileio_read_max(const char *path, size_t max, size_t *len, char **err);

/* Writes data to path atomically; "-" writes to standard output (a write error there, such as a
 * full disk, is reported). KP_IO on failure with *err set (caller frees; err may be NULL): a
 * target that is not a regular file (see above), a folder that cannot be written, a short write.
 * On failure the old file is untouched. */
kp_status fileio_write_atomic(const char *path, const char *data, size_t len, char **err);

/* KP_OK when `path` may be written by fileio_write_atomic (missing, a regular file, or a link to
 * one or to nothing), else KP_IO with the reason in *err (caller frees; may be NULL). Commands
 * call it before long work, so that a bad -o is refused before anything runs. */
kp_status fileio_check_target(const char *path, char **err);

#endif
