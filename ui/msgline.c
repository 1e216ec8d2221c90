/* msgline.c - the message line. */
#include "msgline.h"

#include "display.h"
#include "draw.h"
#include "util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void msgline_set(msgline *m, ui_role role, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    free(m->text);
    m->text = xvasprintf(fmt, ap);
    va_end(ap);
    m->role = role;
    if (m->npast && strcmp(m->past[m->npast - 1], m->text) == 0)
        return; /* the same message again */
    if (m->npast == MSGLINE_KEEP) {
        free(m->past[0]);
        memmove(m->past, m->past + 1, (MSGLINE_KEEP - 1) * sizeof *m->past);
        m->npast--;
    }
    if (!m->past)
        m->past = xcalloc(MSGLINE_KEEP, sizeof *m->past);
    m->past[m->npast++] = xstrdup(m->text);
}

void msgline_free(msgline *m)
{
    msgline_clear(m);
    for (size_t i = 0; i < m->npast; i++)
        free(m->past[i]);
    free(m->past);
    m->past = NULL;
    m->npast = 0;
}

void msgline_clear(msgline *m)
{
    free(m->text);
    m->text = NULL;
}

void msgline_draw(const msgline *m, ui_rect r, const char *lead, const lineedit *prompt, int *cy, int *cx)
{
    if (lead) {
        int lw = disp_width(lead);
        draw_put(r.y, r.x, lw, lead, UI_ROLE_TITLE);
        size_t start;
        int ccol;
        le_view(prompt, r.w - lw, &start, &ccol);
        draw_put(r.y, r.x + lw, r.w - lw, prompt->buf + start, UI_ROLE_NORMAL);
        *cy = r.y;
        *cx = r.x + lw + ccol;
        return;
    }
    draw_put(r.y, r.x, r.w, m->text ? m->text : "", m->text ? m->role : UI_ROLE_NORMAL);
}
