/* narration.c - the tour's steps, marks and narration panel. */
#include "narration.h"

#include "draw.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void narration_steps_free(wb_tour_step *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].title);
        free(v[i].narration);
        free(v[i].figures);
        design_free(v[i].design);
        for (size_t k = 0; k < v[i].nmarks; k++)
            free(v[i].marks[k]);
        free(v[i].marks);
    }
    free(v);
}

bool narration_marked(const wb_tour_step *st, const char *kind, const char *name)
{
    if (!st || !kind || !name)
        return false;
    size_t kl = strlen(kind);
    for (size_t i = 0; i < st->nmarks; i++)
        if (strncmp(st->marks[i], kind, kl) == 0 && st->marks[i][kl] == ':' &&
            strcmp(st->marks[i] + kl + 1, name) == 0)
            return true;
    return false;
}

void narration_draw(ui_rect r, const wb_tour_step *st, size_t step, size_t nsteps, size_t *top)
{
    if (r.h <= 0)
        return;
    int y = r.y;
    if (!st) {
        for (int i = 0; i < r.h; i++)
            draw_put(r.y + i, r.x, r.w, "", UI_ROLE_NORMAL);
        return;
    }
    char *all = xasprintf("%s%s%s", st->narration ? st->narration : "",
                          st->figures ? "\n\nFigures keyplan computes for this step:\n" : "",
                          st->figures ? st->figures : "");
    size_t n;
    char **lines = draw_wrap(all, r.w - 2, &n);
    free(all);
    if (*top + (size_t)(r.h - 1) > n)
        *top = n > (size_t)(r.h - 1) ? n - (size_t)(r.h - 1) : 0;
    bool more = *top + (size_t)(r.h - 1) < n;
    draw_putf(y++, r.x, r.w, UI_ROLE_TAB_ACTIVE, " Tour %zu/%zu: %s   ] next  [ previous%s", step + 1, nsteps,
              st->title ? st->title : "", more || *top ? "  } { scroll" : "");
    for (size_t i = *top; i < n && y < r.y + r.h; i++)
        draw_put(y++, r.x + 1, r.w - 1, lines[i], UI_ROLE_NORMAL);
    while (y < r.y + r.h)
        draw_put(y++, r.x, r.w, "", UI_ROLE_NORMAL);
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}
