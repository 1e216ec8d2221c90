/* actions.h - every action of the workbench, defined once (tig REQ_INFO): the X-macro list
 * yields the enum, the name used by key bindings and `:` commands, and the help line. Keys are
 * data: a global keymap plus per-screen maps. The help screen is generated from these tables,
 * so it cannot drift from the bindings. No curses calls here (key codes are plain ints). */
#ifndef KP_UI_ACTIONS_H
#define KP_UI_ACTIONS_H

#include "i18n.h"

#include <stdbool.h>
#include <stddef.h>

/* clang-format off */
#define UI_ACTIONS(X)                                                                                       \
    X(NONE, "none", N_("does nothing"))                                                                         \
    X(QUIT, "quit", N_("Quit (the working copy is kept: nothing typed is lost)"))                               \
    X(HELP, "help", N_("Show this help, generated from the action table"))                                      \
    X(NEXT_SCREEN, "next-screen", N_("Next screen"))                                                            \
    X(PREV_SCREEN, "prev-screen", N_("Previous screen"))                                                        \
    X(SCREEN_PATTERNS, "patterns", N_("Patterns: the access-pattern table"))                                    \
    X(SCREEN_KEYS, "keys", N_("Keys: each entity's key templates, sparse rules, count, size"))                  \
    X(SCREEN_INDEXES, "indexes", N_("Indexes: the table's GSIs and LSIs"))                                      \
    X(SCREEN_ATTRS, "attributes", N_("Attributes: types and value distributions"))                              \
    X(SCREEN_DECISIONS, "decisions", N_("Decisions, with their reopening signals live"))                        \
    X(SCREEN_HISTORY, "history", N_("History: versions, and the diff of any two"))                              \
    X(SCREEN_COST, "cost", N_("Cost & heat: monthly cost in both modes, hottest partitions"))                   \
    X(SCREEN_ITEMS, "items", N_("Items: sample items as DynamoDB stores them; the selected pattern's reads lit")) \
    X(MOVE_UP, "up", N_("Cursor up"))                                                                           \
    X(MOVE_DOWN, "down", N_("Cursor down"))                                                                     \
    X(MOVE_LEFT, "left", N_("Cursor left (previous column)"))                                                   \
    X(MOVE_RIGHT, "right", N_("Cursor right (next column)"))                                                    \
    X(PAGE_UP, "page-up", N_("One page up"))                                                                    \
    X(PAGE_DOWN, "page-down", N_("One page down"))                                                              \
    X(FIRST_ROW, "first-row", N_("First row"))                                                                  \
    X(LAST_ROW, "last-row", N_("Last row"))                                                                     \
    X(FIRST_COL, "first-column", N_("First column"))                                                            \
    X(LAST_COL, "last-column", N_("Last column"))                                                               \
    X(EDIT, "edit", N_("Edit the cell under the cursor (Enter saves, Esc cancels)"))                            \
    X(ADD_ROW, "add", N_("Add a row below the cursor"))                                                         \
    X(DELETE_ROW, "delete", N_("Delete the row under the cursor"))                                              \
    X(DUPLICATE_ROW, "duplicate", N_("Duplicate the row under the cursor"))                                     \
    X(ROW_UP, "row-up", N_("Move the row up"))                                                                  \
    X(ROW_DOWN, "row-down", N_("Move the row down"))                                                            \
    X(UNDO, "undo", N_("Undo the last edit (history is unlimited and kept in the workspace)"))                  \
    X(REDO, "redo", N_("Redo"))                                                                                 \
    X(COMMIT, "commit", N_("Commit the working copy as a new version (asks for a message)"))                    \
    X(DECIDE, "decide", N_("Record a decision about the pattern under the cursor"))                             \
    X(COMMAND, "command", N_("Command line: a : command (listed at the end of this help) or an action's name")) \
    X(SEARCH, "search", N_("Search forward in the current screen"))                                             \
    X(SEARCH_NEXT, "search-next", N_("Next match"))                                                             \
    X(SEARCH_PREV, "search-prev", N_("Previous match"))                                                         \
    X(MARK, "mark", N_("History: mark a version; marking a second one shows their diff"))                       \
    X(TOUR_NEXT, "tour-next", N_("Tour: next step"))                                                            \
    X(TOUR_PREV, "tour-prev", N_("Tour: previous step"))                                                        \
    X(NARRATION_DOWN, "narration-down", N_("Tour: scroll the narration down"))                                  \
    X(NARRATION_UP, "narration-up", N_("Tour: scroll the narration up"))                                        \
    X(RELOAD, "reload", N_("Reload the workspace's latest version (after another commit)"))                     \
    X(DETAIL, "detail", N_("Show what is under the cursor whole (a row, finding, decision, diff line)"))        \
    X(MESSAGES, "messages", N_("List the past messages (also :messages)"))                                      \
    X(PANE_WIDER, "pane-wider", N_("Widen the model pane (taller when it sits below)"))                         \
    X(PANE_NARROWER, "pane-narrower", N_("Narrow the model pane"))                                              \
    X(PANE_TOGGLE, "pane-toggle", N_("Hide or show the model pane"))                                            \
    X(ITEMS_INDEX, "items-index", N_("Items: show the next index (the table, then each GSI and LSI)"))          \
    X(ITEMS_PATTERN, "items-pattern", N_("Items: select the next pattern (its reads are highlighted)"))         \
    X(ITEMS_PATTERN_PREV, "items-pattern-prev", N_("Items: select the previous pattern"))                       \
    X(ITEMS_SEED, "items-seed", N_("Items: generate again with another seed"))                                  \
    X(ITEMS_MORE, "items-more", N_("Items: more items per partition"))                                          \
    X(ITEMS_FEWER, "items-fewer", N_("Items: fewer items per partition"))                                       \
    X(REDRAW, "redraw", N_("Redraw the screen"))
