/* screen_items.c - Items: the table (or one of its indexes) as rows of generated sample items
 * (the generator of `export --format items`), grouped by partition and sorted by sort key as
 * DynamoDB stores them (model/itemview.h), and what the selected pattern's request reads there
 * (storage/exchange/itemreads.h): its key condition with the values bound, the items it returns
 * (>), those tied at its Limit (?) and those its filter drops (x).
 *
 * Everything is computed once per generation of the design (screen_env.gen), seed, size, index
 * and pattern: a frame formats only the rows it shows. */
#include "screens.h"

#include "display.h"
#include "draw.h"
#include "itemreads.h"
#include "itemview.h"
#include "pane.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define ITEMS_COL_CAP 28
#define ITEMS_PER_MAX 1000

typedef struct items_state {
    /* what the user asked for */
    unsigned seed;
    size_t partitions, per_partition; /* 0: as the exports */
    ptrdiff_t index;                  /* -1: the table */
    /* what is built, and for what */
    bool built;
    unsigned long gen;
    unsigned bseed;
    size_t bparts, bper;
    const kp_design *d; /* the analysed design the items are of (borrowed) */
    item_sample sample;
    planeval_set set;
    itemview view;
    int *widths; /* per view column */
    size_t nitems;
    /* the selected pattern's reads */
    size_t rrow; /* the Patterns row they are for; (size_t)-1: none */
    bool has_reads;
    itemreads reads;
    char *reads_title; /* "2 Orders of a customer" */
} items_state;

static void *items_open(void)
{
    items_state *st = xcalloc(1, sizeof *st);
    st->seed = ITEM_DEFAULT_SEED;
    st->index = -1;
    st->rrow = (size_t)-1;
    return st;
}

static void drop_reads(items_state *st)
{
    if (st->has_reads)
        itemreads_free(&st->reads);
    st->has_reads = false;
    free(st->reads_title);
    st->reads_title = NULL;
    st->rrow = (size_t)-1;
}

static void drop_view(items_state *st)
{
    itemview_free(&st->view);
    free(st->widths);
    st->widths = NULL;
}

static void drop_all(items_state *st)
{
    drop_reads(st);
    drop_view(st);
    if (st->built) {
        planeval_set_free(&st->set);
        item_sample_free(&st->sample);
    }
    st->built = false;
    st->d = NULL;
}

static void items_close(void *state)
{
    items_state *st = state;
    if (!st)
        return;
    drop_all(st);
    free(st);
}

void screen_items_set(void *state, unsigned seed, size_t partitions, size_t per_partition)
{
    items_state *st = state;
    st->seed = seed;
    st->partitions = partitions;
    st->per_partition = per_partition > ITEMS_PER_MAX ? ITEMS_PER_MAX : per_partition;
}

/* The view of st->index over the set, with its column widths (every row measured once). */
static void build_view(items_state *st)
{
    drop_view(st);
    itemview_build(st->d, &st->set, st->index, &st->view);
    st->index = st->view.index; /* an index that no longer exists: the table */
    const itemview *v = &st->view;
    st->widths = xcalloc(v->ncols ? v->ncols : 1, sizeof *st->widths);
    for (size_t c = 0; c < v->ncols; c++) {
        int w = disp_width(v->cols[c]) + (c == 0 ? 2 : 0);
        for (size_t i = 0; i < v->n && w < ITEMS_COL_CAP; i++) {
            const char *t = item_text(&v->v[i].view, v->cols[c]);
            int tw = t ? disp_width(t) + (c == 0 ? 2 : 0) : 0;
            if (tw > w)
                w = tw;
        }
        st->widths[c] = w < 3 ? 3 : w > ITEMS_COL_CAP ? ITEMS_COL_CAP : w;
    }
}

static void remark(items_state *st)
{
    itemview_clear_marks(&st->view);
    if (st->has_reads && !st->reads.note && st->reads.index == st->view.index)
        itemview_mark_result(&st->view, &st->set, &st->reads.res, st->reads.read, st->reads.nread);
}

