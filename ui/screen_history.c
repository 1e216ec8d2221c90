/* screen_history.c - History: the workspace's versions, each flagged when its change from its
 * parent is irreversible (a new table and a data migration, diff_irreversible); marking two (or
 * :diff) shows the designer diff of them below the list; below the versions, everybody's working
 * copy and who has uncommitted work. Its state: the marks, the flags and the diff's lines. */
#include "screens.h"

#include "diff.h"
#include "draw.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

typedef struct history_state {
    int mark_a, mark_b; /* marked version numbers, 0 = none */
    char **lines;       /* the diff of the marked versions */
    size_t nlines;
    char **irreversible; /* per version (list order): what it changes irreversibly, NULL when
                            nothing; versions never change, so only new ones are looked at */
    size_t nflags, capflags;
} history_state;

static void *history_open(void) { return xcalloc(1, sizeof(history_state)); }

static void lines_clear(history_state *st)
{
    for (size_t i = 0; i < st->nlines; i++)
        free(st->lines[i]);
    free(st->lines);
    st->lines = NULL;
    st->nlines = 0;
}

static void flags_clear(history_state *st)
{
    for (size_t i = 0; i < st->nflags; i++)
        free(st->irreversible[i]);
    free(st->irreversible);
    st->irreversible = NULL;
    st->nflags = st->capflags = 0;
}

static void history_close(void *state)
{
    if (!state)
        return;
    lines_clear(state);
    flags_clear(state);
    free(state);
}

/* Flags the versions not looked at yet: the irreversible changes from each one's parent. */
static void flags_update(const screen_env *e)
{
    history_state *st = e->state;
    if (st->nflags > e->nversions)
        flags_clear(st);
    for (size_t k = st->nflags; k < e->nversions; k++) {
        const ws_version *v = &e->versions[k];
        char *what = NULL, *err = NULL;
        kp_design *pa = NULL, *pv = NULL;
        /* a version that cannot be read is not flagged: its diff says why when asked */
        if (v->parent > 0 && session_version_design(e->ss, v->parent, &pa, &err) == KP_OK &&
            session_version_design(e->ss, v->number, &pv, &err) == KP_OK &&
            !diff_irreversible(pa, pv, &what)) {
            free(what);
            what = NULL;
        }
        free(err);
        design_free(pa);
        design_free(pv);
        VEC_GROW(st->irreversible, st->nflags, st->capflags);
        st->irreversible[st->nflags++] = what;
    }
}

void screen_history_marks(const void *state, int *a, int *b, size_t *ndiff)
{
    const history_state *st = state;
    *a = st->mark_a;
    *b = st->mark_b;
    *ndiff = st->nlines;
}

static size_t history_rows(const screen_env *e) { return e->nversions; }

static screen_col *history_columns(const screen_env *e, size_t *n)
{
    (void)e;
    *n = 1;
    screen_col *v = xcalloc(1, sizeof *v);
    v[0] = (screen_col){-1, 0, _("version"), 24};
    return v;
}

/* "version 3 (message)", as keyplan diff labels a version. Caller frees. */
static char *version_label(const screen_env *e, int n)
{
    for (size_t i = 0; i < e->nversions; i++)
        if (e->versions[i].number == n) {
            char *m = util_escape_controls(e->versions[i].message ? e->versions[i].message : "");
            /* TRANSLATORS: a version and its commit message, as keyplan diff labels it */
            char *s = xasprintf(_("version %d (%s)"), n, m);
            free(m);
            return s;
        }
    return xasprintf(_("version %d"), n);
}

/* v: the diff whole in the detail view (it scrolls there), else the cursor's version whole. */
static char **history_detail(const screen_env *e, char **title, size_t *n)
{
    const history_state *st = e->state;
    if (st->nlines) {
        char **v = xcalloc(st->nlines, sizeof *v);
        for (size_t i = 0; i < st->nlines; i++)
            v[i] = xstrdup(st->lines[i]);
        *title = xasprintf(_("Diff of version %d and version %d"), st->mark_a, st->mark_b);
        *n = st->nlines;
        return v;
    }
    if (e->cur->row >= e->nversions)
        return NULL;
    const ws_version *ver = &e->versions[e->cur->row];
    const char *irr = e->cur->row < st->nflags ? st->irreversible[e->cur->row] : NULL;
    char **v = xcalloc(4, sizeof *v);
    size_t k = 0;
    /* TRANSLATORS: "committed 2026-01-31 10:00 by ana" */
    v[k++] = xasprintf(_("committed %s by %s"), ver->time ? ver->time : "?", ver->author ? ver->author : "?");
    v[k++] = xasprintf(_("message: %s"), ver->message ? ver->message : "");
    if (ver->parent)
        v[k++] = xasprintf(_("parent: version %d"), ver->parent);
    if (irr)
        v[k++] = xasprintf(_("IRREVERSIBLE: %s"), irr);
    *title = xasprintf(_("Version %d"), ver->number);
    *n = k;
    return v;
}

