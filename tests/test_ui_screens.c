/* test_ui_screens.c - the workbench drawn headlessly: newterm on /dev/null with a fixed size,
 * TERM=xterm-256color, LANG=C.UTF-8, TZ=UTC; keys fed to wb_key; the screen read back with
 * mvinnwstr and compared with golden text under tests/golden/ (KP_UPDATE_GOLDEN=1 rewrites
 * them). The model pane of the golden screens shows a fixed analysis injected by the test, so
 * the goldens test the workbench, not the resolver; the live recompute is tested separately
 * with the real analysis. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis_json.h"
#include "design_io.h"
#include "edit.h"
#include "fields.h"
#include "support.h"
#include "actions.h"
#include "display.h"
#include "draw.h"
#include "layout.h"
#include "help.h"
#include "i18n.h"
#include "lineedit.h"
#include "pane.h"
#include "tour.h"
#include "screens.h"
#include "status.h"
#include "wb_int.h"

#include <curses.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* ---- fixture ---------------------------------------------------------------------------------- */

static void set(kp_design *d, edit_table t, size_t row, const char *col, const char *text)
{
    char *err = NULL;
    int c = edit_col_find(d, t, col);
    assert_true(c >= 0);
    if (edit_set(d, t, row, (size_t)c, text, &err) != KP_OK)
        fail_msg("fixture: %s.%s = '%s': %s", edit_table_name(t), col, text, err);
}

/* Three entities, two of them with Spanish names; four patterns. */
static kp_design *fixture(void)
{
    kp_design *d = design_new();
    d->name = xstrdup("Tienda");
    d->table.name = xstrdup("Tienda");
    d->table.pk.s = xstrdup("PK");
    d->table.sk.s = xstrdup("SK");
    edit_add(d, EDIT_INDEXES, 0);
    set(d, EDIT_INDEXES, 0, "name", "GSI1");
    set(d, EDIT_INDEXES, 0, "pk", "GSI1PK");
    set(d, EDIT_INDEXES, 0, "sk", "GSI1SK");
    const char *ents[][5] = {
        {"Cliente", "CLIENTE#{customerId}", "PERFIL", "", "customerId, nombre"},
        {"Pedido", "CLIENTE#{customerId}", "PEDIDO#{orderDate}#{orderId}", "PEDIDO#{orderId}",
         "orderId, customerId, orderDate"},
        {"Línea", "PEDIDO#{orderId}", "LÍNEA#{lineNo:03}", "", "orderId, lineNo, dirección"},
    };
    for (size_t i = 0; i < 3; i++) {
        edit_add(d, EDIT_ENTITIES, i);
        set(d, EDIT_ENTITIES, i, "name", ents[i][0]);
        set(d, EDIT_KEYS, i, "PK", ents[i][1]);
        set(d, EDIT_KEYS, i, "SK", ents[i][2]);
        set(d, EDIT_KEYS, i, "GSI1PK", ents[i][3]);
        set(d, EDIT_ENTITIES, i, "attributes", ents[i][4]);
        set(d, EDIT_ENTITIES, i, "count", i == 0 ? "41200" : i == 1 ? "30000000" : "90000000");
        set(d, EDIT_ENTITIES, i, "size", i == 0 ? "1500" : i == 1 ? "1200" : "300");
    }
    const char *pats[][6] = {
        {"Perfil del cliente", "Cliente", "customerId", "200", "20", ""},
        {"Pedidos de un cliente", "Pedido", "customerId", "400", "30", "orderDate desc"},
        {"Líneas de un pedido", "Línea", "orderId", "150", "30", ""},
        {"Pedido por id", "Pedido", "orderId", "80", "20", ""},
    };
    for (size_t i = 0; i < 4; i++) {
        edit_add(d, EDIT_PATTERNS, i);
        set(d, EDIT_PATTERNS, i, "name", pats[i][0]);
        set(d, EDIT_PATTERNS, i, "entity", pats[i][1]);
        set(d, EDIT_PATTERNS, i, "by", pats[i][2]);
        set(d, EDIT_PATTERNS, i, "rate", pats[i][3]);
        set(d, EDIT_PATTERNS, i, "latency", pats[i][4]);
        set(d, EDIT_PATTERNS, i, "order", pats[i][5]);
    }
    return d;
}

/* A fixed analysis: every pattern a query on the table except the last (a GSI query); units
 * from the rate. Deterministic, so the golden screens do not follow the resolver's changes. */
static kp_analysis *fake_analysis(const kp_design *d)
{
    kp_analysis *a = xcalloc(1, sizeof *a);
    a->design = d;
    a->npatterns = d->npatterns;
    a->patterns = xcalloc(d->npatterns ? d->npatterns : 1, sizeof *a->patterns);
    for (size_t i = 0; i < d->npatterns; i++) {
        kp_pattern_result *r = &a->patterns[i];
        const kp_pattern *p = &d->patterns[i];
        r->pattern = p;
        bool gsi = i == 3;
        r->plan = p->nby == 0 ? KP_PLAN_SCAN : i == 0 ? KP_PLAN_GET : KP_PLAN_QUERY;
        r->requests = 1;
        r->index = gsi ? 0 : -1;
        r->index_name = gsi ? "GSI1" : "table";
        r->key_condition = xstrdup(r->plan == KP_PLAN_GET ? "PK = :pk AND SK = :sk" : "PK = :pk");
        r->rcu_per_call = 0.5 * (double)(i + 1);
        r->rcu_per_s = isnan(p->rate) ? 0 : p->rate * r->rcu_per_call;
        r->latency_ms = 5 + 3 * (double)i;
        r->latency_ok = true;
        if (i == 0) { /* the pane's why-not line of the selected pattern */
            r->nwhy_not = 1;
            r->why_not = xcalloc(1, sizeof *r->why_not);
            r->why_not[0].rule = "index-fetch";
            r->why_not[0].text = xstrdup("GSI1 does not project `total`, which the pattern returns");
        }
    }
    a->on_demand.mode = KP_BILLING_ON_DEMAND;
    a->on_demand.currency = "USD";
    a->on_demand.total = 1234.5;
    a->provisioned = a->on_demand;
    a->provisioned.mode = KP_BILLING_PROVISIONED;
    a->provisioned.total = 456.78;
    a->cost = &a->on_demand;
    a->checklist_pass = 7;
    a->checklist_applicable = 10;
    return a;
}

static void fake_free(kp_analysis *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->npatterns; i++) {
        free(a->patterns[i].key_condition);
        for (size_t k = 0; k < a->patterns[i].nwhy_not; k++)
            free(a->patterns[i].why_not[k].text);
        free(a->patterns[i].why_not);
    }
    free(a->patterns);
    analysis_forget_ids(a); /* what the pane's look-ups by id made */
    free(a);
}

/* ---- terminal ---------------------------------------------------------------------------------- */

typedef struct term {
    SCREEN *scr;
    FILE *out, *in;
} term;

static void term_open(term *t, int lines, int cols)
{
    setenv("TERM", "xterm-256color", 1);
    setenv("TZ", "UTC", 1);
    setenv("NO_COLOR", "1", 1);
    assert_non_null(setlocale(LC_ALL, "C.UTF-8"));
    t->out = fopen("/dev/null", "w");
    t->in = fopen("/dev/null", "r");
    assert_non_null(t->out);
    t->scr = newterm("xterm-256color", t->out, t->in);
    assert_non_null(t->scr);
    set_term(t->scr);
    resizeterm(lines, cols);
    theme_init();
}

static void term_close(term *t)
{
    endwin();
    delscreen(t->scr);
    fclose(t->out);
    fclose(t->in);
}

/* The screen as text, one line per row, trailing blanks removed. Caller frees. */
static char *screen_text(void)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    wchar_t *line = xcalloc((size_t)COLS + 1, sizeof *line);
    char *mb = xmalloc((size_t)COLS * 4 + 1);
    for (int y = 0; y < LINES; y++) {
        memset(line, 0, ((size_t)COLS + 1) * sizeof *line);
        mvinnwstr(y, 0, line, COLS);
        size_t n = wcstombs(mb, line, (size_t)COLS * 4);
        if (n == (size_t)-1)
            n = 0;
        mb[n] = '\0';
        while (n && mb[n - 1] == ' ')
            mb[--n] = '\0';
        sbuf_printf(&b, "%s\n", mb);
    }
    free(line);
    free(mb);
    return sbuf_steal(&b);
}

static void golden(const char *name, const char *actual)
{
    char *rel = xasprintf("tests/golden/%s.txt", name);
    char *path = ts_source_path(rel);
    free(rel);
    const char *upd = getenv("KP_UPDATE_GOLDEN");
    if (upd && *upd) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(actual, f);
        fclose(f);
    }
    char *want = ts_read_file(path, NULL);
    if (!want)
        fail_msg("golden file %s is missing (KP_UPDATE_GOLDEN=1 writes it)", path);
    if (strcmp(want, actual) != 0) {
        fprintf(stdout, "---- expected (%s)\n%s---- actual\n%s----\n", path, want, actual);
        fail_msg("screen differs from %s", path);
    }
    free(want);
    free(path);
}

static wb *make_wb(kp_design *d)
{
    wb_options o;
    memset(&o, 0, sizeof o);
    o.analyze = fake_analysis;
    o.analysis_free = fake_free;
    o.no_validate = true;
    wb *w = wb_new(session_new_memory(d), &o);
    wb_resize(w, LINES, COLS);
    return w;
}

static void keys(wb *w, const char *s)
{
    /* UTF-8 text typed key by key */
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t len = strlen(s);
    while (len) {
        wchar_t wc;
        size_t n = mbrtowc(&wc, s, len, &st);
        assert_true(n != (size_t)-1 && n != (size_t)-2 && n != 0);
        wb_key(w, (int)wc);
        s += n;
        len -= n;
    }
}

static char *draw_text(wb *w)
{
    erase();
    wb_draw(w);
    return screen_text();
}

/* ---- golden screens ---------------------------------------------------------------------------- */

/* Text from outside (an older version's message, an author) with terminal controls is shown as
 * escapes, never sent: ESC, BEL, C1 and newlines become visible text in one cell. */
static void test_controls_shown_not_sent(void **state)
{
    (void)state;
    term t;
    term_open(&t, 5, 40);
    erase();
    draw_put(0, 0, 40,
             "evil \x1b"
             "]0;pwned\x07 \xc2\x9b"
             "2J\nnext",
             UI_ROLE_NORMAL);
    char *text = screen_text();
    assert_non_null(strstr(text, "evil \\e]0;pwned\\x07 \\u009b2J\\nnext"));
    assert_null(strstr(text, "\x1b"));
    free(text);
    term_close(&t);
}

static void test_golden_patterns_80x24(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb *w = make_wb(fixture());
    wb_key(w, 'j');
    char *s = draw_text(w);
    golden("patterns_80x24", s);
    free(s);
    wb_free(w);
    term_close(&t);
}

static void test_golden_patterns_120x40(void **state)
{
    (void)state;
    term t;
    term_open(&t, 40, 120);
    wb *w = make_wb(fixture());
    char *s = draw_text(w);
    golden("patterns_120x40", s);
    free(s);
    wb_free(w);
    term_close(&t);
}

static void test_golden_keys_spanish(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 100);
    wb *w = make_wb(fixture());
    wb_key(w, '2');
    wb_key(w, 'G');
    char *s = draw_text(w);
    golden("keys_100x24", s);
    /* Spanish names line up: the PK column starts at the same column in every row */
    int col_first = -1;
    for (int y = 2; y <= 4; y++) {
        wchar_t line[256];
        mvinnwstr(y, 0, line, 100);
        const wchar_t *p = wcsstr(line, L"#{");
        assert_non_null(p);
        /* the column of the first '#': the PK template follows the entity name column */
        const wchar_t *q = line;
        while (*q == L' ')
            q++;
        int x = 0;
        for (const wchar_t *c = line; c < q; c++)
            x++;
        const wchar_t *sp = wcschr(q, L' ');
        while (sp && *sp == L' ')
            sp++;
        int pk = (int)(sp - line);
        if (col_first < 0)
            col_first = pk;
        assert_int_equal(pk, col_first);
    }
    free(s);
    wb_free(w);
    term_close(&t);
}

static void test_golden_help(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb *w = make_wb(fixture());
    wb_key(w, '?');
    char *s = draw_text(w);
    golden("help_80x24", s);
    free(s);
    wb_key(w, 'x'); /* any other key closes */
    assert_false(w->help);
    wb_free(w);
    term_close(&t);
}

static void test_golden_too_small(void **state)
{
    (void)state;
    term t;
    term_open(&t, 4, 12);
    wb *w = make_wb(fixture());
    char *s = draw_text(w);
    golden("too_small_12x4", s);
    free(s);
    /* keys other than q do nothing while too small */
    assert_int_equal(wb_key(w, 'a'), UI_IGNORED);
    assert_int_equal(session_design(w->ss)->npatterns, 4);
    wb_free(w);
    term_close(&t);
}

static void test_golden_editing(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb *w = make_wb(fixture());
    wb_key(w, 'l'); /* plan: computed */
    wb_key(w, 'l'); /* name */
    wb_key(w, UI_KEY_ENTER);
    assert_true(w->editing);
    wb_key(w, UI_CTRL('w'));
    keys(w, "dirección");
    char *s = draw_text(w);
    golden("editing_80x24", s);
    free(s);
    wb_free(w);
    term_close(&t);
}

/* v opens the row under the cursor whole in the detail view, long text wrapped, not cut; it
 * scrolls; Esc closes it and the screen is back. */
static void test_golden_detail(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    kp_design *d = fixture();
    set(d, EDIT_PATTERNS, 1, "name",
        "Pedidos de un cliente, los más recientes primero, con su dirección de envío y el estado de "
        "cada línea, para la pantalla de seguimiento que abre el cliente desde la aplicación");
    wb *w = make_wb(d);
    wb_key(w, 'j');
    wb_key(w, 'v');
    assert_true(detail_is_open(&w->detail));
    char *s = draw_text(w);
    golden("detail_80x24", s);
    /* the whole name is there, over two lines */
    assert_non_null(strstr(s, "name: Pedidos de un cliente, los más recientes primero, con su"));
    assert_non_null(strstr(s, "desde la aplicación"));
    free(s);
    assert_int_equal(wb_key(w, 'z'), UI_IGNORED); /* other keys leave it open */
    assert_true(detail_is_open(&w->detail));
    wb_key(w, UI_KEY_ESC);
    assert_false(detail_is_open(&w->detail));
    s = draw_text(w);
    assert_non_null(strstr(s, "Perfil del cliente"));
    free(s);
    wb_free(w);
    term_close(&t);
}

/* A detail view longer than the screen scrolls, and its bar says which lines are shown. */
static void test_detail_scrolls(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    detail_view dv = {0};
    const char *lines[60];
    char *own[60];
    for (int i = 0; i < 60; i++)
        lines[i] = own[i] = xasprintf("line %d", i + 1);
    detail_show(&dv, "Long", lines, 60);
    for (int i = 0; i < 60; i++)
        free(own[i]);
    erase();
    detail_draw(&dv, (ui_rect){0, 0, 21, 80});
    char *s = screen_text();
    assert_non_null(strstr(s, "Long  (lines 1-20 of 60"));
    assert_non_null(strstr(s, " line 20\n"));
    assert_null(strstr(s, "line 21"));
    free(s);
    assert_true(detail_key(&dv, UI_FKEY(KEY_NPAGE), 20));
    assert_true(detail_key(&dv, 'j', 20));
    erase();
    detail_draw(&dv, (ui_rect){0, 0, 21, 80});
    s = screen_text();
    assert_non_null(strstr(s, "(lines 22-41 of 60"));
    free(s);
    assert_true(detail_key(&dv, 'G', 20));
    erase();
    detail_draw(&dv, (ui_rect){0, 0, 21, 80});
    s = screen_text();
    assert_non_null(strstr(s, "(lines 41-60 of 60"));
    assert_non_null(strstr(s, " line 60\n"));
    free(s);
    assert_true(detail_key(&dv, 'q', 20));
    assert_false(detail_is_open(&dv));
    detail_close(&dv);
    term_close(&t);
}

/* :messages (and M) lists every message shown, oldest first, even the ones replaced since. */
static void test_messages_listed(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb *w = make_wb(fixture());
    wb_key(w, '%'); /* "% is not bound" */
    wb_message(w, UI_ROLE_BAD,
               "a long message that the message line would cut off at the edge of an "
               "eighty column terminal, but the list shows whole");
    wb_message(w, UI_ROLE_GOOD, "the last one");
    wb_command(w, "messages");
    assert_true(detail_is_open(&w->detail));
    char *s = draw_text(w);
    assert_non_null(strstr(s, "% is not bound"));
    assert_non_null(strstr(s, "shows whole"));
    assert_non_null(strstr(s, "the last one"));
    assert_true(strstr(s, "% is not bound") < strstr(s, "the last one"));
    free(s);
    wb_key(w, UI_KEY_ESC);
    wb_key(w, 'M');
    assert_true(detail_is_open(&w->detail));
    wb_free(w);
    term_close(&t);
}

/* The model pane widens (=), narrows (-) and hides (z), beside the editor and below it. */
static void test_pane_resize(void **state)
{
    (void)state;
    term t;
    term_open(&t, 40, 140);
    wb *w = make_wb(fixture());
    int pw = w->lay.pane.w;
    wb_key(w, '=');
    assert_true(w->lay.pane.w > pw);
    wb_key(w, '-');
    wb_key(w, '-');
    assert_true(w->lay.pane.w < pw);
    assert_int_equal(w->lay.editor.w + w->lay.pane.w, 140);
    wb_key(w, 'z');
    assert_int_equal(w->lay.pane.w, 0);
    assert_int_equal(w->lay.editor.w, 140);
    char *s = draw_text(w);
    assert_null(strstr(s, "Live model"));
    free(s);
    wb_key(w, 'z');
    s = draw_text(w);
    assert_non_null(strstr(s, "Live model"));
    free(s);
    for (int i = 0; i < 20; i++) /* clamped: the editor keeps its columns */
        wb_key(w, '=');
    assert_true(w->lay.editor.w >= 10);
    wb_resize(w, 24, 80); /* below: the pane's height follows */
    int ph = w->lay.pane.h;
    wb_key(w, '-');
    assert_true(w->lay.pane.h < ph);
    wb_free(w);
    term_close(&t);
}

/* The bytes a frame sends to an xterm-256color terminal (colour wanted unless `no_color`): the
 * Patterns screen with the pane, an error message, a hot cell and a reopen alarm. Caller frees. */
static char *colour_capture(bool no_color, bool *colour)
{
    setenv("TERM", "xterm-256color", 1);
    if (no_color)
        setenv("NO_COLOR", "1", 1);
    else
        unsetenv("NO_COLOR");
    assert_non_null(setlocale(LC_ALL, "C.UTF-8"));
    FILE *out = tmpfile(), *in = fopen("/dev/null", "r");
    assert_non_null(out);
    assert_non_null(in);
    SCREEN *scr = newterm("xterm-256color", out, in);
    assert_non_null(scr);
    set_term(scr);
    resizeterm(24, 80);
    *colour = theme_init();
    wb *w = make_wb(fixture());
    wb_message(w, UI_ROLE_BAD, "an error");
    erase();
    wb_draw(w);
    draw_put(5, 0, 10, "hot", UI_ROLE_BAD);
    draw_put(6, 0, 10, "reopen", UI_ROLE_ALARM);
    refresh();
    wb_free(w);
    endwin();
    delscreen(scr);
    fflush(out);
    long n = ftell(out);
    assert_true(n > 0);
    char *buf = xcalloc((size_t)n + 1, 1);
    rewind(out);
    assert_int_equal(fread(buf, 1, (size_t)n, out), (size_t)n);
    fclose(out);
    fclose(in);
    setenv("NO_COLOR", "1", 1);
    return buf;
}

