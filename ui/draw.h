/* draw.h - the drawing primitives at the bottom of ui/: text into a rectangle of stdscr in a
 * colour role, clipped by display width (UTF-8 aware, one function: disp_fit), and the word
 * wrapping the panels share. They know nothing of the workbench and call nothing back. */
#ifndef KP_UI_DRAW_H
#define KP_UI_DRAW_H

#include "theme.h"
#include "util.h"

#include <stddef.h>

/* Puts `text` (NULL = "") at line y, column x in `role`, clipped to w display columns and to the
 * terminal, and fills the rest of the w columns with blanks. Control characters show as blanks.
 * Nothing is drawn when w <= 0 or (y, x) is outside the terminal. */
void draw_put(int y, int x, int w, const char *text, ui_role role);
/* draw_put of a printf-style text. */
void draw_putf(int y, int x, int w, ui_role role, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Puts `text` word-wrapped to w columns from line *y on (no further than line ymax - 1); lines
 * after the first start with `indent`. *y ends below the last line drawn. */
void draw_wrapped(int *y, int ymax, int x, int w, const char *text, ui_role role, const char *indent);
/* Appends `text` (NULL = "") to b, then spaces up to `w` display columns: printf's "%-*s" by
 * cells, not bytes, so that "índice" lines up with "index" (a wider text is not cut). */
void draw_pad(sbuf *b, const char *text, int w);
/* Wraps `text` (paragraphs separated by newlines; an empty paragraph is an empty line) to
 * `width` display columns (at least 8), breaking at blanks where it can. Returns the lines and
 * their number in *n; the caller frees each line and the array (NULL when there are none). */
char **draw_wrap(const char *text, int width, size_t *n);

#endif