/* Brings the state up to date with the env: items, view, the selected pattern's reads. */
static void sync(const screen_env *e)
{
    items_state *st = e->state;
    const kp_design *d = e->an ? e->an->design : NULL;
    if (!d) {
        drop_all(st);
        return;
    }
    /* Only the seed or the size changed: the same items made again, the index the user chose
     * with i stays (the view follows the pattern's index only when the pattern or design changes). */
    bool regen_only = st->built && st->gen == e->gen && st->d == d;
    size_t was_row = st->rrow;
    if (!st->built || st->gen != e->gen || st->d != d || st->bseed != st->seed ||
        st->bparts != st->partitions || st->bper != st->per_partition) {
        drop_all(st);
        item_sample_opts o = {
            .seed = st->seed, .partitions = st->partitions, .per_partition = st->per_partition};
        item_sample_make_opts(d, &o, &st->sample);
        memset(&st->set, 0, sizeof st->set);
        for (size_t i = 0; i < st->sample.n; i++)
            for (size_t k = 0; k < st->sample.lists[i].n; k++)
                planeval_set_add(&st->set, d, &d->entities[i], &st->sample.lists[i].v[k]);
        st->nitems = st->set.n;
        st->built = true;
        st->d = d;
        st->gen = e->gen;
        st->bseed = st->seed;
        st->bparts = st->partitions;
        st->bper = st->per_partition;
        build_view(st);
    }
    if (st->view.index != st->index || (!st->widths && st->view.n))
        build_view(st);
    size_t row = e->pattern_cur ? e->pattern_cur->row : (size_t)-1;
    const kp_design *wd = e->design;
    if (row >= wd->npatterns)
        row = (size_t)-1;
    if (row != st->rrow) {
        drop_reads(st);
        st->rrow = row;
        const kp_pattern_result *r =
            row != (size_t)-1 ? pane_result_at(e->an, row, wd->patterns[row].id) : NULL;
        if (r) {
            itemreads_run(d, &st->sample, &st->set, r, &st->reads);
            st->has_reads = true;
            const kp_pattern *p = r->pattern;
            st->reads_title = xasprintf("%s %s", p->id ? p->id : "", p->name ? p->name : "");
            bool same = regen_only && row == was_row;
            if (!same && !st->reads.note && st->reads.index != st->view.index) {
                st->index = st->reads.index; /* show the index the request reads */
                build_view(st);
            }
            remark(st);
            /* the cursor on the first item it reads */
            for (size_t i = 0; i < st->view.n; i++)
                if (st->view.v[i].mark != IV_NONE) {
                    e->cur->row = i;
                    e->cur->top = i > 2 ? i - 2 : 0;
                    break;
                }
        } else {
            remark(st);
        }
    }
}

static const char *index_name(const kp_design *d, ptrdiff_t index)
{
    /* TRANSLATORS: the base table, where an index's name would be */
    return index >= 0 && (size_t)index < d->nindexes ? d->indexes[index].name : P_("index", "table");
}

/* ---- the grid ------------------------------------------------------------------------------ */

static const char *const mark_sym[] = {
    [IV_NONE] = " ", [IV_RETURNED] = ">", [IV_TIED] = "?", [IV_DROPPED] = "x"};

static ui_role mark_role(itemview_mark m)
{
    return m == IV_RETURNED  ? UI_ROLE_GOOD
           : m == IV_TIED    ? UI_ROLE_WARN
           : m == IV_DROPPED ? UI_ROLE_BAD
                             : UI_ROLE_NORMAL;
}

static char *cell(const items_state *st, size_t row, size_t col, int *role)
{
    const itemview *v = &st->view;
    *role = UI_ROLE_NORMAL;
    if (row >= v->n || col >= v->ncols)
        return xstrdup("");
    const itemview_row *r = &v->v[row];
    *role = mark_role(r->mark);
    const char *t = item_text(&r->view, v->cols[col]);
    if (col == 0) /* the mark, then the partition key on its partition's first row */
        return xasprintf("%s %s", mark_sym[r->mark], r->first ? (t ? t : "") : "");
    return xstrdup(t ? t : "");
}

static char *grid_cell_cb(const void *ctx, size_t row, size_t col, int *role)
{
    return cell(ctx, row, col, role);
}