/* Colour used to never turn on (COLOR_PAIRS was read before start_color, when it is 0): on a
 * colour terminal the frame now carries red for errors and hot partitions and white on red for
 * a reopen alarm; with NO_COLOR it carries no colour at all, only attributes. */
static void test_colour_capture(void **state)
{
    (void)state;
    bool colour;
    char *bytes = colour_capture(false, &colour);
    assert_true(colour);
    assert_non_null(strstr(bytes, "\x1b[31m")); /* red foreground: errors, hot */
    assert_non_null(strstr(bytes, "\x1b[41m")); /* red background: reopen */
    assert_non_null(strstr(bytes, "\x1b[46m")); /* cyan background: the active tab */
    free(bytes);
    bytes = colour_capture(true, &colour);
    assert_false(colour);
    for (const char *p = bytes; (p = strstr(p, "\x1b[")) != NULL; p++) {
        /* no SGR (ESC [ ... m) with a colour parameter (30-49: 38;5;N and 48;5;N too) */
        const char *q = p + 2;
        size_t np = strspn(q, "0123456789;");
        if (q[np] != 'm')
            continue;
        for (const char *k = q; k < q + np; k += strspn(k, "0123456789"), k += *k == ';') {
            int v = atoi(k);
            if (v >= 30 && v <= 49)
                fail_msg("a colour sequence with NO_COLOR: %.12s", p + 1);
        }
    }
    assert_non_null(strstr(bytes, "an error"));
    free(bytes);
}

/* The column widths are kept between frames and computed again when the design or a draft
 * changes: a longer name widens its column, a draft's text its column, undo narrows it back. */
static void test_widths_follow_changes(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 100);
    wb *w = make_wb(fixture());
    char *s = draw_text(w);
    const char *h = strstr(s, "\nid ");
    assert_non_null(h);
    int kind0 = (int)(strstr(h, "kind") - h);
    free(s);
    keys(w, "ll");
    wb_key(w, UI_KEY_ENTER);
    wb_key(w, UI_CTRL('u'));
    keys(w, "Perfil completo del cliente");
    wb_key(w, UI_KEY_ENTER);
    s = draw_text(w);
    h = strstr(s, "\nid ");
    int kind1 = (int)(strstr(h, "kind") - h);
    assert_int_equal(kind1, kind0 + (int)strlen("Perfil completo del cliente") -
                                (int)strlen("Pedidos de un cliente"));
    free(s);
    wb_key(w, 'u');
    s = draw_text(w);
    h = strstr(s, "\nid ");
    assert_int_equal((int)(strstr(h, "kind") - h), kind0);
    free(s);
    /* a draft that did not parse: "!" and its text widen the rate column */
    int rate_col = -1;
    size_t nc = 0;
    screen_env e = wb_env(w, UI_SCREEN_PATTERNS);
    screen_col *c = screen_columns(&e, &nc);
    for (size_t i = 0; i < nc; i++)
        if (strcmp(c[i].title, "rate") == 0)
            rate_col = (int)i;
    free(c);
    assert_true(rate_col > 0);
    w->cur[UI_SCREEN_PATTERNS].col = (size_t)rate_col;
    wb_key(w, UI_KEY_ENTER);
    wb_key(w, UI_CTRL('u'));
    keys(w, "doscientos por segundo");
    wb_key(w, UI_KEY_ENTER);
    s = draw_text(w);
    assert_non_null(strstr(s, "!doscientos por segundo"));
    free(s);
    wb_free(w);
    term_close(&t);
}

/* A workbench on design d (taken) with the real analysis and validation. */
static wb *real_wb(kp_design *d)
{
    assert_non_null(d);
    wb *w = wb_new(session_new_memory(d), NULL);
    wb_resize(w, LINES, COLS);
    return w;
}

/* CloudShop with the real analysis (the Items screen shows what the plan's requests read). */
static wb *cloudshop_wb(void) { return real_wb(ts_load_file("samples/cloudshop/design.yaml")); }

/* The fixture with a decision about pattern 1 that a rate over 1,000 reopens, analysed for real. */
static wb *signal_wb(void)
{
    kp_design *d = fixture();
    size_t at = edit_decision_from_pattern(d, 0);
    set(d, EDIT_DECISIONS, at, "signals", "pattern.1.rate > 1000");
    return real_wb(d);
}

/* The Items screen on CloudShop, pattern 2 selected: the table's rows grouped by partition in
 * DynamoDB's order, the customer's orders marked, the key condition with its values bound; then
 * GSI1's rows (sparse: only the orders paid or pending shipment; projected attributes only),
 * which pattern 2 does not read; then an item opened whole. The pane is hidden (z): these
 * goldens show the screen. */
static void test_golden_items_cloudshop(void **state)
{
    (void)state;
    term t;
    term_open(&t, 30, 100);
    wb *w = cloudshop_wb();
    wb_key(w, 'j'); /* pattern 2 */
    wb_key(w, '8');
    wb_key(w, 'z');
    char *s = draw_text(w);
    golden("items_table_100x30", s);
    assert_non_null(strstr(s, "PK = CLIENTE#customer-001 AND begins_with(SK, PEDIDO#)"));
    assert_non_null(strstr(s, "pattern 2 Orders of a customer, newest first, paginated: Query table\n"));
    assert_non_null(strstr(s, "ScanIndexForward false  Limit 20"));
    assert_non_null(strstr(s, "> returns 4 items"));
    free(s);
    wb_key(w, 'i');
    s = draw_text(w);
    golden("items_gsi1_100x30", s);
    assert_non_null(strstr(s, "it reads table, not GSI1"));
    assert_null(strstr(s, "DIRECCION#")); /* addresses have no GSI1 key */
    free(s);
    wb_key(w, 'i');
    wb_key(w, 'i'); /* back to the table, on the first order */
    keys(w, "jj");
    wb_key(w, 'v');
    s = draw_text(w);
    golden("items_detail_100x30", s);
    assert_non_null(strstr(s, "returned by the selected pattern"));
    free(s);
    wb_free(w);
    term_close(&t);
}

/* ---- Spanish ------------------------------------------------------------------------------------ */

/* The workbench in Spanish: the catalog compiled in the build tree (po/es.po with the parts not
 * yet joined into it), CloudShop analysed for real. */
static void spanish(void)
{
    setenv("KEYPLAN_LOCALEDIR", KP_BUILD_DIR "/locale", 1);
    const char *err = NULL;
    assert_true(i18n_init("es", &err));
    assert_string_equal(i18n_lang(), "es");
}

/* CloudShop, analysed for real, in the Spanish workbench on a terminal of lines x cols. */
static wb *spanish_cloudshop(term *t, int lines, int cols)
{
    spanish();
    term_open(t, lines, cols);
    return cloudshop_wb();
}

static int back_to_english(void **state)
{
    (void)state;
    i18n_init("en", NULL);
    return 0;
}

/* The display column where `word` starts on the screen's line y, or -1. */
static int cell_of(int y, const wchar_t *word)
{
    wchar_t line[256];
    memset(line, 0, sizeof line);
    mvinnwstr(y, 0, line, COLS < 255 ? COLS : 255);
    const wchar_t *p = wcsstr(line, word);
    return p ? wcswidth(line, (size_t)(p - line)) : -1;
}

/* The screen line that holds `word`, from line `from` on, or -1. */
static int line_of(const wchar_t *word, int from)
{
    for (int y = from; y < LINES; y++)
        if (cell_of(y, word) >= 0)
            return y;
    return -1;
}

/* Patterns and the model pane in Spanish at 80x24 (the pane below) and 140x45 (beside): the
 * headers translated and padded by display cells, so that "índice" starts where the index names
 * do; the figures in the reader's locale. */
static void test_golden_spanish_patterns(void **state)
{
    (void)state;
    static const struct {
        int lines, cols;
        const char *golden;
    } sizes[] = {{24, 80, "patterns_es_80x24"}, {45, 140, "patterns_es_140x45"}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        term t;
        wb *w = spanish_cloudshop(&t, sizes[i].lines, sizes[i].cols);
        char *s = draw_text(w);
        golden(sizes[i].golden, s);
        assert_non_null(strstr(s, "Modelo en vivo  598,70 €/mes"));
        assert_non_null(strstr(s, " | comprobación 11/11 | 598,70 €/mes aprovisionada | 13 patrones"));
        assert_null(strstr(s, "Live model"));
        /* the pane's header over its rows, by cells: índice over tabla, latencia/meta over "4 ms" */
        int head = line_of(L"latencia/meta", 1);
        assert_true(head > 0);
        int row = line_of(L"tabla", head + 1); /* pattern 1's row of the pane */
        assert_true(row > head);
        assert_int_equal(cell_of(head, L"índice"), cell_of(row, L"tabla"));
        assert_int_equal(cell_of(head, L"latencia/meta"), cell_of(row, L"4 ms / 20 ms"));
        /* RCU/llam right-aligned over its figures: both end in the same column */
        assert_int_equal(cell_of(head, L"RCU/llam") + 8, cell_of(row, L"0,5") + 3);
        /* beside, the pane has room for the model's findings: written by the analysis in
         * Spanish too, not only the screen's own words */
        if (sizes[i].cols >= 140) {
            assert_non_null(
                strstr(s, "low-cardinality-pk índice GSI1: la clave de partición ESTADO#{status}"));
            assert_null(strstr(s, "partition key"));
        }
        free(s);
        wb_free(w);
        term_close(&t);
    }
}

/* Cost & heat in Spanish at 80x24: the cost lines' column as wide as its widest translation
 * ("escrituras en índices"), the amounts right-aligned under their headers. */
static void test_golden_spanish_cost(void **state)
{
    (void)state;
    term t;
    wb *w = spanish_cloudshop(&t, 24, 80);
    wb_key(w, '7');
    wb_key(w, 'z'); /* the screen alone */
    char *s = draw_text(w);
    golden("cost_es_80x24", s);
    int head = line_of(L"bajo demanda", 1);
    int total = line_of(L"total ", head + 1);
    assert_true(head > 0 && total > head);
    /* "aprovisionada" ends where the amounts end */
    assert_int_equal(cell_of(head, L"aprovisionada") + 13, cell_of(total, L"598,70 €") + 8);
    assert_int_equal(cell_of(head, L"bajo demanda") + 12, cell_of(total, L"678,62 €") + 8);
    int iw = line_of(L"escrituras en índices", head);
    assert_true(iw > head);
    assert_int_equal(cell_of(iw, L"94,29 €") + 7, cell_of(total, L"678,62 €") + 8);
    /* the checklist's points are the analysis' texts, in Spanish as well */
    assert_non_null(strstr(s, " 1 pasa  Los patrones de acceso están escritos"));
    free(s);
    wb_free(w);
    term_close(&t);
}

/* The workbench drawn shows `text` (else the test fails with the screen). */
static void assert_shows(wb *w, const char *text)
{
    char *s = draw_text(w);
    if (!strstr(s, text))
        fail_msg("no '%s' on the screen:\n%s", text, s);
    free(s);
}

static int analyses;
static kp_analysis *counted_analysis(const kp_design *d)
{
    analyses++;
    return analysis_run(d);
}

/* :set lang switches at once, both ways, and the analysis runs again in the new language; an
 * unknown language names the ones there are and changes nothing. */
static void test_set_lang(void **state)
{
    (void)state;
    term t;
    wb *w = spanish_cloudshop(&t, 24, 80);
    /* the model's texts are written by the analysis: a switch runs it again (counted here) */
    wb_options o;
    memset(&o, 0, sizeof o);
    o.analyze = counted_analysis;
    o.analysis_free = analysis_free;
    wb *wc = wb_new(session_new_memory(ts_load_file("samples/cloudshop/design.yaml")), &o);
    int before = analyses;
    wb_command(wc, "set lang en");
    assert_int_equal(analyses, before + 1);
    wb_command(wc, "set lang es");
    assert_int_equal(analyses, before + 2);
    wb_free(wc);
    /* each command, the language after it, and what the screen then shows */
    static const struct {
        const char *command, *lang, *shows, *also;
    } steps[] = {
        {"set lang en", "en", "keyplan speaks English now (:set lang es: Spanish)",
         "Live model  €598.70/month"},
        {"set lang xx", "en", "unknown language 'xx'; the languages are en, es", "1 Patterns 2 Keys"},
        {"set lang", "en", "usage: :set lang en|es", "Live model"},
        {"set lang en es", "en", "usage: :set lang en|es", "Live model"},
        {"set lang es", "es", "keyplan habla ahora español (:set lang en: inglés)",
         "Modelo en vivo  598,70 €/mes"},
    };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        wb_command(w, steps[i].command);
        assert_string_equal(i18n_lang(), steps[i].lang);
        assert_non_null(w->an);
        char *shown = draw_text(w);
        if (!strstr(shown, steps[i].shows) || !strstr(shown, steps[i].also))
            fail_msg(":%s shows no '%s' and '%s':\n%s", steps[i].command, steps[i].shows, steps[i].also,
                     shown);
        free(shown);
    }
    /* the model's texts follow the switch too: the analysis writes its findings again */
    static const struct {
        const char *command, *finding;
    } again[] = {{"set lang en", "partition key ESTADO#{status} is keyed by status alone"},
                 {"set lang es", "la clave de partición ESTADO#{status} depende solo de status"}};
    for (size_t i = 0; i < sizeof again / sizeof *again; i++) {
        wb_command(w, again[i].command);
        bool found = false;
        for (size_t k = 0; k < w->an->nfindings; k++)
            found |= w->an->findings[k].message && strstr(w->an->findings[k].message, again[i].finding);
        if (!found)
            fail_msg(":%s: no finding '%s'", again[i].command, again[i].finding);
    }
    /* an undo step is kept in English in the workspace and said in Spanish */
    wb_command(w, "set billing on-demand");
    wb_key(w, 'u');
    assert_shows(w, "deshecho: fijar billing (Ctrl-R rehace)");
    assert_string_equal(session_redo_label(w->ss), "set billing"); /* kept in English */
    keys(w, "jll\nPedido por id\nu");
    assert_shows(w, "deshecho: editar patterns fila 2 name (Ctrl-R rehace)");
    wb_free(w);
    term_close(&t);
}

/* Items: p and P step through the patterns (and the view follows the index each one reads), s
 * generates again with another seed, > and < change the items a partition, Enter opens the item,
 * and a design change makes the items again. */
static void test_items_keys(void **state)
{
    (void)state;
    term t;
    term_open(&t, 40, 140);
    wb *w = cloudshop_wb();
    wb_key(w, '8');
    char *s = draw_text(w);
    assert_non_null(strstr(s, "pattern 1 Get order by id: GetItem table "));
    assert_non_null(strstr(s, "\n  PK = PEDIDO#order-001 AND SK = CABECERA "));
    assert_non_null(strstr(s, "> returns 1 item"));
    free(s);
    keys(w, "pppp"); /* pattern 5 reads GSI1 */
    s = draw_text(w);
    assert_non_null(strstr(s, "GSI1: "));
    assert_non_null(strstr(s, "GSI1PK = ESTADO#pending-shipment"));
    free(s);
    wb_key(w, 'P');
    assert_int_equal(w->cur[UI_SCREEN_PATTERNS].row, 3);
    s = draw_text(w);
    const char *title = strstr(s, "table: ");
    assert_non_null(title);
    int before = atoi(title + 7);
    free(s);
    wb_key(w, '>');
    wb_key(w, '>');
    s = draw_text(w);
    assert_non_null(strstr(s, "6 a partition"));
    assert_true(atoi(strstr(s, "table: ") + 7) > before);
    free(s);
    wb_key(w, 's');
    s = draw_text(w);
    assert_null(strstr(s, "seed 208"));
    free(s);
    /* the index chosen with i stays when the items are made again (s, >, <): it used to jump back
     * to the index the pattern reads */
    wb_key(w, 'i');
    s = draw_text(w);
    assert_non_null(strstr(s, "GSI1: "));
    free(s);
    const char *regen = "s><";
    for (const char *k = regen; *k; k++) {
        wb_key(w, *k);
        s = draw_text(w);
        assert_non_null(strstr(s, "GSI1: "));
        assert_null(strstr(s, "table: "));
        free(s);
    }
    wb_key(w, 'i');
    wb_key(w, 'i'); /* back to the table */
    wb_key(w, UI_KEY_ENTER);
    assert_true(detail_is_open(&w->detail));
    wb_key(w, UI_KEY_ESC);
    /* another entity name: the items are made again from the new design */
    wb_command(w, "patterns");
    wb_key(w, 'g');
    wb_command(w, "items");
    s = draw_text(w);
    assert_non_null(strstr(s, "PEDIDO#order-"));
    free(s);
    wb_free(w);
    term_close(&t);
}

/* The History diff shows every section keyplan diff prints: a decision reopened by its signal
 * between two versions too (the signals were not evaluated); v opens the diff whole, scrolled in
 * the detail view. */
static void test_history_diff_whole(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 100);
    wb *w = signal_wb();
    wb_command(w, "commit first");
    kp_design *nd = design_clone(session_design(w->ss));
    set(nd, EDIT_PATTERNS, 0, "rate", "1500");
    wb_apply(w, nd, "rate");
    wb_command(w, "commit busier");
    assert_int_equal(session_base(w->ss), 2);
    wb_command(w, "diff 1 2");
    int a, b;
    size_t ndiff;
    screen_history_marks(w->state[UI_SCREEN_HISTORY], &a, &b, &ndiff);
    assert_true(ndiff > 0);
    wb_key(w, 'v');
    assert_true(detail_is_open(&w->detail));
    assert_int_equal(w->detail.n, ndiff);
    sbuf all;
    sbuf_init(&all);
    for (size_t i = 0; i < w->detail.n; i++)
        sbuf_printf(&all, "%s\n", w->detail.lines[i]);
    assert_non_null(strstr(all.s, "version 1 (first)"));
    assert_non_null(strstr(all.s, "reopened"));
    sbuf_free(&all);
    wb_free(w);
    term_close(&t);
}

/* Cost & heat: the cursor's line is highlighted, and Enter opens it whole (a finding's fix is
 * past the edge of the screen). */
static void test_cost_line_whole(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb *w = real_wb(fixture());
    assert_true(w->an->nfindings > 0);
    wb_key(w, '7');
    /* down to the first finding */
    const char *code = w->an->findings[0].code;
    for (int i = 0; i < 400 && !detail_is_open(&w->detail); i++) {
        wb_key(w, 'j');
        screen_env e = wb_env(w, UI_SCREEN_COST);
        char *title = NULL;
        size_t n = 0;
        char **v = screen_detail(&e, &title, &n);
        bool hit = v && strstr(v[0], code) && strstr(v[0], "] ");
        for (size_t k = 0; k < n; k++)
            free(v[k]);
        free(v);
        free(title);
        if (hit)
            wb_key(w, UI_KEY_ENTER);
    }
    assert_true(detail_is_open(&w->detail));
    assert_non_null(strstr(w->detail.lines[0], w->an->findings[0].message));
    if (w->an->findings[0].fix)
        assert_non_null(strstr(w->detail.lines[0], w->an->findings[0].fix));
    wb_free(w);
    term_close(&t);
}

/* The pane writes latencies with their units ("51 s / 30 ms", not "51s/30"), once even in its
 * two-line layout (the red copy of a missed target went to the pane's right edge, beside the
 * first), and a scan's row says which index nearly served it and why. */
static void test_pane_units_and_why_not(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        term t;
        term_open(&t, 40, k ? 120 : 80); /* 120: the pane beside the editor, on two lines a row */
        wb *w = make_wb(fixture());
        kp_pattern_result *r = &w->an->patterns[1];
        r->latency_ms = 51000;
        r->latency_ok = false;
        kp_pattern_result *s0 = &w->an->patterns[0];
        s0->plan = KP_PLAN_SCAN;
        s0->key_condition[0] = '\0';
        wb_key(w, 'j');
        wb_key(w, 'j'); /* pattern 3 selected: 2 is drawn in its colours */
        char *s = draw_text(w);
        const char *at = strstr(s, "51 s / 30 ms");
        if (!at)
            fail_msg("no '51 s / 30 ms' in\n%s", s);
        assert_null(strstr(at + 1, "51 s / 30 ms"));
        assert_null(strstr(s, "51s"));
        assert_non_null(strstr(s, "why not: GSI1 does not"));
        free(s);
        wb_free(w);
        term_close(&t);
    }
}

