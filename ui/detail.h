/* detail.h - the detail view: a title over lines of text shown whole, wrapped to the width and
 * scrolled, drawn over the editor and the pane. Whatever a screen, the pane or the message line
 * cuts off (a finding, a checklist item, a decision, a message, a diff line, a :check report)
 * opens here in full. The view owns copies of what it shows. */
#ifndef KP_UI_DETAIL_H
#define KP_UI_DETAIL_H

#include "layout.h"

#include <stdbool.h>
#include <stddef.h>

/* Caller-allocated; zero-initialised is closed. Release with detail_close. */
typedef struct detail_view {
    char *title;  /* NULL while closed */
    char **lines; /* each may hold '\n' (split when drawn) */
    size_t n;
    size_t top; /* first wrapped line shown; clamped by drawing */
} detail_view;

/* Opens the view with a copy of `title` and of lines[0..n) (NULL lines show as empty); what was
 * shown before is freed. */
void detail_show(detail_view *dv, const char *title, const char *const *lines, size_t n);
/* Opens the view with a copy of `text`, one line per '\n'. */
void detail_show_text(detail_view *dv, const char *title, const char *text);
/* true while the view is open. */
bool detail_is_open(const detail_view *dv);
/* Closes the view and frees what it holds (a closed view is left alone). */
void detail_close(detail_view *dv);
/* A key while the view is open: j/k, arrows, Space, PgUp/PgDn, g/G, Home/End scroll (page: the
 * rows of a page) and return true; Esc, q, Enter and v close the view and return true; any
 * other key returns false (the view stays). */
bool detail_key(detail_view *dv, int key, int page);
/* Draws the title bar and the wrapped lines from dv->top into r (dv->top is clamped). */
void detail_draw(detail_view *dv, ui_rect r);
/* The lines of the view wrapped to `width` columns (what detail_draw shows); caller frees each
 * and the array. */
char **detail_wrapped(const detail_view *dv, int width, size_t *n);

#endif
