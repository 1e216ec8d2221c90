/* wb_merge.c - the merge view: while a reload's merge has conflicts, the editor area lists them
 * (record, field, base / mine / theirs, the choice made) and each is resolved in place: t takes
 * theirs, m keeps mine, e types a value (checked by the cell's own rules); Enter applies the
 * merge once none is left, Esc drops it (the working copy stays as it was, and a commit stays
 * refused until the latest version is merged). */
#include "wb_int.h"

#include "draw.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

int wb_merge_opened(wb *w, size_t nconflicts)
{
    int into = 0;
    session_merge(w->ss, &into);
    w->merge_sel = 0;
    w->merge_editing = false;
    wb_message(
        w, UI_ROLE_WARN,
        ngettext("merging version %d: %zu conflict; t theirs, m mine, e edit, Enter applies, Esc drops the "
                 "merge",
                 "merging version %d: %zu conflicts; t theirs, m mine, e edit, Enter applies, Esc drops the "
                 "merge",
                 nconflicts),
        into, nconflicts);
    return UI_REDRAW;
}

static const char *side_name(int resolved)
{
    switch (resolved) {
    case MERGE_OURS:
        /* TRANSLATORS: how a merge conflict was resolved: my value, theirs, or a value typed */
        return _("mine");
    case MERGE_THEIRS:
        return _("theirs");
    case MERGE_TEXT:
        return _("edited");
    default:
        return "?";
    }
}

static int finish(wb *w)
{
    char *err = NULL;
    int into = 0;
    session_merge(w->ss, &into);
    if (session_merge_finish(w->ss, &err) != KP_OK) {
        wb_message(w, UI_ROLE_BAD, "%s", err ? err : _("the merge cannot be applied yet"));
        free(err);
        return UI_REDRAW;
    }
    wb_after_merge(w);
    if (w->diags.errors)
        wb_message(w, UI_ROLE_WARN,
                   ngettext("merged version %d, but the design has %zu error: %s",
                            "merged version %d, but the design has %zu errors: %s", w->diags.errors),
                   into, w->diags.errors, w->diags.v[0].msg);
    else
        wb_message(w, UI_ROLE_GOOD,
                   _("merged version %d into your working copy; c commits it (u undoes the merge)"), into);
    return UI_REDRAW;
}

static void resolve(wb *w, merge_result *m, merge_side side, const char *text)
{
    char *err = NULL;
    if (merge_resolve(m, w->merge_sel, side, text, &err) != KP_OK) {
        wb_message(w, UI_ROLE_BAD, "%s", err ? err : _("cannot resolve that conflict"));
        free(err);
        return;
    }
    size_t left = merge_unresolved(m);
    /* on to the next unresolved conflict */
    size_t n = merge_nconflicts(m);
    for (size_t k = 1; k <= n; k++) {
        size_t i = (w->merge_sel + k) % n;
        if (merge_conflict_at(m, i)->resolved < 0) {
            w->merge_sel = i;
            break;
        }
    }
    if (left)
        wb_message(w, UI_ROLE_DIM, ngettext("%zu conflict left", "%zu conflicts left", left), left);
    else
        wb_message(w, UI_ROLE_GOOD, _("every conflict resolved: Enter applies the merge"));
}

int wb_merge_key(wb *w, int key)
{
    merge_result *m = session_merge(w->ss, NULL);
    size_t n = merge_nconflicts(m);
    if (w->merge_sel >= n)
        w->merge_sel = n ? n - 1 : 0;
    const merge_conflict *c = merge_conflict_at(m, w->merge_sel);
    if (w->merge_editing) {
        if (key == UI_KEY_ESC) {
            w->merge_editing = false;
            wb_message(w, UI_ROLE_DIM, _("edit cancelled"));
        } else if (key == UI_KEY_ENTER) {
            w->merge_editing = false;
            char *text = xstrdup(w->merge_le.buf ? w->merge_le.buf : "");
            resolve(w, m, MERGE_TEXT, text);
            free(text);
        } else {
            wb_line_key(&w->merge_le, key);
        }
        return UI_REDRAW;
    }
    switch (key) {
    case UI_FKEY(KEY_UP):
    case 'k':
        if (w->merge_sel > 0)
            w->merge_sel--;
        return UI_REDRAW;
    case UI_FKEY(KEY_DOWN):
    case 'j':
        if (w->merge_sel + 1 < n)
            w->merge_sel++;
        return UI_REDRAW;
    case 't':
        resolve(w, m, MERGE_THEIRS, NULL);
        return UI_REDRAW;
    case 'm':
        resolve(w, m, MERGE_OURS, NULL);
        return UI_REDRAW;
    case 'e':
        if (!c || !c->editable) {
            wb_message(w, UI_ROLE_WARN, _("this conflict is a whole record: t takes theirs, m keeps mine"));
            return UI_REDRAW;
        }
        le_set(&w->merge_le, c->ours ? c->ours : c->theirs ? c->theirs : "");
        w->merge_editing = true;
        wb_message(w, UI_ROLE_DIM, _("type the value; Enter resolves with it, Esc cancels"));
        return UI_REDRAW;
    case UI_KEY_ENTER:
        return finish(w);
    case UI_KEY_ESC: {
        int into = 0;
        session_merge(w->ss, &into);
        session_merge_abort(w->ss);
        w->remote_change = true;
        wb_message(
            w, UI_ROLE_WARN,
            _("merge of version %d dropped; your working copy is unchanged and a commit stays refused until R "
              "merges it"),
            into);
        return UI_REDRAW;
    }
    case '?':
        wb_message(w, UI_ROLE_DIM,
                   _("merge: t theirs  m mine  e edit  j/k move  Enter applies  Esc drops the merge"));
        return UI_REDRAW;
    case 'q':
        wb_message(w, UI_ROLE_WARN, _("finish the merge (Enter) or drop it (Esc) first"));
        return UI_REDRAW;
    default:
        return UI_IGNORED;
    }
}