/* Help ends with the legend of the plan symbols, every plan of the plan table in it. */
static void test_help_legend(void **state)
{
    (void)state;
    size_t n;
    char **v = help_legend_lines(&n);
    for (int p = 0; p < KP_PLAN__COUNT; p++) {
        char *head = xasprintf("%s %s ", kp_plan_symbol((kp_plan)p), kp_plan_word((kp_plan)p));
        bool found = false;
        for (size_t i = 0; i < n; i++)
            found = found || strncmp(v[i], head, strlen(head)) == 0;
        if (!found)
            fail_msg("the legend lacks '%s'", head);
        free(head);
    }
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
    term t;
    term_open(&t, 24, 80);
    wb *w = make_wb(fixture());
    wb_key(w, '?');
    for (int i = 0; i < 30; i++)
        wb_key(w, UI_FKEY(KEY_NPAGE));
    char *s = draw_text(w);
    assert_non_null(strstr(s, "t transact"));
    assert_non_null(strstr(s, "RCU, WCU, latency"));
    free(s);
    wb_free(w);
    term_close(&t);
}

/* On Decisions the pane shows the decision under the cursor and each of its signals against the
 * design's value, FIRED once it meets its threshold. */
static void test_pane_decision(void **state)
{
    (void)state;
    term t;
    term_open(&t, 40, 140);
    wb *w = signal_wb();
    wb_key(w, '5');
    char *s = draw_text(w);
    assert_non_null(strstr(s, "-- decision "));
    assert_non_null(strstr(s, "signal pattern.1.rate > 1000: the design gives 200"));
    assert_null(strstr(s, "FIRED signal"));
    free(s);
    kp_design *nd = design_clone(session_design(w->ss));
    set(nd, EDIT_PATTERNS, 0, "rate", "1500");
    wb_apply(w, nd, "rate");
    s = draw_text(w);
    assert_non_null(strstr(s, "FIRED signal pattern.1.rate > 1000: the design gives 1,500"));
    assert_non_null(strstr(s, "[REOPEN]"));
    free(s);
    wb_free(w);
    term_close(&t);
}

/* Shares are written by humanfmt's one percentage style ("50 %", "2.1 %") on Cost & heat and
 * Indexes, as everywhere else, and still right-aligned in the grid. */
static void test_percentages_one_formatter(void **state)
{
    (void)state;
    term t;
    term_open(&t, 40, 140);
    wb *w = cloudshop_wb();
    wb_key(w, '7');
    char *s = draw_text(w);
    assert_non_null(strstr(s, "ESTADO#{status}                   2   50 %"));
    assert_null(strstr(s, "50.0%"));
    free(s);
    wb_key(w, '3');
    s = draw_text(w);
    assert_non_null(strstr(s, "  50 % gsi"));
    assert_non_null(strstr(s, " 0.1 % gsi"));
    free(s);
    wb_free(w);
    term_close(&t);
}

/* ---- behaviour ----------------------------------------------------------------------------------- */

static void test_help_lists_every_action(void **state)
{
    (void)state;
    size_t n;
    char **lines = help_action_lines(&n);
    assert_int_equal(n, UI_ACT__COUNT - 1);
    for (int a = 1; a < UI_ACT__COUNT; a++) {
        char k[128];
        ui_action_keys((ui_action)a, k, sizeof k);
        if (!*k)
            fail_msg("action '%s' has no key", ui_action_name((ui_action)a));
        bool found = false;
        for (size_t i = 0; i < n; i++)
            if (strstr(lines[i], ui_action_name((ui_action)a)) &&
                strstr(lines[i], ui_action_help((ui_action)a)) && strncmp(lines[i], k, strlen(k)) == 0)
                found = true;
        if (!found)
            fail_msg("help does not list action '%s' with keys %s", ui_action_name((ui_action)a), k);
    }
    /* every binding's action is a real action, and no key is bound twice on one screen */
    size_t nb;
    const ui_binding *b = ui_keymap(&nb);
    for (size_t i = 0; i < nb; i++) {
        assert_true((unsigned)b[i].action < UI_ACT__COUNT);
        for (size_t j = i + 1; j < nb; j++)
            if (b[i].screen == b[j].screen && b[i].key == b[j].key)
                fail_msg("key %d bound twice on screen %d", b[i].key, b[i].screen);
    }
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

/* The `:` command table drives the parsing, the dispatch and the help: every command and alias
 * has its help line (":recover FILE" too, which the hand-written help line missed), the help
 * screen that :help opens lists them all, a command whose words do not fit says its usage, and
 * the unknown-command hint names every command that does something. */
static void test_commands_table_and_help(void **state)
{
    (void)state;
    size_t nc, nh;
    const wb_cmd *c = wb_commands(&nc);
    char **help = wb_command_help(&nh);
    assert_int_equal(nh, nc + 1); /* a heading, then one line per command */
    char **syn = xcalloc(nc, sizeof *syn);
    for (size_t i = 0; i < nc; i++) {
        syn[i] = xasprintf(":%s%s%s", c[i].name, *c[i].args ? " " : "", c[i].args);
        const char *line = help[i + 1];
        if (strncmp(line, syn[i], strlen(syn[i])) != 0 || strlen(line) <= HELP_HEAD ||
            strcmp(line + HELP_HEAD, c[i].help) != 0)
            fail_msg("help line of :%s is '%s'", c[i].name, line);
        for (const char *p = c[i].aliases; p && *p; p += strspn(p, " ")) {
            size_t k = strcspn(p, " ");
            char *al = xasprintf(", :%.*s", (int)k, p);
            assert_non_null(strstr(line, al));
            free(al);
            p += k;
        }
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(c[i].name, c[j].name);
    }
    bool recover = false;
    for (size_t i = 0; i < nh; i++)
        recover |= strncmp(help[i], ":recover FILE ", 14) == 0;
    assert_true(recover);
    for (size_t i = 0; i < nh; i++)
        free(help[i]);
    free(help);

    term t;
    term_open(&t, 120, 100);
    wb *w = make_wb(fixture());
    /* the words decide: too few or too many say the usage */
    for (size_t i = 0; i < nc; i++) {
        if (c[i].nargs < 0)
            continue;
        char *line = c[i].nargs ? xstrdup(c[i].name) : xasprintf("%s extra", c[i].name);
        wb_command(w, line);
        char *want = xasprintf("usage: %s", c[i].usage);
        assert_string_equal(w->msg.text, want);
        free(want);
        free(line);
    }
    wb_command(w, "frobnicate");
    assert_non_null(strstr(w->msg.text, "unknown command 'frobnicate'"));
    for (size_t i = 0; i < nc; i++)
        if (!c[i].noop)
            assert_non_null(strstr(w->msg.text, c[i].name));
    /* aliases run their command */
    wb_command(w, "w");
    assert_non_null(strstr(w->msg.text, "saved after every edit"));
    assert_false(w->help);
    wb_command(w, "h");
    assert_true(w->help);
    wb_key(w, 'x');
    assert_false(w->help);
    /* :help lists every command on the help screen, after every action */
    assert_int_equal(wb_command(w, "help"), UI_REDRAW);
    char *s = draw_text(w);
    const char *acts = strstr(s, "redraw          Redraw the screen");
    assert_non_null(acts);
    for (size_t i = 0; i < nc; i++) {
        const char *at = strstr(s, syn[i]);
        if (!at || at < acts)
            fail_msg("the help screen does not list %s after the actions:\n%s", syn[i], s);
        free(syn[i]);
    }
    free(syn);
    free(s);
    assert_int_equal(wb_command(w, "quit"), UI_QUIT);
    assert_true(wb_quitting(w));
    wb_free(w);
    term_close(&t);
}

static void test_monochrome_roles(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80); /* NO_COLOR=1 */
    assert_false(theme_init());
    assert_int_equal(theme_attr(UI_ROLE_CURSOR_CELL), A_REVERSE);
    assert_int_equal(theme_attr(UI_ROLE_NORMAL), A_NORMAL);
    /* every role is distinguishable without colour from the normal text, except the plain ones */
    for (int r = 0; r < UI_ROLE__COUNT; r++)
        if (r != UI_ROLE_NORMAL && r != UI_ROLE_TAB && r != UI_ROLE_GOOD && r != UI_ROLE_BORDER)
            assert_true(theme_attr((ui_role)r) != A_NORMAL);
    term_close(&t);
}

static void test_layout(void **state)
{
    (void)state;
    static const struct {
        int lines, cols;
        bool small, side;
    } cases[] = {
        {24, 80, false, false}, {40, 120, false, true}, {40, 119, false, false}, {4, 12, true, false},
        {13, 80, true, false},  {14, 50, false, false}, {14, 49, true, false},   {60, 250, false, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ui_layout l;
        layout_compute(cases[i].lines, cases[i].cols, false, &l);
        assert_int_equal(l.too_small, cases[i].small);
        if (l.too_small)
            continue;
        assert_int_equal(l.side, cases[i].side);
        /* the parts tile the screen: editor and pane between the tabs and the status line */
        assert_int_equal(l.status.y, cases[i].lines - 2);
        assert_int_equal(l.msg.y, cases[i].lines - 1);
        assert_true(l.editor.h >= 3 && l.pane.h >= 3);
        if (l.side) {
            assert_int_equal(l.editor.w + l.pane.w, cases[i].cols);
            assert_int_equal(l.pane.x, l.editor.w);
        } else {
            assert_int_equal(l.editor.h + l.pane.h, cases[i].lines - 3);
            assert_int_equal(l.pane.y, l.editor.y + l.editor.h);
        }
        ui_layout lt;
        layout_compute(cases[i].lines, cases[i].cols, true, &lt);
        assert_true(lt.narration.h > 0);
        assert_int_equal(lt.narration.y + lt.narration.h, lt.status.y);
    }
}

static void test_lineedit(void **state)
{
    (void)state;
    lineedit e;
    le_init(&e, "PEDIDO#");
    assert_true(le_insert(&e, 0x00cd)); /* Í */
    le_insert_text(&e, "{orderId}");
    assert_string_equal(e.buf, "PEDIDO#Í{orderId}");
    le_key_apply(&e, LE_HOME);
    assert_int_equal(e.cur, 0);
    le_key_apply(&e, LE_END);
    for (int i = 0; i < 10; i++)
        le_key_apply(&e, LE_LEFT);
    /* the cursor stepped over the two-byte Í as one character */
    assert_int_equal(e.cur, strlen("PEDIDO#"));
    le_key_apply(&e, LE_DELETE);
    assert_string_equal(e.buf, "PEDIDO#{orderId}");
    le_key_apply(&e, LE_END);
    le_key_apply(&e, LE_WORD_BACK);
    assert_string_equal(e.buf, "PEDIDO#{");
    le_key_apply(&e, LE_BACKSPACE);
    le_key_apply(&e, LE_BACKSPACE);
    assert_string_equal(e.buf, "PEDIDO");
    le_key_apply(&e, LE_LEFT);
    le_key_apply(&e, LE_KILL_END);
    assert_string_equal(e.buf, "PEDID");
    le_key_apply(&e, LE_KILL_START);
    assert_string_equal(e.buf, "");
    assert_false(le_insert(&e, 7));
    /* the view keeps the cursor visible */
    le_set(&e, "abcdefghijklmnopqrstuvwxyz");
    size_t start;
    int ccol;
    le_view(&e, 10, &start, &ccol);
    assert_true(ccol <= 9);
    assert_int_equal(disp_width(e.buf + start), 26 - (int)start);
    assert_int_equal(26 - (int)start, ccol);
    le_free(&e);
}

static void test_edit_cells_by_keys(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb *w = make_wb(fixture());
    /* row 2, column rate: Enter, kill, type, Enter */
    wb_key(w, 'j');
    int rate = -1;
    for (int i = 0; i < 12 && rate < 0; i++) {
        char *s = draw_text(w);
        free(s);
        if (w->cur[UI_SCREEN_PATTERNS].col == 7)
            rate = 7;
        else
            wb_key(w, 'l');
    }
    /* columns: id, plan, name, kind, entity, by, rate */
    w->cur[UI_SCREEN_PATTERNS].col = 6;
    wb_key(w, UI_KEY_ENTER);
    wb_key(w, UI_CTRL('u'));
    keys(w, "950");
    wb_key(w, UI_KEY_ENTER);
    assert_false(w->editing);
    assert_true(session_design(w->ss)->patterns[1].rate == 950);
    /* Esc cancels */
    wb_key(w, UI_KEY_ENTER);
    keys(w, "7");
    wb_key(w, UI_KEY_ESC);
    assert_true(session_design(w->ss)->patterns[1].rate == 950);
    /* a bad number is refused and kept as a draft shown in the cell */
    wb_key(w, UI_KEY_ENTER);
    wb_key(w, UI_CTRL('u'));
    keys(w, "fast");
    wb_key(w, UI_KEY_ENTER);
    assert_true(session_design(w->ss)->patterns[1].rate == 950);
    assert_non_null(wb_draft_at(w, UI_SCREEN_PATTERNS, 1, 6));
    assert_non_null(strstr(w->msg.text, "not a rate"));
    /* editing again starts from the draft */
    wb_key(w, UI_KEY_ENTER);
    assert_string_equal(w->le.buf, "fast");
    wb_key(w, UI_KEY_ESC);
    /* undo / redo */
    wb_key(w, 'u');
    assert_true(session_design(w->ss)->patterns[1].rate == 400);
    wb_key(w, UI_CTRL('r'));
    assert_true(session_design(w->ss)->patterns[1].rate == 950);
    wb_free(w);
    term_close(&t);
}

static void test_broken_template_keeps_last_good(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb *w = make_wb(fixture());
    wb_key(w, '2'); /* Keys */
    wb_key(w, 'l'); /* PK */
    wb_key(w, UI_KEY_ENTER);
    wb_key(w, UI_CTRL('u'));
    keys(w, "CLIENTE#{customerId");
    wb_key(w, UI_KEY_ENTER);
    char *pk = edit_get(session_design(w->ss), EDIT_KEYS, 0, 1);
    assert_string_equal(pk, "CLIENTE#{customerId}");
    free(pk);
    assert_non_null(strstr(w->msg.text, "template"));
    char *s = draw_text(w);
    assert_non_null(strstr(s, "!CLIENTE#{customerId"));
    /* the pane still shows the last good model */
    assert_non_null(strstr(s, "Live model"));
    free(s);
    /* q with a draft asks first; another key cancels the quit */
    assert_int_equal(wb_key(w, 'q'), UI_REDRAW);
    assert_false(w->quit);
    assert_non_null(strstr(w->msg.text, "did not parse"));
    wb_key(w, 'j');
    wb_key(w, 'k');
    wb_key(w, 'q');
    assert_false(w->quit);
    assert_true(wb_key(w, 'q') & UI_QUIT);
    w->quit = false;
    /* fixing it removes the draft */
    wb_key(w, UI_KEY_ENTER);
    keys(w, "}");
    wb_key(w, UI_KEY_ENTER);
    assert_null(wb_draft_at(w, UI_SCREEN_KEYS, 0, 1));
    wb_free(w);
    term_close(&t);
}

/* History flags a version whose change from its parent DynamoDB cannot make in place, and its
 * diff says why, with the migration it takes. */
static void test_history_irreversible(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 100);
    wb *w = make_wb(fixture());
    wb_key(w, ':');
    keys(w, "commit first");
    wb_key(w, UI_KEY_ENTER);
    /* the table's sort key attribute renamed: a new table */
    wb_key(w, ':');
    keys(w, "set sk RK");
    wb_key(w, UI_KEY_ENTER);
    assert_string_equal(session_design(w->ss)->table.sk.s, "RK");
    wb_key(w, ':');
    keys(w, "commit renamed the sort key");
    wb_key(w, UI_KEY_ENTER);
    assert_int_equal(session_base(w->ss), 2);
    wb_key(w, '6');
    char *s = draw_text(w);
    assert_non_null(strstr(s, "!2 "));
    assert_non_null(strstr(s, "renamed the sort key  IRREVERSIBLE: table sort key SK → RK"));
    free(s);
    wb_key(w, ':');
    keys(w, "diff 1 2");
    wb_key(w, UI_KEY_ENTER);
    s = draw_text(w);
    assert_non_null(strstr(s, "IRREVERSIBLE: 1 change DynamoDB cannot make to the table in place"));
    free(s);
    wb_free(w);
    term_close(&t);
}

static void test_rows_and_commit(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb *w = make_wb(fixture());
    wb_key(w, 'a');
    assert_int_equal(session_design(w->ss)->npatterns, 5);
    assert_int_equal(w->cur[UI_SCREEN_PATTERNS].row, 1);
    wb_key(w, 'y');
    assert_int_equal(session_design(w->ss)->npatterns, 6);
    wb_key(w, 'K');
    assert_int_equal(w->cur[UI_SCREEN_PATTERNS].row, 1);
    wb_key(w, 'x');
    wb_key(w, 'x');
    assert_int_equal(session_design(w->ss)->npatterns, 4);
    /* commit through the prompt */
    wb_key(w, 'c');
    assert_int_equal(w->prompt, WB_PROMPT_COMMIT);
    keys(w, "primer diseño");
    wb_key(w, UI_KEY_ENTER);
    assert_int_equal(session_base(w->ss), 1);
    assert_false(session_dirty(w->ss));
    char *s = draw_text(w);
    assert_non_null(strstr(s, "v1 saved"));
    free(s);
    /* an edit makes the working copy differ */
    wb_key(w, 'y');
    s = draw_text(w);
    assert_non_null(strstr(s, "v1 modified"));
    free(s);
    /* :commit MSG, then History lists both */
    wb_key(w, ':');
    keys(w, "commit segundo");
    wb_key(w, UI_KEY_ENTER);
    assert_int_equal(session_base(w->ss), 2);
    wb_key(w, '6');
    s = draw_text(w);
    assert_non_null(strstr(s, "primer diseño"));
    assert_non_null(strstr(s, "segundo"));
    free(s);
    /* an invalid design is not committed */
    wb_key(w, '1');
    wb_key(w, 'a');
    wb_key(w, 'c');
    keys(w, "roto");
    wb_key(w, UI_KEY_ENTER);
    assert_non_null(strstr(w->msg.text, "not committed"));
    assert_int_equal(session_base(w->ss), 2);
    wb_key(w, 'u');
    wb_key(w, '6');
    /* :diff of the two versions: the designer diff on History */
    wb_key(w, ':');
    keys(w, "diff 1 2");
    wb_key(w, UI_KEY_ENTER);
    assert_int_equal(w->screen, UI_SCREEN_HISTORY);
    int ma, mb;
    size_t ndiff;
    screen_history_marks(w->state[UI_SCREEN_HISTORY], &ma, &mb, &ndiff);
    assert_true(ndiff > 0);
    s = draw_text(w);
    assert_non_null(strstr(s, "version 1"));
    free(s);
    wb_key(w, ':');
    keys(w, "diff 1 9");
    wb_key(w, UI_KEY_ENTER);
    assert_non_null(strstr(w->msg.text, "no version 9"));
    /* marking two versions on History shows their diff too */
    wb_key(w, 'g');
    wb_key(w, ' ');
    wb_key(w, 'j');
    wb_key(w, ' ');
    screen_history_marks(w->state[UI_SCREEN_HISTORY], &ma, &mb, &ndiff);
    assert_int_equal(ma, 1);
    assert_int_equal(mb, 2);
    /* :set changes a setting as an undoable edit; the Cost screen lists it */
    wb_key(w, ':');
    keys(w, "set billing provisioned");
    wb_key(w, UI_KEY_ENTER);
    assert_int_equal(session_design(w->ss)->table.billing, KP_BILLING_PROVISIONED);
    wb_key(w, ':');
    keys(w, "set billing gratis");
    wb_key(w, UI_KEY_ENTER);
    assert_non_null(strstr(w->msg.text, "not one of"));
    wb_key(w, ':');
    keys(w, "set");
    wb_key(w, UI_KEY_ENTER);
    assert_non_null(strstr(w->msg.text, "target_utilization"));
    wb_key(w, '7');
    s = draw_text(w);
    assert_non_null(strstr(s, "billing provisioned"));
    free(s);
    wb_key(w, 'u');
    assert_int_equal(session_design(w->ss)->table.billing, KP_BILLING_ON_DEMAND);
    /* unknown command: a clear message, nothing else */
    wb_key(w, ':');
    keys(w, "frobnicate");
    wb_key(w, UI_KEY_ENTER);
    assert_non_null(strstr(w->msg.text, "unknown command"));
    wb_free(w);
    term_close(&t);
}

