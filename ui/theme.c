/* theme.c - colour roles. The only state is whether colour pairs were set up, kept in curses
 * itself: COLOR_PAIRS is 0 until start_color, which only theme_init calls, and only when colour
 * is wanted; so there is no global here and theme_attr asks curses. */
#include "theme.h"

#include <curses.h>
#include <stdlib.h>

static const struct {
    short fg, bg;
    int mono;
} roles[] = {
#define UI_ROLE_ROW(name, f, b, m) {f, b, m},
    UI_ROLES(UI_ROLE_ROW)
#undef UI_ROLE_ROW
};

/* true once theme_init set the pairs up (COLOR_PAIRS is only known after start_color). */
static bool colour_on(void) { return COLOR_PAIRS > UI_ROLE__COUNT; }

bool theme_init(void)
{
    const char *nc = getenv("NO_COLOR");
    if ((nc && *nc) || !has_colors())
        return false;
    start_color(); /* before it COLOR_PAIRS is 0: read it after */
    if (!colour_on())
        return false;
    use_default_colors();
    for (int i = 0; i < UI_ROLE__COUNT; i++)
        init_pair((short)(i + 1), roles[i].fg, roles[i].bg);
    return true;
}

int theme_attr(ui_role r)
{
    if ((unsigned)r >= UI_ROLE__COUNT)
        return A_NORMAL;
    if (!colour_on())
        return roles[r].mono;
    int extra = (r == UI_ROLE_TITLE || r == UI_ROLE_HEADER || r == UI_ROLE_BAD || r == UI_ROLE_WARN ||
                 r == UI_ROLE_CHANGED || r == UI_ROLE_ALARM || r == UI_ROLE_CURSOR_ROW)
                    ? A_BOLD
                    : 0;
    return (int)COLOR_PAIR(r + 1) | extra;
}
