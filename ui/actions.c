/* actions.c - the action table, the screen titles and the keymap. */
#include "actions.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

static const char *const action_names[] = {
#define UI_ACTION_NAME(id, name, help) name,
    UI_ACTIONS(UI_ACTION_NAME)
#undef UI_ACTION_NAME
};
static const char *const action_helps[] = {
#define UI_ACTION_HELP(id, name, help) help,
    UI_ACTIONS(UI_ACTION_HELP)
#undef UI_ACTION_HELP
};
static const char *const screen_titles[] = {
#define UI_SCREEN_TITLE(id, title) title,
    UI_SCREENS(UI_SCREEN_TITLE)
#undef UI_SCREEN_TITLE
};

const char *ui_action_name(ui_action a) { return (unsigned)a < UI_ACT__COUNT ? action_names[a] : "?"; }
const char *ui_action_help(ui_action a) { return (unsigned)a < UI_ACT__COUNT ? _(action_helps[a]) : ""; }
const char *ui_screen_title(int s) { return (unsigned)s < UI_SCREEN__COUNT ? _(screen_titles[s]) : "?"; }
const char *ui_screen_name(int s) { return (unsigned)s < UI_SCREEN__COUNT ? screen_titles[s] : "?"; }

ui_action ui_action_find(const char *name)
{
    for (int i = 0; i < UI_ACT__COUNT; i++)
        if (name && strcmp(name, action_names[i]) == 0)
            return (ui_action)i;
    return UI_ACT_NONE;
}

#define G (-1)
static const ui_binding keymap[] = {
    {G, 'q', UI_ACT_QUIT},
    {G, UI_CTRL('c'), UI_ACT_QUIT},
    {G, '?', UI_ACT_HELP},
    {G, UI_FKEY(KEY_F(1)), UI_ACT_HELP},
    {G, UI_KEY_TAB, UI_ACT_NEXT_SCREEN},
    {G, UI_FKEY(KEY_BTAB), UI_ACT_PREV_SCREEN},
    {G, '1', UI_ACT_SCREEN_PATTERNS},
    {G, '2', UI_ACT_SCREEN_KEYS},
    {G, '3', UI_ACT_SCREEN_INDEXES},
    {G, '4', UI_ACT_SCREEN_ATTRS},
    {G, '5', UI_ACT_SCREEN_DECISIONS},
    {G, '6', UI_ACT_SCREEN_HISTORY},
    {G, '7', UI_ACT_SCREEN_COST},
    {G, '8', UI_ACT_SCREEN_ITEMS},
    {G, UI_FKEY(KEY_UP), UI_ACT_MOVE_UP},
    {G, 'k', UI_ACT_MOVE_UP},
    {G, UI_FKEY(KEY_DOWN), UI_ACT_MOVE_DOWN},
    {G, 'j', UI_ACT_MOVE_DOWN},
    {G, UI_FKEY(KEY_LEFT), UI_ACT_MOVE_LEFT},
    {G, 'h', UI_ACT_MOVE_LEFT},
    {G, UI_FKEY(KEY_RIGHT), UI_ACT_MOVE_RIGHT},
    {G, 'l', UI_ACT_MOVE_RIGHT},
    {G, UI_FKEY(KEY_PPAGE), UI_ACT_PAGE_UP},
    {G, UI_CTRL('b'), UI_ACT_PAGE_UP},
    {G, UI_FKEY(KEY_NPAGE), UI_ACT_PAGE_DOWN},
    {G, UI_CTRL('f'), UI_ACT_PAGE_DOWN},
    {G, 'g', UI_ACT_FIRST_ROW},
    {G, 'G', UI_ACT_LAST_ROW},
    {G, UI_FKEY(KEY_HOME), UI_ACT_FIRST_COL},
    {G, '0', UI_ACT_FIRST_COL},
    {G, UI_FKEY(KEY_END), UI_ACT_LAST_COL},
    {G, '$', UI_ACT_LAST_COL},
    {G, UI_KEY_ENTER, UI_ACT_EDIT},
    {G, 'e', UI_ACT_EDIT},
    {G, 'a', UI_ACT_ADD_ROW},
    {G, 'o', UI_ACT_ADD_ROW},
    {G, 'x', UI_ACT_DELETE_ROW},
    {G, UI_FKEY(KEY_DC), UI_ACT_DELETE_ROW},
    {G, 'y', UI_ACT_DUPLICATE_ROW},
    {G, 'K', UI_ACT_ROW_UP},
    {G, 'J', UI_ACT_ROW_DOWN},
    {G, 'u', UI_ACT_UNDO},
    {G, UI_CTRL('r'), UI_ACT_REDO},
    {G, 'c', UI_ACT_COMMIT},
    {G, 'D', UI_ACT_DECIDE},
    {G, ':', UI_ACT_COMMAND},
    {G, '/', UI_ACT_SEARCH},
    {G, 'n', UI_ACT_SEARCH_NEXT},
    {G, 'N', UI_ACT_SEARCH_PREV},
    {G, ']', UI_ACT_TOUR_NEXT},
    {G, '[', UI_ACT_TOUR_PREV},
    {G, '}', UI_ACT_NARRATION_DOWN},
    {G, '{', UI_ACT_NARRATION_UP},
    {G, 'R', UI_ACT_RELOAD},
    {G, UI_CTRL('l'), UI_ACT_REDRAW},
    {G, 'v', UI_ACT_DETAIL},
    {G, 'M', UI_ACT_MESSAGES},
    {G, '=', UI_ACT_PANE_WIDER},
    {G, '+', UI_ACT_PANE_WIDER},
    {G, '-', UI_ACT_PANE_NARROWER},
    {G, 'z', UI_ACT_PANE_TOGGLE},
    {UI_SCREEN_ITEMS, 'i', UI_ACT_ITEMS_INDEX},
    {UI_SCREEN_ITEMS, 'p', UI_ACT_ITEMS_PATTERN},
    {UI_SCREEN_ITEMS, 'P', UI_ACT_ITEMS_PATTERN_PREV},
    {UI_SCREEN_ITEMS, 's', UI_ACT_ITEMS_SEED},
    {UI_SCREEN_ITEMS, '>', UI_ACT_ITEMS_MORE},
    {UI_SCREEN_ITEMS, '<', UI_ACT_ITEMS_FEWER},
    {UI_SCREEN_ITEMS, UI_KEY_ENTER, UI_ACT_DETAIL},
    /* per-screen maps */
    {UI_SCREEN_HISTORY, ' ', UI_ACT_MARK},
    {UI_SCREEN_HISTORY, 'm', UI_ACT_MARK},
    {UI_SCREEN_HISTORY, UI_KEY_ENTER, UI_ACT_MARK},
    {UI_SCREEN_COST, UI_KEY_ENTER, UI_ACT_DETAIL},
};
#undef G

