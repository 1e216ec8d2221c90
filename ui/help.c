/* help.c - the help overlay. */
#include "help.h"

#include "actions.h"
#include "analysis.h"
#include "display.h"
#include "draw.h"
#include "i18n.h"
#include "report_words.h"
#include "util.h"

#include <curses.h>
#include <stdlib.h>

char *help_line(const char *head, const char *text)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    draw_pad(&b, head, HELP_HEAD - 1);
    sbuf_printf(&b, " %s", text);
    return sbuf_steal(&b);
}

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

char **help_legend_lines(size_t *n)
{
    static const char *const meaning[KP_PLAN__COUNT] = {
        [KP_PLAN_GET] = N_("GetItem: one item by its whole primary key"),
        [KP_PLAN_QUERY] = N_("Query: one partition, by its key condition"),
        [KP_PLAN_MULTI] = N_("several requests a call (a fan-out over shards or values, a batch, a fetch)"),
        [KP_PLAN_SCAN] =
            N_("Scan: reads the whole table or index (the pane says which index nearly served it)"),
        [KP_PLAN_OUTSIDE] = N_("served outside DynamoDB (served_by)"),
        [KP_PLAN_COVERED] = N_("covered by another pattern's request (covered_by)"),
        [KP_PLAN_WRITE] = N_("a write: PutItem, UpdateItem, DeleteItem or BatchWriteItem"),
        [KP_PLAN_TRANSACT] = N_("a transaction (TransactWriteItems, TransactGetItems)"),
        [KP_PLAN_INVALID] = N_("no plan: the pattern has an error"),
    };
    size_t k = 0;
    char **v = xcalloc(KP_PLAN__COUNT + 4, sizeof *v);
    v[k++] = help_line(_("Plan symbols"), _("In the Patterns screen and the model pane"));
    for (int p = 0; p < KP_PLAN__COUNT; p++) {
        char *head = xasprintf("%s %s", kp_plan_symbol((kp_plan)p), report_plan_word((kp_plan)p));
        v[k++] = help_line(head, meaning[p] ? _(meaning[p]) : "");
        free(head);
    }
    v[k++] =
        help_line(_("> ? x (Items)"), _("returned by the selected pattern; tied at its Limit (may come back "
                                        "instead); read, then dropped by its filter"));
    v[k++] = help_line(_("RCU, WCU, latency"),
                       _("read units (4 KB), write units (1 KB, shown with w); latency: the "
                         "estimate / the pattern's target, in red when it misses"));
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
             _(" Help: every action and its keys (from the action table). Any other key closes; j/k scroll."),
             UI_ROLE_TAB_ACTIVE);
    size_t body = r.h > 1 ? (size_t)(r.h - 1) : 1; /* scrolled to the end: the last page full */
    if (*top + body > ns)
        *top = ns > body ? ns - body : 0;
    for (int i = 1; i < r.h; i++) {
        size_t k = *top + (size_t)(i - 1);
        draw_put(r.y + i, r.x, r.w, k < ns ? shown[k] : "", UI_ROLE_NORMAL);
    }
    for (size_t i = 0; i < ns; i++)
        free(shown[i]);
    free(shown);
}
