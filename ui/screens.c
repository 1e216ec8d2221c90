/* screens.c - the screens in tab order. */
#include "screens.h"

static const screen_ops *const all[UI_SCREEN__COUNT] = {
    [UI_SCREEN_PATTERNS] = &screen_patterns,   [UI_SCREEN_KEYS] = &screen_keys,
    [UI_SCREEN_INDEXES] = &screen_indexes,     [UI_SCREEN_ATTRS] = &screen_attrs,
    [UI_SCREEN_DECISIONS] = &screen_decisions, [UI_SCREEN_HISTORY] = &screen_history,
    [UI_SCREEN_COST] = &screen_cost,           [UI_SCREEN_ITEMS] = &screen_items,
};

const screen_ops *screen_get(int id) { return all[(unsigned)id < UI_SCREEN__COUNT ? id : 0]; }
