/* tour.c - playing a tour (see tour.h): the built-in tours, their steps and designs, the
 * figures and the handout. Reading the tour file is tour_load.c's work. */
#include "tour_int.h"

#include "design_io.h"
#include "display.h"
#include "i18n.h"

#include <stdlib.h>
#include <string.h>

const tour_file *tour_file_find(const char *path)
{
    for (size_t i = 0; path && i < tour_nfiles; i++)
        if (strcmp(tour_files[i].path, path) == 0)
            return &tour_files[i];
    return NULL;
}

/* The embedded tour file of tour `name` in the reader's language (i18n_lang(): the sample's
 * LANG/tour/tour.yaml, "samples/cloudshop/es/tour/tour.yaml"), else the English one, or NULL.
 * *path receives its path (caller frees). */
static const tour_file *tour_file_of(const char *name, char **path)
{
    *path = NULL;
    if (!name || !*name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        return NULL;
    const char *lang = i18n_lang();
    if (strcmp(lang, "en") != 0) {
        *path = xasprintf("samples/%s/%s/tour/tour.yaml", name, lang);
        const tour_file *f = tour_file_find(*path);
        if (f)
            return f;
        free(*path);
    }
    *path = xasprintf("samples/%s/tour/tour.yaml", name);
    return tour_file_find(*path);
}

char *tour_words_list(const char *const *words)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    for (size_t i = 0; words[i]; i++)
        /* TRANSLATORS: the last separator of a list of words ("a, b or c") */
        sbuf_printf(&b, "%s%s", i == 0 ? "" : words[i + 1] ? ", " : _(" or "), words[i]);
    return sbuf_steal(&b);
}

bool tour_exists(const char *name)
{
    char *path;
    bool found = tour_file_of(name ? name : TOUR_DEFAULT, &path) != NULL;
    free(path);
    return found;
}

tour *tour_open(const char *name, char **err)
{
    char *path;
    const tour_file *f = tour_file_of(name ? name : TOUR_DEFAULT, &path);
    if (!f) {
        free(path);
        /* TRANSLATORS: %1$s the tour asked for, %2$s the built-in tour (cloudshop) */
        *err = xasprintf(_("unknown tour '%1$s'; expected '%2$s'"), name ? name : "", TOUR_DEFAULT);
        return NULL;
    }
    kp_diags dg;
    diags_init(&dg, path);
    tour *t = tour_load(f->text, f->len, path, &dg);
    if (!t)
        *err = dg.n ? diags_format(&dg, 0) : xasprintf(_("%s does not load"), path);
    diags_free(&dg);
    free(path);
    return t;
}

void tour_close(tour *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nsteps; i++) {
        tour_step *s = &t->steps[i];
        tour_play *p = &t->play[i];
        free(s->id);
        free(s->title);
        free(s->narration);
        for (size_t k = 0; k < s->nmarks; k++) {
            free(s->marks[k].kind);
            free(s->marks[k].name);
        }
        free(s->marks);
        for (size_t r = 0; r < s->nrungs; r++) {
            free(s->rungs[r].label);
            free(s->rungs[r].course);
            design_free(p->rungs[r]);
        }
        free(s->rungs);
        free(p->rungs);
        for (size_t k = 0; k < s->nchecks; k++)
            free(s->checks[k]);
        free(s->checks);
        for (size_t k = 0; k < s->ntry; k++)
            free(s->try_checks[k]);
        free(s->try_checks);
        free(s->try_task);
        design_free(p->design);
        for (size_t k = 0; k < p->nfigures; k++) {
            free(p->figures[k].arg);
            free(p->figures[k].label);
        }
        free(p->figures);
    }
    free(t->steps);
    free(t->play);
    free(t->name);
    free(t->title);
    free(t);
}

const char *tour_title(const tour *t) { return t->title; }

const char *tour_name(const tour *t) { return t->name; }

size_t tour_nsteps(const tour *t) { return t ? t->nsteps : 0; }

const tour_step *tour_step_at(const tour *t, size_t i) { return t && i < t->nsteps ? &t->steps[i] : NULL; }

ptrdiff_t tour_find(const tour *t, const char *id)
{
    for (size_t i = 0; t && id && i < t->nsteps; i++)
        if (t->steps[i].id && strcmp(t->steps[i].id, id) == 0)
            return (ptrdiff_t)i;
    return -1;
}

kp_design *tour_design(const tour *t, size_t i)
{
    return t && i < t->nsteps ? design_clone(t->play[i].design) : NULL;
}

kp_design *tour_rung_design(const tour *t, size_t i, size_t r)
{
    return t && i < t->nsteps && r < t->steps[i].nrungs ? design_clone(t->play[i].rungs[r]) : NULL;
}

char *tour_yaml(const tour *t, size_t i, char **err)
{
    if (!t || i >= t->nsteps) {
        kp_fail(err, KP_NOTFOUND, _("no step %zu in the tour"), i + 1);
        return NULL;
    }
    return designio_save(t->play[i].design, err);
}

char *tour_figures(const tour *t, size_t i, const kp_analysis *a)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    if (t && i < t->nsteps)
        tour_figures_add(&b, t, i, a);
    return sbuf_steal(&b);
}

/* ---- the handout ----------------------------------------------------------------------------- */

/* Appends text wrapped at `width` columns, each of its lines a paragraph that ends a line. */
static void wrap(sbuf *b, const char *text, int width)
{
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t plen = eol ? (size_t)(eol - p) : strlen(p);
        disp_wrap(b, p, plen, 0, width, 0);
        sbuf_addc(b, '\n');
        if (!eol)
            break;
        p = eol + 1;
    }
}

char *tour_print(const tour *t, int width)
{
    if (width <= 0)
        width = 96;
    if (width < 60)
        width = 60;
    if (width > 200)
        width = 200;
    sbuf b;
    sbuf_init(&b);
    sbuf_printf(&b, "%s\n", t->title);
    for (size_t i = 0; i < t->nsteps; i++) {
        const tour_step *s = &t->steps[i];
        kp_analysis *a = analysis_run(t->play[i].design);
        /* TRANSLATORS: a step's heading in the printed tour: its number and title (underlined) */
        char *head = xasprintf(_("Step %1$d. %2$s"), s->number, s->title);
        sbuf_printf(&b, "\n%s\n", head);
        for (int k = disp_width(head); k > 0; k--)
            sbuf_addc(&b, '-');
        free(head);
        sbuf_add(&b, "\n");
        wrap(&b, s->narration, width);
        char *fig = tour_figures(t, i, a);
        if (*fig)
            sbuf_printf(&b, "\n%s\n%s", _("Figures (computed by keyplan from this step's design):"), fig);
        free(fig);
        if (s->try_task) {
            /* TRANSLATORS: the step's exercise, %s its task */
            char *task = xasprintf(_("Try it: %s"), s->try_task);
            sbuf_add(&b, "\n");
            wrap(&b, task, width);
            free(task);
        }
        analysis_free(a);
    }
    return sbuf_steal(&b);
}