/* The cells of a grid for grid_widths_rows' test: rows of texts, three columns. */
typedef struct gtab {
    char *(*v)[3];
    size_t n;
} gtab;

static char *gtab_cell(const void *ctx, size_t row, size_t col, int *role)
{
    const gtab *t = ctx;
    *role = UI_ROLE_NORMAL;
    return xstrdup(t->v[row][col]);
}

/* Random rows inserted, removed and moved (and cells changed) under a memo of widths: after each
 * step grid_widths_rows (grid_widths_row for a cell) gives grid_widths' widths of the rows then,
 * for columns whose rows reach the cap (at the first row, a later one, none) and one whose title
 * does. */
static void test_grid_widths_follow_rows(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "a",         "bb", "ccc",         "línea", "dirección", "abcdefghij",  "ABCDEFGHIJKLMNOP",
        "x y z w v", "",   "abcdefghijk", "abcd",  "abcdef",    "abcdefghijkl"}; /* 6 and 12: at the caps */
    const size_t ntexts = sizeof texts / sizeof *texts;
    static const grid_col cols[3] = {{"id", 6}, {"name", 12}, {"a long title", 8}};
    gtab t = {xcalloc(16, sizeof *t.v), 0};
    unsigned seed = 3;
    for (; t.n < 6; t.n++)
        for (int c = 0; c < 3; c++)
            t.v[t.n][c] = xstrdup(texts[(t.n * 7 + (size_t)c) % ntexts]);
    grid g = {.cols = cols, .ncols = 3, .nrows = t.n, .cell = gtab_cell, .ctx = &t};
    grid_memo m = {0};
    int *wd = grid_widths_memo(&g, &m);
    size_t nsteps = 0;
    for (int step = 0; step < 3000; step++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = seed >> 8;
        size_t row = t.n ? (r / 8) % t.n : 0;
        kp_rowop op = {KP_ROW_INSERT, row, 0};
        switch (r % 8) {
        case 0:
        case 1:
        case 2: /* a row of new texts (a few rows: a column's widest row is often alone) */
            if (t.n >= 10)
                continue;
            op.row = t.n ? (r / 8) % (t.n + 1) : 0;
            kp_rowop_shift(t.v, t.n, sizeof *t.v, op);
            for (int c = 0; c < 3; c++)
                t.v[op.row][c] = xstrdup(texts[(r / 64 + (unsigned)c * 5) % ntexts]);
            break;
        case 3:
        case 4:
            if (!t.n)
                continue;
            op.kind = KP_ROW_REMOVE;
            for (int c = 0; c < 3; c++)
                free(t.v[row][c]);
            kp_rowop_shift(t.v, t.n, sizeof *t.v, op);
            break;
        case 5:
        case 6:
            if (t.n < 2)
                continue;
            op = (kp_rowop){KP_ROW_MOVE, row, row + 1 < t.n && r % 16 < 8 ? row + 1 : row ? row - 1 : 1};
            kp_rowop_shift(t.v, t.n, sizeof *t.v, op);
            break;
        default: /* a cell changed: grid_widths_row */
            if (!t.n)
                continue;
            free(t.v[row][r % 3]);
            t.v[row][r % 3] = xstrdup(texts[(r / 32) % ntexts]);
            grid_widths_row(&g, wd, &m, row);
            goto compare;
        }
        t.n = kp_rowop_count(op, t.n);
        g.nrows = t.n;
        grid_widths_rows(&g, wd, &m, op);
        nsteps++;
    compare : {
        int *want = grid_widths(&g);
        for (int c = 0; c < 3; c++)
            if (wd[c] != want[c])
                fail_msg("step %d (%d of row %zu, %zu rows): column %d is %d wide, measured afresh %d", step,
                         (int)op.kind, op.row, t.n, c, wd[c], want[c]);
        free(want);
        /* and which columns have a cell wider than their cap (they take the width left over) */
        grid_memo fresh = {0};
        free(grid_widths_memo(&g, &fresh));
        const bool *cut = grid_memo_cut(&m), *fcut = grid_memo_cut(&fresh);
        for (int c = 0; c < 3; c++)
            if (cut[c] != fcut[c])
                fail_msg("step %d (%d of row %zu, %zu rows): column %d %s, measured afresh %s", step,
                         (int)op.kind, op.row, t.n, c, cut[c] ? "cut" : "whole", fcut[c] ? "cut" : "whole");
        grid_memo_free(&fresh);
    }
    }
    assert_true(nsteps > 1500);
    free(wd);
    grid_memo_free(&m);
    for (size_t i = 0; i < t.n; i++)
        for (int c = 0; c < 3; c++)
            free(t.v[i][c]);
    free(t.v);
}

static kp_analysis *full_analysis(const kp_design *d) { return analysis_run(d); }

/* The frame without its last line (the message line says what was just done). Caller frees. */
static char *frame_but_message(wb *w)
{
    char *s = draw_text(w);
    char *end = strrchr(s, '\n');
    if (end && !end[1]) { /* a last empty line: the one before */
        *end = '\0';
        end = strrchr(s, '\n');
    }
    if (end)
        *end = '\0';
    return s;
}

/* Keys on w and on ref, a workbench on the same design that copies and analyses the whole design
 * after every change and measures every cell's width again on every frame (an injected
 * analysis_run turns the steps' shortcuts off): after each key the frames, the problems, the
 * copies and the analyses are the same. */
/* w and its whole-path twin ref show and hold the same, after key i. */
static void as_whole(wb *w, wb *ref, size_t i, int key)
{
    char *got = frame_but_message(w), *want = frame_but_message(ref);
    if (strcmp(got, want) != 0)
        fail_msg("after key %zu ('%c'):\n%s\n--- the whole path:\n%s", i, key, got, want);
    free(got);
    free(want);
    assert_int_equal(w->an_behind, ref->an_behind);
    assert_int_equal(w->partial, ref->partial);
    assert_int_equal(w->diags.n, ref->diags.n);
    for (size_t k = 0; k < w->diags.n; k++)
        assert_string_equal(w->diags.v[k].msg, ref->diags.v[k].msg);
    assert_true(design_equal(session_design(w->ss), session_design(ref->ss)));
    assert_true((w->good == NULL) == (ref->good == NULL));
    if (!w->good)
        return;
    assert_true(design_equal(w->good, ref->good));
    char *ja = analysis_json_string(w->good, w->an, NULL),
         *jb = analysis_json_string(ref->good, ref->an, NULL);
    assert_non_null(ja);
    assert_string_equal(ja, jb);
    free(ja);
    free(jb);
}

/* Keys given to w and to its whole-path twin ref: after each, both show and hold the same. */
static void same_as_whole(wb *w, wb *ref, const int *keys_, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        wb_key(w, keys_[i]);
        wb_key(ref, keys_[i]);
        as_whole(w, ref, i, keys_[i]);
    }
}

/* The same, compared after the last key only (a cell typed: its keys in between draw the editor). */
static void same_after(wb *w, wb *ref, const int *keys_, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        wb_key(w, keys_[i]);
        wb_key(ref, keys_[i]);
    }
    as_whole(w, ref, n ? n - 1 : 0, n ? keys_[n - 1] : 0);
}

/* A 30x160 terminal opened on t and CloudShop's design. */
static kp_design *cloudshop_at_160(term *t)
{
    term_open(t, 30, 160);
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    assert_non_null(d);
    return d;
}

/* The workbench on d (taken) and its whole-path twin (same_as_whole) on a copy. */
static wb *twin(const kp_design *d)
{
    wb_options o = {.analyze = full_analysis, .analysis_free = analysis_free};
    wb *ref = wb_new(session_new_memory(design_clone(d)), &o);
    wb_resize(ref, LINES, COLS);
    return ref;
}

/* Row steps of the Patterns table (deleted, added, duplicated, moved up and down, undone and
 * redone, with the cursor moving between them) on CloudShop with one long name among short ones,
 * so that a column narrows when its widest row goes, and without its decisions (which name
 * patterns), so that most steps leave the design valid (deleting the pattern another is
 * covered_by does not, nor adding one: then the salvaged rest is shown): each key gives what the
 * whole path gives (same_as_whole). */
static void test_row_steps_as_whole(void **state)
{
    (void)state;
    term t;
    kp_design *d = cloudshop_at_160(&t);
    for (size_t i = 0; i < d->npatterns; i++) { /* short names, one long: its row sets the width */
        free(d->patterns[i].name);
        d->patterns[i].name = i == 2 ? xstrdup("Una descripción muy larga del patrón, más que el tope")
                                     : xasprintf("patrón %zu", i);
    }
    for (size_t i = 0; i < d->ndecisions; i++) /* no decision names a pattern: rows can go */
        decision_free(&d->decisions[i]);
    free(d->decisions);
    d->decisions = NULL;
    d->ndecisions = 0;
    wb *ref = twin(d);
    wb *w = real_wb(d);
    /* the long-named row deleted: the column after the names moves left; undone: back */
    wb_key(w, 'g');
    char *s0 = draw_text(w);
    int kind0 = (int)(strstr(strstr(s0, "\nid "), "kind") - strstr(s0, "\nid "));
    wb_key(w, 'j');
    wb_key(w, 'j');
    wb_key(w, 'x');
    assert_false(w->an_behind); /* the step alone was checked, copied, analysed and measured */
    char *s1 = draw_text(w);
    int kind1 = (int)(strstr(strstr(s1, "\nid "), "kind") - strstr(s1, "\nid "));
    wb_key(w, 'u');
    char *s2 = draw_text(w);
    int kind2 = (int)(strstr(strstr(s2, "\nid "), "kind") - strstr(s2, "\nid "));
    assert_true(kind1 < kind0);
    assert_int_equal(kind2, kind0);
    free(s0);
    free(s1);
    free(s2);
    static const int rest[] = {'x', 'u', 'J', 'K', 'y', 'u', UI_CTRL('r'), 'a', 'x', 'j',
                               'x', 'k', 'u', 'u', 'J', 'j', 'J',          'g', 'x', 'x',
                               'u', 'G', 'K', 'y', 'x', 'u', UI_CTRL('r'), 'k', 'x', 'u',
                               'u', 'u', 'g', 'j', 'x', 'a', 'u',          'u'};
    for (int k = 0; k < 3; k++) /* the twin where w is: top, row 2, the undo, top again */
        wb_key(ref, "gjj"[k]);
    static const int first[] = {'x', 'u', 'g'};
    same_as_whole(w, ref, first, sizeof first / sizeof *first);
    same_as_whole(w, ref, rest, sizeof rest / sizeof *rest);
    wb_free(ref);
    wb_free(w);
    term_close(&t);
}

/* Keys for each byte of s (a command line's text; '\n' Enter). */
static size_t key_codes(const char *s, int *out)
{
    size_t n = 0;
    for (; *s; s++)
        out[n++] = *s == '\n' ? UI_KEY_ENTER : (unsigned char)*s;
    return n;
}

/* Edits of the design's rest alone (settings by :set, a bad one and its undo, decisions deleted
 * on their screen, undone and redone), which the workbench checks and analyses without its
 * patterns and draws without measuring the Patterns table again: each key gives what the whole
 * path gives (same_as_whole), the Patterns screen drawn after them included. */
static void test_rest_edits_as_whole(void **state)
{
    (void)state;
    term t;
    kp_design *d = cloudshop_at_160(&t);
    wb *ref = twin(d);
    wb *w = real_wb(d);
    int k[400];
    size_t n = key_codes(":set billing provisioned\nj:set description otra\nu", k);
    k[n++] = UI_CTRL('r');
    n += key_codes(":set target_utilization 5\nu:set target_utilization 0.5\nj", k + n);
    same_as_whole(w, ref, k, n);
    /* the decisions that accept CloudShop's low-cardinality indexes, deleted one by one */
    w->screen = ref->screen = UI_SCREEN_DECISIONS;
    static const int decisions[] = {'x', 'x', 'u', UI_CTRL('r'), 'x', 'x', 'x', 'u', 'u'};
    same_as_whole(w, ref, decisions, sizeof decisions / sizeof *decisions);
    w->screen = ref->screen = UI_SCREEN_PATTERNS;
    static const int back[] = {'j', 'k', 'u', 'G'};
    same_as_whole(w, ref, back, sizeof back / sizeof *back);
    wb_free(ref);
    wb_free(w);
    term_close(&t);
}

/* Screen `screen`'s column showing column `name` of table t, made current on w and its twin;
 * false when none does. */
static bool at_column(wb *w, wb *ref, int screen, edit_table t, const char *name)
{
    int want = edit_col_find(session_design(w->ss), t, name);
    screen_env e = wb_env(w, screen);
    size_t n = 0;
    screen_col *c = screen_columns(&e, &n);
    bool found = false;
    for (size_t i = 0; i < n && !found && want >= 0; i++)
        if (c[i].table == (int)t && c[i].col == (size_t)want) {
            w->screen = ref->screen = screen;
            w->cur[screen].col = ref->cur[screen].col = i;
            found = true;
        }
    free(c);
    return found;
}

/* The keys that put `text` in the cell under the cursor: Enter, Ctrl-U, the text, Enter. */
static size_t cell_keys(const char *text, int *out)
{
    size_t n = 0;
    out[n++] = UI_KEY_ENTER;
    out[n++] = UI_CTRL('u');
    n += key_codes(text, out + n);
    out[n++] = UI_KEY_ENTER;
    return n;
}

/* Edits of one element alone: an entity's on the Keys screen (counts, sizes, a key template, its
 * attributes; one refused, one that leaves a pattern unserved, one that breaks the design's
 * checks), an attribute's (skew, distinct values, enum shares), an index's projection; undone and
 * redone. The workbench edits each in place, checks the patterns that read the element and copies
 * that element alone: each key gives what the whole path gives (same_as_whole), the Patterns
 * screen drawn after them included. */
static void test_entity_edits_as_whole(void **state)
{
    (void)state;
    term t;
    kp_design *d = cloudshop_at_160(&t);
    wb *ref = twin(d);
    wb *w = real_wb(d);
    int k[400];
    size_t n = 0;
    const char *pk = session_design(w->ss)->table.pk.s;
    /* counts: one saved, the next row's saved, undone, redone; a negative one refused (a draft,
       dropped by Esc) */
    assert_true(at_column(w, ref, UI_SCREEN_KEYS, EDIT_ENTITIES, "count"));
    n += cell_keys("5000000", k + n);
    n += key_codes("j", k + n);
    n += cell_keys("12", k + n);
    n += key_codes("u", k + n);
    k[n++] = UI_CTRL('r');
    n += key_codes("jj", k + n);
    n += cell_keys("-4", k + n);
    k[n++] = UI_KEY_ESC;
    same_as_whole(w, ref, k, n);
    assert_true(at_column(w, ref, UI_SCREEN_KEYS, EDIT_ENTITIES, "size"));
    n = key_codes("g", k);
    n += cell_keys("390000", k + n);
    n += key_codes("j", k + n);
    n += cell_keys("8000", k + n);
    n += key_codes("uu", k + n);
    k[n++] = UI_CTRL('r');
    same_as_whole(w, ref, k, n);
    /* the table's partition key template: a constant one, then one the patterns cannot give
       (refused), then one the patterns cannot serve, undone and redone */
    assert_true(at_column(w, ref, UI_SCREEN_KEYS, EDIT_KEYS, pk));
    n = key_codes("g", k);
    n += cell_keys("CLIENTES", k + n);
    n += key_codes("j", k + n);
    n += cell_keys("X#{nosuch}", k + n);
    k[n++] = UI_KEY_ESC;
    n += key_codes("j", k + n);
    n += cell_keys("PEDIDO#{status}", k + n);
    n += key_codes("uuu", k + n);
    k[n++] = UI_CTRL('r');
    k[n++] = UI_CTRL('r');
    same_as_whole(w, ref, k, n);
    /* the attributes an entity carries: one a pattern names taken away (the design breaks), put
       back by undo */
    assert_true(at_column(w, ref, UI_SCREEN_KEYS, EDIT_ENTITIES, "attributes"));
    n = key_codes("gj", k);
    n += cell_keys("total", k + n);
    n += key_codes("u", k + n);
    k[n++] = UI_CTRL('r');
    k[n++] = 'u';
    same_as_whole(w, ref, k, n);
    /* an attribute's: the customers' skew and distinct values (heat), a bad one refused, the order
       states' shares without those a pattern fixes (the design breaks), undone */
    assert_true(at_column(w, ref, UI_SCREEN_ATTRS, EDIT_ATTRS, "skew"));
    n = key_codes("g", k);
    n += cell_keys("zipf:1.3", k + n);
    same_as_whole(w, ref, k, n);
    assert_true(at_column(w, ref, UI_SCREEN_ATTRS, EDIT_ATTRS, "distinct"));
    n = cell_keys("12", k);
    n += key_codes("u", k + n);
    k[n++] = UI_CTRL('r');
    n += key_codes("G", k + n);
    n += cell_keys("-5", k + n);
    k[n++] = UI_KEY_ESC;
    same_as_whole(w, ref, k, n);
    assert_true(at_column(w, ref, UI_SCREEN_ATTRS, EDIT_ATTRS, "values"));
    n = key_codes("G", k);
    n += cell_keys("delivered: 0.8, cancelled: 0.2", k + n);
    n += key_codes("uu", k + n);
    same_as_whole(w, ref, k, n);
    /* an index's projection: GSI1 down to its keys (refused by the checks while it lists what it
       includes), undone, redone; GSI2's all; both undone */
    assert_true(at_column(w, ref, UI_SCREEN_INDEXES, EDIT_INDEXES, "projection"));
    n = key_codes("g", k);
    n += cell_keys("keys", k + n);
    n += key_codes("u", k + n);
    k[n++] = UI_CTRL('r');
    n += key_codes("j", k + n);
    n += cell_keys("all", k + n);
    same_as_whole(w, ref, k, n);
    assert_true(w->an_behind); /* GSI1 keeps its include list: keys only does not validate */
    n = key_codes("uu", k);
    same_as_whole(w, ref, k, n);
    assert_false(w->an_behind);
    /* a decision's status and title (the rest alone: its findings and signals read it), undone
       and redone */
    assert_true(at_column(w, ref, UI_SCREEN_DECISIONS, EDIT_DECISIONS, "status"));
    n = key_codes("g", k);
    k[n++] = UI_KEY_ENTER; /* the decision's form, at its status */
    n += cell_keys("reopened", k + n);
    k[n++] = UI_KEY_ESC; /* the form closed */
    n += key_codes("u", k + n);
    k[n++] = UI_CTRL('r');
    same_as_whole(w, ref, k, n);
    assert_true(at_column(w, ref, UI_SCREEN_DECISIONS, EDIT_DECISIONS, "title"));
    n = 0;
    k[n++] = UI_KEY_ENTER;
    n += cell_keys("otra decision", k + n);
    k[n++] = UI_KEY_ESC;
    same_as_whole(w, ref, k, n);
    assert_string_equal(session_design(w->ss)->decisions[0].title, "otra decision");
    n = 0;
    k[n++] = UI_KEY_ENTER;
    n += cell_keys("", k + n); /* no title: the design misses it (its valid rest is analysed) */
    k[n++] = UI_KEY_ESC;
    n += key_codes("uu", k + n);
    same_as_whole(w, ref, k, n);
    const char *title = session_design(w->ss)->decisions[0].title;
    assert_true(title && *title && strcmp(title, "otra decision") != 0);           /* both undone */
    assert_int_equal(session_design(w->ss)->decisions[0].status, KP_DEC_REOPENED); /* redone */
    w->screen = ref->screen = UI_SCREEN_PATTERNS;
    static const int back[] = {'j', 'k', 'G'};
    same_as_whole(w, ref, back, sizeof back / sizeof *back);
    wb_free(ref);
    wb_free(w);
    term_close(&t);
}