/* A conflict's value: its label in 8 display columns, then the value. */
static void side_line(int y, int x, int w, ui_role role, const char *label, const char *value)
{
    sbuf b;
    sbuf_init(&b);
    draw_pad(&b, label, 8);
    sbuf_add(&b, value);
    draw_put(y, x, w, b.s, role);
    sbuf_free(&b);
}

void wb_merge_draw(wb *w, ui_rect r, int *cy, int *cx)
{
    int into = 0;
    merge_result *m = session_merge(w->ss, &into);
    size_t n = merge_nconflicts(m);
    if (r.h < 3)
        return;
    draw_putf(r.y, r.x, r.w, UI_ROLE_TITLE,
              _("Merge version %d into your working copy (based on version %d): %zu of %zu left"), into,
              session_base(w->ss), merge_unresolved(m), n);
    draw_put(r.y + 1, r.x, r.w,
             _("t theirs   m mine   e edit   j/k move   Enter applies   Esc drops the merge"), UI_ROLE_DIM);
    int per = 4; /* lines per conflict */
    int room = (r.h - 2) / per;
    if (room < 1)
        room = 1;
    size_t top = w->merge_sel >= (size_t)room ? w->merge_sel - (size_t)room + 1 : 0;
    int y = r.y + 2;
    for (size_t i = top; i < n && y + per <= r.y + r.h; i++) {
        const merge_conflict *c = merge_conflict_at(m, i);
        bool sel = i == w->merge_sel;
        draw_putf(y, r.x, r.w,
                  sel               ? UI_ROLE_CURSOR_ROW
                  : c->resolved < 0 ? UI_ROLE_WARN
                                    : UI_ROLE_GOOD,
                  "%c %s%s%s%s%s  [%s]", sel ? '>' : ' ', c->record, *c->key ? " " : "", c->key,
                  c->field ? " " : "", c->field ? c->field : _("(the whole record)"),
                  c->resolved < 0 ? _("unresolved") : side_name(c->resolved));
        /* TRANSLATORS: a conflict's three values, each labelled in 8 columns: base, mine, theirs */
        side_line(y + 1, r.x + 4, r.w - 4, UI_ROLE_DIM, _("base"), c->base ? c->base : _("(none)"));
        side_line(y + 2, r.x + 4, r.w - 4, c->resolved == MERGE_OURS ? UI_ROLE_CHANGED : UI_ROLE_NORMAL,
                  P_("merge", "mine"), c->ours ? c->ours : _("(deleted)"));
        side_line(y + 3, r.x + 4, r.w - 4, c->resolved == MERGE_THEIRS ? UI_ROLE_CHANGED : UI_ROLE_NORMAL,
                  P_("merge", "theirs"), c->theirs ? c->theirs : _("(deleted)"));
        if (sel && w->merge_editing) {
            size_t start = 0;
            int col = 0;
            int width = r.w - 12;
            le_view(&w->merge_le, width, &start, &col);
            draw_put(y + 2, r.x + 4, r.w - 4, "", UI_ROLE_EDITOR);
            draw_put(y + 2, r.x + 4, 8, _("value"), UI_ROLE_EDITOR);
            draw_put(y + 2, r.x + 12, width, w->merge_le.buf ? w->merge_le.buf + start : "", UI_ROLE_EDITOR);
            *cy = y + 2;
            *cx = r.x + 12 + col;
        }
        y += per;
    }
}
