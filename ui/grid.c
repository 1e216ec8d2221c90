/* grid.c - the table grid widget. */
#include "grid.h"

#include "display.h"
#include "draw.h"
#include "util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int cell_width(const grid *g, size_t row, size_t col)
{
    int role;
    char *t = g->cell(g->ctx, row, col, &role);
    int tw = disp_width(t);
    free(t);
    return tw;
}

static int clamp_width(int m, int cap) { return m < 3 ? 3 : m > cap ? cap : m; }

/* Column i's width from its title and the rows, up to the first row wider than the cap (without
 * m, the first at the cap); with m, each row's width seen and which row passed the cap. */
static int column_width(const grid *g, size_t i, grid_memo *m)
{
    int cap = g->cols[i].cap;
    int w = disp_width(g->cols[i].title);
    if (m)
        m->capped[i] = w >= cap ? GRID_TITLE : GRID_ALL;
    for (size_t r = 0; r < g->nrows && (m ? m->capped[i] == GRID_ALL : w < cap); r++) {
        int tw = cell_width(g, r, i);
        if (m) {
            m->rowwd[i * m->nrows + r] = (unsigned short)(tw < cap ? tw : cap);
            if (tw > cap)
                m->capped[i] = r;
        }
        if (tw > w)
            w = tw;
    }
    return clamp_width(w, cap);
}

int *grid_widths(const grid *g)
{
    size_t n = g->ncols;
    int *wd = xcalloc(n ? n : 1, sizeof *wd);
    for (size_t i = 0; i < n; i++)
        wd[i] = column_width(g, i, NULL);
    return wd;
}

void grid_memo_free(grid_memo *m)
{
    free(m->rowwd);
    free(m->capped);
    free(m->cut);
    *m = (grid_memo){0};
}

const bool *grid_memo_cut(grid_memo *m)
{
    if (!m->capped)
        return NULL;
    if (!m->cut)
        m->cut = xcalloc(m->ncols + 1, sizeof *m->cut);
    for (size_t i = 0; i < m->ncols; i++)
        m->cut[i] = m->capped[i] != GRID_ALL && m->capped[i] != GRID_TITLE;
    return m->cut;
}

int *grid_widths_memo(const grid *g, grid_memo *m)
{
    grid_memo_free(m);
    size_t n = g->ncols;
    for (size_t i = 0; i < n; i++)
        if (g->cols[i].cap < 0 || g->cols[i].cap > 0xffff)
            return grid_widths(g); /* a cap no row's width can be kept under: nothing kept */
    m->nrows = g->nrows;
    m->ncols = n;
    m->rowwd = xcalloc(n * g->nrows + 1, sizeof *m->rowwd);
    m->capped = xcalloc(n + 1, sizeof *m->capped);
    int *wd = xcalloc(n ? n : 1, sizeof *wd);
    for (size_t i = 0; i < n; i++)
        wd[i] = column_width(g, i, m);
    return wd;
}

void grid_widths_row(const grid *g, int *wd, grid_memo *m, size_t row)
{
    if (!m->capped || m->nrows != g->nrows || m->ncols != g->ncols || row >= g->nrows) {
        int *all = grid_widths_memo(g, m); /* not what the memo is of: all again */
        memcpy(wd, all, g->ncols * sizeof *wd);
        free(all);
        return;
    }
    for (size_t i = 0; i < g->ncols; i++) {
        size_t at = m->capped[i];
        if (at == GRID_TITLE)
            continue;
        int cap = g->cols[i].cap, tw = cell_width(g, row, i);
        if (at != GRID_ALL) { /* a row passed the cap: the width stays while one does */
            if (row < at) {   /* kept, and maybe the first past the cap now */
                m->rowwd[i * m->nrows + row] = (unsigned short)(tw < cap ? tw : cap);
                if (tw > cap)
                    m->capped[i] = row;
            } else if (at == row && tw <= cap) {
                wd[i] = column_width(g, i, m);
            }
            continue;
        }
        unsigned short *rw = m->rowwd + i * m->nrows;
        rw[row] = (unsigned short)(tw < cap ? tw : cap);
        if (tw > cap) {
            m->capped[i] = row;
            wd[i] = clamp_width(cap, cap);
            continue;
        }
        int w = disp_width(g->cols[i].title);
        for (size_t r = 0; r < m->nrows; r++)
            if (rw[r] > w)
                w = rw[r];
        wd[i] = clamp_width(w, cap);
    }
}

/* Column i's width from its title and the kept widths of its rows (every row kept). */
static int kept_width(const grid *g, size_t i, const unsigned short *rw, size_t n)
{
    int w = disp_width(g->cols[i].title);
    for (size_t r = 0; r < n; r++)
        if (rw[r] > w)
            w = rw[r];
    return clamp_width(w, g->cols[i].cap);
}

