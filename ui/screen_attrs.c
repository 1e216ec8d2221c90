/* screen_attrs.c - Attributes: the attributes given a type or a value distribution, one row each,
 * every column of the attributes table and nothing computed (all defaults of a table screen). */
#include "screens.h"

const screen_ops screen_attrs = {
    .name = N_("Attributes"),
    .table = EDIT_ATTRS,
    .is_table = true,
    .empty = N_("No attributes declared. Press a to give one a type or a distribution."),
};