void screen_history_diff(const screen_env *e, int a, int b)
{
    history_state *st = e->state;
    lines_clear(st);
    kp_design *da = NULL, *db = NULL;
    char *err = NULL;
    if (session_version_design(e->ss, a, &da, &err) != KP_OK ||
        session_version_design(e->ss, b, &db, &err) != KP_OK) {
        msgline_set(e->msg, UI_ROLE_BAD, _("diff: %s"), err ? err : _("no such version"));
        free(err);
        design_free(da);
        return;
    }
    kp_analysis *aa = e->analyze(da);
    kp_analysis *ab = e->analyze(db);
    /* every section keyplan diff prints: the signals too, over the workspace's observations */
    sig_report sa, sb;
    sig_evaluate(da, aa, e->obs, e->nobs, &sa);
    sig_evaluate(db, ab, e->obs, e->nobs, &sb);
    kp_diff df;
    diff_compute(da, aa, &sa, db, ab, &sb, &df);
    sig_report_free(&sa);
    sig_report_free(&sb);
    char *from = version_label(e, a), *to = version_label(e, b);
    char *text = diff_render(&df, from, to);
    free(from);
    free(to);
    diff_free(&df);
    size_t cap = 0;
    for (char *p = text, *eol; p && *p; p = eol ? eol + 1 : NULL) {
        eol = strchr(p, '\n');
        VEC_GROW(st->lines, st->nlines, cap);
        st->lines[st->nlines++] = eol ? xstrndup(p, (size_t)(eol - p)) : xstrdup(p);
        if (!eol)
            break;
    }
    free(text);
    e->analysis_free(aa);
    e->analysis_free(ab);
    design_free(da);
    design_free(db);
    st->mark_a = a;
    st->mark_b = b;
    msgline_set(e->msg, UI_ROLE_GOOD, _("diff of version %d and version %d (v shows it whole)"), a, b);
}

static int history_handle(const screen_env *e, ui_action a)
{
    history_state *st = e->state;
    if (a != UI_ACT_MARK)
        return UI_IGNORED;
    if (!e->nversions) {
        msgline_set(e->msg, UI_ROLE_WARN, _("no versions yet: c commits the working copy"));
        return UI_REDRAW;
    }
    int v = e->versions[e->cur->row].number;
    if (st->mark_a == 0 || st->mark_b != 0) {
        st->mark_a = v;
        st->mark_b = 0;
        msgline_set(e->msg, UI_ROLE_NORMAL, _("marked version %d; mark another to see the diff"), v);
    } else {
        screen_history_diff(e, st->mark_a, v);
    }
    return UI_REDRAW;
}

/* Below the versions, one line per author's working copy (at most a third of r): its base and
 * whether it holds uncommitted work. Returns the lines it took from the bottom of r. */
static int copies_draw(const screen_env *e, ui_rect r)
{
    ws_copy *cp = NULL;
    size_t n = 0;
    int room = r.h / 3 - 1;
    if (room < 1 || ws_copies(session_ws(e->ss), &cp, &n, NULL) != KP_OK || !n) {
        ws_copies_free(cp, n);
        return 0;
    }
    int shown = (int)n < room ? (int)n : room;
    int y = r.y + r.h - shown - 1;
    draw_put(y, r.x, r.w, _("working copies"), UI_ROLE_HEADER);
    for (int i = 0; i < shown; i++) {
        bool mine = strcmp(cp[i].author, session_author(e->ss)) == 0;
        const char *who = *cp[i].author ? cp[i].author : _("(from before authors)");
        /* TRANSLATORS: a working copy: its author, then the version it is based on */
        const char *fmt = mine          ? cp[i].dirty ? _(" %s (you) on v%d + uncommitted work")
                                                      : _(" %s (you) on v%d, nothing uncommitted")
                                   : cp[i].dirty ? _(" %s on v%d + uncommitted work")
                                        : _(" %s on v%d, nothing uncommitted");
        draw_putf(y + 1 + i, r.x, r.w, cp[i].dirty && !mine ? UI_ROLE_WARN : UI_ROLE_NORMAL, fmt, who,
                  cp[i].base);
    }
    ws_copies_free(cp, n);
    return shown + 1;
}

