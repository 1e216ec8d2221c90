/* msgline.c - the message line. */
#include "msgline.h"

#include "display.h"
#include "draw.h"
#include "util.h"

#include <stdarg.h>
#include <stdlib.h>

void msgline_set(msgline *m, ui_role role, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    free(m->text);
    m->text = xvasprintf(fmt, ap);
    va_end(ap);
    m->role = role;
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