/* The keys of UTF-8 text, one per character (as keys() types them). */
static size_t text_codes(const char *s, int *out)
{
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t len = strlen(s), n = 0;
    while (len) {
        wchar_t wc;
        size_t m = mbrtowc(&wc, s, len, &st);
        assert_true(m != (size_t)-1 && m != (size_t)-2 && m != 0);
        out[n++] = (int)wc;
        s += m;
        len -= m;
    }
    return n;
}

/* w's diagnostics are a whole validation's of its session's design. */
static void diags_as_whole(const wb *w, const char *when)
{
    kp_diags dg;
    diags_init(&dg, "design");
    validate_design(session_design(w->ss), &dg);
    if (dg.n != w->diags.n)
        fail_msg("%s: %zu diagnostics, a whole validation gives %zu", when, w->diags.n, dg.n);
    for (size_t k = 0; k < dg.n; k++)
        assert_string_equal(w->diags.v[k].msg, dg.v[k].msg);
    diags_free(&dg);
}

/* Keys k[0..n) given, then the cell under the cursor typed anew as UTF-8 `text` (Enter, Ctrl-U,
 * a key for each character, Enter): each key as the whole path gives it (k has room). */
static void retype_as_whole(wb *w, wb *ref, int *k, size_t n, const char *text)
{
    n += cell_keys("", k + n) - 1; /* Enter, Ctrl-U */
    n += text_codes(text, k + n);
    k[n++] = UI_KEY_ENTER;
    same_as_whole(w, ref, k, n);
}

/* u, then Ctrl-R, each as the whole path gives it, the checks a whole validation's; `patched`:
 * the analysis patched each time, not made whole; `then` (may be NULL) after each. */
static void undo_redo_as_whole(wb *w, wb *ref, bool patched, void (*then)(wb *, wb *))
{
    static const int undo_redo[] = {'u', UI_CTRL('r')};
    for (size_t i = 0; i < 2; i++) {
        same_as_whole(w, ref, &undo_redo[i], 1);
        if (patched)
            assert_false(analysis_was_whole(w->an));
        diags_as_whole(w, i ? "redone" : "undone");
        if (then)
            then(w, ref);
    }
}

/* An entity renamed on the Keys screen (in Spanish), undone, redone, a taken name refused; then a
 * pattern naming an entity that is not there yet, which a rename brings: each key gives what the
 * whole path gives (same_as_whole), the checks a whole validation's; a rename from a valid design
 * is analysed in place (told), not whole. */
static void test_entity_rename_as_whole(void **state)
{
    (void)state;
    term t;
    kp_design *d = cloudshop_at_160(&t);
    ptrdiff_t order = design_entity_pos(d, "Order");
    assert_true(order >= 0);
    wb *ref = twin(d);
    wb *w = real_wb(d);
    int k[400];
    size_t n = 0;
    assert_true(at_column(w, ref, UI_SCREEN_KEYS, EDIT_KEYS, "entity"));
    n = key_codes("g", k);
    for (ptrdiff_t i = 0; i < order; i++)
        n += key_codes("j", k + n);
    same_as_whole(w, ref, k, n);
    retype_as_whole(w, ref, k, 0, "Pedido_línea");
    assert_string_equal(session_design(w->ss)->entities[order].name, "Pedido_línea");
    assert_false(analysis_was_whole(w->an));
    diags_as_whole(w, "renamed");
    undo_redo_as_whole(w, ref, true, NULL);
    n = cell_keys("Customer", k); /* taken: refused, a draft dropped by Esc */
    k[n++] = UI_KEY_ESC;
    same_as_whole(w, ref, k, n);
    assert_string_equal(session_design(w->ss)->entities[order].name, "Pedido_línea");
    /* the last pattern names Pedido, no entity yet (the design breaks); the rename brings it */
    assert_true(at_column(w, ref, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "entity"));
    n = key_codes("G", k);
    n += cell_keys("Pedido", k + n);
    same_as_whole(w, ref, k, n);
    assert_true(w->an_behind);
    diags_as_whole(w, "a pattern naming Pedido");
    assert_true(at_column(w, ref, UI_SCREEN_KEYS, EDIT_KEYS, "entity"));
    n = cell_keys("Pedido", k);
    same_as_whole(w, ref, k, n);
    assert_false(w->an_behind);
    diags_as_whole(w, "Pedido_línea renamed Pedido");
    n = key_codes("u", k); /* the rename taken back: the pattern names Pedido still */
    same_as_whole(w, ref, k, n);
    assert_true(w->an_behind);
    diags_as_whole(w, "that rename undone");
    n = key_codes("uu", k);
    same_as_whole(w, ref, k, n);
    assert_false(w->an_behind);
    assert_true(design_equal(session_design(w->ss), session_design(ref->ss)));
    assert_string_equal(session_design(w->ss)->entities[order].name, "Order");
    wb_free(ref);
    wb_free(w);
    term_close(&t);
}

/* The keys that move the cursor of the current screen to row `row` from its top (g, then j). */
static size_t to_row(size_t row, int *out)
{
    size_t n = key_codes("g", out);
    for (size_t i = 0; i < row; i++)
        n += key_codes("j", out + n);
    return n;
}

/* The row of the pattern with id `id`. */
static size_t pattern_row_of(const wb *w, const char *id)
{
    const kp_design *d = session_design(w->ss);
    for (size_t i = 0; i < d->npatterns; i++)
        if (d->patterns[i].id && strcmp(d->patterns[i].id, id) == 0)
            return i;
    fail_msg("no pattern %s", id);
    return 0;
}

/* The covered_by column in view (pattern 6's cell follows pattern 2's id: its width too), then
 * the cursor back on the id column, each key as the whole path gives. */
static void covered_in_view(wb *w, wb *ref)
{
    int k[4];
    assert_true(at_column(w, ref, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "covered_by"));
    size_t n = key_codes("jk", k);
    same_as_whole(w, ref, k, n);
    assert_true(at_column(w, ref, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "id"));
}

/* The workbench's design is CloudShop as loaded again (every step taken back); w, its twin and
 * the terminal closed. */
static void back_at_cloudshop(wb *w, wb *ref, term *t)
{
    kp_design *first = ts_load_file("samples/cloudshop/design.yaml");
    assert_true(design_equal(session_design(w->ss), first));
    design_free(first);
    wb_free(ref);
    wb_free(w);
    term_close(t);
}

/* A pattern's id changed on the Patterns screen (in Spanish; pattern 6 is covered_by it and
 * decisions name it), undone, redone, a taken id refused; then one a signal names (the design
 * breaks: the signal names a pattern that is not there) and its change back: each key gives what
 * the whole path gives (same_as_whole), the checks a whole validation's; a change from a valid
 * design is analysed in place (told), not whole. */
static void test_pattern_id_as_whole(void **state)
{
    (void)state;
    term t;
    kp_design *d = cloudshop_at_160(&t);
    wb *ref = twin(d);
    wb *w = real_wb(d);
    int k[400];
    size_t n;
    assert_true(at_column(w, ref, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "id"));
    size_t two = pattern_row_of(w, "2");
    retype_as_whole(w, ref, k, to_row(two, k), "2_línea_pedidos");
    const kp_design *now = session_design(w->ss);
    assert_string_equal(now->patterns[two].id, "2_línea_pedidos");
    assert_string_equal(now->patterns[pattern_row_of(w, "6")].covered_by.s, "2_línea_pedidos");
    assert_false(analysis_was_whole(w->an));
    diags_as_whole(w, "renamed");
    covered_in_view(w, ref);
    undo_redo_as_whole(w, ref, true, covered_in_view);
    n = cell_keys("3", k); /* taken: refused, a draft dropped by Esc */
    k[n++] = UI_KEY_ESC;
    same_as_whole(w, ref, k, n);
    assert_string_equal(session_design(w->ss)->patterns[two].id, "2_línea_pedidos");
    /* pattern 5, which a decision's signal names: the design breaks, then mends */
    assert_true(at_column(w, ref, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "id"));
    size_t five = pattern_row_of(w, "5");
    n = to_row(five, k);
    n += cell_keys("5b", k + n);
    same_as_whole(w, ref, k, n);
    assert_true(w->an_behind);
    diags_as_whole(w, "5 renamed 5b");
    n = cell_keys("5", k);
    same_as_whole(w, ref, k, n);
    assert_false(w->an_behind);
    diags_as_whole(w, "5b renamed 5");
    n = key_codes("uuu", k);
    same_as_whole(w, ref, k, n);
    assert_false(w->an_behind);
    back_at_cloudshop(w, ref, &t);
}

/* CloudShop at 30x160 in the real workbench (*w) and its whole-path twin (*ref): the design
 * the session holds, which edits made in place keep. */
static const kp_design *twins_at_160(term *t, wb **w, wb **ref)
{
    kp_design *d = cloudshop_at_160(t);
    *ref = twin(d);
    *w = real_wb(d);
    return session_design((*w)->ss);
}

/* An index renamed on the Indexes screen, in place (nothing follows its name): GSI2, which
 * nothing names, to a name of its own and back by undo and redo; GSI1, which a decision's signal
 * names (the design breaks, its valid rest analysed), and back; a name DynamoDB refuses: each key
 * gives what the whole path gives (same_as_whole), the checks a whole validation's, the design
 * the same object throughout (the session edits it in place). */
static void test_index_rename_as_whole(void **state)
{
    (void)state;
    term t;
    wb *w, *ref;
    const kp_design *same = twins_at_160(&t, &w, &ref);
    int k[64];
    size_t n;
    assert_true(at_column(w, ref, UI_SCREEN_INDEXES, EDIT_INDEXES, "name"));
    n = to_row(1, k);
    n += cell_keys("GSI2_cierre", k + n);
    same_as_whole(w, ref, k, n);
    assert_string_equal(session_design(w->ss)->indexes[1].name, "GSI2_cierre");
    assert_false(w->an_behind);
    diags_as_whole(w, "GSI2 renamed");
    static const int undo_redo[] = {'u', UI_CTRL('r'), 'u'};
    for (size_t i = 0; i < 3; i++) {
        same_as_whole(w, ref, &undo_redo[i], 1);
        diags_as_whole(w, "undone or redone");
    }
    assert_string_equal(session_design(w->ss)->indexes[1].name, "GSI2");
    n = to_row(0, k);
    n += cell_keys("GSI1x", k + n);
    same_as_whole(w, ref, k, n);
    assert_true(w->an_behind);
    diags_as_whole(w, "GSI1 renamed");
    n = cell_keys("GSI1é", k); /* a character DynamoDB refuses: no valid rest */
    same_as_whole(w, ref, k, n);
    diags_as_whole(w, "GSI1é");
    n = cell_keys("GSI1", k);
    same_as_whole(w, ref, k, n);
    assert_false(w->an_behind);
    diags_as_whole(w, "GSI1 again");
    assert_ptr_equal(session_design(w->ss), same);
    wb_free(ref);
    wb_free(w);
    term_close(&t);
}

/* An attribute renamed (customerId, in Spanish: nothing follows its name, the templates and
 * patterns naming the old one read no declared attribute then), undone, redone, a taken name
 * refused: an edit of that element alone, made in place (the design's pointer stays), its checks
 * told by the old name. Then a cell whose edit reaches past its element: an index's partition key
 * renamed (the templates keyed on it follow), made in place too, the good copy and the analysis
 * taking the new keys (after its undo and redo as well); the table's, by :set, the same. Each key gives what the whole path gives
 * (same_as_whole: the good copies compared too), the checks a whole validation's. */
static void test_cell_replayed_as_whole(void **state)
{
    (void)state;
    term t;
    wb *w, *ref;
    const kp_design *same = twins_at_160(&t, &w, &ref);
    int k[64];
    size_t n;
    assert_true(at_column(w, ref, UI_SCREEN_ATTRS, EDIT_ATTRS, "name"));
    retype_as_whole(w, ref, k, key_codes("g", k), "id_del_cliente_ñ");
    assert_string_equal(session_design(w->ss)->attrs[0].name, "id_del_cliente_ñ");
    assert_ptr_equal(session_design(w->ss), same);
    assert_false(w->an_behind);
    diags_as_whole(w, "an attribute renamed");
    undo_redo_as_whole(w, ref, false, NULL);
    n = cell_keys("orderId", k); /* taken: refused, a draft dropped by Esc */
    k[n++] = UI_KEY_ESC;
    same_as_whole(w, ref, k, n);
    assert_ptr_equal(session_design(w->ss), same);
    assert_true(at_column(w, ref, UI_SCREEN_INDEXES, EDIT_INDEXES, "pk"));
    n = key_codes("g", k);
    n += cell_keys("GSI1PK_b", k + n);
    n += key_codes("u", k + n);
    k[n++] = UI_CTRL('r');
    same_as_whole(w, ref, k, n);
    assert_string_equal(session_design(w->ss)->indexes[0].pk.s, "GSI1PK_b");
    assert_ptr_equal(session_design(w->ss), same);
    diags_as_whole(w, "an index's key renamed");
    n = key_codes("uu", k);
    same_as_whole(w, ref, k, n);
    assert_ptr_equal(session_design(w->ss), same);
    /* the table's partition key, by :set: in place too */
    n = key_codes(":set pk PK_tabla\nu\x12", k);
    k[n - 1] = UI_CTRL('r');
    same_after(w, ref, k, n - 2);
    assert_string_equal(session_design(w->ss)->table.pk.s, "PK_tabla");
    diags_as_whole(w, "the table's key renamed");
    same_as_whole(w, ref, k + n - 2, 2);
    assert_ptr_equal(session_design(w->ss), same);
    n = key_codes("u", k);
    same_as_whole(w, ref, k, n);
    back_at_cloudshop(w, ref, &t);
}

/* Rows of the Indexes table deleted (GSI2: its templates and the pattern it serves fail their
 * checks, the valid rest is shown; GSI1, which a decision's signal names too), undone, redone,
 * duplicated and moved, made in place by the session, checked as steps of the indexes' list (the
 * patterns' checks stand), the good copy taking the same step (a deletion's valid rest made from
 * it in place, its undo copying back what that rest left out): each key gives what the whole
 * path gives (same_as_whole), the checks a whole validation's, the design's pointer kept. */
static void test_index_rows_as_whole(void **state)
{
    (void)state;
    term t;
    wb *w, *ref;
    const kp_design *same = twins_at_160(&t, &w, &ref);
    int k[8];
    assert_true(at_column(w, ref, UI_SCREEN_INDEXES, EDIT_INDEXES, "name"));
    static const char *const steps[] = {"jx", "u", "\x12", "u", "y", "K", "u", "u", "gx", "u", "\x12", "u"};
    static const char *const what[] = {"GSI2 deleted", "undone",   "redone",      "undone again",
                                       "GSI1 copied",  "moved up", "move undone", "copy undone",
                                       "GSI1 deleted", "undone",   "redone",      "undone again"};
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        size_t n = 0;
        for (const char *c = steps[i]; *c; c++) /* \x12: Ctrl-R */
            k[n++] = *c == '\x12' ? UI_CTRL('r') : *c;
        same_as_whole(w, ref, k, n);
        diags_as_whole(w, what[i]);
        assert_ptr_equal(session_design(w->ss), same);
        bool deleted = i % 4 == 0 || i % 4 == 2;
        if (i < 4 || i >= 8)
            assert_int_equal(w->partial, deleted);                     /* the valid rest */
        assert_int_equal(w->index_rest, (i < 4 || i >= 8) && deleted); /* made from the good copy */
        if (i >= 8) /* D3's signal on GSI1 left out of the rest, and back */
            assert_int_equal(w->good->decisions[2].nsignals, deleted ? 1 : 2);
    }
    assert_int_equal(session_design(w->ss)->nindexes, 2);
    back_at_cloudshop(w, ref, &t);
}

/* An entity added on the Keys screen (no templates yet: the design does not validate, and no
 * valid rest is looked for, an entity's error being one no rest leaves out), its partition key's
 * template typed, both undone: each key gives what the whole path gives (same_as_whole), and
 * back at the design last valid, good and the analysis are kept, not made again. */
static void test_entity_added_undone(void **state)
{
    (void)state;
    term t;
    kp_design *d = cloudshop_at_160(&t);
    wb *ref = twin(d);
    wb *w = real_wb(d);
    int k[64];
    size_t n;
    const char *pk = session_design(w->ss)->table.pk.s;
    assert_true(at_column(w, ref, UI_SCREEN_KEYS, EDIT_KEYS, "entity"));
    n = key_codes("gjja", k);
    same_as_whole(w, ref, k, n);
    assert_true(w->an_behind && !w->partial);
    assert_int_equal(session_design(w->ss)->nentities, 6);
    assert_true(at_column(w, ref, UI_SCREEN_KEYS, EDIT_KEYS, pk));
    n = cell_keys("NUEVA#{orderId}", k);
    same_as_whole(w, ref, k, n);
    assert_true(w->an_behind);
    const kp_analysis *an = w->an;
    const kp_design *good = w->good;
    n = key_codes("uu", k);
    same_as_whole(w, ref, k, n);
    assert_false(w->an_behind);
    assert_true(w->an_kept);
    assert_ptr_equal(w->an, an); /* the analysis of the design before the entity, kept */
    assert_ptr_equal(w->good, good);
    assert_int_equal(session_design(w->ss)->nentities, 5);
    wb_free(ref);
    wb_free(w);
    term_close(&t);
}

/* CloudShop's patterns repeated to n rows (ids 1..n). */
static kp_design *cloudshop_grown(size_t n)
{
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    assert_non_null(d);
    size_t nb = d->npatterns;
    kp_pattern *v = xcalloc(n, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        v[i] = d->patterns[i % nb];
        fields_clone(&kp_rec_pattern, &v[i], &d->patterns[i % nb]);
        free(v[i].id);
        v[i].id = xasprintf("%zu", i + 1);
    }
    for (size_t i = 0; i < nb; i++)
        pattern_free(&d->patterns[i]);
    free(d->patterns);
    d->patterns = v;
    d->npatterns = n;
    return d;
}

/* A pattern row added and filled in cell by cell (the design does not validate until it names an
 * entity), undone and redone, broken again and deleted; then a valid row broken by its own cell,
 * mended, broken and deleted: on CloudShop (the valid rest found by salvage) and on CloudShop
 * grown past the patterns salvage tries one by one (no valid rest: the last good analysis
 * stands). Each key gives what the whole path gives (same_as_whole); on the grown design the
 * rows' own steps are told (good and an stand for the design but for that row: fill), and the
 * edit that makes the design valid again patches the analysis instead of analysing it whole. */
