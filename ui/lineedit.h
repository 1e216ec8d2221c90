/* lineedit.h - the inline cell editor: a UTF-8 line with a cursor (insert, cursor keys,
 * Home/End, delete, word delete, kill to start/end) and the arithmetic to show it in a cell of
 * a given width with the cursor visible. No curses. Caller-allocated value: le_init/le_free. */
#ifndef KP_UI_LINEEDIT_H
#define KP_UI_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct lineedit {
    char *buf; /* UTF-8, NUL-terminated */
    size_t len, cap;
    size_t cur; /* byte offset of the cursor, always at a character boundary */
} lineedit;

typedef enum le_key {
    LE_LEFT,
    LE_RIGHT,
    LE_HOME,
    LE_END,
    LE_BACKSPACE,
    LE_DELETE,
    LE_WORD_BACK,
    LE_KILL_START,
    LE_KILL_END,
    LE_WORD_LEFT,
    LE_WORD_RIGHT
} le_key;

/* Starts with `text` (may be NULL) and the cursor at its end. */
void le_init(lineedit *e, const char *text);
void le_free(lineedit *e);
void le_set(lineedit *e, const char *text);
/* Inserts the Unicode code point `cp` at the cursor (encoded as UTF-8); false for invalid or
 * control code points. */
bool le_insert(lineedit *e, unsigned cp);
void le_insert_text(lineedit *e, const char *s);
/* Applies an editing key; false when nothing changed. */
bool le_key_apply(lineedit *e, le_key k);
/* For a cell of `width` columns: the byte offset where the visible part starts (so that the
 * cursor is visible) and the column of the cursor inside the cell. */
void le_view(const lineedit *e, int width, size_t *start, int *cursor_col);

#endif
