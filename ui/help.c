/* help.c - the help overlay. */
#include "help.h"

#include "actions.h"
#include "display.h"
#include "draw.h"
#include "util.h"

#include <curses.h>
#include <stdlib.h>

char **help_action_lines(size_t *n)
{
    char **v = xcalloc(UI_ACT__COUNT, sizeof *v);
    size_t k = 0;
    for (int a = 1; a < UI_ACT__COUNT; a++) {
        char keys[96];
        ui_action_keys((ui_action)a, keys, sizeof keys);
        int kw = disp_width(keys);
        v[k++] = xasprintf("%s%*s %-15s %s", keys, kw < 16 ? 16 - kw : 0, "", ui_action_name((ui_action)a),
                           ui_action_help((ui_action)a));
    }
    *n = k;
    return v;
}

bool help_scroll(size_t *top, int key)
{
    if (key == UI_FKEY(KEY_DOWN) || key == 'j')
        (*top)++;
    else if ((key == UI_FKEY(KEY_UP) || key == 'k') && *top)
        (*top)--;
    else if (key == UI_FKEY(KEY_NPAGE) || key == ' ')
        *top += 10;
    else if (key == UI_FKEY(KEY_PPAGE))
        *top = *top > 10 ? *top - 10 : 0;
    else
        return false;
    return true;
}

void help_draw(ui_rect r, char *const *lines, size_t n, size_t *top)
{
    /* wrap each entry's help text under its own column (keys and name take HELP_HEAD columns) */
    char **shown = NULL;
    size_t ns = 0, cap = 0;
    for (size_t i = 0; i < n; i++) {
        size_t head = disp_fit(lines[i], HELP_HEAD, NULL);
        size_t nw;
        char **wrapped =
            draw_wrap(lines[i] + head, r.w - (HELP_HEAD + 1) > 20 ? r.w - (HELP_HEAD + 1) : 20, &nw);
        for (size_t k = 0; k < nw; k++) {
            VEC_GROW(shown, ns, cap);
            /* the first line carries the keys and the name; the others are indented */
            shown[ns++] = k ? xasprintf("%*s%s", HELP_HEAD, "", wrapped[k])
                            : xasprintf("%.*s%s", (int)head, lines[i], wrapped[k]);
            free(wrapped[k]);
        }
        free(wrapped);
    }
    draw_put(r.y, r.x, r.w,
             " Help: every action and its keys (from the action table). Any other key closes; j/k scroll.",
             UI_ROLE_TAB_ACTIVE);
    if (*top + 1 > ns)
        *top = ns ? ns - 1 : 0;
    for (int i = 1; i < r.h; i++) {
        size_t k = *top + (size_t)(i - 1);
        draw_put(r.y + i, r.x, r.w, k < ns ? shown[k] : "", UI_ROLE_NORMAL);
    }
    for (size_t i = 0; i < ns; i++)
        free(shown[i]);
    free(shown);
}
