/* narration.c - the tour's steps, marks and narration panel. */
#include "narration.h"

#include "display.h"
#include "draw.h"
#include "i18n.h"
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
        for (size_t k = 0; k < v[i].ntry; k++)
            free(v[i].try_checks[k]);
        free(v[i].try_checks);
        free(v[i].try_task);
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

/* Appends line (taken) to (*v, *n) with role `role`. */
static void push_line(char ***v, ui_role **roles, size_t *n, size_t *cap, char *line, ui_role role)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *v = xrealloc(*v, *cap * sizeof **v);
        *roles = xrealloc(*roles, *cap * sizeof **roles);
    }
    (*v)[*n] = line;
    (*roles)[(*n)++] = role;
}

/* Appends the wrapped lines of text to (*v, *n), each with role `role`. */
static void add_wrapped(char ***v, ui_role **roles, size_t *n, size_t *cap, const char *text, int width,
                        ui_role role)
{
    size_t k;
    char **w = draw_wrap(text, width > 4 ? width : 4, &k);
    for (size_t i = 0; i < k; i++)
        push_line(v, roles, n, cap, w[i], role);
    free(w);
}

/* The exercise's lines: the task, then each check with [x] or [ ]. */
static void add_exercise(char ***v, ui_role **roles, size_t *n, size_t *cap, const wb_tour_step *st,
                         int width, const bool *done)
{
    if (!st->try_task)
        return;
    bool all = done != NULL;
    for (size_t k = 0; k < st->ntry; k++)
        all &= done && done[k];
    /* TRANSLATORS: the step's exercise, %s its task; the second once it is done */
    char *task = xasprintf(all ? _("Try it (done!): %s") : _("Try it: %s"), st->try_task);
    add_wrapped(v, roles, n, cap, task, width, all ? UI_ROLE_GOOD : UI_ROLE_TITLE);
    free(task);
    for (size_t k = 0; k < st->ntry; k++) {
        bool ok = done && done[k];
        char *line = xasprintf("  [%c] %s", ok ? 'x' : ' ', st->try_checks[k]);
        add_wrapped(v, roles, n, cap, line, width, ok ? UI_ROLE_GOOD : UI_ROLE_DIM);
        free(line);
    }
}

/* The start and length of the widest run of spaces in line (not counting its indent). */
static size_t widest_gap(const char *line, size_t *at)
{
    size_t best = 0, len = strlen(line), i = 0;
    *at = 0;
    while (i < len && line[i] == ' ')
        i++;
    while (i < len) {
        size_t j = i;
        while (j < len && line[j] == ' ')
            j++;
        if (j - i > best) {
            best = j - i;
            *at = i;
        }
        i = j > i ? j : i + 1;
    }
    return best;
}

/* A pattern's figure line ("  5   NAME  PLAN  figures"): where its name starts (*name) and ends
 * (*end, at the two spaces after it). false for a line of another kind. */
static bool figure_name(const char *line, const char **name, const char **end)
{
    const char *p = line;
    while (*p == ' ')
        p++;
    while (*p && *p != ' ')
        p++; /* the pattern's id */
    while (*p == ' ')
        p++;
    *name = p;
    *end = strstr(p, "  ");
    return *end && *end != p;
}

/* A figure line ("  5  NAME  PLAN  figures") still wider than `width`: its name cut with "…" so
 * that the line fits in one row, as long as at least 8 columns of the name stay (a list of figures
 * then fits a small terminal without scrolling; the name is whole on the Patterns screen). NULL
 * when the line fits or has no name to cut. Caller frees. */
static char *shorten_name(const char *line, int width)
{
    int over = disp_width(line) - width;
    if (over <= 0)
        return NULL;
    const char *name, *end;
    if (!figure_name(line, &name, &end))
        return NULL;
    char *nm = xstrndup(name, (size_t)(end - name));
    int keep = disp_width(nm) - over - 1; /* one column for the ellipsis */
    char *out = NULL;
    if (keep >= 8) {
        size_t bytes = disp_fit(nm, keep, NULL);
        while (bytes > 0 && nm[bytes - 1] == ' ')
            bytes--;
        out = xasprintf("%.*s%.*s…%s", (int)(name - line), line, (int)bytes, nm, end);
    }
    free(nm);
    return out;
}

/* text after `indent` spaces: as it is when it fits in `width`, else word-wrapped with every
 * line after `indent` spaces (a figure's continuation stays under its start). */