static void test_row_filled_as_whole(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 2001}; /* 2,001: past salvage's trials */
    for (size_t z = 0; z < 2; z++) {
        term t;
        term_open(&t, 30, 160);
        kp_design *d = sizes[z] ? cloudshop_grown(sizes[z]) : ts_load_file("samples/cloudshop/design.yaml");
        bool big = sizes[z] > 0;
        wb *ref = twin(d);
        wb *w = real_wb(d);
        int k[96];
        size_t n;
        assert_true(at_column(w, ref, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "name"));
        n = key_codes("gjja", k); /* a new row 4 (row 3 from 0): it names no entity */
        same_as_whole(w, ref, k, n);
        assert_true(w->an_behind);
        assert_int_equal(w->fill && w->fill_new && w->fill_row == 3, true);
        n = cell_keys("", k) - 1;
        /* on CloudShop a name wider than the column's widest: the widths follow the row */
        n += text_codes(big ? "Nuevos, línea" : "Pedidos nuevos de un cliente, línea a línea, más anchos",
                        k + n);
        k[n++] = UI_KEY_ENTER;
        same_as_whole(w, ref, k, n);
        assert_true(w->fill && w->fill_row == 3);
        assert_true(at_column(w, ref, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "entity"));
        n = cell_keys("Order", k); /* valid now: told as the row's insertion */
        same_as_whole(w, ref, k, n);
        assert_false(w->an_behind || w->fill);
        if (big)
            assert_false(analysis_was_whole(w->an));
        assert_true(at_column(w, ref, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "by"));
        n = cell_keys("orderId", k);
        n += key_codes("uuuu", k + n); /* by, entity, name, the row */
        k[n++] = UI_CTRL('r');
        k[n++] = UI_CTRL('r'); /* the row and its name again: not valid */
        same_as_whole(w, ref, k, n);
        assert_true(w->an_behind && w->fill);
        assert_int_equal(session_design(w->ss)->npatterns, (big ? sizes[z] : 13) + 1);
        n = key_codes("x", k); /* the row deleted: good is the design again */
        same_as_whole(w, ref, k, n);
        assert_false(w->an_behind);
        /* a valid row broken by its own cell, mended (told as its edit), broken and deleted */
        assert_true(at_column(w, ref, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "entity"));
        n = key_codes("gj", k);
        n += cell_keys("NoSuch", k + n);
        same_as_whole(w, ref, k, n);
        assert_true(w->an_behind);
        if (big)
            assert_true(w->fill && !w->fill_new && w->fill_row == 1);
        n = cell_keys("OrderSummary", k);
        same_as_whole(w, ref, k, n);
        assert_false(w->an_behind);
        if (big)
            assert_false(analysis_was_whole(w->an));
        w->cur[UI_SCREEN_PATTERNS].row = ref->cur[UI_SCREEN_PATTERNS].row = 12; /* named by no
                                                                                    pattern nor decision */
        n = cell_keys("Nada", k);
        n += key_codes("x", k + n);
        same_as_whole(w, ref, k, n);
        assert_false(w->an_behind);
        if (big)
            assert_false(analysis_was_whole(w->an));
        n = key_codes("uu", k); /* the row back, broken; then as it was */
        same_as_whole(w, ref, k, n);
        assert_false(w->an_behind);
        wb_free(ref);
        wb_free(w);
        term_close(&t);
    }
}

/* Random keys on the Patterns screen of CloudShop grown to 2,100 patterns (no valid rest is looked
 * for there: the last good analysis stands, or the one of the design but for the row being filled
 * in or mended): rows added and deleted, their entity and name cells set to what validates or not,
 * undo, redo, the cursor moving among the first rows. Each key gives what the whole path gives
 * (same_as_whole), whatever the order of the steps. */
static void test_rows_filled_at_random(void **state)
{
    (void)state;
    term t;
    term_open(&t, 30, 160);
    kp_design *d = cloudshop_grown(2100);
    wb *ref = twin(d);
    wb *w = real_wb(d);
    static const char *const entities[] = {"Order", "OrderLine", "Customer", "NoSuch", ""};
    static const char *const names[] = {"n1", "otra"};
    uint64_t seed = 0x9e3779b97f4a7c15u;
    size_t told = 0, filled = 0, behind = 0;
    for (int step = 0; step < 48; step++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        unsigned r = (unsigned)(seed >> 33);
        int k[32];
        size_t n = 0;
        /* mostly the row being filled in or mended, as people do; else one of rows 10 to 25 (ids
           11 and on: no decision names them, so deleting one breaks nothing else) */
        size_t row = w->fill && r % 4 ? w->fill_row : 10 + (r / 8) % 16;
        w->screen = ref->screen = UI_SCREEN_PATTERNS;
        w->cur[UI_SCREEN_PATTERNS].row = ref->cur[UI_SCREEN_PATTERNS].row = row;
        switch (r % 8) {
        case 0:
            k[n++] = 'a';
            break;
        case 1:
        case 2:
            assert_true(at_column(w, ref, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "entity"));
            n = cell_keys(entities[(r / 128) % 5], k);
            break;
        case 3:
            assert_true(at_column(w, ref, UI_SCREEN_PATTERNS, EDIT_PATTERNS, "name"));
            n = cell_keys(names[(r / 128) % 2], k);
            break;
        case 4:
        case 5:
            k[n++] = 'u';
            break;
        case 6:
            k[n++] = UI_CTRL('r');
            break;
        default:
            k[n++] = 'x';
            break;
        }
        same_after(w, ref, k, n);
        if (w->editing) { /* a cell whose text did not parse: dropped */
            int esc = UI_KEY_ESC;
            same_after(w, ref, &esc, 1);
        }
        filled += w->fill;
        /* broken for a while: undone until it validates, as people do */
        behind = w->an_behind ? behind + 1 : 0;
        for (int u = 0; behind >= 4 && w->an_behind && u < 8; u++) {
            int key = 'u';
            same_after(w, ref, &key, 1);
            filled += w->fill;
        }
        told += w->an && !w->an_behind && !analysis_was_whole(w->an);
    }
    /* the sequence reached what it exists for: rows being filled in, and edits told */
    if (filled < 4 || told < 4)
        fail_msg("%zu steps left a row being filled in, %zu were told to the analysis", filled, told);
    wb_free(ref);
    wb_free(w);
    term_close(&t);
}

/* Row keys on a workbench over a workspace: after each, the working copy the workspace holds is
 * the design on screen, written as designio_save writes it (the steps were saved as the lines
 * they move); reopened, the workspace gives that design back, and its undo the one before. */
static void test_row_steps_saved(void **state)
{
    (void)state;
    term t;
    term_open(&t, 30, 160);
    char *path = ts_ws_file();
    session *s = NULL;
    assert_int_equal(session_open(path, &s, NULL, NULL), KP_OK);
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    assert_non_null(d);
    for (size_t i = 0; i < d->ndecisions; i++) /* no decision names a pattern: rows can go */
        decision_free(&d->decisions[i]);
    free(d->decisions);
    d->decisions = NULL;
    d->ndecisions = 0;
    assert_int_equal(session_apply(s, d, "open", NULL), KP_OK);
    wb *w = wb_new(s, NULL);
    wb_resize(w, LINES, COLS);
    static const int keys_[] = {'j', 'j', 'x',          'J', 'J', 'u', 'y',
                                'K', 'u', UI_CTRL('r'), 'G', 'x', 'g', 'y'};
    for (size_t i = 0; i < sizeof keys_ / sizeof *keys_; i++) {
        wb_key(w, keys_[i]);
        free(draw_text(w));
        char *want = designio_save(session_design(w->ss), NULL), *got = NULL;
        assert_non_null(want);
        assert_int_equal(ws_working_get(session_ws(w->ss), &got, NULL, NULL), KP_OK);
        if (strcmp(got, want) != 0)
            fail_msg("after key %zu ('%c'): the workspace does not hold the design on screen", i, keys_[i]);
        free(got);
        free(want);
    }
    kp_design *last = design_clone(session_design(w->ss));
    wb_key(w, 'u');
    kp_design *before = design_clone(session_design(w->ss));
    wb_key(w, UI_CTRL('r'));
    wb_free(w); /* closes the session */
    assert_int_equal(session_open(path, &s, NULL, NULL), KP_OK);
    assert_null(session_note(s));
    assert_true(design_equal(session_design(s), last));
    assert_int_equal(session_undo(s, NULL), KP_OK);
    assert_true(design_equal(session_design(s), before));
    session_close(s);
    design_free(last);
    design_free(before);
    free(path);
    term_close(&t);
}

/* CloudShop as it is (decisions naming patterns, signals): a new pattern (no entity) is left out
 * of the valid rest, which is the design before it; deleting a pattern a decision names leaves the
 * decision out; undo, redo and steps in between give what the whole path gives. */
static void test_row_steps_with_decisions(void **state)
{
    (void)state;
    term t;
    kp_design *d = cloudshop_at_160(&t);
    wb *ref = twin(d);
    wb *w = real_wb(d);
    static const int keys_[] = {'a', 'u', UI_CTRL('r'), 'j', 'x', 'u', 'u', 'j', 'j', 'y', 'a', 'u', 'u', 'x',
                                'a', 'u', 'u',          'G', 'a', 'k', 'x', 'u', 'u', 'J', 'K', 'g', 'a'};
    same_as_whole(w, ref, keys_, sizeof keys_ / sizeof *keys_);
    wb_free(ref);
    wb_free(w);
    term_close(&t);
}

/* The same past the patterns the salvage tries one by one (CloudShop's repeated to 2,100): a new
 * pattern (no entity), or a deleted one another is covered_by, leaves no valid rest, so the
 * analysis stays of the design before it; its undo, a redo, deleting the new one, another step
 * that makes the design valid again, and steps while it is broken give what the whole path
 * gives. */
static void test_row_steps_past_salvage(void **state)
{
    (void)state;
    term t;
    kp_design *d = cloudshop_at_160(&t);
    for (size_t i = 0; i < d->ndecisions; i++)
        decision_free(&d->decisions[i]);
    free(d->decisions);
    d->decisions = NULL;
    d->ndecisions = 0;
    while (d->npatterns < 2100)
        edit_duplicate(d, EDIT_PATTERNS, d->npatterns - 1);
    wb *ref = twin(d);
    wb *w = real_wb(d);
    /* pattern 2 (row 1) deleted: pattern 6 is covered_by it, the design breaks; then pattern 6
       deleted too (valid again, not by taking the first step back); both undone */
    static const int keys_[] = {'j', 'x', 'j', 'j', 'j', 'x', 'u', 'u', 'g', 'j', 'a', 'u', UI_CTRL('r'),
                                'x', 'u', 'j', 'j', 'x', 'u', 'u', 'a', 'j', 'x', 'u', 'J', 'K',
                                'a', 'k', 'x', 'u', 'u', 'G', 'a', 'u', 'K', 'y', 'u'};
    same_as_whole(w, ref, keys_, sizeof keys_ / sizeof *keys_);
    wb_free(ref);
    wb_free(w);
    term_close(&t);
}

static void test_decide_search_mouse(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb *w = make_wb(fixture());
    /* search */
    wb_key(w, '/');
    keys(w, "líneas");
    wb_key(w, UI_KEY_ENTER);
    assert_int_equal(w->cur[UI_SCREEN_PATTERNS].row, 2);
    /* record a decision about it */
    wb_key(w, 'D');
    assert_int_equal(w->screen, UI_SCREEN_DECISIONS);
    assert_true(form_is_open(&w->form)); /* the new decision as a form, its title being edited */
    assert_true(w->form.editing);
    assert_string_equal(w->form.f[w->form.sel].label, "title");
    wb_key(w, UI_KEY_ENTER);
    wb_key(w, UI_KEY_ESC);
    const kp_design *d = session_design(w->ss);
    assert_int_equal(d->ndecisions, 1);
    assert_string_equal(d->decisions[0].patterns[0].s, "3");
    /* mouse: a click on the first tab goes back to Patterns; a click on a row selects it */
    char *s = draw_text(w);
    free(s);
    wb_click(w, 0, 2);
    assert_int_equal(w->screen, UI_SCREEN_PATTERNS);
    s = draw_text(w);
    free(s);
    wb_click(w, w->lay.editor.y + 4, 1);
    assert_int_equal(w->cur[UI_SCREEN_PATTERNS].row, 3);
    /* a click on a pattern's line in the model pane selects that pattern */
    wb_key(w, '2');
    s = draw_text(w);
    free(s);
    int y2 = -1;
    for (int y = w->lay.pane.y; y < w->lay.pane.y + w->lay.pane.h; y++) {
        char line[8];
        mvinnstr(y, w->lay.pane.x, line, 3);
        if (strncmp(line, "2  ", 3) == 0)
            y2 = y;
    }
    assert_true(y2 > 0);
    assert_int_equal(wb_click(w, y2, w->lay.pane.x + 10), UI_REDRAW);
    assert_int_equal(w->screen, UI_SCREEN_PATTERNS);
    assert_int_equal(w->cur[UI_SCREEN_PATTERNS].row, 1);
    assert_int_equal(wb_click(w, w->lay.pane.y, w->lay.pane.x + 2), UI_IGNORED); /* the title line */
    wb_free(w);
    term_close(&t);
}

static void test_resize_storm(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb *w = make_wb(fixture());
    char *before = draw_text(w);
    static const int sizes[][2] = {{40, 120}, {30, 100}, {12, 40},  {4, 12}, {1, 1},
                                   {14, 50},  {13, 49},  {50, 200}, {24, 80}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        resizeterm(sizes[i][0], sizes[i][1]);
        wb_key(w, UI_FKEY(KEY_RESIZE));
        char *s = draw_text(w);
        if (w->lay.too_small && LINES >= 1 && COLS >= 9)
            assert_non_null(strstr(s, "small"));
        free(s);
        /* every screen draws at every size */
        for (int k = 0; k < UI_SCREEN__COUNT; k++) {
            w->screen = k;
            s = draw_text(w);
            free(s);
        }
        w->screen = 0;
    }
    char *after = draw_text(w);
    assert_string_equal(before, after);
    free(before);
    free(after);
    wb_free(w);
    term_close(&t);
}

/* The real analysis: typing the key that serves a pattern turns its plan from scan to get. */
static void test_live_recompute_real_analysis(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    kp_design *d = design_new();
    d->name = xstrdup("live");
    d->table.name = xstrdup("Tbl");
    d->table.pk.s = xstrdup("PK");
    d->table.sk.s = xstrdup("SK");
    edit_add(d, EDIT_ENTITIES, 0);
    set(d, EDIT_ENTITIES, 0, "name", "Order");
    set(d, EDIT_ENTITIES, 0, "count", "1000000");
    set(d, EDIT_ENTITIES, 0, "size", "1000");
    set(d, EDIT_ENTITIES, 0, "attributes", "orderId, customerId");
    set(d, EDIT_KEYS, 0, "PK", "CUSTOMER#{customerId}");
    set(d, EDIT_KEYS, 0, "SK", "ORDER#{orderId}");
    edit_add(d, EDIT_PATTERNS, 0);
    set(d, EDIT_PATTERNS, 0, "entity", "Order");
    set(d, EDIT_PATTERNS, 0, "by", "orderId");
    set(d, EDIT_PATTERNS, 0, "rate", "100");
    wb_options o;
    memset(&o, 0, sizeof o);
    wb *w = wb_new(session_new_memory(d), &o);
    wb_resize(w, LINES, COLS);
    assert_non_null(w->an);
    assert_int_equal(w->an->npatterns, 1);
    assert_int_equal(w->an->patterns[0].plan, KP_PLAN_SCAN);
    /* Keys screen: PK becomes ORDER#{orderId}, SK constant: GetItem */
    wb_key(w, '2');
    wb_key(w, 'l');
    wb_key(w, UI_KEY_ENTER);
    wb_key(w, UI_CTRL('u'));
    keys(w, "ORDER#{orderId}");
    wb_key(w, UI_KEY_TAB);
    wb_key(w, UI_CTRL('u'));
    keys(w, "DETAIL");
    wb_key(w, UI_KEY_ENTER);
    assert_int_equal(w->diags.errors, 0);
    assert_int_equal(w->an->patterns[0].plan, KP_PLAN_GET);
    wb_key(w, '1');
    char *s = draw_text(w);
    assert_non_null(strstr(s, "= get"));
    free(s);
    wb_free(w);
    term_close(&t);
}

/* The row of the table t whose first cell is `name`. */
static size_t row_named(const kp_design *d, edit_table t, const char *name)
{
    size_t r = ts_row_named(d, t, name);
    if (r == (size_t)-1)
        fail_msg("no row %s in %s", name, edit_table_name(t));
    return r;
}

/* The plan of pattern `id` in the workbench's analysis. */
static kp_plan plan_of(const wb *w, const char *id)
{
    const kp_pattern_result *r = pane_result(w->an, id);
    assert_non_null(r);
    return r->plan;
}

/* "What if" works: deleting GSI1 on CloudShop leaves its key templates on Order and D3's signal
 * on it (errors), yet the model analyses the valid rest: pattern 5 falls to a scan, the others
 * keep their plans, and the broken places are marked ! with their reason. u brings GSI1 back. */
static void test_what_if_index_removed(void **state)
{
    (void)state;
    term t;
    term_open(&t, 40, 140);
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    assert_non_null(d);
    size_t gsi1 = row_named(d, EDIT_INDEXES, "GSI1"), d3 = row_named(d, EDIT_DECISIONS, "D3");
    wb_options o;
    memset(&o, 0, sizeof o);
    wb *w = wb_new(session_new_memory(d), &o);
    wb_resize(w, LINES, COLS);
    assert_int_equal(plan_of(w, "5"), KP_PLAN_QUERY);
    wb_key(w, '3');
    w->cur[UI_SCREEN_INDEXES].row = gsi1;
    wb_key(w, 'x');
    assert_true(w->diags.errors > 0);
    assert_true(w->partial);
    assert_int_equal(plan_of(w, "5"), KP_PLAN_SCAN);
    assert_int_equal(plan_of(w, "2"), KP_PLAN_QUERY);
    const ui_draft *sig = NULL;
    for (size_t i = 0; i < w->drafts.n; i++)
        if (w->drafts.v[i].model && w->drafts.v[i].screen == UI_SCREEN_DECISIONS && w->drafts.v[i].row == d3)
            sig = &w->drafts.v[i];
    assert_non_null(sig);
    assert_non_null(strstr(sig->err, "GSI1"));
    assert_int_equal(drafts_typed(&w->drafts), 0); /* nothing typed is pending: q quits at once */
    wb_key(w, '5');
    w->cur[UI_SCREEN_DECISIONS].row = d3;
    w->cur[UI_SCREEN_DECISIONS].col = sig->col;
    char *s = draw_text(w);
    assert_non_null(strstr(s, "the valid rest"));
    assert_non_null(strstr(s, "!pattern.5.rate > 50"));
    assert_non_null(strstr(s, "names unknown index 'GSI1'"));
    free(s);
    wb_key(w, 'u');
    assert_int_equal(w->diags.errors, 0);
    assert_false(w->partial);
    assert_int_equal(w->drafts.n, 0);
    assert_int_equal(plan_of(w, "5"), KP_PLAN_QUERY);
    wb_free(w);
    term_close(&t);
}

/* The screen column titled `title` of screen `id`. */
static size_t col_titled(wb *w, int id, const char *title)
{
    screen_env e = wb_env(w, id);
    size_t n = 0;
    screen_col *c = screen_columns(&e, &n);
    size_t at = n;
    for (size_t i = 0; i < n && at == n; i++)
        if (strcmp(c[i].title, title) == 0)
            at = i;
    free(c);
    if (at == n)
        fail_msg("no column %s", title);
    return at;
}

/* A cell whose text was rejected: u undoes only what was applied (the rate), says what it
 * undid, and leaves the rejected text marked; the mark blocks a commit, naming the cell; Esc in
 * the cell drops the text, and the commit goes through. */
