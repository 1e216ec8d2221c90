/* ui.c - ui_run: the terminal, the signal flags and the main loop. Handlers return flags; only
 * this loop draws. The terminal is restored on every exit path (util_set_die_hook). */
#include "ui/ui.h"

#include "storage/tour.h"
#include "ui/wb.h"

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
    size_t ns = 0;
    const tour_step *steps = tour_steps(name, &ns);
    if (!steps || !ns) {
        *err = xasprintf("unknown tour '%s'; expected '%s'", name, TOUR_DEFAULT);
        return NULL;
    }
    wb_tour_step *v = xcalloc(ns, sizeof *v);
    for (size_t i = 0; i < ns; i++) {
        kp_design *d = tour_design(name, i, err);
        if (!d) {
            for (size_t k = 0; k < i; k++) {
                free(v[k].title);
                free(v[k].narration);
                free(v[k].figures);
                design_free(v[k].design);
                for (size_t m = 0; m < v[k].nmarks; m++)
                    free(v[k].marks[m]);
                free(v[k].marks);
            }
            free(v);
            return NULL;
        }
        v[i].title = xstrdup(steps[i].title);
        v[i].narration = xstrdup(steps[i].narration);
        v[i].design = d;
        kp_analysis *a = analysis_run(d);
        v[i].figures = tour_figures(name, i, a);
        analysis_free(a);
        v[i].nmarks = steps[i].nmarks;
        v[i].marks = steps[i].nmarks ? xcalloc(steps[i].nmarks, sizeof *v[i].marks) : NULL;
        for (size_t m = 0; m < steps[i].nmarks; m++)
            v[i].marks[m] = xasprintf("%s:%s", steps[i].marks[m].kind ? steps[i].marks[m].kind : "",
                                      steps[i].marks[m].name ? steps[i].marks[m].name : "");
    }
    *n = ns;
    return v;
}

int ui_run(const char *workspace_path, const ui_options *opt)
{
    const char *path = workspace_path && *workspace_path ? workspace_path : WS_DEFAULT_PATH;
    setlocale(LC_ALL, "");
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fprintf(stderr, "keyplan: the workbench needs a terminal (stdin and stdout); for scripts use "
                        "keyplan check, export or commit\n");
        return 2;
    }
    session *s = NULL;
    bool created = false;
    char *err = NULL;
    kp_status st = session_open(path, &s, &created, &err);
    if (st != KP_OK) {
        fprintf(stderr, "keyplan: %s: %s\n", path, err ? err : kp_status_text(st));
        free(err);
        return 2;
    }
    wb_options wo;
    memset(&wo, 0, sizeof wo);
    /* `keyplan` with no workspace named and none in the folder yet opens the CloudShop tour */
    bool want_tour = (opt && opt->tour) || (created && !(workspace_path && *workspace_path));
    char *tour_err = NULL;
    if (want_tour)
        wo.tour = load_tour(opt && opt->tour_name ? opt->tour_name : "cloudshop", &wo.ntour, &tour_err);
    if (opt && opt->tour && !wo.ntour) {
        fprintf(stderr, "keyplan: tour: %s\n", tour_err ? tour_err : "no such tour");
        free(tour_err);
        session_close(s);
        return 2;
    }
    free(tour_err);

    SCREEN *scr = newterm(NULL, stdout, stdin);
    if (!scr) {
        fprintf(stderr, "keyplan: cannot use the terminal (TERM=%s)\n", getenv("TERM") ? getenv("TERM") : "");
        session_close(s);
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
    if (created && wo.ntour)
        wb_command(w, "tour");
    else if (created)
        wb_message(w, UI_ROLE_TITLE, "new workspace %s: press a to add a pattern, ? for help", path);
    int flags = WB_REDRAW;
    while (!w->quit && !got_signal) {
        if (flags & (WB_REDRAW | WB_RESIZE)) {
            if (flags & WB_RESIZE)
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
        if (key == '\r')
            key = UI_KEY_ENTER;
        if (key == UI_FKEY(KEY_MOUSE)) {
            MEVENT ev;
            flags = getmouse(&ev) == OK ? wb_click(w, ev.y, ev.x) : WB_IGNORED;
            continue;
        }
        if (key == UI_FKEY(KEY_RESIZE)) {
            flags = wb_resize(w, LINES, COLS);
            continue;
        }
        flags = wb_key(w, key);
        if (flags & WB_RESIZE)
            wb_resize(w, LINES, COLS);
    }
    wb_finish(w);
    endwin();
    delscreen(scr);
    util_set_die_hook(NULL);
    int base = session_base(w->ss);
    bool dirty = session_dirty(w->ss);
    wb_free(w);
    if (got_signal && got_signal != SIGINT)
        return 0;
    if (base)
        printf("keyplan: %s: working copy saved (version %d%s)\n", path, base,
               dirty ? " plus uncommitted edits" : ", nothing uncommitted");
    else
        printf("keyplan: %s: working copy saved (nothing committed yet)\n", path);
    return 0;
}