static void add_hanging(char ***v, ui_role **roles, size_t *n, size_t *cap, int indent, const char *text,
                        int width)
{
    if (indent > width / 2)
        indent = width / 2;
    sbuf b;
    sbuf_init(&b);
    for (int i = 0; i < indent; i++)
        sbuf_addc(&b, ' ');
    if (indent + disp_width(text) <= width)
        sbuf_add(&b, text);
    else
        disp_wrap(&b, text, strlen(text), indent, width, indent);
    for (char *l = b.s, *next; l; l = next) {
        next = strchr(l, '\n');
        if (next)
            *next++ = '\0';
        push_line(v, roles, n, cap, xstrdup(l), UI_ROLE_NORMAL);
    }
    sbuf_free(&b);
}

/* A figure line, its continuations under its start (its leading spaces kept). */
static void add_figure_line(char ***v, ui_role **roles, size_t *n, size_t *cap, const char *line, int width)
{
    int indent = (int)strspn(line, " ");
    if (line[indent]) /* blank lines take no room (as wrapping gives them none) */
        add_hanging(v, roles, n, cap, indent, line + indent, width);
}

/* A pattern's figure line wider than `width`, on two lines or more: its id and name, then under
 * the name its plan and figures. */
static void add_figure_lines(char ***v, ui_role **roles, size_t *n, size_t *cap, const char *line,
                             const char *name, const char *end, int width)
{
    char *head = xstrndup(line, (size_t)(end - line));
    add_figure_line(v, roles, n, cap, head, width);
    free(head);
    char *pre = xstrndup(line, (size_t)(name - line));
    int indent = disp_width(pre);
    free(pre);
    const char *tail = end;
    while (*tail == ' ')
        tail++;
    add_hanging(v, roles, n, cap, indent, tail, width);
}

/* The patterns' figure lines of a panel `width` wide, some of them too wide: rewritten with their
 * names in one column as wide as lets the middle line fit, and the lines up to 4 columns longer
 * (at least 8, at most the longest name),
 * a longer name cut with "…", the figures after it in their own columns as they were (numbers
 * right-aligned stay so); aligned[i] says which lines were. Other lines are left as they are. */
static void align_pattern_lines(char **lines, size_t nl, int width, bool *aligned)
{
    int widest = 0, ncand = 0;
    for (size_t i = 0; i < nl; i++)
        if (disp_width(lines[i]) > widest)
            widest = disp_width(lines[i]);
    if (widest <= width)
        return;
    /* the columns: where the names start (the widest id), where the figures start (the first
       non-blank after any name) */
    int pre = 0, tail = -1, longest = 0, ends = 0;
    for (size_t i = 0; i < nl; i++) {
        const char *name, *end;
        if (!figure_name(lines[i], &name, &end))
            continue;
        char *head = xstrndup(lines[i], (size_t)(name - lines[i])),
             *nm = xstrndup(name, (size_t)(end - name));
        const char *fig = end + strspn(end, " ");
        char *upto = xstrndup(lines[i], (size_t)(fig - lines[i]));
        int pw = disp_width(head), tw = disp_width(upto), nw = disp_width(nm);
        pre = pw > pre ? pw : pre;
        tail = tail < 0 || tw < tail ? tw : tail;
        longest = nw > longest ? nw : longest;
        ends = pw + nw > ends ? pw + nw : ends;
        free(head);
        free(nm);
        free(upto);
        aligned[i] = *fig != '\0';
        ncand += aligned[i];
    }
    if (!ncand || tail < ends + 2) { /* a name with two spaces in it: no common columns */
        memset(aligned, 0, nl * sizeof *aligned);
        return;
    }
    /* each line's room for its name, and the middle one */
    int *room = xcalloc((size_t)ncand, sizeof *room), k = 0;
    for (size_t i = 0; i < nl; i++) {
        if (!aligned[i])
            continue;
        size_t at = disp_fit(lines[i], tail, NULL);
        room[k++] = width - pre - 2 - disp_width(lines[i] + at);
    }
    for (int a = 1; a < ncand; a++) /* a few lines: insertion sort */
        for (int b = a; b > 0 && room[b - 1] > room[b]; b--) {
            int t = room[b];
            room[b] = room[b - 1];
            room[b - 1] = t;
        }
    /* the room of the middle line, less what lets the lines a few columns longer fit too (a plan
       word one letter longer must not move its line's figures) */
    int col = room[ncand / 2];
    for (int j = 0; j < ncand; j++)
        if (room[j] >= col - 4) {
            col = room[j];
            break;
        }
    free(room);
    col = col > longest ? longest : col;
    col = col < 8 ? 8 : col;
    for (size_t i = 0; i < nl; i++) {
        if (!aligned[i])
            continue;
        const char *name, *end;
        figure_name(lines[i], &name, &end);
        const char *figs = lines[i] + disp_fit(lines[i], tail, NULL);
        sbuf b;
        sbuf_init(&b);
        sbuf_addn(&b, lines[i], (size_t)(name - lines[i]));
        for (int w = disp_width(b.s); w < pre; w++)
            sbuf_addc(&b, ' ');
        char *nm = xstrndup(name, (size_t)(end - name));
        int fits = width - pre - 2 - disp_width(figs), nc = fits < col ? (fits < 8 ? 8 : fits) : col;
        disp_cell(&b, nm, nc, DISP_MARK_CUT);
        sbuf_add(&b, "  ");
        sbuf_add(&b, figs);
        free(nm);
        free(lines[i]);
        lines[i] = sbuf_steal(&b);
    }
}

