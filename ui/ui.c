/* ui.c - ui_run: the terminal, the signal flags and the main loop, at the top of ui/. Handlers
 * return flags; only this loop draws. The terminal is restored on every exit path (util_set_die_hook). */
#include "ui.h"

#include "design_io.h"
#include "i18n.h"
#include "tour.h"
#include "wb.h"

#include <curses.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t got_signal;

static void on_signal(int sig) { got_signal = sig; }

static void restore_terminal(void)
{
    if (!isendwin())
        endwin();
}

/* The tour's steps as the workbench needs them (designs, narration, figures, marks). */
static wb_tour_step *load_tour(const char *name, size_t *n, char **err)
{
    *n = 0;
    tour *t = tour_open(name, err);
    if (!t)
        return NULL;
    size_t ns = tour_nsteps(t);
    wb_tour_step *v = xcalloc(ns, sizeof *v);
    for (size_t i = 0; i < ns; i++) {
        const tour_step *s = tour_step_at(t, i);
        kp_design *d = tour_design(t, i);
        v[i].title = xstrdup(s->title);
        v[i].narration = xstrdup(s->narration);
        v[i].design = d;
        kp_analysis *a = analysis_run(d);
        v[i].figures = tour_figures(t, i, a);
        analysis_free(a);
        v[i].nmarks = s->nmarks;
        v[i].marks = s->nmarks ? xcalloc(s->nmarks, sizeof *v[i].marks) : NULL;
        for (size_t m = 0; m < s->nmarks; m++)
            v[i].marks[m] = xasprintf("%s:%s", s->marks[m].kind, s->marks[m].name);
        v[i].try_task = s->try_task ? xstrdup(s->try_task) : NULL;
        v[i].ntry = s->ntry;
        v[i].try_checks = s->ntry ? xcalloc(s->ntry, sizeof *v[i].try_checks) : NULL;
        for (size_t k = 0; k < s->ntry; k++)
            v[i].try_checks[k] = xstrdup(s->try_checks[k]);
    }
    tour_close(t);
    *n = ns;
    return v;
}

static bool is_yaml(const char *p)
{
    size_t n = strlen(p);
    return (n > 5 && strcmp(p + n - 5, ".yaml") == 0) || (n > 4 && strcmp(p + n - 4, ".yml") == 0);
}

/* NAME.yaml -> NAME.keyplan (caller frees). */
static char *workspace_beside(const char *yaml)
{
    const char *dot = strrchr(yaml, '.');
    return xasprintf("%.*s.keyplan", (int)(dot - yaml), yaml);
}

/* A working copy the tour may take: empty (a new workspace), or one the tour left its step in. */
static bool tour_may_take(session *s)
{
    const kp_design *d = session_design(s);
    if (!d->npatterns && !d->nentities)
        return true;
    char *step = NULL;
    ws_t *ws = session_ws(s);
    bool ours = ws && ws_meta_get(ws, "tour.step", &step, NULL) == KP_OK && step;
    free(step);
    return ours;
}

