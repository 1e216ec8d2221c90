/* msgline.h - the message line at the bottom of the frame: one message in its colour role, or
 * the prompt being typed (":", "/", "Commit message: ") with its line editor. */
#ifndef KP_UI_MSGLINE_H
#define KP_UI_MSGLINE_H

#include "layout.h"
#include "lineedit.h"
#include "theme.h"

/* The message shown; caller-allocated value (msgline_clear frees the text). */
typedef struct msgline {
    char *text; /* NULL: an empty line */
    ui_role role;
    char **past; /* every message set, oldest first (the last MSGLINE_KEEP; :messages) */
    size_t npast;
} msgline;

/* How many past messages the line keeps. */
#define MSGLINE_KEEP 200

/* Sets the message (the previous one is freed) and adds it to the past messages. */
void msgline_set(msgline *m, ui_role role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Empties the line and frees the text (the past messages stay). */
void msgline_clear(msgline *m);
/* Frees the text and the past messages. */
void msgline_free(msgline *m);
/* Draws the line into r: with `lead` (not NULL) the prompt `lead` + `prompt`'s text, and *cy, *cx
 * receive the terminal cursor; else the message. */
void msgline_draw(const msgline *m, ui_rect r, const char *lead, const lineedit *prompt, int *cy, int *cx);

#endif
