/* bench_redraw.c - how long the workbench takes to draw, headless: newterm on /dev/null at
 * 140x45 (TERM=xterm-256color), CloudShop's patterns repeated to 1,000 and 10,000 rows, the real
 * analysis computed once before timing.
 *
 *   first paint       the first frame after the workbench opens (wb_new and its analysis not
 *                     counted: the frame only), caches cold;
 *   keystroke->redraw j on the Patterns screen, then the frame (erase, wb_draw, refresh), the
 *                     median of many;
 *   save a cell       Enter on a pattern's rate, the old figure cleared, a new one typed and
 *                     Enter: the edit, the session's save (in memory: no disk), validation, the
 *                     analysis after the edit and the frame, the median of many (the typing and
 *                     its frames not counted);
 *   undo a cell       u after those saves (a cell edited in place taken back), then the frame,
 *                     alternating with Ctrl-R (not timed), the median of many;
 *   a setting         :set description (then its undo u) and :set target_utilization, typed
 *                     (not timed), Enter and the frame timed: an edit of the design's rest alone,
 *                     made on a copy of the design as every command's edit is, checked and
 *                     analysed without its patterns (validate_rest_edit, ANALYSIS_REST), the
 *                     Patterns table not measured again; the medians of many;
 *   an entity's cell  its count on the Keys screen saved as a pattern's rate is (Enter, Ctrl-U,
 *                     digits, Enter: the last Enter and the frame timed), then its undo: an edit
 *                     of one entity, made in place, the patterns that read it checked again, the
 *                     analysis a whole one on its own copy of the design; the medians of many;
 *   an attribute's    its distinct values on the Attributes screen, the same way: an edit of one
 *                     attribute; then its type (customerId's, "number" and "string" in turn);
 *                     then a new attribute's row added (a) after it, its undo and redo;
 *   a rename          Order's name on the Keys screen, a suffix put on and taken off in turn (the
 *                     patterns naming it follow), then its undo;
 *   a row filled in   a new pattern's row added after row 41 (not timed), its name saved (the
 *                     design does not validate: it names no entity), then its entity saved (valid
 *                     again), each with its frame; the three steps undone (not timed);
 *   an entity added   a on the Keys screen's second row (no templates yet: not valid), its
 *                     partition key's template saved (still not valid), that undone (not timed),
 *                     then the addition undone (valid again), each with its frame;
 *   renames           an attribute's name (customerId, on the Attributes screen: the templates
 *                     and patterns naming it follow), an index's (GSI1: a decision's signal names
 *                     it, so the renamed design does not validate and its valid rest is looked
 *                     for; the name put back validates again), its partition key (GSI1PK: the
 *                     templates keyed on it follow), a pattern's id (the last
 *                     row's, on the Patterns screen: a suffix put on and taken off), each saved
 *                     with its frame, the median of many;
 *   a row broken      pattern 5's entity saved as one the design lacks (its valid rest is looked
 *                     for: at 1,000 patterns every pattern tried alone, past 2,000 none), then
 *                     its entity again, in turn, each with its frame, the median of both;
 *   an index deleted  x on the Indexes screen's second row (GSI2: the entities' templates keyed on
 *                     it and the pattern it serves then fail their checks), its undo and redo,
 *                     each with its frame;
 *   row steps         x on a pattern's row (deleted), y (duplicated), K (moved up), a (a new
 *                     pattern added after it: it names no entity, so the design does not
 *                     validate and its valid rest is analysed), each then the frame; its undo
 *                     (u) and redo (Ctrl-R), each then the frame; the medians of many;
 *   Items screen      the same keystroke and frame on the Items screen over 10,000 generated items
 *                     (and the generation itself, once), and another pattern selected (its reads
 *                     found over every item): once, then p and P in turn, p's median.
 *
 * Time: the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), or wall-clock time with `wall`, median
 * of the runs. The target is one frame (16 ms) for a keystroke. Prints figures; never run as a
 * test.
 * Usage: bench_redraw [SOURCE_DIR] [RUNS] [cpu|wall] */
#include "util.h"
#include "design_io.h"
#include "edit.h"
#include "fields.h"
#include "screens.h"
#include "wb_int.h"

#include "benchtime.h"

#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

/* What the figures are: the thread's CPU time (benchtime.h), or wall-clock time ("wall"). */
static bool wall;

