/* form.c - a record as a form of labelled, wrapped fields (form.h). */
#include "form.h"

#include "display.h"
#include "draw.h"
#include "i18n.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void form_open(ui_form *fm, const char *title, const char *const *labels, const char *const *values, size_t n,
               size_t sel)
{
    form_close(fm);
    fm->title = xstrdup(title ? title : "");
    fm->f = n ? xcalloc(n, sizeof *fm->f) : NULL;
    fm->n = n;
    for (size_t i = 0; i < n; i++) {
        fm->f[i].label = xstrdup(labels[i] ? labels[i] : "");
        fm->f[i].value = xstrdup(values[i] ? values[i] : "");
    }
    fm->sel = sel < n ? sel : 0;
    fm->top = 0;
    fm->editing = false;
    le_init(&fm->le, NULL);
}

bool form_is_open(const ui_form *fm) { return fm->title != NULL; }

void form_close(ui_form *fm)
{
    if (!fm->title)
        return;
    for (size_t i = 0; i < fm->n; i++) {
        free(fm->f[i].label);
        free(fm->f[i].value);
        free(fm->f[i].err);
    }
    free(fm->f);
    free(fm->title);
    le_free(&fm->le);
    memset(fm, 0, sizeof *fm);
}

void form_set(ui_form *fm, size_t i, const char *value, const char *err)
{
    if (i >= fm->n)
        return;
    free(fm->f[i].value);
    free(fm->f[i].err);
    fm->f[i].value = xstrdup(value ? value : "");
    fm->f[i].err = err ? xstrdup(err) : NULL;
}

/* The editor's text cut into lines of `width` columns (by characters, so that the cursor's place
 * is exact); *cl, *cc the line and column of the cursor. Caller frees each line and the array. */
static char **edit_lines(const lineedit *le, int width, size_t *n, size_t *cl, int *cc)
{
    const char *s = le->buf ? le->buf : "";
    size_t len = strlen(s), cap = 4, k = 0, at = 0;
    char **v = xcalloc(cap, sizeof *v);
    *cl = 0;
    *cc = 0;
    do {
        int used = 0;
        size_t b = disp_fit(s + at, width, &used);
        if (!b && at < len) /* a character wider than the field: take it alone */
            b = 1;
        if (k == cap)
            v = xrealloc(v, (cap *= 2) * sizeof *v);
        v[k] = xstrndup(s + at, b);
        if (le->cur >= at && (le->cur < at + b || (le->cur == len && at + b == len))) {
            char *before = xstrndup(s + at, le->cur - at);
            *cl = k;
            *cc = disp_width(before);
            free(before);
            if (*cc >= width) { /* at the end of a full line: the next one */
                *cl = k + 1;
                *cc = 0;
            }
        }
        k++;
        at += b;
    } while (at < len);
    if (*cl >= k) {
        if (k == cap)
            v = xrealloc(v, (cap + 1) * sizeof *v);
        v[k++] = xstrdup("");
    }
    *n = k;
    return v;
}

typedef struct form_line {
    char *text;
    size_t field;
    bool label, err;
} form_line;

void form_draw(ui_form *fm, ui_rect r, int *cy, int *cx)
{
    if (r.h <= 0 || !fm->title)
        return;
    int lw = 0;
    for (size_t i = 0; i < fm->n; i++) {
        int w = disp_width(fm->f[i].label);
        lw = w > lw ? w : lw;
    }
    lw = lw + 2 > r.w / 3 ? r.w / 3 : lw + 2;
    int vw = r.w - lw - 1;
    /* every field's lines, the edited one by characters with the cursor */
    form_line *ls = NULL;
    size_t nl = 0, cap = 0, first_sel = 0, last_sel = 0, cur_line = 0;
    int cur_col = 0;
    for (size_t i = 0; i < fm->n; i++) {
        size_t k = 0, cl = 0;
        int cc = 0;
        bool ed = fm->editing && i == fm->sel;
        char **v = ed ? edit_lines(&fm->le, vw - 1, &k, &cl, &cc) : draw_wrap(fm->f[i].value, vw - 1, &k);
        if (i == fm->sel)
            first_sel = nl;
        for (size_t j = 0; j < (k ? k : 1); j++) {
            VEC_GROW(ls, nl, cap);
            ls[nl++] = (form_line){k ? v[j] : xstrdup(""), i, j == 0, false};
        }
        if (ed) {
            cur_line = first_sel + cl;
            cur_col = cc;
        }
        free(v);
        if (fm->f[i].err) {
            char *e = xasprintf("! %s", fm->f[i].err);
            size_t ke = 0;
            char **ev = draw_wrap(e, vw - 1, &ke);
            free(e);
            for (size_t j = 0; j < ke; j++) {
                VEC_GROW(ls, nl, cap);
                ls[nl++] = (form_line){ev[j], i, false, true};
            }
            free(ev);
        }
        if (i == fm->sel)
            last_sel = nl - 1;
    }
    int y = r.y;
    draw_putf(y++, r.x, r.w, UI_ROLE_TAB_ACTIVE, " %s   %s", fm->title,
              fm->editing ? _("Enter saves  Esc cancels") : _("j/k field  Enter edits  Esc closes"));
    size_t rows = (size_t)(r.h - 1);
    if (first_sel < fm->top)
        fm->top = first_sel;
    if (last_sel >= fm->top + rows)
        fm->top = last_sel - rows + 1 > first_sel ? first_sel : last_sel - rows + 1;
    for (size_t i = fm->top; i < nl && y < r.y + r.h; i++, y++) {
        bool sel = ls[i].field == fm->sel;
        draw_put(y, r.x, lw, ls[i].label ? fm->f[ls[i].field].label : "",
                 sel ? UI_ROLE_CURSOR_ROW : UI_ROLE_HEADER);
        draw_put(y, r.x + lw, 1, " ", UI_ROLE_NORMAL);
        ui_role role = ls[i].err ? UI_ROLE_BAD : sel && fm->editing ? UI_ROLE_EDITOR : UI_ROLE_NORMAL;
        draw_put(y, r.x + lw + 1, vw, ls[i].text, role);
        if (fm->editing && i == cur_line) {
            *cy = y;
            *cx = r.x + lw + 1 + cur_col;
        }
    }
    while (y < r.y + r.h)
        draw_put(y++, r.x, r.w, "", UI_ROLE_NORMAL);
    for (size_t i = 0; i < nl; i++)
        free(ls[i].text);
    free(ls);
}
