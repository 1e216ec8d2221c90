/* screen_table.c - what the five table screens share, and the defaults the core calls screens
 * through: columns from an edit table, the text of a cell (an edit cell, a draft that did not
 * parse, or a computed column), and drawing and clicks through the grid widget. */
#include "screen.h"

#include "util.h"

#include <stdlib.h>

screen_col *screen_table_cols(const kp_design *d, edit_table t, size_t *n)
{
    size_t k = edit_ncols(d, t);
    screen_col *v = xcalloc(k ? k : 1, sizeof *v);
    for (size_t i = 0; i < k; i++)
        v[i] = (screen_col){(int)t, i, edit_col_name(d, t, i), 24};
    *n = k;
    return v;
}

void screen_cache_free(screen_cache *c)
{
    free(c->cols);
    free(c->widths);
    grid_memo_free(&c->memo);
    *c = (screen_cache){0};
}

/* The cache of generation `before` moved to `now` with one more change to its widths: false when
 * it is of another generation (left alone: made again when drawn) or holds no widths; a change
 * pending already (`clash`) drops them (made again when drawn). */
static bool cache_pending(screen_cache *c, unsigned long before, unsigned long now, bool clash)
{
    if (c->gen != before || !c->cols)
        return false;
    if (clash) {
        free(c->widths);
        c->widths = NULL;
        grid_memo_free(&c->memo);
        c->stale = c->moved = false;
    }
    c->gen = now;
    return c->widths != NULL;
}

void screen_cache_row_changed(screen_cache *c, unsigned long before, unsigned long now, size_t row)
{
    if (cache_pending(c, before, now, (c->stale && c->stale_row != row) || c->moved)) {
        c->stale = true;
        c->stale_row = row;
    }
}

void screen_cache_rows_moved(screen_cache *c, unsigned long before, unsigned long now, kp_rowop op)
{
    if (cache_pending(c, before, now, c->stale || c->moved)) {
        c->moved = true;
        c->rows = op;
    }
}

void screen_cache_kept(screen_cache *c, unsigned long before, unsigned long now)
{
    cache_pending(c, before, now, false);
}

/* The screen's cache made current for e->gen (emptied when it was for another), or NULL. */
static screen_cache *cache_for(const screen_env *e)
{
    screen_cache *c = e->cache;
    if (!c)
        return NULL;
    if (c->gen != e->gen || !c->cols) {
        screen_cache_free(c);
        c->cols = screen_columns(e, &c->ncols);
        c->gen = e->gen;
    }
    return c;
}

char *screen_cell_text(const screen_env *e, size_t row, size_t col, int *role)
{
    const screen_ops *ops = e->ops;
    *role = UI_ROLE_NORMAL;
    size_t n = 0;
    screen_cache *cc = cache_for(e);
    screen_col *c = cc ? cc->cols : screen_columns(e, &n);
    if (cc)
        n = cc->ncols;
    char *r;
    if (col >= n)
        r = xstrdup("");
    else if (c[col].table < 0)
        r = ops->computed ? ops->computed(e, row, c[col].col, role) : xstrdup("");
    else {
        const ui_draft *dr = drafts_find(e->drafts, e->id, row, col);
        if (dr) {
            *role = UI_ROLE_BAD;
            r = xasprintf("!%s", dr->text);
        } else {
            r = edit_get(e->design, (edit_table)c[col].table, row, c[col].col);
            if (ops->shown)
                r = ops->shown(e, row, &c[col], r);
        }
    }
    if (!cc)
        free(c);
    return r;
}

screen_col *screen_columns(const screen_env *e, size_t *n)
{
    const screen_ops *ops = e->ops;
    *n = 0;
    return ops->columns    ? ops->columns(e, n)
           : ops->is_table ? screen_table_cols(e->design, ops->table, n)
                           : NULL;
}

size_t screen_rows(const screen_env *e)
{
    const screen_ops *ops = e->ops;
    return ops->rows ? ops->rows(e) : ops->is_table ? edit_nrows(e->design, ops->table) : 0;
}

static char *grid_cell(const void *ctx, size_t row, size_t col, int *role)
{
    return screen_cell_text(ctx, row, col, role);
}

/* The grid of the screen; returns its columns for the caller to free. */
static grid_col *make_grid(const screen_env *e, grid *g)
{
    size_t n = 0;
    screen_col *c = screen_columns(e, &n);
    grid_col *gc = xcalloc(n ? n : 1, sizeof *gc);
    for (size_t i = 0; i < n; i++)
        gc[i] = (grid_col){c[i].title, c[i].cap};
    free(c);
    *g = (grid){.cols = gc,
                .ncols = n,
                .nrows = screen_rows(e),
                .cell = grid_cell,
                .ctx = e,
                .cur = e->cur,
                .editor = e->editor,
                .empty = e->ops->empty ? _(e->ops->empty) : ""};
    /* the widths format every row: once per generation */
    screen_cache *cc = cache_for(e);
    if (cc && cc->ncols == n) {
        if (cc->widths && cc->moved) /* rows added, deleted or moved: the memo follows them */
            grid_widths_rows(g, cc->widths, &cc->memo, cc->rows);
        if (cc->widths && cc->stale) /* one row changed: its cells alone are formatted */
            grid_widths_row(g, cc->widths, &cc->memo, cc->stale_row);
        cc->stale = cc->moved = false;
        if (!cc->widths)
            cc->widths = grid_widths_memo(g, &cc->memo);
        g->widths = cc->widths;
        g->cut = grid_memo_cut(&cc->memo);
    }
    return gc;
}

void screen_draw(const screen_env *e, ui_rect r, int *cy, int *cx)
{
    if (e->ops->draw) {
        e->ops->draw(e, r, cy, cx);
        return;
    }
    if (!e->ops->is_table)
        return;
    grid g;
    grid_col *cols = make_grid(e, &g);
    grid_draw(&g, r, cy, cx);
    free(cols);
}

int screen_col_at(const screen_env *e, int width, int x)
{
    if (e->ops->col_at)
        return e->ops->col_at(e, width, x);
    if (!e->ops->is_table)
        return -1;
    grid g;
    grid_col *cols = make_grid(e, &g);
    int hit = grid_col_at(&g, width, x);
    free(cols);
    return hit;
}

char **screen_detail(const screen_env *e, char **title, size_t *n)
{
    *n = 0;
    *title = NULL;
    if (e->ops->detail)
        return e->ops->detail(e, title, n);
    size_t nr = screen_rows(e), nc = 0;
    if (!e->ops->is_table || e->cur->row >= nr)
        return NULL;
    screen_col *c = screen_columns(e, &nc);
    char **v = xcalloc(nc ? nc : 1, sizeof *v);
    for (size_t i = 0; i < nc; i++) {
        int role;
        char *t = screen_cell_text(e, e->cur->row, i, &role);
        v[i] = xasprintf("%s: %s", c[i].title, t);
        free(t);
    }
    free(c);
    /* TRANSLATORS: the detail view's title: "Patterns, row 3" */
    *title = xasprintf(_("%s, row %zu"), _(e->ops->name), e->cur->row + 1);
    *n = nc;
    return v;
}
