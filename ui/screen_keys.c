/* screen_keys.c - Keys: each entity's templates for the table's and every index's key
 * attributes, its sparse rules, then its count, size, attributes, writes and description. */
#include "screens.h"

#include "util.h"

#include <stdlib.h>
#include <string.h>

static screen_col *keys_columns(const screen_env *e, size_t *n)
{
    const kp_design *d = e->design;
    size_t k;
    screen_col *t = screen_table_cols(d, EDIT_KEYS, &k);
    static const char *const extra[] = {"count", "size", "attributes", "writes", "description"};
    size_t ne = sizeof extra / sizeof *extra;
    screen_col *v = xcalloc(k + ne, sizeof *v);
    memcpy(v, t, k * sizeof *v);
    for (size_t i = 1; i < k; i++)
        v[i].cap = 28; /* templates are long */
    for (size_t i = 0; i < ne; i++)
        v[k + i] =
            (screen_col){EDIT_ENTITIES, (size_t)edit_col_find(d, EDIT_ENTITIES, extra[i]), extra[i], 24};
    free(t);
    *n = k + ne;
    return v;
}

const screen_ops screen_keys = {
    .name = N_("Keys"),
    .table = EDIT_ENTITIES, /* its rows are the entities */
    .is_table = true,
    .empty = N_("No entities yet. Press a to add one, then type its key templates."),
    .columns = keys_columns,
};