static void history_draw(const screen_env *e, ui_rect r, int *cy, int *cx)
{
    (void)cy, (void)cx;
    const history_state *st = e->state;
    ui_cursor *c = e->cur;
    if (session_ws(e->ss)) /* the last lines tell about the working copies */
        r.h -= copies_draw(e, r);
    int listh = st->nlines ? (r.h - 1) / 2 : r.h - 1;
    if (listh < 2)
        listh = r.h - 1;
    sbuf h; /* the header, padded by display cells */
    sbuf_init(&h);
    sbuf_add(&h, "");
    /* TRANSLATORS: History's column headers: version (4 columns), time (20), author (12), message */
    draw_pad(&h, _("ver"), 4);
    sbuf_add(&h, " ");
    draw_pad(&h, _("time"), 20);
    sbuf_add(&h, " ");
    draw_pad(&h, _("author"), 12);
    sbuf_printf(&h, " %s", _("message"));
    draw_put(r.y, r.x, r.w, h.s, UI_ROLE_HEADER);
    sbuf_free(&h);
    if (!e->nversions)
        draw_put(r.y + 1, r.x, r.w, _("no versions yet: c commits the working copy with a message"),
                 UI_ROLE_DIM);
    if (c->row < c->top)
        c->top = c->row;
    if (c->row >= c->top + (size_t)listh)
        c->top = c->row - (size_t)listh + 1;
    flags_update(e);
    for (int i = 0; i < listh && c->top + (size_t)i < e->nversions; i++) {
        size_t k = c->top + (size_t)i;
        const ws_version *v = &e->versions[k];
        bool marked = v->number == st->mark_a || v->number == st->mark_b;
        const char *irr = k < st->nflags ? st->irreversible[k] : NULL;
        ui_role role = k == c->row ? UI_ROLE_CURSOR_ROW
                       : marked    ? UI_ROLE_CHANGED
                       : irr       ? UI_ROLE_BAD
                                   : UI_ROLE_NORMAL;
        sbuf l;
        sbuf_init(&l);
        sbuf_printf(&l, "%c%-3d ", marked ? '*' : irr ? '!' : ' ', v->number);
        draw_pad(&l, v->time, 20);
        sbuf_add(&l, " ");
        draw_pad(&l, v->author, 12);
        sbuf_printf(&l, " %s", v->message ? v->message : "");
        if (irr)
            sbuf_printf(&l, _("  IRREVERSIBLE: %s"), irr);
        if (v->number == session_base(e->ss))
            sbuf_add(&l, session_dirty(e->ss) ? _("  <- base (modified)") : _("  <- current"));
        draw_put(r.y + 1 + i, r.x, r.w, l.s, role);
        sbuf_free(&l);
    }
    int y = r.y + 1 + listh;
    for (size_t i = 0; i < st->nlines && y < r.y + r.h; i++, y++) {
        const char *l = st->lines[i];
        ui_role role = (l[0] != ' ' && l[0] != '-' && l[0] != '+' && l[0] != '~')        ? UI_ROLE_TITLE
                       : !strncmp(l, "  ! ", 4) || !strncmp(l, "  IRREVERSIBLE", 14)     ? UI_ROLE_BAD
                       : !strncmp(l, "  $ ", 4) || strstr(l, "scan") || strstr(l, "HOT") ? UI_ROLE_WARN
                                                                                         : UI_ROLE_NORMAL;
        draw_put(y, r.x, r.w, l, role);
    }
}

const screen_ops screen_history = {
    .name = N_("History"),
    .table = EDIT_PATTERNS,
    .is_table = false,
    .open = history_open,
    .close = history_close,
    .columns = history_columns,
    .rows = history_rows,
    .draw = history_draw,
    .handle = history_handle,
    .detail = history_detail,
};
