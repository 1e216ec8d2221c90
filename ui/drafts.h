/* drafts.h - cell texts that did not parse (a broken template, a word where a number goes): kept
 * with their error and shown in their cell, while the design stays at its last good state.
 * Caller-allocated value: drafts_init / drafts_free. No curses. */
#ifndef KP_UI_DRAFTS_H
#define KP_UI_DRAFTS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ui_draft {
    int screen;      /* UI_SCREEN_xxx */
    size_t row, col; /* the screen's row and column */
    char *text;
    char *err;
    bool model; /* marked by validation: the cell's saved text is a place the model leaves out */
} ui_draft;

typedef struct drafts {
    ui_draft *v;
    size_t n, cap;
    unsigned long changes; /* counts every set, drop and clear (what was drawn from them is stale) */
} drafts;

void drafts_init(drafts *d);
/* Frees every draft and the list (d may then be drafts_init'ed again). */
void drafts_free(drafts *d);
/* The draft of a cell, or NULL; valid until the list changes. */
const ui_draft *drafts_find(const drafts *d, int screen, size_t row, size_t col);
/* Keeps copies of `text` and `err` (may be NULL) as the cell's draft, replacing one it had. */
void drafts_set(drafts *d, int screen, size_t row, size_t col, const char *text, const char *err);
/* Forgets the cell's draft (nothing when it has none); the last draft takes its place. */
void drafts_drop(drafts *d, int screen, size_t row, size_t col);
/* Forgets every draft (rows moved: the cells they named are gone). */
void drafts_clear(drafts *d);
/* Marks a cell whose saved text the model leaves out (validation), with the reason `err`; a cell
 * that holds a typed draft keeps it. */
void drafts_mark(drafts *d, int screen, size_t row, size_t col, const char *text, const char *err);
/* Forgets every mark of drafts_mark (typed drafts stay). */
void drafts_unmark(drafts *d);
/* How many drafts are typed text that did not parse (marks not counted). */
size_t drafts_typed(const drafts *d);

#endif