/* Appends the figures, one line each. When one is wider than `width`: with `roomy` (a panel that
 * may grow), each pattern's line too wide becomes two, its name whole on the first and its
 * figures under the name (add_figure_lines), other lines wrap. Else the patterns' lines have their
 * names cut to one column (align_pattern_lines), and every other line loses the same number of
 * spaces from its widest gap, keeping two; a line still too wide loses spaces from its other gaps,
 * has its name cut, then wraps. */
static void add_figures(char ***v, ui_role **roles, size_t *n, size_t *cap, const char *figures, int width,
                        bool roomy)
{
    if (roomy) {
        char *all = xstrdup(figures);
        for (char *line = all, *next; line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            const char *name, *end;
            if (disp_width(line) > width && figure_name(line, &name, &end))
                add_figure_lines(v, roles, n, cap, line, name, end, width);
            else
                add_figure_line(v, roles, n, cap, line, width);
        }
        free(all);
        return;
    }
    /* the lines, each a string of its own */
    char **lines = NULL;
    size_t nl = 0;
    for (const char *p = figures; *p;) {
        const char *e = strchr(p, '\n');
        lines = xrealloc(lines, (nl + 1) * sizeof *lines);
        lines[nl++] = e ? xstrndup(p, (size_t)(e - p)) : xstrdup(p);
        p = e ? e + 1 : p + strlen(p);
    }
    bool *aligned = xcalloc(nl + 1, sizeof *aligned);
    align_pattern_lines(lines, nl, width, aligned);
    int over = 0; /* of the other lines */
    for (size_t i = 0; i < nl; i++) {
        int o = disp_width(lines[i]) - width;
        if (!aligned[i] && o > over)
            over = o;
    }
    for (size_t i = 0; i < nl; i++) {
        char *line = lines[i];
        int lover = aligned[i] ? disp_width(line) - width : over; /* an aligned line: its own */
        size_t at, gap = widest_gap(line, &at);
        size_t cut = gap > 2 ? gap - 2 : 0;
        if (lover < 0)
            lover = 0;
        if (cut > (size_t)lover)
            cut = (size_t)lover;
        memmove(line + at, line + at + cut, strlen(line + at + cut) + 1);
        /* still too wide (a longer name): its other gaps give what it lacks, one space at a time */
        while (disp_width(line) > width && (gap = widest_gap(line, &at)) > 2)
            memmove(line + at, line + at + 1, strlen(line + at + 1) + 1);
        char *fit = shorten_name(line, width);
        add_figure_line(v, roles, n, cap, fit ? fit : line, width);
        free(fit);
        free(line);
    }
    free(lines);
    free(aligned);
}

int narration_need(const wb_tour_step *st, int width, const char *why)
{
    if (!st || width >= 100)
        return 0;
    char **v = NULL;
    ui_role *roles = NULL;
    size_t n = 0, cap = 0;
    if (why)
        add_wrapped(&v, &roles, &n, &cap, why, width - 2, UI_ROLE_WARN);
    if (st->figures)
        add_figures(&v, &roles, &n, &cap, st->figures, width - 2, false);
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
    free(roles);
    return n ? (int)n + 1 : 0;
}