void grid_widths_rows(const grid *g, int *wd, grid_memo *m, kp_rowop op)
{
    size_t n = m->nrows, nn = g->nrows, nc = g->ncols, r = op.row;
    if (!m->capped || m->ncols != nc || !kp_rowop_fits(op, n) || kp_rowop_count(op, n) != nn) {
        int *all = grid_widths_memo(g, m); /* not what the memo is of: all again */
        memcpy(wd, all, nc * sizeof *wd);
        free(all);
        return;
    }
    unsigned short *rw = xcalloc(nc * nn + 1, sizeof *rw);
    for (size_t i = 0; i < nc; i++) { /* each column's kept widths follow their rows */
        const unsigned short *was = m->rowwd + i * n;
        unsigned short *col = rw + i * nn;
        if (op.kind == KP_ROW_INSERT) {
            memcpy(col, was, r * sizeof *col);
            memcpy(col + r + 1, was + r, (n - r) * sizeof *col);
        } else if (op.kind == KP_ROW_REMOVE) {
            memcpy(col, was, r * sizeof *col);
            memcpy(col + r, was + r + 1, (n - r - 1) * sizeof *col);
        } else {
            memcpy(col, was, n * sizeof *col);
            kp_rowop_shift(col, n, sizeof *col, op);
        }
    }
    free(m->rowwd);
    m->rowwd = rw;
    m->nrows = nn;
    size_t lo = op.kind == KP_ROW_MOVE && op.to < r ? op.to : r;
    size_t hi = op.kind == KP_ROW_MOVE && op.to > r ? op.to : r;
    for (size_t i = 0; i < nc; i++) {
        size_t at = m->capped[i];
        if (at == GRID_TITLE || (op.kind == KP_ROW_MOVE && at == GRID_ALL))
            continue; /* the same rows: the same width */
        int cap = g->cols[i].cap;
        unsigned short *col = rw + i * nn;
        if (at == GRID_ALL) {
            if (op.kind == KP_ROW_INSERT) {
                int tw = cell_width(g, r, i);
                col[r] = (unsigned short)(tw < cap ? tw : cap);
                if (tw > cap) {
                    m->capped[i] = r;
                    wd[i] = clamp_width(cap, cap);
                    continue;
                }
            }
            wd[i] = kept_width(g, i, col, nn);
            continue;
        }
        /* the rows before `at` are kept, `at` passed the cap, the ones after it are not kept:
           formatted again are the rows [from, end) that may now be the first past the cap */
        size_t from = nn, end = nn;
        if (op.kind == KP_ROW_INSERT && r <= at)
            at++, from = r, end = r + 1;
        else if (op.kind == KP_ROW_REMOVE && r < at)
            at--;
        else if (op.kind == KP_ROW_REMOVE && r == at)
            from = r, end = nn, at = GRID_ALL;
        else if (op.kind == KP_ROW_MOVE && at >= lo && at <= hi)
            from = lo, end = hi + 1, at = GRID_ALL;
        for (size_t k = from; k < end && at > k; k++) {
            int tw = cell_width(g, k, i);
            col[k] = (unsigned short)(tw < cap ? tw : cap);
            if (tw > cap)
                at = k;
        }
        m->capped[i] = at;
        if (at == GRID_ALL && op.kind == KP_ROW_REMOVE) /* no row passes the cap now: all kept */
            wd[i] = kept_width(g, i, col, nn);
        else if (at == GRID_ALL) /* not found where it went: the column again */
            wd[i] = column_width(g, i, m);
    }
}

/* The widths to draw with (caller frees): the given ones, else computed. */
static int *col_widths(const grid *g)
{
    if (!g->widths)
        return grid_widths(g);
    int *wd = xcalloc(g->ncols ? g->ncols : 1, sizeof *wd);
    memcpy(wd, g->widths, g->ncols * sizeof *wd);
    return wd;
}

/* The x of every visible column (or -1), given the width; keeps column 0 frozen and the cursor
 * column visible by moving cur->left. */
static int *col_xs(ui_cursor *cur, const int *wd, size_t n, int width)
{
    int *xs = xcalloc(n ? n : 1, sizeof *xs);
    if (cur->left < 1 || cur->col == 0)
        cur->left = 1;
    if (cur->col > 0 && cur->col < cur->left)
        cur->left = cur->col;
    for (;;) {
        for (size_t i = 0; i < n; i++)
            xs[i] = -1;
        int x = 0;
        if (n) {
            xs[0] = 0;
            x = wd[0] + 1;
        }
        for (size_t i = cur->left; i < n; i++) {
            if (x + wd[i] > width && i > cur->left)
                break;
            xs[i] = x;
            x += wd[i] + 1;
        }
        if (cur->col == 0 || cur->col >= n || xs[cur->col] >= 0 || cur->left >= cur->col)
            break;
        cur->left++;
    }
    return xs;
}

