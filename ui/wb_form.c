/* wb_form.c - a decision opens as a form (form.h): every field of it labelled, its value wrapped
 * over as many lines as it needs; Enter edits the selected field in place and saves it as one
 * undoable edit, validated like a cell (a refusal stays in the form with its reason). */
#include "wb_int.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

/* The decision's fields, labelled by their column names, into the form. */
static void fill(wb *w, size_t row, size_t sel)
{
    const kp_design *d = session_design(w->ss);
    size_t n = edit_ncols(d, EDIT_DECISIONS);
    const char **labels = xcalloc(n, sizeof *labels);
    char **values = xcalloc(n, sizeof *values);
    for (size_t i = 0; i < n; i++) {
        labels[i] = edit_col_name(d, EDIT_DECISIONS, i);
        values[i] = edit_get(d, EDIT_DECISIONS, row, i);
    }
    const kp_decision *dec = &d->decisions[row];
    char *title = xasprintf(_("Decision %s: %s"), dec->id ? dec->id : "", dec->title ? dec->title : "");
    form_open(&w->form, title, labels, (const char *const *)values, n, sel);
    free(title);
    for (size_t i = 0; i < n; i++)
        free(values[i]);
    free(values);
    free(labels);
    w->form_row = row;
}

int wb_form_open(wb *w, size_t row, size_t sel)
{
    if (row >= session_design(w->ss)->ndecisions) {
        wb_message(w, UI_ROLE_WARN, _("no decision here: on Patterns, D records one"));
        return UI_REDRAW;
    }
    fill(w, row, sel);
    wb_message(w, UI_ROLE_DIM, _("the decision as a form: j/k picks a field, Enter edits it, Esc closes"));
    return UI_REDRAW;
}

/* Saves the edited field's text; a refusal keeps the text in the editor with its reason. */
static void save_field(wb *w)
{
    ui_form *fm = &w->form;
    const char *text = fm->le.buf ? fm->le.buf : "";
    const kp_design *d = session_design(w->ss);
    char *old = edit_get(d, EDIT_DECISIONS, w->form_row, fm->sel);
    bool same = strcmp(old, text) == 0;
    free(old);
    if (same) {
        fm->editing = false;
        form_set(fm, fm->sel, text, NULL);
        return;
    }
    char *err = NULL, *label = xasprintf("edit decisions row %zu %s", w->form_row + 1, fm->f[fm->sel].label);
    kp_status st = KP_OK;
    bool set = wb_set_rest(w, EDIT_DECISIONS, w->form_row, fm->sel, text, label, &st, &err);
    free(label);
    if (!set) {
        free(fm->f[fm->sel].err);
        fm->f[fm->sel].err = xstrdup(err);
        wb_message(w, UI_ROLE_BAD, _("%s: %s (Esc drops the text)"), fm->f[fm->sel].label, err);
        free(err);
        return;
    }
    fm->editing = false;
    if (st == KP_READONLY)
        return;
    size_t sel = fm->sel;
    fill(w, w->form_row, sel); /* the title and every value as saved */
    wb_message(w, UI_ROLE_GOOD, _("saved %s (u undoes)"), w->form.f[sel].label);
}

int wb_form_key(wb *w, int key)
{
    ui_form *fm = &w->form;
    if (fm->editing) {
        if (key == UI_KEY_ESC) {
            fm->editing = false;
            free(fm->f[fm->sel].err);
            fm->f[fm->sel].err = NULL;
            wb_message(w, UI_ROLE_DIM, _("edit cancelled"));
        } else if (key == UI_KEY_ENTER || key == '\r' || key == UI_FKEY(KEY_ENTER)) {
            save_field(w);
        } else {
            wb_line_key(&fm->le, key);
        }
        return UI_REDRAW;
    }
    switch (key) {
    case UI_KEY_ESC:
    case 'q':
        form_close(fm);
        msgline_clear(&w->msg);
        return UI_REDRAW;
    case 'j':
    case UI_KEY_TAB:
    case UI_FKEY(KEY_DOWN):
        if (fm->sel + 1 < fm->n)
            fm->sel++;
        return UI_REDRAW;
    case 'k':
    case UI_FKEY(KEY_BTAB):
    case UI_FKEY(KEY_UP):
        if (fm->sel)
            fm->sel--;
        return UI_REDRAW;
    case 'g':
        fm->sel = 0;
        return UI_REDRAW;
    case 'G':
        fm->sel = fm->n ? fm->n - 1 : 0;
        return UI_REDRAW;
    case 'e':
    case UI_KEY_ENTER:
    case '\r':
    case UI_FKEY(KEY_ENTER):
        if (session_readonly(w->ss)) {
            wb_message(w, UI_ROLE_BAD, _("read-only: %s"), session_readonly(w->ss));
            return UI_REDRAW;
        }
        le_set(&fm->le, fm->f[fm->sel].value);
        fm->editing = true;
        wb_message(w, UI_ROLE_DIM, _("%s: %s   (Enter saves, Esc cancels)"), fm->f[fm->sel].label,
                   edit_col_hint(session_design(w->ss), EDIT_DECISIONS, fm->sel));
        return UI_REDRAW;
    default: {
        /* help, undo, redo and commit work over the form; the command line closes it */
        ui_action a = ui_key_action(w->screen, key);
        if (a == UI_ACT_COMMAND)
            form_close(fm);
        if (a == UI_ACT_COMMAND || a == UI_ACT_HELP || a == UI_ACT_UNDO || a == UI_ACT_REDO ||
            a == UI_ACT_COMMIT) {
            int f = wb_run_action(w, a);
            if (form_is_open(fm) && w->form_row < session_design(w->ss)->ndecisions)
                fill(w, w->form_row, fm->sel); /* the values as they are now */
            else if (form_is_open(fm))
                form_close(fm);
            return f;
        }
        wb_message(w, UI_ROLE_DIM, _("in the form: j/k picks a field, Enter edits it, Esc closes"));
        return UI_REDRAW;
    }
    }
}