static double tick(void)
{
    if (!wall)
        return now_ms();
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* CloudShop with its patterns repeated to n rows (ids 1..n). */
static kp_design *grow(const kp_design *base, size_t n)
{
    kp_design *d = design_clone(base);
    size_t nb = base->npatterns;
    for (size_t i = 0; i < d->npatterns; i++)
        pattern_free(&d->patterns[i]);
    free(d->patterns);
    d->patterns = xcalloc(n, sizeof *d->patterns);
    d->npatterns = n;
    for (size_t i = 0; i < n; i++) {
        kp_pattern *p = &d->patterns[i];
        *p = base->patterns[i % nb];
        fields_clone(&kp_rec_pattern, p, &base->patterns[i % nb]);
        free(p->id);
        p->id = xasprintf("%zu", i + 1);
    }
    return d;
}

static void frame(wb *w)
{
    erase();
    wb_draw(w);
    refresh();
}

/* Shows `screen` with the cursor on its column of table t's column `name` (its row as it was);
 * false when it has none. */
static bool column(wb *w, int screen, edit_table t, const char *name)
{
    int want = edit_col_find(session_design(w->ss), t, name);
    screen_env e = wb_env(w, screen);
    size_t n = 0;
    screen_col *c = screen_columns(&e, &n);
    bool found = false;
    for (size_t i = 0; i < n && !found; i++)
        if (c[i].table == (int)t && (int)c[i].col == want) {
            w->screen = screen;
            w->cur[screen].col = i;
            found = true;
        }
    free(c);
    return found;
}

/* Types UTF-8 text, a key for each character (as the terminal gives them: "í" is one key). */
static void type_text(wb *w, const char *s)
{
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t len = strlen(s);
    while (len) {
        wchar_t wc;
        size_t m = mbrtowc(&wc, s, len, &st);
        if (m == (size_t)-1 || m == (size_t)-2 || m == 0)
            break;
        wb_key(w, (int)wc);
        s += m;
        len -= m;
    }
}

/* The median time of Enter after text typed (not timed), then the frame (timed with the Enter):
 * in a cell (Enter opens it, Ctrl-U clears it; the text fmt of 300 or 301, or without fmt the
 * texts a and b in turn) or on the command line (the text fmt of the run's number). */
static double enter_after(wb *w, const char *fmt, const char *a, const char *b, bool cell, int runs)
{
    double *t = xcalloc((size_t)runs, sizeof *t);
    for (int r = 0; r < runs; r++) {
        if (cell) {
            wb_key(w, UI_KEY_ENTER);
            wb_key(w, UI_CTRL('u'));
        }
        char *text = fmt ? xasprintf(fmt, cell ? 300 + r % 2 : r) : xstrdup(r % 2 ? b : a);
        type_text(w, text);
        free(text);
        frame(w);
        double t0 = tick();
        wb_key(w, UI_KEY_ENTER);
        frame(w);
        t[r] = tick() - t0;
    }
    double m = median(t, (size_t)runs);
    free(t);
    return m;
}

/* The median time of saving text a, then b, in turn in the cell under the cursor. */
static double save_texts(wb *w, const char *a, const char *b, int runs)
{
    return enter_after(w, NULL, a, b, true, runs);
}

/* The median time of renaming row `row` of table t on screen `screen` (its "name" or "id"
 * column) to `to` and back to `name` in turn; the name put back at the end (not timed). -1 when
 * the screen has no such column. */
static double rename_col(wb *w, int screen, edit_table t, size_t row, const char *col, const char *to,
                         const char *name, int runs)
{
    if (!column(w, screen, t, col))
        return -1;
    w->cur[screen].row = row;
    double m = save_texts(w, to, name, runs);
    char *now = edit_get(session_design(w->ss), t, row, (size_t)edit_col_find(session_design(w->ss), t, col));
    if (strcmp(now, name) != 0)
        save_texts(w, name, name, 1);
    free(now);
    return m;
}

static double rename_cell(wb *w, int screen, edit_table t, size_t row, const char *to, const char *name,
                          int runs)
{
    return rename_col(w, screen, t, row, t == EDIT_PATTERNS ? "id" : "name", to, name, runs);
}

/* The median time of saving a new rate in the pattern under the cursor. */
static double save_cell(wb *w, int runs) { return enter_after(w, "%d", NULL, NULL, true, runs); }

/* The median time of command line `cmd` (%d the run) and Enter, then the frame. */
static double command(wb *w, const char *cmd, int runs)
{
    return enter_after(w, cmd, NULL, NULL, false, runs);
}

/* The median time of key `key` followed by a frame, alternating with `back` (not timed). */
static double keystroke(wb *w, int key, int back, int runs)
{
    double *t = xcalloc((size_t)runs, sizeof *t);
    for (int r = 0; r < runs; r++) {
        double t0 = tick();
        wb_key(w, key);
        frame(w);
        t[r] = tick() - t0;
        wb_key(w, back);
        frame(w);
    }
    double m = median(t, (size_t)runs);
    free(t);
    return m;
}

/* The medians of a row step (key: x deletes, y duplicates, a adds, K moves up), of the u that
 * takes it back and of the Ctrl-R that makes it again, each with its frame (a u after the redo,
 * not timed). */
static void row_step(wb *w, int key, int runs, double *step, double *undo, double *redo)
{
    double *t = xcalloc((size_t)runs, sizeof *t), *u = xcalloc((size_t)runs, sizeof *u),
           *v = xcalloc((size_t)runs, sizeof *v);
    for (int r = 0; r < runs; r++) {
        double t0 = tick();
        wb_key(w, key);
        frame(w);
        t[r] = tick() - t0;
        t0 = tick();
        wb_key(w, 'u');
        frame(w);
        u[r] = tick() - t0;
        t0 = tick();
        wb_key(w, UI_CTRL('r'));
        frame(w);
        v[r] = tick() - t0;
        wb_key(w, 'u');
        frame(w);
    }
    *step = median(t, (size_t)runs);
    *undo = median(u, (size_t)runs);
    *redo = median(v, (size_t)runs);
    free(t);
    free(u);
    free(v);
}

/* One line of the table: its label, then the figures at 1,000 and 10,000 patterns. */
static void line(const char *label, const double v[2]) { printf("%-34s %12.2f %12.2f\n", label, v[0], v[1]); }

int main(int argc, char **argv)
{
    util_keep_heap(); /* as keyplan's main */
    const char *src = argc > 1 ? argv[1] : ".";
    int runs = argc > 2 ? atoi(argv[2]) : 31;
    if (runs < 1)
        runs = 1;
    wall = argc > 3 && strcmp(argv[3], "wall") == 0;
    char *path = xasprintf("%s/samples/cloudshop/design.yaml", src);
    kp_diags dg;
    diags_init(&dg, NULL);
    kp_design *base = designio_load_file(path, &dg);
    if (!base) {
        diags_print(&dg, stderr);
        fprintf(stderr, "bench_redraw: cannot load %s\n", path);
        return 1;
    }
    diags_free(&dg);
    setenv("TERM", "xterm-256color", 1);
    setlocale(LC_ALL, "C.UTF-8");
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = newterm("xterm-256color", out, in);
    if (!scr) {
        fprintf(stderr, "bench_redraw: newterm failed\n");
        return 1;
    }
    set_term(scr);
    resizeterm(45, 140);
    theme_init();
    printf("%-34s %12s %12s\n", wall ? "140x45, wall ms (median)" : "140x45, CPU ms (median)", "1,000",
           "10,000");
    double first[2], key[2], save[2], undo[2], setd[2], setu[2], setb[2], ent[2], entu[2], att[2], attu[2],
        aty[2], arow[3][2], ren[2], renu[2], fname[2], fent[2], eadd[2], epk[2], eundo[2], arn[2], irn[2],
        ikey[2], prn[2], idel[3][2], brk[2];
    static const struct {
        int key;
        const char *what;
    } steps[] = {{'x', "delete a row"}, {'y', "duplicate a row"}, {'K', "move a row up"}, {'a', "add a row"}};
    enum { NSTEPS = sizeof steps / sizeof *steps };
    double st[NSTEPS][3][2];
    size_t sizes[2] = {1000, 10000};
    for (int k = 0; k < 2; k++) {
        kp_design *d = grow(base, sizes[k]);
        wb *w = wb_new(session_new_memory(d), NULL);
        wb_resize(w, LINES, COLS);
        double t0 = tick();
        frame(w);
        first[k] = tick() - t0;
        wb_key(w, 'G');
        frame(w);
        key[k] = keystroke(w, 'k', 'j', runs);
        save[k] = column(w, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "rate") ? save_cell(w, runs) : -1;
        undo[k] = keystroke(w, 'u', UI_CTRL('r'), runs);
        for (int i = 0; i < NSTEPS; i++)
            row_step(w, steps[i].key, runs, &st[i][0][k], &st[i][1][k], &st[i][2][k]);
        setd[k] = command(w, ":set description d%d", runs);
        setu[k] = keystroke(w, 'u', UI_CTRL('r'), runs);
        setb[k] = command(w, ":set target_utilization 0.%d1", runs);
        ent[k] = column(w, UI_SCREEN_KEYS, EDIT_ENTITIES, "count") ? save_cell(w, runs) : -1;
        entu[k] = keystroke(w, 'u', UI_CTRL('r'), runs);
        att[k] = column(w, UI_SCREEN_ATTRS, EDIT_ATTRS, "distinct") ? save_cell(w, runs) : -1;
        attu[k] = keystroke(w, 'u', UI_CTRL('r'), runs);
        /* the first attribute's type (customerId: a string made a number and back), then a new
           attribute's row added after it (named by keyplan, read by nothing) */
        aty[k] =
            column(w, UI_SCREEN_ATTRS, EDIT_ATTRS, "type") ? save_texts(w, "number", "string", runs) : -1;
        row_step(w, 'a', runs, &arow[0][k], &arow[1][k], &arow[2][k]);
        /* an entity renamed on the Keys screen (Order, a suffix put on and taken off), the
           patterns naming it following; then its undo */
        ptrdiff_t order = design_entity_pos(session_design(w->ss), "Order");
        ren[k] = renu[k] = -1;
        if (order >= 0 && column(w, UI_SCREEN_KEYS, EDIT_KEYS, "entity")) {
            w->cur[UI_SCREEN_KEYS].row = (size_t)order;
            ren[k] = save_texts(w, "Order_línea", "Order", runs);
            renu[k] = keystroke(w, 'u', UI_CTRL('r'), runs);
            if (strcmp(session_design(w->ss)->entities[order].name, "Order") != 0)
                save_texts(w, "Order", "Order", 1); /* its name put back (not timed): Order is typed below */
        }
        /* a new pattern's row filled in: its name saved (it names no entity yet: the design does
           not validate), then its entity (valid again); the three steps undone, not timed */
        fname[k] = fent[k] = -1;
        w->screen = UI_SCREEN_PATTERNS;
        if (column(w, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "name")) {
            double *tn = xcalloc((size_t)runs, sizeof *tn), *te = xcalloc((size_t)runs, sizeof *te);
            for (int r = 0; r < runs; r++) {
                column(w, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "name");
                w->cur[UI_SCREEN_PATTERNS].row = 40;
                wb_key(w, 'a');
                frame(w);
                tn[r] = save_texts(w, "Pedidos nuevos", "Pedidos nuevos", 1);
                column(w, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "entity");
                te[r] = save_texts(w, "Order", "Order", 1);
                for (int u = 0; u < 3; u++) {
                    wb_key(w, 'u');
                    frame(w);
                }
            }
            fname[k] = median(tn, (size_t)runs);
            fent[k] = median(te, (size_t)runs);
            free(tn);
            free(te);
        }
        /* an entity added on the Keys screen (no templates: the design does not validate), its
           partition key's template saved, both undone */
        eadd[k] = epk[k] = eundo[k] = -1;
        if (column(w, UI_SCREEN_KEYS, EDIT_KEYS, "entity")) {
            double *ta = xcalloc((size_t)runs, sizeof *ta), *tp = xcalloc((size_t)runs, sizeof *tp),
                   *tu = xcalloc((size_t)runs, sizeof *tu);
            const char *pk = session_design(w->ss)->table.pk.s;
            for (int r = 0; r < runs; r++) {
                column(w, UI_SCREEN_KEYS, EDIT_KEYS, "entity");
                w->cur[UI_SCREEN_KEYS].row = 1;
                double t1 = tick();
                wb_key(w, 'a');
                frame(w);
                ta[r] = tick() - t1;
                column(w, UI_SCREEN_KEYS, EDIT_KEYS, pk);
                tp[r] = save_texts(w, "NUEVA#{orderId}", "NUEVA#{orderId}", 1);
                wb_key(w, 'u');
                frame(w);
                t1 = tick();
                wb_key(w, 'u');
                frame(w);
                tu[r] = tick() - t1;
            }
            eadd[k] = median(ta, (size_t)runs);
            epk[k] = median(tp, (size_t)runs);
            eundo[k] = median(tu, (size_t)runs);
            free(ta);
            free(tp);
            free(tu);
        }
        /* renames that reach the whole design: an attribute (customerId), an index (GSI1), a
           pattern's id (the last row's); each name put back afterwards (not timed) */
        arn[k] = rename_cell(w, UI_SCREEN_ATTRS, EDIT_ATTRS, 0, "customerIdé", "customerId", runs);
        irn[k] = rename_cell(w, UI_SCREEN_INDEXES, EDIT_INDEXES, 0, "GSI1é", "GSI1", runs);
        /* an index's partition key: the templates keyed on it follow (set on a copy of the design) */
        ikey[k] = rename_col(w, UI_SCREEN_INDEXES, EDIT_INDEXES, 0, "pk", "GSI1PK_b", "GSI1PK", runs);
        char *id = xasprintf("%zu", sizes[k]), *idb = xasprintf("%zub", sizes[k]);
        prn[k] = rename_cell(w, UI_SCREEN_PATTERNS, EDIT_PATTERNS, sizes[k] - 1, idb, id, runs);
        free(id);
        free(idb);
        /* a pattern's entity made one the design lacks (its valid rest looked for: at 1,000
           patterns each pattern is tried alone, past 2,000 none) and put back, in turn */
        brk[k] = -1;
        if (column(w, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "entity")) {
            const kp_design *now = session_design(w->ss);
            char *e4 = edit_get(now, EDIT_PATTERNS, 4, (size_t)edit_col_find(now, EDIT_PATTERNS, "entity"));
            w->cur[UI_SCREEN_PATTERNS].row = 4;
            brk[k] = save_texts(w, "Nosuch", e4, runs);
            save_texts(w, e4, e4, 1); /* put back (not timed) */
            free(e4);
        }
        /* an index deleted (GSI2, the Indexes screen's second row), its undo and redo */
        w->screen = UI_SCREEN_INDEXES;
        w->cur[UI_SCREEN_INDEXES].row = 1;
        row_step(w, 'x', runs, &idel[0][k], &idel[1][k], &idel[2][k]);
        w->screen = UI_SCREEN_PATTERNS;
        wb_free(w);
    }
    line("first paint (Patterns)", first);
    line("keystroke -> redraw (Patterns)", key);
    printf("%-34s %12.2f %12s\n", "  ratio 10,000 / 1,000 (keystroke)", key[1] / key[0], "");
    printf("%-34s %12.2f %12s\n", "  ratio 10,000 / 1,000 (first)", first[1] / first[0], "");
    line("save a cell -> redraw (Patterns)", save);
    line("undo a cell -> redraw (Patterns)", undo);
    line(":set description -> redraw", setd);
    line("  its undo -> redraw", setu);
    line(":set target_utilization", setb);
    line("an entity's count (Keys) saved", ent);
    line("  its undo -> redraw", entu);
    line("an attribute's distinct saved", att);
    line("  its undo -> redraw", attu);
    line("an attribute's type saved", aty);
    line("add an attribute's row -> redraw", arow[0]);
    line("  its undo -> redraw", arow[1]);
    line("  its redo -> redraw", arow[2]);
    line("an entity renamed (Keys)", ren);
    line("  its undo -> redraw", renu);
    line("a new row's name (not valid yet)", fname);
    line("  then its entity (valid again)", fent);
    line("an entity added (Keys)", eadd);
    line("  its PK template (not valid yet)", epk);
    line("  both undone: the add's undo", eundo);
    line("an attribute renamed", arn);
    line("an index renamed", irn);
    line("an index's partition key renamed", ikey);
    line("a pattern's id renamed", prn);
    line("a row's entity broken / mended", brk);
    line("an index deleted -> redraw", idel[0]);
    line("  its undo -> redraw", idel[1]);
    line("  its redo -> redraw", idel[2]);
    for (int i = 0; i < NSTEPS; i++) {
        char l[64];
        snprintf(l, sizeof l, "%s -> redraw", steps[i].what);
        line(l, st[i][0]);
        line("  its undo -> redraw", st[i][1]);
        line("  its redo -> redraw", st[i][2]);
    }

    /* the Items screen over about 10,000 generated items, pattern 2 selected */
    wb *w = wb_new(session_new_memory(design_clone(base)), NULL);
    wb_resize(w, LINES, COLS);
    screen_items_set(w->state[UI_SCREEN_ITEMS], ITEM_DEFAULT_SEED, 400, 8);
    wb_key(w, 'j');
    double t0 = tick();
    wb_key(w, '8');
    frame(w);
    double gen = tick() - t0;
    screen_env e = wb_env(w, UI_SCREEN_ITEMS);
    size_t nitems = screen_rows(&e);
    wb_key(w, 'G');
    frame(w);
    double ik = keystroke(w, 'k', 'j', runs);
    wb_key(w, 'p'); /* another pattern: its reads over every item */
    t0 = tick();
    wb_key(w, 'P');
    frame(w);
    double ip = tick() - t0;
    double ipm = keystroke(w, 'p', 'P', runs); /* back and forth: p's median */
    printf("\nItems screen, %zu items (table view), %s ms\n", nitems, wall ? "wall" : "CPU");
    printf("%-34s %12.2f\n", "generate, sort, first paint", gen);
    printf("%-34s %12.2f\n", "keystroke -> redraw (median)", ik);
    printf("%-34s %12.2f\n", "select another pattern -> redraw", ip);
    printf("%-34s %12.2f\n", "  and back and forth (median)", ipm);
    wb_free(w);
    design_free(base);
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    free(path);
    return 0;
}