static void test_rejected_cell_undo_and_commit(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb *w = make_wb(fixture());
    size_t rate = col_titled(w, UI_SCREEN_PATTERNS, "rate"),
           lat = col_titled(w, UI_SCREEN_PATTERNS, "latency");
    w->cur[UI_SCREEN_PATTERNS].col = rate;
    wb_key(w, UI_KEY_ENTER);
    wb_key(w, UI_CTRL('u'));
    keys(w, "1234567.891");
    wb_key(w, UI_KEY_ENTER);
    char *s = draw_text(w);
    assert_non_null(strstr(s, "1234567.891")); /* shown exactly */
    free(s);
    w->cur[UI_SCREEN_PATTERNS].col = lat;
    wb_key(w, UI_KEY_ENTER);
    wb_key(w, UI_CTRL('u'));
    keys(w, "-5");
    wb_key(w, UI_KEY_ENTER);
    assert_non_null(strstr(w->msg.text, "-5 must be >= 0"));
    assert_non_null(wb_draft_at(w, UI_SCREEN_PATTERNS, 0, lat));
    wb_key(w, 'u');
    assert_non_null(strstr(w->msg.text, "undone: edit patterns row 1 rate"));
    assert_non_null(strstr(w->msg.text, "never applied"));
    char *r = edit_get(session_design(w->ss), EDIT_PATTERNS, 0,
                       (size_t)edit_col_find(session_design(w->ss), EDIT_PATTERNS, "rate"));
    assert_string_equal(r, "200");
    free(r);
    assert_non_null(wb_draft_at(w, UI_SCREEN_PATTERNS, 0, lat)); /* the rejected text stays */
    wb_commit(w, "with a broken cell");
    assert_non_null(strstr(w->msg.text, "nothing committed: 1 cell marked ! holds text"));
    assert_non_null(strstr(w->msg.text, "Patterns row 1 latency '-5'"));
    assert_int_equal(session_base(w->ss), 0);
    wb_key(w, UI_KEY_ENTER);
    wb_key(w, UI_KEY_ESC);
    assert_null(wb_draft_at(w, UI_SCREEN_PATTERNS, 0, lat));
    wb_key(w, 'u'); /* nothing applied is left to undo: the design's first state */
    wb_commit(w, "clean");
    assert_int_equal(session_base(w->ss), 1);
    wb_key(w, UI_CTRL('r'));
    assert_non_null(strstr(w->msg.text, "redone"));
    wb_free(w);
    term_close(&t);
}

/* Everything from inside: :export in every format (the record says it is an uncommitted working
 * copy), :import of a design file (undoable), :check's report in the detail view. */
static void test_export_import_check_commands(void **state)
{
    (void)state;
    term t;
    term_open(&t, 30, 120);
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    assert_non_null(d);
    wb_options o;
    memset(&o, 0, sizeof o);
    wb *w = wb_new(session_new_memory(d), &o);
    wb_resize(w, LINES, COLS);
    char *dir = ts_temp_dir();
    static const struct {
        const char *format, *holds;
    } formats[] = {
        {"md", "an uncommitted working copy"},
        {"json", "\"working_copy\": true"},
        {"cfn", "AWS::DynamoDB::Table"},
        {"nosqlwb", "DataModel"},
        {"csv", "Get order by id"},
        {"requests", "KeyConditionExpression"},
        {"items", "PutRequest"},
    };
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        char *file = xasprintf("%s/out.%s", dir, formats[i].format);
        char *cmd = xasprintf("export %s %s", formats[i].format, file);
        wb_command(w, cmd);
        char *text = ts_read_file(file, NULL);
        if (!text || !strstr(text, formats[i].holds))
            fail_msg(":%s wrote %s without '%s' (%s)", cmd, text ? "a file" : "nothing", formats[i].holds,
                     w->msg.text);
        free(text);
        free(cmd);
        free(file);
    }
    wb_command(w, "export xml x.xml");
    assert_non_null(strstr(w->msg.text, "usage: :export md|json|cfn|nosqlwb|csv|requests|items FILE"));
    /* :import a design file: the working copy becomes it, u takes it back */
    size_t before = session_design(w->ss)->npatterns;
    char *src = ts_source_path("samples/iot/design.yaml");
    char *cmd = xasprintf("import %s", src);
    wb_command(w, cmd);
    assert_non_null(strstr(w->msg.text, "imported"));
    assert_int_not_equal(session_design(w->ss)->npatterns, before);
    wb_key(w, 'u');
    assert_int_equal(session_design(w->ss)->npatterns, before);
    wb_command(w, "import /nonexistent/design.yaml");
    assert_non_null(strstr(w->msg.text, "import: "));
    /* :check: the report in the detail view */
    wb_command(w, "check");
    assert_true(detail_is_open(&w->detail));
    char *s = draw_text(w);
    assert_non_null(strstr(s, "check: the uncommitted working copy"));
    free(s);
    wb_key(w, UI_KEY_ESC);
    assert_false(detail_is_open(&w->detail));
    free(cmd);
    free(src);
    free(dir);
    wb_free(w);
    term_close(&t);
}

/* The CloudShop tour's steps as ui_run gives them to the workbench. */
static wb_tour_step *cloudshop_steps(size_t *n)
{
    char *err = NULL;
    tour *t = tour_open(NULL, &err);
    assert_non_null(t);
    *n = tour_nsteps(t);
    wb_tour_step *v = xcalloc(*n, sizeof *v);
    for (size_t i = 0; i < *n; i++) {
        const tour_step *s = tour_step_at(t, i);
        v[i].title = xstrdup(s->title);
        v[i].narration = xstrdup(s->narration);
        v[i].design = tour_design(t, i);
        kp_analysis *a = analysis_run(v[i].design);
        v[i].figures = tour_figures(t, i, a);
        analysis_free(a);
        v[i].try_task = xstrdup(s->try_task);
        v[i].ntry = s->ntry;
        v[i].try_checks = xcalloc(s->ntry, sizeof *v[i].try_checks);
        for (size_t k = 0; k < s->ntry; k++)
            v[i].try_checks[k] = xstrdup(s->try_checks[k]);
    }
    tour_close(t);
    return v;
}

/* A workbench on an empty memory session with the CloudShop tour, at the terminal's size. */
static wb *cloudshop_tour_wb(void)
{
    wb_options o;
    memset(&o, 0, sizeof o);
    o.tour = cloudshop_steps(&o.ntour);
    wb *w = wb_new(session_new_memory(NULL), &o);
    wb_resize(w, LINES, COLS);
    return w;
}

/* The Patterns screen writes the latency target with its unit, as the pane does (it showed the
 * bare number of milliseconds); the cell editor keeps the number. */
static void test_patterns_latency_unit(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 100);
    kp_design *d = fixture();
    set(d, EDIT_PATTERNS, 0, "latency", "300000");
    set(d, EDIT_PATTERNS, 1, "latency", "0.4");
    wb *w = real_wb(d);
    char *s = draw_text(w);
    assert_non_null(strstr(s, " 5.0 min\n"));
    assert_non_null(strstr(s, " 0.4 ms\n"));
    assert_non_null(strstr(s, " 30 ms\n"));
    assert_null(strstr(s, "300000"));
    free(s);
    char *raw = edit_get(session_design(w->ss), EDIT_PATTERNS, 0,
                         (size_t)edit_col_find(session_design(w->ss), EDIT_PATTERNS, "latency"));
    assert_string_equal(raw, "300000");
    free(raw);
    wb_free(w);
    term_close(&t);
}

/* The tour at 80x24: step 1's figures (a line each pattern) and the why of its huge monthly cost
 * show whole without scrolling: the narration panel is as high as they need, they come first and
 * the figure lines too wide have their names cut to one column (the columns stay aligned);
 * the exercise and the narration follow, reached with }. They used to follow the narration and
 * need scrolling below 100 columns. */
static void test_golden_tour_figures_80x24(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb *w = cloudshop_tour_wb();
    wb_command(w, "tour 1");
    char *s = draw_text(w);
    golden("tour_figures_80x24", s);
    assert_non_null(strstr(s, " Why €6,318,340,496.14 a month: scans (patterns 1, 2, 3, 4, 8, 9) read the"));
    assert_non_null(strstr(s, "scan a query."));
    static const char *const figures[] = {
        "   1   Get order by id                                400/s    < 20 ms  ! scan",
        "   5   Orders pending shipment, for the warehouse p…    2/s      < 1 s  ~ query",
        "   9   Sales by category and week (reports)               -          -  ! scan",
        "   12  Advance the status of an order                 360/s          -  + multi",
    };
    for (size_t i = 0; i < sizeof figures / sizeof *figures; i++)
        assert_non_null(strstr(s, figures[i]));
    free(s);
    /* } scrolls to the exercise, then the narration */
    bool exercise = false, narration = false;
    for (int i = 0; i < 60; i++) {
        wb_key(w, '}');
        s = draw_text(w);
        exercise |= strstr(s, "Try it: ") != NULL;
        narration |= strstr(s, "DynamoDB only does two things fast") != NULL;
        free(s);
    }
    assert_true(exercise);
    assert_true(narration);
    wb_free(w);
    term_close(&t);
}

/* One tour step in Spanish at 80x24: the Spanish tour (its own data, on the Spanish CloudShop
 * sample) chosen by the language, its narration, figures and exercise in Spanish, wrapped by
 * display cells within the terminal. */
static void test_golden_spanish_tour(void **state)
{
    (void)state;
    spanish();
    term t;
    term_open(&t, 24, 80);
    wb *w = cloudshop_tour_wb();
    wb_command(w, "tour 5");
    char *s = draw_text(w);
    golden("tour_es_80x24", s);
    assert_non_null(strstr(s, "Paso 5/9"));
    assert_null(strstr(s, "Step 5"));
    assert_null(strstr(s, "Figures"));
    for (const char *line = s; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char *one = xstrndup(line, n);
        assert_true(disp_width(one) <= 80);
        free(one);
        line += n + (end ? 1 : 0);
    }
    free(s);
    wb_free(w);
    term_close(&t);
}

/* A figure line too wide for 80 columns keeps one row: its pattern name is cut with "…" (it
 * wrapped onto two rows, so step 4 showed 8 of its 13 figures at 80x24; now 10, the name whole on
 * the Patterns screen). The names are cut to one column, so the plans line up; a line whose figures
 * are longer than the others' has its name cut further. */
static void test_tour_figure_names_cut_80x24(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb *w = cloudshop_tour_wb();
    wb_command(w, "tour 4");
    char *s = draw_text(w);
    static const char *const lines[] = {
        "   1   Get order by id              = get      1 req on table, 4.01 ms vs 20 ms",
        "   2   Orders of a customer, newe…  ~ query    1 req on table, 4.04 ms vs 50 ms",
        "   5   Orders pending…  ! scan     167,576 req on table, 39.1 min vs 1 s MISSED",
        "   6   Customer data of an order    ^ covered  in pattern 2's result",
        "   10  Customer screen (profile, …  ~ query    1 req on table, 4.06 ms vs 50 ms",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        if (!strstr(s, lines[i]))
            fail_msg("'%s' not on the screen:\n%s", lines[i], s);
    assert_null(strstr(s, "\n 4.04 ms vs 50 ms")); /* no figure wraps onto a second row */
    free(s);
    wb_free(w);
    term_close(&t);
}

/* The tour's exercise turns green: step 4 of CloudShop asks for GSI1 so that pattern 5 becomes a
 * query; the student adds the index and Order's templates, and the check is ticked. Help is
 * drawn over the narration. The student's edits stay with the step; :tour reset drops them. */
static void test_golden_tour_exercise(void **state)
{
    (void)state;
    term t;
    term_open(&t, 40, 120);
    wb *w = cloudshop_tour_wb();
    wb_command(w, "tour 4");
    char *s = draw_text(w);
    assert_non_null(strstr(s, "[ ] pattern.5.plan == query"));
    free(s);
    wb_key(w, '3'); /* Indexes: a new index GSI1 on GSI1PK, GSI1SK */
    wb_key(w, 'a');
    keys(w, "e");
    wb_key(w, UI_CTRL('u'));
    keys(w, "GSI1\t");
    wb_key(w, UI_CTRL('u'));
    keys(w, "GSI1PK\t");
    wb_key(w, UI_CTRL('u'));
    keys(w, "GSI1SK\r");
    const kp_design *d = session_design(w->ss);
    size_t order = row_named(d, EDIT_KEYS, "Order");
    wb_key(w, '2'); /* Keys: Order's templates for them */
    w->cur[UI_SCREEN_KEYS].row = order;
    w->cur[UI_SCREEN_KEYS].col = col_titled(w, UI_SCREEN_KEYS, "GSI1PK");
    keys(w, "e");
    wb_key(w, UI_CTRL('u'));
    keys(w, "ESTADO#{status}\t");
    wb_key(w, UI_CTRL('u'));
    keys(w, "{orderDate}#{orderId}\r");
    assert_int_equal(w->diags.errors, 0);
    assert_non_null(strstr(w->msg.text, "Try it: done!"));
    wb_key(w, '1');
    s = draw_text(w);
    golden("tour_exercise_120x40", s);
    free(s);
    /* help over the tour */
    wb_key(w, '?');
    s = draw_text(w);
    assert_null(strstr(s, "[x] pattern.5.plan"));
    assert_null(strstr(s, "Tour 4/9"));
    free(s);
    wb_key(w, 'q');
    /* the edits stay with step 4 */
    wb_key(w, ']');
    wb_key(w, '[');
    assert_true(wb_tour_exercise(w, NULL));
    wb_command(w, "tour reset");
    assert_false(wb_tour_exercise(w, NULL));
    wb_key(w, UI_KEY_ESC);
    assert_false(w->tour_on);
    wb_free(w);
    term_close(&t);
}

/* A decision opens as a form: every field labelled, long text wrapped over several lines; a field
 * edited in place (its text wrapped while typed) saves as one undoable edit; a refused text stays
 * in the form with its reason. */
static void test_golden_decision_form(void **state)
{
    (void)state;
    term t;
    term_open(&t, 30, 100);
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    assert_non_null(d);
    size_t d3 = row_named(d, EDIT_DECISIONS, "D3");
    wb_options o;
    memset(&o, 0, sizeof o);
    wb *w = wb_new(session_new_memory(d), &o);
    wb_resize(w, LINES, COLS);
    wb_key(w, '5');
    w->cur[UI_SCREEN_DECISIONS].row = d3;
    w->cur[UI_SCREEN_DECISIONS].col = 0;
    wb_key(w, UI_KEY_ENTER);
    assert_true(form_is_open(&w->form));
    char *s = draw_text(w);
    golden("decision_form_100x30", s);
    free(s);
    /* the context, edited in place */
    while (strcmp(w->form.f[w->form.sel].label, "context") != 0)
        wb_key(w, 'j');
    wb_key(w, UI_KEY_ENTER);
    keys(w, " Measured in March.");
    wb_key(w, UI_KEY_ENTER);
    assert_false(w->form.editing);
    assert_non_null(strstr(session_design(w->ss)->decisions[d3].context, "Measured in March."));
    assert_non_null(strstr(w->msg.text, "saved context"));
    /* a refused signal stays in the form with its reason */
    while (strcmp(w->form.f[w->form.sel].label, "signals") != 0)
        wb_key(w, 'j');
    wb_key(w, UI_KEY_ENTER);
    wb_key(w, UI_CTRL('u'));
    keys(w, "pattern.5.rate is high");
    wb_key(w, UI_KEY_ENTER);
    assert_true(w->form.editing);
    assert_non_null(w->form.f[w->form.sel].err);
    s = draw_text(w);
    assert_non_null(strstr(s, "! signal 'pattern.5.rate is high'"));
    free(s);
    wb_key(w, UI_KEY_ESC);
    wb_key(w, UI_KEY_ESC);
    assert_false(form_is_open(&w->form));
    wb_key(w, 'u');
    assert_null(strstr(session_design(w->ss)->decisions[d3].context, "Measured in March."));
    assert_non_null(strstr(w->msg.text, "undone: edit decisions row"));
    wb_free(w);
    term_close(&t);
}

/* The tour: narration shown, steps applied, what changed since the previous step highlighted. */
static void test_tour_highlights_changes(void **state)
{
    (void)state;
    term t;
    term_open(&t, 30, 100);
    wb_options o;
    memset(&o, 0, sizeof o);
    o.analyze = fake_analysis;
    o.analysis_free = fake_free;
    o.no_validate = true;
    o.ntour = 2;
    o.tour = xcalloc(2, sizeof *o.tour);
    o.tour[0].title = xstrdup("Primero");
    o.tour[0].narration = xstrdup("Los patrones, antes que nada.");
    o.tour[0].design = fixture();
    o.tour[1].title = xstrdup("Segundo");
    o.tour[1].narration = xstrdup("El patrón 3 pasa a 900 por segundo.");
    o.tour[1].design = fixture();
    char *err = NULL;
    assert_int_equal(edit_set(o.tour[1].design, EDIT_PATTERNS, 2,
                              (size_t)edit_col_find(o.tour[1].design, EDIT_PATTERNS, "rate"), "900", &err),
                     KP_OK);
    wb *w = wb_new(session_new_memory(NULL), &o);
    wb_resize(w, LINES, COLS);
    wb_command(w, "tour");
    char *s = draw_text(w);
    assert_non_null(strstr(s, "Tour 1/2: Primero"));
    assert_non_null(strstr(s, "Los patrones, antes que nada."));
    free(s);
    /* no highlight on the first step */
    int y3 = -1;
    for (int y = w->lay.pane.y; y < w->lay.pane.y + w->lay.pane.h; y++) {
        char line[16];
        mvinnstr(y, 0, line, 3);
        if (strncmp(line, "3  ", 3) == 0)
            y3 = y;
    }
    assert_true(y3 > 0);
    assert_false(mvinch(y3, 20) & A_UNDERLINE);
    wb_key(w, ']');
    s = draw_text(w);
    assert_non_null(strstr(s, "Tour 2/2: Segundo"));
    free(s);
    assert_true(session_design(w->ss)->patterns[2].rate == 900);
    assert_true(mvinch(y3, 20) & A_UNDERLINE);      /* pattern 3 changed */
    assert_false(mvinch(y3 - 1, 20) & A_UNDERLINE); /* pattern 2 did not */
    wb_key(w, ']');
    assert_non_null(strstr(w->msg.text, "last step"));
    wb_key(w, '[');
    assert_true(session_design(w->ss)->patterns[2].rate == 150);
    wb_free(w);
    term_close(&t);
}

/* Decisions show their signals live: a signal the design's own numbers meet reads REOPEN. */
static void test_decision_signals_live(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 100);
    kp_design *d = fixture();
    size_t at = edit_decision_from_pattern(d, 0);
    wb_options o;
    memset(&o, 0, sizeof o);
    wb *w = wb_new(session_new_memory(d), &o);
    wb_resize(w, LINES, COLS);
    assert_non_null(w->an);
    assert_int_equal(w->an->npatterns, 4);
    wb_key(w, '5');
    w->cur[UI_SCREEN_DECISIONS].row = at;
    w->cur[UI_SCREEN_DECISIONS].col =
        (size_t)edit_ncols(session_design(w->ss), EDIT_DECISIONS) + 1; /* signals */
    wb_key(w, UI_KEY_ENTER); /* the decision opens as a form, at its signals */
    assert_true(form_is_open(&w->form));
    assert_string_equal(w->form.f[w->form.sel].label, "signals");
    wb_key(w, UI_KEY_ENTER);
    assert_true(w->form.editing);
    keys(w, "pattern.1.rate > 1000");
    wb_key(w, UI_KEY_ENTER);
    assert_int_equal(session_design(w->ss)->decisions[0].nsignals, 1);
    wb_key(w, UI_KEY_ESC);
    assert_false(form_is_open(&w->form));
    wb_key(w, '0');
    char *s = draw_text(w);
    assert_non_null(strstr(s, "proposed"));
    assert_non_null(strstr(s, "pattern.1.rate: 200"));
    assert_null(strstr(s, "REOPEN"));
    free(s);
    /* the rate rises past the signal's threshold: the decision reads REOPEN */
    wb_key(w, '1');
    w->cur[UI_SCREEN_PATTERNS].row = 0;
    w->cur[UI_SCREEN_PATTERNS].col = 6; /* rate */
    wb_key(w, UI_KEY_ENTER);
    wb_key(w, UI_CTRL('u'));
    keys(w, "1500");
    wb_key(w, UI_KEY_ENTER);
    wb_key(w, '5');
    wb_key(w, '0');
    s = draw_text(w);
    if (!strstr(s, "REOPEN"))
        print_message("%s\nmsg: %s\nrate %g sigs %zu\n", s, w->msg.text,
                      session_design(w->ss)->patterns[0].rate, w->sigs.n);
    assert_non_null(strstr(s, "REOPEN"));
    assert_non_null(strstr(s, "FIRED pattern.1.rate"));
    free(s);
    wb_free(w);
    term_close(&t);
}

