/* screen_attrs.c - Attributes: the attributes given a type or a value distribution. */
#include "screens.h"

static screen_col *attrs_columns(const screen_env *e, size_t *n) { return screen_table_cols(e->design, EDIT_ATTRS, n); }

static size_t attrs_rows(const screen_env *e) { return edit_nrows(e->design, EDIT_ATTRS); }

const screen_ops screen_attrs = {
    .name = "Attributes",
    .table = EDIT_ATTRS,
    .is_table = true,
    .empty = "No attributes declared. Press a to give one a type or a distribution.",
    .columns = attrs_columns,
    .rows = attrs_rows,
};
