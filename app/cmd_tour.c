/* cmd_tour.c - keyplan tour [cloudshop] [--print] [--step N] [--yaml] [WORKSPACE]
 *.
 *   --print      print the steps with their narration and the figures keyplan computes from
 *                each step's design (a workshop handout); no terminal needed
 *   --step N     with --print: only step N
 *   --yaml       with --step N: print the design of step N as YAML instead
 *   otherwise    open the walkthrough in the workbench (ui_run with opt.tour), on WORKSPACE
 *                (default: tour.keyplan in the current folder). A WORKSPACE argument is a path
 *                ending in .keyplan or containing '/'; any other word must be a tour name.
 * Exit status: 0, or 2 for unusable arguments (message on stderr). */
#include "commands.h"

#include "i18n.h"
#include "tour.h"
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void tour_usage(FILE *out)
{
    /* TRANSLATORS: keyplan tour's help; the options and cloudshop stay, the texts after them are
       aligned at column 15 */
    fputs(_("usage: keyplan tour [cloudshop] [--print [--step N [--yaml]]] [WORKSPACE]\n"
            "  the course's CloudShop walkthrough, step by step (9 steps)\n"
            "  --print      print every step with its figures (a handout)\n"
            "  --step N     only step N;  --yaml: its design as YAML\n"
            "  WORKSPACE    the workspace the workbench opens for the tour (default tour.keyplan)\n"),
          out);
}

/* A workspace argument: a path ending in .keyplan (or with a '/', checked by the caller). */
static bool looks_like_workspace(const char *a)
{
    size_t n = strlen(a);
    return n > 8 && strcmp(a + n - 8, ".keyplan") == 0;
}

static bool parse_step(const char *s, long *out)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 1 || v > 1000)
        return false;
    *out = v;
    return true;
}

int cmd_tour(int argc, char **argv)
{
    const char *name = TOUR_DEFAULT, *workspace = NULL;
    bool print = false, yaml = false;
    long step = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--print") == 0)
            print = true;
        else if (strcmp(a, "--yaml") == 0)
            yaml = true;
        else if (strcmp(a, "--step") == 0) {
            if (i + 1 >= argc || !parse_step(argv[i + 1], &step)) {
                fprintf(stderr, _("keyplan tour: --step expects a step number (1 to 9)\n"));
                return 2;
            }
            i++;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            tour_usage(stdout);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, _("keyplan tour: unknown option '%s'\n"), a);
            tour_usage(stderr);
            return 2;
        } else if (tour_exists(a) && name == (const char *)TOUR_DEFAULT && !workspace) {
            name = a;
        } else if (!workspace && (strchr(a, '/') || looks_like_workspace(a))) {
            workspace = a;
        } else if (!workspace) {
            fprintf(
                stderr,
                _("keyplan tour: unknown tour '%1$s'; expected '%2$s' (a workspace path ends in .keyplan)\n"),
                a, TOUR_DEFAULT);
            return 2;
        } else {
            fprintf(stderr, _("keyplan tour: unexpected argument '%s'\n"), a);
            tour_usage(stderr);
            return 2;
        }
    }
    if (!tour_exists(name)) {
        fprintf(stderr, _("keyplan tour: unknown tour '%1$s'; expected '%2$s'\n"), name, TOUR_DEFAULT);
        return 2;
    }
    if (workspace && (print || yaml)) {
        fprintf(stderr, _("keyplan tour: --print and --yaml take no workspace ('%s')\n"), workspace);
        return 2;
    }
    tour *t = NULL;
    if (step || print || yaml) {
        char *err = NULL;
        t = tour_open(name, &err);
        if (!t) {
            fprintf(stderr, "keyplan tour: %s\n", err);
            free(err);
            return 2;
        }
    }
    if (step > (long)tour_nsteps(t)) {
        fprintf(stderr, _("keyplan tour: step %1$ld does not exist; the tour has steps 1 to %2$zu\n"), step,
                tour_nsteps(t));
        tour_close(t);
        return 2;
    }
    if ((yaml || step) && !print && !yaml) {
        fprintf(stderr, _("keyplan tour: --step goes with --print or --yaml\n"));
        tour_close(t);
        return 2;
    }
    if (yaml && !step) {
        fprintf(stderr, _("keyplan tour: --yaml needs --step N\n"));
        tour_close(t);
        return 2;
    }
    if (print || yaml) {
        char *out;
        if (yaml) {
            char *err = NULL;
            out = tour_yaml(t, (size_t)step - 1, &err);
            if (!out) {
                fprintf(stderr, "keyplan tour: %s\n", err);
                free(err);
                tour_close(t);
                return 2;
            }
        } else if (step) {
            const tour_step *s = tour_step_at(t, (size_t)step - 1);
            kp_design *d = tour_design(t, (size_t)step - 1);
            kp_analysis *a = analysis_run(d);
            char *fig = tour_figures(t, (size_t)step - 1, a);
            char *head = xasprintf(_("Step %1$d. %2$s"), s->number, s->title);
            out = xasprintf("%s\n\n%s\n%s\n%s", head, s->narration,
                            _("Figures (computed by keyplan from this step's design):"), fig);
            free(head);
            free(fig);
            analysis_free(a);
            design_free(d);
        } else {
            out = tour_print(t, 0);
        }
        tour_close(t);
        fputs(out, stdout);
        free(out);
        return fflush(stdout) == 0 ? 0 : 2;
    }
    ui_options opt = {.tour = true, .tour_name = name};
    return ui_run(workspace ? workspace : UI_TOUR_WORKSPACE, &opt);
}