const ui_binding *ui_keymap(size_t *n)
{
    *n = sizeof keymap / sizeof *keymap;
    return keymap;
}

ui_action ui_key_action(int screen, int key)
{
    size_t n = sizeof keymap / sizeof *keymap;
    for (size_t i = 0; i < n; i++)
        if (keymap[i].screen == screen && keymap[i].key == key)
            return keymap[i].action;
    for (size_t i = 0; i < n; i++)
        if (keymap[i].screen < 0 && keymap[i].key == key)
            return keymap[i].action;
    return UI_ACT_NONE;
}

const char *ui_key_name(int key, char *buf, size_t size)
{
    static const struct {
        int key;
        const char *name;
    } names[] = {
        /* TRANSLATORS: the names of keys, as the keyboard labels them (the help lists them) */
        {UI_FKEY(KEY_UP), N_("Up")},
        {UI_FKEY(KEY_DOWN), N_("Down")},
        {UI_FKEY(KEY_LEFT), N_("Left")},
        {UI_FKEY(KEY_RIGHT), N_("Right")},
        {UI_FKEY(KEY_PPAGE), N_("PgUp")},
        {UI_FKEY(KEY_NPAGE), N_("PgDn")},
        {UI_FKEY(KEY_HOME), N_("Home")},
        {UI_FKEY(KEY_END), N_("End")},
        {UI_FKEY(KEY_DC), N_("Del")},
        {UI_FKEY(KEY_BTAB), N_("S-Tab")},
        {UI_FKEY(KEY_F(1)), "F1"},
        {UI_KEY_TAB, "Tab"},
        {UI_KEY_ENTER, N_("Enter")},
        {UI_KEY_ESC, "Esc"},
        {' ', N_("Space")},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (names[i].key == key) {
            snprintf(buf, size, "%s", _(names[i].name));
            return buf;
        }
    if (UI_IS_FKEY(key))
        snprintf(buf, size, "key%d", key & 0xffff);
    else if (key > 0 && key < 32)
        /* TRANSLATORS: the Control key with a letter, as the keyboard labels it */
        snprintf(buf, size, _("Ctrl-%c"), 'A' + key - 1);
    else if (key < 128)
        snprintf(buf, size, "%c", key);
    else
        snprintf(buf, size, "U+%04X", (unsigned)key);
    return buf;
}

const char *ui_action_keys(ui_action a, char *buf, size_t size)
{
    size_t n = sizeof keymap / sizeof *keymap, len = 0;
    if (size)
        buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (keymap[i].action != a || a == UI_ACT_NONE)
            continue;
        char k[32];
        ui_key_name(keymap[i].key, k, sizeof k);
        if (strstr(buf, k) && (strlen(k) > 1 || strchr(buf, k[0]))) {
            /* the same key on another screen: list it once */
            bool dup = false;
            const char *p = buf;
            size_t kl = strlen(k);
            while ((p = strstr(p, k)) != NULL) {
                if ((p == buf || p[-1] == ' ') && (p[kl] == ',' || p[kl] == '\0'))
                    dup = true;
                p += kl;
            }
            if (dup)
                continue;
        }
        int w = snprintf(buf + len, size > len ? size - len : 0, "%s%s", len ? ", " : "", k);
        if (w > 0)
            len += (size_t)w;
        if (len >= size)
            break;
    }
    return buf;
}
