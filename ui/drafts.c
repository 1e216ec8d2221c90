/* drafts.c - cell texts that did not parse. */
#include "drafts.h"

#include "util.h"

#include <stdlib.h>
#include <string.h>

void drafts_init(drafts *d) { memset(d, 0, sizeof *d); }

void drafts_clear(drafts *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->v[i].text);
        free(d->v[i].err);
    }
    d->n = 0;
    d->changes++;
}

void drafts_free(drafts *d)
{
    drafts_clear(d);
    free(d->v);
    memset(d, 0, sizeof *d);
}

static ui_draft *find(const drafts *d, int screen, size_t row, size_t col)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->v[i].screen == screen && d->v[i].row == row && d->v[i].col == col)
            return &d->v[i];
    return NULL;
}

const ui_draft *drafts_find(const drafts *d, int screen, size_t row, size_t col)
{
    return find(d, screen, row, col);
}

void drafts_drop(drafts *d, int screen, size_t row, size_t col)
{
    ui_draft *dr = find(d, screen, row, col);
    if (!dr)
        return;
    free(dr->text);
    free(dr->err);
    *dr = d->v[--d->n];
    d->changes++;
}

void drafts_set(drafts *d, int screen, size_t row, size_t col, const char *text, const char *err)
{
    drafts_drop(d, screen, row, col);
    VEC_GROW(d->v, d->n, d->cap);
    d->v[d->n++] = (ui_draft){screen, row, col, xstrdup(text), xstrdup(err), false};
    d->changes++;
}

void drafts_mark(drafts *d, int screen, size_t row, size_t col, const char *text, const char *err)
{
    if (find(d, screen, row, col))
        return;
    VEC_GROW(d->v, d->n, d->cap);
    d->v[d->n++] = (ui_draft){screen, row, col, xstrdup(text), xstrdup(err), true};
    d->changes++;
}

void drafts_unmark(drafts *d)
{
    for (size_t i = d->n; i-- > 0;)
        if (d->v[i].model) {
            free(d->v[i].text);
            free(d->v[i].err);
            d->v[i] = d->v[--d->n];
            d->changes++;
        }
}

size_t drafts_typed(const drafts *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++)
        n += !d->v[i].model;
    return n;
}