/* clang-format on */

typedef enum ui_action {
/* clang-format off */
#define UI_ACTION_ENUM(id, name, help) UI_ACT_##id,
    UI_ACTIONS(UI_ACTION_ENUM)
#undef UI_ACTION_ENUM
    UI_ACT__COUNT
    /* clang-format on */
} ui_action;

/* The screens, in tab order. */
/* clang-format off */
#define UI_SCREENS(X)         \
    X(PATTERNS, N_("Patterns"))   \
    X(KEYS, N_("Keys"))           \
    X(INDEXES, N_("Indexes"))     \
    X(ATTRS, N_("Attributes"))    \
    X(DECISIONS, N_("Decisions")) \
    X(HISTORY, N_("History"))     \
    X(COST, N_("Cost & heat"))    \
    X(ITEMS, N_("Items"))
/* clang-format on */

typedef enum ui_screen_id {
/* clang-format off */
#define UI_SCREEN_ENUM(id, title) UI_SCREEN_##id,
    UI_SCREENS(UI_SCREEN_ENUM)
#undef UI_SCREEN_ENUM
    UI_SCREEN__COUNT
    /* clang-format on */
} ui_screen_id;

/* What a handler did (htop HandlerResult): handlers change state and return these; only the
 * main loop draws. UI_RESIZE: the layout changed, repaint the whole terminal. */
enum { UI_IGNORED = 0, UI_HANDLED = 1, UI_REDRAW = 2, UI_RESIZE = 4, UI_QUIT = 8 };

/* Key codes: printable characters are their Unicode code point; curses function keys are
 * UI_FKEY(KEY_xxx) so that they never collide with a character. */
#define UI_FKEY(k)    ((int)(0x40000000 | (k)))
#define UI_IS_FKEY(k) (((k)&0x40000000) != 0)
#define UI_CTRL(c)    ((c)&0x1f)
#define UI_KEY_ESC    27
#define UI_KEY_TAB    9
#define UI_KEY_ENTER  10

/* One binding: on `screen` (-1 = every screen) key `key` does `action`. */
typedef struct ui_binding {
    int screen;
    int key;
    ui_action action;
} ui_binding;

const char *ui_action_name(ui_action a); /* "add-row"; "?" when out of range */
const char *ui_action_help(ui_action a); /* the help line */
/* The action named `name` (as in the table), or UI_ACT_NONE. */
ui_action ui_action_find(const char *name);

const char *ui_screen_title(int screen); /* "Patterns", in the reader's language */
/* The screen's title in English, whatever the language: what the workspace stores (presence). */
const char *ui_screen_name(int screen);

/* The whole keymap (global and per-screen entries), static. */
const ui_binding *ui_keymap(size_t *n);
/* The action of `key` on `screen`: a per-screen binding wins over a global one; UI_ACT_NONE
 * when the key is not bound. */
ui_action ui_key_action(int screen, int key);
/* Human name of a key ("q", "Enter", "Ctrl-R", "PgDn"). Writes into buf (NUL-terminated) and
 * returns it. */
const char *ui_key_name(int key, char *buf, size_t size);
/* Every key bound to action `a` (on any screen), as "k, Up"; written into buf, returns buf
 * ("" when unbound). */
const char *ui_action_keys(ui_action a, char *buf, size_t size);

#endif
