/* screens.h - the eight screens, in tab order (UI_SCREENS), each defined in its own file, and
 * what the core asks of one screen in particular. */
#ifndef KP_UI_SCREENS_H
#define KP_UI_SCREENS_H

#include "screen.h"

extern const screen_ops screen_patterns;  /* screen_patterns.c */
extern const screen_ops screen_keys;      /* screen_keys.c */
extern const screen_ops screen_indexes;   /* screen_indexes.c */
extern const screen_ops screen_attrs;     /* screen_attrs.c */
extern const screen_ops screen_decisions; /* screen_decisions.c */
extern const screen_ops screen_history;   /* screen_history.c */
extern const screen_ops screen_cost;      /* screen_cost.c */
extern const screen_ops screen_items;     /* screen_items.c */

/* The ops of screen `id` (UI_SCREEN_xxx; out of range: Patterns). */
const screen_ops *screen_get(int id);

/* History: computes the designer diff of versions a and b into the screen's state and marks
 * both; on failure (no such version) the message line says why and the marks stay. `e` is the
 * History screen's env. */
void screen_history_diff(const screen_env *e, int a, int b);
/* Items: the sample's seed, partitions per entity (0: as the exports) and items per partition
 * (0: 4); the screen generates its items again on its next draw. `state` is the Items screen's. */
void screen_items_set(void *state, unsigned seed, size_t partitions, size_t per_partition);

/* History: the marked versions (0: none) and the number of diff lines shown, from its state. */
void screen_history_marks(const void *state, int *a, int *b, size_t *ndiff);

#endif