/* Draws lines [top, n) of a column into r's rows y0.. (blanking the rest). */
static void draw_column(int y0, int ymax, int x, int w, char **v, const ui_role *roles, size_t n, size_t top)
{
    int y = y0;
    for (size_t i = top; i < n && y < ymax; i++)
        draw_put(y++, x, w, v[i], roles[i]);
    while (y < ymax)
        draw_put(y++, x, w, "", UI_ROLE_NORMAL);
}

void narration_draw(ui_rect r, const wb_tour_step *st, size_t step, size_t nsteps, size_t *top,
                    const bool *done, const char *why)
{
    if (r.h <= 0)
        return;
    int y = r.y;
    if (!st) {
        for (int i = 0; i < r.h; i++)
            draw_put(r.y + i, r.x, r.w, "", UI_ROLE_NORMAL);
        return;
    }
    bool split = r.w >= 100;
    int lw = split ? r.w / 2 - 1 : r.w - 1, rw = r.w - lw - 2;
    char **left = NULL, **right = NULL;
    ui_role *lroles = NULL, *rroles = NULL;
    size_t nl = 0, capl = 0, nr = 0, capr = 0;
    if (split) {
        add_exercise(&right, &rroles, &nr, &capr, st, rw - 1, done);
        if (why)
            add_wrapped(&right, &rroles, &nr, &capr, why, rw - 1, UI_ROLE_WARN);
        if (st->figures) {
            if (nr)
                add_wrapped(&right, &rroles, &nr, &capr, "", rw - 1, UI_ROLE_NORMAL);
            add_wrapped(&right, &rroles, &nr, &capr, _("Figures keyplan computes for this step:"), rw - 1,
                        UI_ROLE_DIM);
            add_figures(&right, &rroles, &nr, &capr, st->figures, rw - 1, true);
        }
        add_wrapped(&left, &lroles, &nl, &capl, st->narration ? st->narration : "", lw - 1, UI_ROLE_NORMAL);
    } else {
        /* the why and the figures first: the panel is as high as they need (narration_need) */
        if (why)
            add_wrapped(&left, &lroles, &nl, &capl, why, lw - 1, UI_ROLE_WARN);
        if (st->figures)
            add_figures(&left, &lroles, &nl, &capl, st->figures, lw - 1, false);
        add_exercise(&left, &lroles, &nl, &capl, st, lw - 1, done);
        add_wrapped(&left, &lroles, &nl, &capl, st->narration ? st->narration : "", lw - 1, UI_ROLE_NORMAL);
    }
    size_t rows = (size_t)(r.h - 1), longest = nl > nr ? nl : nr;
    if (*top + rows > longest)
        *top = longest > rows ? longest - rows : 0;
    bool more = *top + rows < longest;
    const char *title = st->title ? st->title : "";
    if (more || *top)
        /* TRANSLATORS: the narration panel's title bar: step, steps, the step's title; ] [ Esc } { are keys */
        draw_putf(y++, r.x, r.w, UI_ROLE_TAB_ACTIVE,
                  _(" Tour %1$zu/%2$zu: %3$s   ] next  [ previous  Esc leaves  } { scroll"), step + 1, nsteps,
                  title);
    else
        /* TRANSLATORS: the narration panel's title bar: step, steps, the step's title; ] [ Esc are keys */
        draw_putf(y++, r.x, r.w, UI_ROLE_TAB_ACTIVE,
                  _(" Tour %1$zu/%2$zu: %3$s   ] next  [ previous  Esc leaves"), step + 1, nsteps, title);
    draw_column(y, r.y + r.h, r.x + 1, lw, left, lroles, nl, *top);
    if (split) {
        for (int i = y; i < r.y + r.h; i++)
            draw_put(i, r.x + 1 + lw, 1, "│", UI_ROLE_BORDER);
        /* the exercise and the figures scroll only once they are longer than the panel */
        draw_column(y, r.y + r.h, r.x + lw + 2, rw, right, rroles, nr,
                    nr > rows ? (*top < nr - rows ? *top : nr - rows) : 0);
    }
    for (size_t i = 0; i < nl; i++)
        free(left[i]);
    for (size_t i = 0; i < nr; i++)
        free(right[i]);
    free(left);
    free(right);
    free(lroles);
    free(rroles);
}
