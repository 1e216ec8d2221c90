/* form.h - a record opened as a form: one field per line group, its label on the left and its
 * value wrapped over as many lines as it needs on the right (a decision's context, alternatives
 * and failure test read whole, not as a row of one-line cells). One field at a time is edited in
 * place with the line editor, its text wrapped over the lines it takes. Caller-allocated value;
 * zero-initialised is closed. No knowledge of the design: the caller fills labels and values. */
#ifndef KP_UI_FORM_H
#define KP_UI_FORM_H

#include "layout.h"
#include "lineedit.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct form_field {
    char *label;
    char *value;
    char *err; /* why the last text typed here was refused, or NULL */
} form_field;

typedef struct ui_form {
    char *title; /* NULL while closed */
    form_field *f;
    size_t n;
    size_t sel;   /* the selected field */
    size_t top;   /* first line shown; follows the selection when drawn */
    bool editing; /* the selected field is being edited in `le` */
    lineedit le;
} ui_form;

/* Opens the form with copies of `title` and of labels[i], values[i] (NULL = empty), field `sel`
 * selected; whatever it showed before is freed. */
void form_open(ui_form *fm, const char *title, const char *const *labels, const char *const *values, size_t n,
               size_t sel);
/* true while the form is open. */
bool form_is_open(const ui_form *fm);
/* Closes the form and frees what it holds (a closed form is left alone). */
void form_close(ui_form *fm);
/* Replaces field i's value and error (copies; either may be NULL). */
void form_set(ui_form *fm, size_t i, const char *value, const char *err);
/* Draws the form into r; while a field is edited, *cy, *cx receive the cursor's place. */
void form_draw(ui_form *fm, ui_rect r, int *cy, int *cx);

#endif
