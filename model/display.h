/* display.h - display width of UTF-8 text (wcwidth), capped to a cell (tig utf8_width_of).
 * No curses here, so the layout arithmetic can be tested directly. */
#ifndef KP_DISPLAY_H
#define KP_DISPLAY_H

#include <stddef.h>

/* Columns the UTF-8 string takes on screen (invalid bytes count as one column each). */
int disp_width(const char *s);

/* Number of bytes of s that fit in `cols` columns without splitting a character;
 * *used (may be NULL) receives the columns they take. */
size_t disp_fit(const char *s, int cols, int *used);

#endif
