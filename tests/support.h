/* support.h - small helpers shared by the cmocka test programs. */
#ifndef KP_TEST_SUPPORT_H
#define KP_TEST_SUPPORT_H

#include <stddef.h>

#include "design.h"
#include "edit.h"

/* Reads a whole file; NULL when it cannot. Caller frees. *len may be NULL. */
char *ts_read_file(const char *path, size_t *len);
/* Writes text to a new file in a fresh temporary directory; returns its path (caller frees).
 * `name` is the file's base name ("design.yaml"). */
char *ts_write_temp(const char *name, const char *text);
/* A fresh empty temporary directory (caller frees the path). */
char *ts_temp_dir(void);
/* Path of a file in the source tree ("samples/cloudshop/design.yaml"); caller frees. */
char *ts_source_path(const char *rel);

/* Runs the keyplan binary with the given argument vector (NULL-terminated, argv[0] excluded),
 * optional stdin text, capturing stdout and stderr (caller frees both). Returns the exit
 * status, or -1 when it could not run, 128+N when killed by signal N. */
int ts_run_keyplan(const char *const *args, const char *input, char **out, char **err);

/* support_design.c (tests that link the design-file reader): loads a design from YAML text (`name` is the file name in messages) or from a file of the
 * source tree ("samples/cloudshop/design.yaml"); on failure prints every diagnostic on stderr
 * and returns NULL. The caller frees the design. */
kp_design *ts_load_text(const char *text, const char *name);
kp_design *ts_load_file(const char *rel);
/* A new workspace path (design.keyplan in a fresh temporary folder; the caller frees it), and a
 * workspace opened with ws_open's flags or the test fails, printing ws_open's message. */
typedef struct ws ws_t;
char *ts_ws_file(void);
ws_t *ts_ws_open(const char *path, unsigned flags);
/* The row of table t whose first cell reads `name` (a pattern's id, an index's or an entity's
 * name...), or (size_t)-1. */
size_t ts_row_named(const kp_design *d, edit_table t, const char *name);

#endif