int ui_run(const char *workspace_path, const ui_options *opt)
{
    const char *path = workspace_path && *workspace_path ? workspace_path : WS_DEFAULT_PATH;
    /* `keyplan` with no workspace named and none in the folder: the tour, in its own workspace */
    bool first_run = !(workspace_path && *workspace_path) && access(WS_DEFAULT_PATH, F_OK) != 0;
    if (first_run)
        path = UI_TOUR_WORKSPACE;
    /* messages and figures were chosen by i18n_init (LC_NUMERIC stays "C"); ncurses needs UTF-8 */
    i18n_utf8();
    /* a design file opens in the workspace beside it (NAME.keyplan), as an undoable edit */
    kp_design *imported = NULL;
    char *ws_name = NULL;
    if (is_yaml(path)) {
        kp_diags dg;
        diags_init(&dg, NULL);
        imported = designio_load_file(path, &dg);
        if (!imported) {
            diags_print(&dg, stderr);
            if (!dg.n)
                fprintf(stderr, _("keyplan: %s: cannot load the design\n"), path);
            diags_free(&dg);
            return 2;
        }
        diags_free(&dg);
        ws_name = workspace_beside(path);
        path = ws_name;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fprintf(stderr, _("keyplan: the workbench needs a terminal (stdin and stdout); for scripts use "
                          "keyplan check, export or commit\n"));
        design_free(imported);
        free(ws_name);
        return 2;
    }
    session *s = NULL;
    bool created = false;
    char *err = NULL;
    kp_status st = session_open_as(path, opt ? opt->author : NULL, &s, &created, &err);
    if (st != KP_OK) {
        fprintf(stderr, "keyplan: %s: %s\n", path, err ? err : kp_status_text(st));
        free(err);
        design_free(imported);
        free(ws_name);
        return 2;
    }
    bool imported_changed = false;
    if (imported) {
        if (design_equal(imported, session_design(s))) {
            design_free(imported);
        } else {
            imported_changed = true;
            char *e2 = NULL;
            session_apply(s, imported, "open design file", &e2);
            free(e2);
        }
    }
    wb_options wo;
    memset(&wo, 0, sizeof wo);
    bool want_tour = (opt && opt->tour) || first_run;
    if (want_tour && !tour_may_take(s)) {
        fprintf(stderr,
                _("keyplan: tour: %s holds a design of its own; the tour keeps to its own workspace "
                  "(keyplan tour %s) and never replaces a working copy\n"),
                path, UI_TOUR_WORKSPACE);
        session_close(s);
        free(ws_name);
        return 2;
    }
    char *tour_err = NULL;
    if (want_tour)
        wo.tour = load_tour(opt && opt->tour_name ? opt->tour_name : "cloudshop", &wo.ntour, &tour_err);
    if (opt && opt->tour && !wo.ntour) {
        fprintf(stderr, _("keyplan: tour: %s\n"), tour_err ? tour_err : _("no such tour"));
        free(tour_err);
        session_close(s);
        free(ws_name);
        return 2;
    }
    free(tour_err);

    SCREEN *scr = newterm(NULL, stdout, stdin);
    if (!scr) {
        fprintf(stderr, _("keyplan: cannot use the terminal (TERM=%s)\n"),
                getenv("TERM") ? getenv("TERM") : "");
        session_close(s);
        free(ws_name);
        return 2;
    }
    util_set_die_hook(restore_terminal);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
    mouseinterval(0);
    timeout(500);
    theme_init();

    wb *w = wb_new(s, &wo);
    wb_resize(w, LINES, COLS);
    if (wo.ntour)
        wb_command(w, "tour"); /* where it was left, else from step 1 */
    else if (imported_changed)
        wb_message(w, UI_ROLE_TITLE, _("%s opened in workspace %s (u undoes the import; c commits)"),
                   workspace_path, path);
    else if (created)
        wb_message(w, UI_ROLE_TITLE, _("new workspace %s: press a to add a pattern, ? for help"), path);
    int flags = UI_REDRAW;
    while (!wb_quitting(w) && !got_signal) {
        if (flags & (UI_REDRAW | UI_RESIZE)) {
            if (flags & UI_RESIZE)
                clearok(curscr, TRUE);
            erase();
            wb_draw(w);
            refresh();
        }
        wint_t ch = 0;
        int r = get_wch(&ch);
        if (got_signal)
            break;
        if (r == ERR) {
            flags = wb_tick(w);
            continue;
        }
        int key = r == KEY_CODE_YES ? UI_FKEY((int)ch) : (int)ch;
        if (key == '\r' || key == UI_FKEY(KEY_ENTER))
            key = UI_KEY_ENTER;
        if (key == UI_FKEY(KEY_MOUSE)) {
            MEVENT ev;
            flags = getmouse(&ev) == OK ? wb_click(w, ev.y, ev.x) : UI_IGNORED;
            continue;
        }
        flags = wb_key(w, key); /* KEY_RESIZE too: wb_key lays the frame out for the new size */
    }
    wb_finish(w);
    endwin();
    delscreen(scr);
    util_set_die_hook(NULL);
    int base = session_base(wb_session(w));
    bool dirty = session_dirty(wb_session(w));
    /* texts that never parsed are not in the design: print them so that nothing typed is lost */
    const drafts *dr = wb_drafts(w);
    for (size_t i = 0; i < dr->n; i++)
        if (!dr->v[i].model)
            printf(_("keyplan: not saved (did not parse), %s row %zu: %s\n  %s\n"),
                   ui_screen_title(dr->v[i].screen), dr->v[i].row + 1, dr->v[i].text,
                   dr->v[i].err ? dr->v[i].err : "");
    wb_free(w);
    if (got_signal && got_signal != SIGINT) {
        free(ws_name);
        return 0;
    }
    if (base)
        printf(dirty ? _("keyplan: %s: working copy saved (version %d plus uncommitted edits)\n")
                     : _("keyplan: %s: working copy saved (version %d, nothing uncommitted)\n"),
               path, base);
    else
        printf(_("keyplan: %s: working copy saved (nothing committed yet)\n"), path);
    free(ws_name);
    return 0;
}
