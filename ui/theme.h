/* theme.h - colour roles (ncdu UI_COLORS): an enum plus a theme table. Monochrome terminals and
 * NO_COLOR get attributes only (bold, reverse, underline), never colour. */
#ifndef KP_UI_THEME_H
#define KP_UI_THEME_H

#include <stdbool.h>

#define UI_ROLES(X)                                                \
    /* role        fg              bg            mono attribute */ \
    X(NORMAL, COLOR_WHITE, -1, A_NORMAL)                           \
    X(TITLE, COLOR_CYAN, -1, A_BOLD)                               \
    X(TAB, COLOR_WHITE, -1, A_NORMAL)                              \
    X(TAB_ACTIVE, COLOR_BLACK, COLOR_CYAN, A_REVERSE)              \
    X(HEADER, COLOR_YELLOW, -1, A_BOLD)                            \
    X(CURSOR_ROW, COLOR_WHITE, COLOR_BLUE, A_BOLD)                 \
    X(CURSOR_CELL, COLOR_BLACK, COLOR_YELLOW, A_REVERSE)           \
    X(EDITOR, COLOR_BLACK, COLOR_WHITE, A_UNDERLINE)               \
    X(GOOD, COLOR_GREEN, -1, A_NORMAL)                             \
    X(WARN, COLOR_YELLOW, -1, A_BOLD)                              \
    X(BAD, COLOR_RED, -1, A_BOLD)                                  \
    X(CHANGED, COLOR_MAGENTA, -1, A_BOLD | A_UNDERLINE)            \
    X(DIM, COLOR_BLUE, -1, A_DIM)                                  \
    X(STATUS, COLOR_BLACK, COLOR_CYAN, A_REVERSE)                  \
    X(ALARM, COLOR_WHITE, COLOR_RED, A_REVERSE | A_BOLD)           \
    X(BORDER, COLOR_BLUE, -1, A_NORMAL)

typedef enum ui_role {
/* clang-format off */
#define UI_ROLE_ENUM(name, fg, bg, mono) UI_ROLE_##name,
    UI_ROLES(UI_ROLE_ENUM)
#undef UI_ROLE_ENUM
    UI_ROLE__COUNT
    /* clang-format on */
} ui_role;

/* Sets up colour pairs when the terminal has colours and NO_COLOR is unset or empty; call after
 * initscr/newterm. Returns true when colours are used. */
bool theme_init(void);
/* The curses attribute for a role (colour pair or the monochrome attribute). */
int theme_attr(ui_role r);

#endif