static screen_col *items_columns(const screen_env *e, size_t *n)
{
    items_state *st = e->state;
    sync(e);
    const itemview *v = &st->view;
    screen_col *c = xcalloc(v->ncols ? v->ncols : 1, sizeof *c);
    for (size_t i = 0; i < v->ncols; i++)
        c[i] = (screen_col){-1, i, v->cols[i], ITEMS_COL_CAP};
    *n = v->ncols;
    return c;
}

static char *items_computed(const screen_env *e, size_t row, size_t code, int *role)
{
    sync(e);
    return cell(e->state, row, code, role);
}

static size_t items_rows(const screen_env *e)
{
    sync(e);
    return ((items_state *)e->state)->view.n;
}

/* The lines above the rows: what is shown, and the selected pattern's request. */
static void draw_head(const screen_env *e, const items_state *st, ui_rect r, int *y)
{
    const kp_design *d = st->d;
    const itemview *v = &st->view;
    sbuf b;
    sbuf_init(&b);
    sbuf_printf(&b, "%s: ", index_name(d, v->index));
    /* TRANSLATORS: "12 items in 3 partitions" is written as these two pieces */
    sbuf_printf(&b, ngettext("%zu item", "%zu items", v->n), v->n);
    sbuf_printf(&b, ngettext(" in %zu partition", " in %zu partitions", v->nparts), v->nparts);
    if (v->nabsent)
        sbuf_printf(&b, _(", %zu not on it (sparse)"), v->nabsent);
    sbuf_printf(&b, _("   seed %u, %zu a partition"), st->seed, st->per_partition ? st->per_partition : 4);
    draw_put((*y)++, r.x, r.w, b.s, UI_ROLE_TITLE);
    sbuf_free(&b);
    if (!st->has_reads) {
        draw_put((*y)++, r.x, r.w, _("no pattern selected: p selects one (or the Patterns screen's cursor)"),
                 UI_ROLE_DIM);
        return;
    }
    char *op = itemreads_op_text(d, &st->reads);
    draw_putf((*y)++, r.x, r.w, st->reads.note ? UI_ROLE_DIM : UI_ROLE_CHANGED, _("pattern %s: %s"),
              st->reads_title, op);
    free(op);
    if (st->reads.note)
        return;
    char *cond = itemreads_cond_text(&st->reads);
    char *line = xasprintf("  %s", cond);
    draw_wrapped(y, *y + 2, r.x, r.w, line, UI_ROLE_CHANGED, "    ");
    free(line);
    free(cond);
    sbuf_init(&b);
    if (st->reads.index != v->index) {
        sbuf_printf(&b, _("it reads %s, not %s: i switches"), index_name(d, st->reads.index),
                    index_name(d, v->index));
    } else {
        sbuf_printf(&b, ngettext("> returns %zu item", "> returns %zu items", st->reads.res.n),
                    st->reads.res.n);
        if (st->reads.res.nopt)
            sbuf_printf(&b, _("   ? %zu tied at the Limit, any may come back"), st->reads.res.nopt);
        size_t dropped = 0;
        for (size_t i = 0; i < v->n; i++)
            dropped += v->v[i].mark == IV_DROPPED;
        if (dropped)
            sbuf_printf(&b, _("   x %zu read, then dropped by the filter"), dropped);
    }
    draw_put((*y)++, r.x, r.w, b.s, UI_ROLE_DIM);
    sbuf_free(&b);
}

static void items_draw(const screen_env *e, ui_rect r, int *cy, int *cx)
{
    items_state *st = e->state;
    sync(e);
    int y = r.y;
    if (!st->d) {
        draw_put(y++, r.x, r.w, _("no analysis yet: the design needs a valid table"), UI_ROLE_DIM);
        while (y < r.y + r.h)
            draw_put(y++, r.x, r.w, "", UI_ROLE_NORMAL);
        return;
    }
    draw_head(e, st, r, &y);
    const itemview *v = &st->view;
    grid_col *gc = xcalloc(v->ncols ? v->ncols : 1, sizeof *gc);
    for (size_t i = 0; i < v->ncols; i++)
        gc[i] = (grid_col){v->cols[i], ITEMS_COL_CAP};
    grid g = {.cols = gc,
              .ncols = v->ncols,
              .nrows = v->n,
              .cell = grid_cell_cb,
              .ctx = st,
              .cur = e->cur,
              .empty = _("no items on this index (i shows the next one)"),
              .widths = st->widths};
    ui_rect gr = {y, r.x, r.y + r.h - y, r.w};
    if (gr.h > 0)
        grid_draw(&g, gr, cy, cx);
    free(gc);
}

