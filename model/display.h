/* display.h - display width of UTF-8 text (wcwidth), capped to a cell (tig utf8_width_of), and
 * the text layouts built on it: fixed-width cells and word wrapping. No curses here, so the
 * layout arithmetic can be tested directly. */
#ifndef KP_DISPLAY_H
#define KP_DISPLAY_H

#include "util.h"

#include <stddef.h>

/* Columns the UTF-8 string takes on screen (invalid bytes count as one column each). */
int disp_width(const char *s);

/* Number of bytes of s that fit in `cols` columns without splitting a character;
 * *used (may be NULL) receives the columns they take. */
size_t disp_fit(const char *s, int cols, int *used);

/* s (NULL: "") cut to `cols` columns, a cut marked with "…" after them, for a message that
 * quotes a text the user wrote, however long. Caller frees. */
char *disp_short(const char *s, int cols);

/* How disp_cell places its text. */
enum {
    DISP_RIGHT = 1,   /* padded on the left (a text that must be cut is padded after it) */
    DISP_MARK_CUT = 2 /* a cut text ends in "…" (which takes the cell's last column) */
};
/* Appends s (NULL: "") to b in a cell of w columns: padded with spaces, or, when wider, cut to
 * fit without splitting a character (a wide character that does not fit leaves a space). */
void disp_cell(sbuf *b, const char *s, int w, unsigned flags);

/* Appends text[0..len) to b word-wrapped at `width` columns: its words (runs of anything but
 * ' ') joined by one space, and a word that would end past `width` put on a new line after
 * `hang` spaces (a word wider than the line stands alone on it, uncut). The first line goes on
 * after `col` columns already written, and its first word stays on it. Ends no line. */
void disp_wrap(sbuf *b, const char *text, size_t len, int col, int width, int hang);

#endif
