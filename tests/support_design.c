/* support_design.c - the design loaders of the test programs that link the design-file reader
 * (every test but the few that link the model library alone). */
#include "support.h"

#include "design_io.h"
#include "workspace.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

kp_design *ts_load_text(const char *text, const char *name)
{
    kp_diags dg;
    diags_init(&dg, name);
    kp_design *d = designio_load_string(text, strlen(text), name, &dg);
    if (!d) {
        diags_print(&dg, stderr);
        fprintf(stderr, "-- in this design:\n%s\n", text);
    }
    diags_free(&dg);
    return d;
}

kp_design *ts_load_file(const char *rel)
{
    char *path = ts_source_path(rel);
    kp_diags dg;
    diags_init(&dg, NULL);
    kp_design *d = designio_load_file(path, &dg);
    if (!d)
        diags_print(&dg, stderr);
    diags_free(&dg);
    free(path);
    return d;
}

size_t ts_row_named(const kp_design *d, edit_table t, const char *name)
{
    for (size_t i = 0; i < edit_nrows(d, t); i++) {
        char *n = edit_get(d, t, i, 0);
        bool hit = strcmp(n, name) == 0;
        free(n);
        if (hit)
            return i;
    }
    return (size_t)-1;
}

char *ts_ws_file(void)
{
    char *dir = ts_temp_dir();
    assert_non_null(dir);
    char *p = xasprintf("%s/design.keyplan", dir);
    free(dir);
    return p;
}

ws_t *ts_ws_open(const char *path, unsigned flags)
{
    ws_t *ws = NULL;
    char *err = NULL;
    kp_status st = ws_open(path, flags, &ws, &err);
    if (st != KP_OK)
        fprintf(stderr, "ws_open: %s\n", err);
    assert_int_equal(st, KP_OK);
    free(err);
    return ws;
}