/* ---- actions and the detail view ------------------------------------------------------------ */

static int items_handle(const screen_env *e, ui_action a)
{
    items_state *st = e->state;
    sync(e);
    const kp_design *d = st->d;
    switch (a) {
    case UI_ACT_ITEMS_INDEX:
        if (!d)
            return UI_REDRAW;
        st->index = st->index + 1 >= (ptrdiff_t)d->nindexes ? -1 : st->index + 1;
        msgline_set(e->msg, UI_ROLE_NORMAL, _("Items: %s"), index_name(d, st->index));
        e->cur->row = e->cur->top = 0;
        sync(e);
        remark(st);
        return UI_REDRAW;
    case UI_ACT_ITEMS_PATTERN:
    case UI_ACT_ITEMS_PATTERN_PREV: {
        size_t np = e->design->npatterns;
        if (!np || !e->pattern_cur)
            return UI_REDRAW;
        size_t row = e->pattern_cur->row;
        e->pattern_cur->row = a == UI_ACT_ITEMS_PATTERN ? (row + 1) % np : (row + np - 1) % np;
        return UI_REDRAW;
    }
    case UI_ACT_ITEMS_SEED:
        st->seed = st->seed * 1103515245u + 12345u;
        msgline_set(e->msg, UI_ROLE_NORMAL, _("Items generated again with seed %u"), st->seed);
        return UI_REDRAW;
    case UI_ACT_ITEMS_MORE:
    case UI_ACT_ITEMS_FEWER: {
        size_t per = st->per_partition ? st->per_partition : 4;
        if (a == UI_ACT_ITEMS_MORE)
            per = per < 10 ? per + 1 : per * 2 > ITEMS_PER_MAX ? ITEMS_PER_MAX : per * 2;
        else
            per = per > 10 ? per / 2 : per > 1 ? per - 1 : 1;
        st->per_partition = per;
        msgline_set(e->msg, UI_ROLE_NORMAL, _("Items: %zu a partition"), per);
        return UI_REDRAW;
    }
    default:
        return UI_IGNORED;
    }
}

static char **items_detail(const screen_env *e, char **title, size_t *n)
{
    items_state *st = e->state;
    sync(e);
    const itemview *v = &st->view;
    if (e->cur->row >= v->n)
        return NULL;
    const itemview_row *r = &v->v[e->cur->row];
    static const char *const words[] = {[IV_NONE] = N_("not read by the selected pattern"),
                                        [IV_RETURNED] = N_("returned by the selected pattern"),
                                        [IV_TIED] = N_("tied at the Limit: may come back instead of another"),
                                        [IV_DROPPED] = N_("read (and billed), then dropped by the filter")};
    char **lines = xcalloc(r->view.n + 3, sizeof *lines);
    size_t k = 0;
    lines[k++] =
        xasprintf(_("entity %s, partition %zu of %zu; %s"), r->pi->e && r->pi->e->name ? r->pi->e->name : "?",
                  r->part + 1, v->nparts, _(words[r->mark]));
    if (v->index >= 0)
        lines[k++] = xasprintf(_("as %s projects it (the table holds %zu attributes)"),
                               index_name(st->d, v->index), r->pi->item->n);
    for (size_t i = 0; i < r->view.n; i++)
        lines[k++] = xasprintf("%s (%s): %s", r->view.v[i].name, kp_vtype_name(r->view.v[i].v.type),
                               r->view.v[i].v.text);
    *title = xasprintf(_("Item %s on %s"), r->pi->key, index_name(st->d, v->index));
    *n = k;
    return lines;
}

const screen_ops screen_items = {
    .name = N_("Items"),
    .empty = N_("no items"),
    .open = items_open,
    .close = items_close,
    .columns = items_columns,
    .computed = items_computed,
    .rows = items_rows,
    .draw = items_draw,
    .handle = items_handle,
    .detail = items_detail,
};