/* The session over a real workspace: the working copy survives a restart, undo crosses it, a
 * stale commit is refused with KP_CONFLICT and reload takes the latest version. */
static void test_session_workspace(void **state)
{
    (void)state;
    char *dir = ts_temp_dir();
    char *path = xasprintf("%s/taller.keyplan", dir);
    session *s = NULL;
    bool created = false;
    char *err = NULL;
    assert_int_equal(session_open(path, &s, &created, &err), KP_OK);
    assert_true(created);
    assert_int_equal(session_base(s), 0);
    assert_int_equal(session_apply(s, fixture(), "fixture", &err), KP_OK);
    kp_design *d2 = design_clone(session_design(s));
    set(d2, EDIT_PATTERNS, 0, "rate", "999");
    assert_int_equal(session_apply(s, d2, "rate", &err), KP_OK);
    session_close(s);
    /* reopen: the working copy is there, undo crosses the restart */
    assert_int_equal(session_open(path, &s, &created, &err), KP_OK);
    assert_false(created);
    assert_true(session_design(s)->patterns[0].rate == 999);
    assert_int_equal(session_undo(s, &err), KP_OK);
    assert_true(session_design(s)->patterns[0].rate == 200);
    assert_int_equal(session_redo(s, &err), KP_OK);
    assert_true(session_design(s)->patterns[0].rate == 999);
    int n = 0;
    assert_int_equal(session_commit(s, "primero", &n, &err), KP_OK);
    assert_int_equal(n, 1);
    assert_false(session_dirty(s));
    /* a second process on the same workspace, another author */
    session *s2 = NULL;
    assert_int_equal(session_open_as(path, "bea", &s2, &created, &err), KP_OK);
    assert_int_equal(session_base(s2), 1);
    kp_design *d3 = design_clone(session_design(s));
    set(d3, EDIT_PATTERNS, 1, "rate", "10");
    assert_int_equal(session_apply(s, d3, "a", &err), KP_OK);
    assert_int_equal(session_commit(s, "de A", &n, &err), KP_OK);
    assert_int_equal(n, 2);
    assert_true(session_changed_elsewhere(s2));
    kp_design *d4 = design_clone(session_design(s2));
    set(d4, EDIT_PATTERNS, 2, "rate", "20");
    assert_int_equal(session_apply(s2, d4, "b", &err), KP_OK);
    assert_int_equal(session_commit(s2, "de B", &n, &err), KP_CONFLICT);
    assert_non_null(err);
    free(err);
    err = NULL;
    assert_int_equal(session_latest(s2), 2);
    size_t nconflicts = 9;
    assert_int_equal(session_reload(s2, &nconflicts, &err), KP_OK);
    assert_int_equal(nconflicts, 0);
    assert_int_equal(session_base(s2), 2);
    /* the merge keeps both changes: A's committed one and B's own */
    assert_true(session_design(s2)->patterns[1].rate == 10);
    assert_true(session_design(s2)->patterns[2].rate == 20);
    /* an invalid design is never committed */
    kp_design *bad = design_clone(session_design(s2));
    edit_add(bad, EDIT_PATTERNS, 0);
    assert_int_equal(session_apply(s2, bad, "bad", &err), KP_OK);
    assert_int_equal(session_commit(s2, "roto", &n, &err), KP_INVALID);
    assert_non_null(strstr(err, "not committed"));
    free(err);
    session_close(s2);
    session_close(s);
    /* a memory session has nothing to undo or redo before its first change */
    session *m = session_new_memory(NULL);
    assert_int_equal(session_undo(m, &err), KP_NOTFOUND);
    assert_string_equal(err, "nothing to undo");
    free(err);
    assert_int_equal(session_redo(m, NULL), KP_NOTFOUND);
    assert_int_equal(session_apply(m, fixture(), "fixture", NULL), KP_OK);
    assert_int_equal(session_undo(m, NULL), KP_OK);
    assert_int_equal(session_redo(m, NULL), KP_OK);
    session_close(m);
    free(path);
    free(dir);
}

/* A deterministic storm of keys (every bound key, text, Enter, Esc, Tab) on the real analysis
 * and validation: nothing may crash or leak (run under ASan/UBSan in CI), and the design stays
 * loadable: whatever was accepted validates or is reported. */
static void test_key_storm(void **state)
{
    (void)state;
    term t;
    term_open(&t, 24, 80);
    wb_options o;
    memset(&o, 0, sizeof o);
    wb *w = wb_new(session_new_memory(fixture()), &o);
    wb_resize(w, LINES, COLS);
    size_t nb;
    const ui_binding *b = ui_keymap(&nb);
    static const int extra[] = {UI_KEY_ENTER,
                                UI_KEY_ESC,
                                UI_KEY_TAB,
                                'x',
                                '#',
                                '{',
                                '}',
                                ',',
                                '=',
                                '7',
                                ' ',
                                0xed /* í */,
                                UI_FKEY(KEY_BACKSPACE),
                                UI_CTRL('w'),
                                UI_CTRL('u')};
    unsigned seed = 12345;
    for (int i = 0; i < 4000; i++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = (seed >> 8) % (unsigned)(nb + sizeof extra / sizeof *extra);
        int key = r < nb ? b[r].key : extra[r - nb];
        if (key == 'q' || key == 'R')
            continue; /* quitting ends the storm; reload has nothing to load in memory */
        if (key == ':' || key == '/' || key == 'c') {
            wb_key(w, key);
            wb_key(w, UI_KEY_ESC);
            continue;
        }
        wb_key(w, key);
        if (i % 40 == 0) {
            char *s = draw_text(w);
            free(s);
        }
    }
    wb_finish(w);
    /* the storm did edit: many undoable steps were recorded */
    print_message("key storm: %zu undoable steps, %zu patterns, %zu entities left\n",
                  session_undo_depth(w->ss), session_design(w->ss)->npatterns,
                  session_design(w->ss)->nentities);
    assert_true(session_undo_depth(w->ss) > 50);
    char *s = draw_text(w);
    assert_non_null(strstr(s, "Patterns"));
    free(s);
    wb_free(w);
    term_close(&t);
}

/* A row added, duplicated or deleted on the Attributes screen is told to the analysis as that
 * step, and so are their undo and redo (found by comparing with the design analysed): an
 * attribute nothing reads (a new one, a copy) added or taken out is patched in place, not
 * analysed whole; one the entities carry taken out leaves the design invalid (the analysis
 * stays), and its undo is analysed whole. After each the analysis is the full one's. */
static void test_attr_rows_told(void **state)
{
    (void)state;
    term t;
    term_open(&t, 45, 140);
    wb *w = cloudshop_wb();
    free(draw_text(w));
    w->screen = UI_SCREEN_ATTRS;
    static const struct {
        size_t row;
        int key;
        bool patched;
    } steps[] = {{2, 'a', true}, {3, 'x', true}, {0, 'y', true},  {1, 'x', true},
                 {6, 'a', true}, {7, 'x', true}, {0, 'u', true},  {0, UI_CTRL('r'), true},
                 {0, 'u', true}, {0, 'u', true}, {0, 'x', false}, {0, 'u', false}};
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        w->cur[UI_SCREEN_ATTRS].row = steps[i].row;
        wb_key(w, steps[i].key);
        free(draw_text(w));
        if (steps[i].patched && analysis_was_whole(w->an))
            fail_msg("step %zu ('%c' on row %zu): analysed whole, not patched", i, steps[i].key,
                     steps[i].row);
        if (w->an_behind)
            continue; /* the design does not validate: the last good analysis stays */
        kp_analysis *full = analysis_run(w->good);
        char *ja = analysis_json_string(w->good, w->an, NULL),
             *jb = analysis_json_string(w->good, full, NULL);
        if (strcmp(ja, jb) != 0)
            fail_msg("step %zu ('%c' on row %zu): the analysis differs from the full one", i, steps[i].key,
                     steps[i].row);
        free(ja);
        free(jb);
        analysis_free(full);
    }
    assert_int_equal(session_design(w->ss)->nattrs, 7); /* CloudShop's attributes, as at first */
    wb_free(w);
    term_close(&t);
}

/* Saving pattern cells updates the Patterns screen's column widths from the saved row alone; they
 * equal the widths a workbench opened on the same design draws with, after every save of a random
 * sequence (names longer than their column and shorter again, figures, plans that change). */
static void test_saved_row_widths_equal_whole(void **state)
{
    (void)state;
    term t;
    term_open(&t, 30, 200);
    wb *w = cloudshop_wb();
    const kp_design *d = session_design(w->ss);
    screen_env e = wb_env(w, UI_SCREEN_PATTERNS);
    size_t ncols = 0, pcols[64], np = 0;
    screen_col *sc = screen_columns(&e, &ncols);
    for (size_t i = 0; i < ncols && np < 64; i++)
        if (sc[i].table == EDIT_PATTERNS && edit_changes_pattern_only(EDIT_PATTERNS, sc[i].col))
            pcols[np++] = i;
    static const char *const texts[] = {"x", "a name much longer than the thirty cells of its column", "7",
                                        "123456789012345678901234567890", ""};
    unsigned seed = 11;
    size_t row_only = 0;
    free(draw_text(w));
    for (int step = 0; step < 80; step++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = seed >> 8;
        size_t row = r % d->npatterns, ci = pcols[(r / 32) % np];
        char *text = (r / 2048) % 2 ? edit_get(session_design(w->ss), EDIT_PATTERNS,
                                               (r / 4096) % d->npatterns, sc[ci].col)
                                    : xstrdup(texts[(r / 4096) % (sizeof texts / sizeof *texts)]);
        w->cur[UI_SCREEN_PATTERNS].row = row;
        w->cur[UI_SCREEN_PATTERNS].col = ci;
        wb_key(w, UI_KEY_ENTER);
        wb_key(w, UI_CTRL('u'));
        keys(w, text);
        wb_key(w, UI_KEY_ENTER);
        if (w->editing)
            wb_key(w, UI_KEY_ESC);
        free(text);
        row_only += w->cache[UI_SCREEN_PATTERNS].stale;
        if (w->diags.errors && r % 8) { /* mostly back to a valid design, drawn afresh */
            free(draw_text(w));
            wb_key(w, 'u');
        }
        if (r % 5 == 0) { /* undo and redo of cells edited in place follow that row alone too */
            free(draw_text(w));
            wb_key(w, 'u');
            if (r % 3 == 0) {
                free(draw_text(w));
                wb_key(w, UI_CTRL('r'));
            }
        }
        char *mine = draw_text(w);
        wb *fresh = real_wb(design_clone(session_design(w->ss)));
        /* the drafts (texts that did not parse) are cells too */
        for (size_t k = 0; k < w->drafts.n; k++)
            drafts_set(&fresh->drafts, w->drafts.v[k].screen, w->drafts.v[k].row, w->drafts.v[k].col,
                       w->drafts.v[k].text, w->drafts.v[k].err);
        fresh->cur[UI_SCREEN_PATTERNS] = w->cur[UI_SCREEN_PATTERNS];
        char *theirs = draw_text(fresh);
        /* the screen is the fresh one's, the model pane's figures and findings included, but for
           the last two lines (the status and message lines say what just happened) */
        char *a_end = mine + strlen(mine), *b_end = theirs + strlen(theirs);
        for (int k = 0; k < 3 && a_end > mine; k++)
            while (--a_end > mine && *a_end != '\n') {
            }
        for (int k = 0; k < 3 && b_end > theirs; k++)
            while (--b_end > theirs && *b_end != '\n') {
            }
        *a_end = *b_end = '\0';
        if (strcmp(mine, theirs) != 0)
            fail_msg("step %d: the screen differs from one drawn afresh:\n%s\n----\n%s", step, mine, theirs);
        free(mine);
        free(theirs);
        const screen_cache *a = &w->cache[UI_SCREEN_PATTERNS], *b = &fresh->cache[UI_SCREEN_PATTERNS];
        assert_non_null(a->widths);
        assert_non_null(b->widths);
        assert_int_equal(a->ncols, b->ncols);
        for (size_t i = 0; i < a->ncols; i++)
            if (a->widths[i] != b->widths[i])
                fail_msg("step %d: column %zu (%s) %d wide, drawn afresh %d", step, i, a->cols[i].title,
                         a->widths[i], b->widths[i]);
        /* and which columns have a cell wider than their cap (they take the width left over) */
        assert_non_null(a->memo.cut);
        assert_non_null(b->memo.cut);
        for (size_t i = 0; i < a->ncols; i++)
            if (a->memo.cut[i] != b->memo.cut[i])
                fail_msg("step %d: column %zu (%s) %s, drawn afresh %s", step, i, a->cols[i].title,
                         a->memo.cut[i] ? "cut" : "whole", b->memo.cut[i] ? "cut" : "whole");
        wb_free(fresh);
    }
    assert_true(row_only >= 15); /* many saves took the row's way */
    free(sc);
    wb_free(w);
    term_close(&t);
}

/* The status line in 80 columns keeps what a pair must see: a teammate's new version, the errors,
 * the cost and the hot-partition alarm, leaving out the pattern count and the billing mode first;
 * in 140 columns all but the pattern count when the line is long. */
static void test_status_fits(void **state)
{
    (void)state;
    kp_design *d = ts_load_file("samples/cloudshop/first-design.yaml"); /* keyed by status: HOT */
    kp_analysis *a = analysis_run(d);
    static const struct {
        int cols;
        bool remote;
        size_t errors;
        const char *const want[6];
    } rows[] = {
        {80, true, 2, {"v3 modified", "2 errors", "NEW VERSION: R", "HOT table", "/mo", NULL}},
        {80, false, 0, {"v3 modified", "checklist", "/mo", "HOT table", NULL}},
        {140,
         true,
         2,
         {"NEW VERSION: R merges it in", "HOT table ESTADO#{status}", "2 errors", "checklist", "provisioned",
          NULL}},
        {140, false, 0, {"11 patterns", "HOT table ESTADO#{status}", "checklist", "provisioned", NULL}},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        term t;
        term_open(&t, 24, rows[i].cols);
        status_view v = {3, true, a, d->npatterns, rows[i].errors, rows[i].remote};
        erase();
        status_draw((ui_rect){0, 0, 1, COLS}, &v);
        char *text = screen_text();
        *strchr(text, '\n') = '\0';
        for (size_t k = 0; rows[i].want[k]; k++)
            if (!strstr(text, rows[i].want[k]))
                fail_msg("%d columns: '%s' not in the status line '%s'", rows[i].cols, rows[i].want[k], text);
        free(text);
        term_close(&t);
    }
    analysis_free(a);
    design_free(d);
}

/* The Patterns screen writes a rate under 0.01/s per hour or per day ("1/day" for CloudShop's
 * daily close, 0.0000116/s) and a latency with its unit; other rates stay the number typed. */
static void test_rates_shown_per_day(void **state)
{
    (void)state;
    term t;
    term_open(&t, 45, 140);
    wb *w = cloudshop_wb();
    screen_env e = wb_env(w, UI_SCREEN_PATTERNS);
    size_t ncols = 0, rate = 0, avg = 0, lat = 0;
    screen_col *sc = screen_columns(&e, &ncols);
    for (size_t i = 0; i < ncols; i++) {
        rate = strcmp(sc[i].title, "rate") == 0 ? i : rate;
        avg = strcmp(sc[i].title, "avg") == 0 ? i : avg;
        lat = strcmp(sc[i].title, "latency") == 0 ? i : lat;
    }
    free(sc);
    assert_true(rate && avg && lat);
    const kp_design *d = session_design(w->ss);
    const struct {
        const char *id;
        size_t *col;
        const char *want;
    } rows[] = {{"7", &rate, "1/day"}, {"1", &rate, "400"}, {"1", &avg, "128"}, {"7", &lat, "5.0 min"}};
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        size_t row = (size_t)(design_pattern(d, rows[i].id) - d->patterns);
        int role;
        char *got = screen_cell_text(&e, row, *rows[i].col, &role);
        if (strcmp(got, rows[i].want) != 0)
            fail_msg("pattern %s: '%s', expected '%s'", rows[i].id, got, rows[i].want);
        free(got);
    }
    wb_free(w);
    term_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_controls_shown_not_sent),
        cmocka_unit_test(test_golden_patterns_80x24),
        cmocka_unit_test(test_golden_patterns_120x40),
        cmocka_unit_test(test_golden_keys_spanish),
        cmocka_unit_test_teardown(test_golden_spanish_patterns, back_to_english),
        cmocka_unit_test_teardown(test_golden_spanish_cost, back_to_english),
        cmocka_unit_test_teardown(test_set_lang, back_to_english),
        cmocka_unit_test(test_golden_help),
        cmocka_unit_test(test_status_fits),
        cmocka_unit_test(test_rates_shown_per_day),
        cmocka_unit_test(test_golden_too_small),
        cmocka_unit_test(test_golden_editing),
        cmocka_unit_test(test_golden_detail),
        cmocka_unit_test(test_detail_scrolls),
        cmocka_unit_test(test_messages_listed),
        cmocka_unit_test(test_pane_resize),
        cmocka_unit_test(test_colour_capture),
        cmocka_unit_test(test_widths_follow_changes),
        cmocka_unit_test(test_golden_items_cloudshop),
        cmocka_unit_test(test_items_keys),
        cmocka_unit_test(test_history_diff_whole),
        cmocka_unit_test(test_cost_line_whole),
        cmocka_unit_test(test_pane_units_and_why_not),
        cmocka_unit_test(test_help_legend),
        cmocka_unit_test(test_pane_decision),
        cmocka_unit_test(test_percentages_one_formatter),
        cmocka_unit_test(test_help_lists_every_action),
        cmocka_unit_test(test_commands_table_and_help),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_monochrome_roles),
        cmocka_unit_test(test_lineedit),
        cmocka_unit_test(test_edit_cells_by_keys),
        cmocka_unit_test(test_broken_template_keeps_last_good),
        cmocka_unit_test(test_rows_and_commit),
        cmocka_unit_test(test_history_irreversible),
        cmocka_unit_test(test_grid_widths_follow_rows),
        cmocka_unit_test(test_row_steps_as_whole),
        cmocka_unit_test(test_rest_edits_as_whole),
        cmocka_unit_test(test_entity_edits_as_whole),
        cmocka_unit_test(test_row_steps_past_salvage),
        cmocka_unit_test(test_row_steps_with_decisions),
        cmocka_unit_test(test_row_steps_saved),
        cmocka_unit_test(test_decide_search_mouse),
        cmocka_unit_test(test_resize_storm),
        cmocka_unit_test(test_live_recompute_real_analysis),
        cmocka_unit_test(test_what_if_index_removed),
        cmocka_unit_test(test_rejected_cell_undo_and_commit),
        cmocka_unit_test(test_export_import_check_commands),
        cmocka_unit_test(test_patterns_latency_unit),
        cmocka_unit_test(test_golden_tour_figures_80x24),
        cmocka_unit_test_teardown(test_golden_spanish_tour, back_to_english),
        cmocka_unit_test(test_tour_figure_names_cut_80x24),
        cmocka_unit_test(test_golden_tour_exercise),
        cmocka_unit_test(test_golden_decision_form),
        cmocka_unit_test(test_tour_highlights_changes),
        cmocka_unit_test(test_decision_signals_live),
        cmocka_unit_test(test_session_workspace),
        cmocka_unit_test(test_key_storm),
        cmocka_unit_test(test_saved_row_widths_equal_whole),
        cmocka_unit_test(test_attr_rows_told),
        cmocka_unit_test(test_entity_rename_as_whole),
        cmocka_unit_test(test_pattern_id_as_whole),
        cmocka_unit_test(test_index_rename_as_whole),
        cmocka_unit_test(test_cell_replayed_as_whole),
        cmocka_unit_test(test_index_rows_as_whole),
        cmocka_unit_test(test_row_filled_as_whole),
        cmocka_unit_test(test_entity_added_undone),
        cmocka_unit_test(test_rows_filled_at_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
