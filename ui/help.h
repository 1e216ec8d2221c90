/* help.h - the help overlay: the lines of every action (generated from the action table and the
 * keymap, so that help cannot drift from the bindings), drawn over the editor and the pane with
 * each entry's text wrapped under its own column, and the keys that scroll it. */
#ifndef KP_UI_HELP_H
#define KP_UI_HELP_H

#include "layout.h"

#include <stdbool.h>
#include <stddef.h>

/* Where an entry's text starts: the keys and the name (or a command) take the columns before. */
#define HELP_HEAD 33

/* An entry: `head` padded to HELP_HEAD - 1 display columns, a space, then `text`.
 * Caller frees. */
char *help_line(const char *head, const char *text);
/* One line per action: "keys  name  help" (caller frees each line and the array). */
char **help_action_lines(size_t *n);
/* The legend: every plan's symbol and word (from the plan table, so that none is missing) with
 * what it means, the Items screen's marks and the units; lines as help_action_lines' (caller
 * frees each and the array). */
char **help_legend_lines(size_t *n);
/* Draws the title and lines[*top...] into r (*top is clamped to the last line). Lines are
 * entries: the first HELP_HEAD columns, then the text wrapped under itself. */
void help_draw(ui_rect r, char *const *lines, size_t n, size_t *top);
/* A key while help is open: j/k, arrows, Space and the page keys scroll *top and return true;
 * any other key returns false (help closes). */
bool help_scroll(size_t *top, int key);

#endif