/* The columns laid out (col_xs); then, when g->cut says which columns have a cell wider than
 * their cap, the width the next column could not use goes to the first visible one of them (a
 * name cut at 30 columns beside 20 blank ones shows whole): wd[] widened in place, the columns
 * after it moved right. */
static int *layout(const grid *g, int *wd, int width)
{
    size_t n = g->ncols;
    int *xs = col_xs(g->cur, wd, n, width);
    if (!g->cut)
        return xs;
    int end = 0;
    size_t wide = n;
    for (size_t i = 0; i < n; i++) {
        if (xs[i] < 0)
            continue;
        if (xs[i] + wd[i] > end)
            end = xs[i] + wd[i];
        if (wide == n && g->cut[i])
            wide = i;
    }
    int spare = width - end;
    if (wide == n || spare <= 0)
        return xs;
    wd[wide] += spare;
    for (size_t i = wide + 1; i < n; i++)
        if (xs[i] >= 0)
            xs[i] += spare;
    return xs;
}

int grid_col_at(const grid *g, int width, int x)
{
    size_t n = g->ncols;
    int *wd = col_widths(g);
    int *xs = layout(g, wd, width);
    int hit = -1;
    for (size_t i = 0; i < n; i++)
        if (xs[i] >= 0 && x >= xs[i] && x < xs[i] + wd[i] + 1)
            hit = (int)i;
    free(xs);
    free(wd);
    return hit;
}

void grid_draw(const grid *g, ui_rect r, int *cy, int *cx)
{
    size_t n = g->ncols, nrows = g->nrows;
    ui_cursor *cur = g->cur;
    int *wd = col_widths(g);
    if (g->editor && cur->col < n && wd[cur->col] < 24)
        wd[cur->col] = r.w - wd[0] - 2 < 24 ? (r.w - wd[0] - 2 > 3 ? r.w - wd[0] - 2 : 3) : 24;
    int *xs = layout(g, wd, r.w);
    /* header */
    draw_put(r.y, r.x, r.w, "", UI_ROLE_HEADER);
    for (size_t i = 0; i < n; i++)
        if (xs[i] >= 0)
            draw_put(r.y, r.x + xs[i], wd[i] < r.w - xs[i] ? wd[i] : r.w - xs[i], g->cols[i].title,
                     i == cur->col ? UI_ROLE_TAB_ACTIVE : UI_ROLE_HEADER);
    int h = r.h - 1;
    if (nrows == 0) {
        draw_put(r.y + 1, r.x, r.w, g->empty, UI_ROLE_DIM);
        for (int i = 2; i < r.h; i++)
            draw_put(r.y + i, r.x, r.w, "", UI_ROLE_NORMAL);
    }
    if (cur->row < cur->top)
        cur->top = cur->row;
    if (h > 0 && cur->row >= cur->top + (size_t)h)
        cur->top = cur->row - (size_t)h + 1;
    for (int i = 0; i < h && nrows; i++) {
        size_t row = cur->top + (size_t)i;
        int y = r.y + 1 + i;
        if (row >= nrows) {
            draw_put(y, r.x, r.w, "", UI_ROLE_NORMAL);
            continue;
        }
        bool is_cur = row == cur->row;
        draw_put(y, r.x, r.w, "", is_cur ? UI_ROLE_CURSOR_ROW : UI_ROLE_NORMAL);
        for (size_t k = 0; k < n; k++) {
            if (xs[k] < 0)
                continue;
            int cw = wd[k] < r.w - xs[k] ? wd[k] : r.w - xs[k];
            if (cw <= 0)
                continue;
            if (is_cur && k == cur->col && g->editor) {
                size_t start;
                int ccol;
                le_view(g->editor, cw, &start, &ccol);
                draw_put(y, r.x + xs[k], cw, g->editor->buf + start, UI_ROLE_EDITOR);
                *cy = y;
                *cx = r.x + xs[k] + ccol;
                continue;
            }
            int role;
            char *t = g->cell(g->ctx, row, k, &role);
            if (is_cur && k == cur->col)
                role = role == UI_ROLE_BAD ? UI_ROLE_ALARM : UI_ROLE_CURSOR_CELL;
            else if (is_cur && (role == UI_ROLE_NORMAL))
                role = UI_ROLE_CURSOR_ROW;
            /* numbers right-aligned */
            int tw = disp_width(t);
            bool numeric = *t >= '0' && *t <= '9' && strspn(t, "0123456789.,% ") == strlen(t); /* "42 %" */
            if (numeric && tw < cw) {
                char *p = xasprintf("%*s%s", cw - tw, "", t);
                free(t);
                t = p;
            }
            draw_put(y, r.x + xs[k], cw, t, (ui_role)role);
            free(t);
        }
    }
    free(xs);
    free(wd);
}
