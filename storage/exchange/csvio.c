/* csvio.c - CSV access-pattern tables: RFC 4180 reader and writer. */
#include "csvio.h"

#include "i18n.h"
#include "fields.h"
#include "syntax.h"
#include "template.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PUSH(arr, n) \
    (arr = xrealloc(arr, ((n) + 1) * sizeof *(arr)), memset(&(arr)[n], 0, sizeof *(arr)), &(arr)[(n)++])

/* ---- the columns --------------------------------------------------------------------------- */

/* The columns in export order: the pattern field (model/fields.h; the column is named by its key),
 * the unit a figure may carry on import ('r' a rate, 'l' a latency, 'n' a plain number) and the
 * other headers that name it, the course's Spanish ones among them. */
static const struct csv_col {
    int field;
    char unit;
    const char *aliases;
} COLS[] = {
    {FP_ID, 0, "nº|no|n|#|num|número|numero|pattern id|patrón nº"},
    {FP_NAME, 0, "patrón|patron|pattern|nombre|description|descripción"},
    {FP_KIND, 0, "tipo|type"},
    {FP_ENTITY, 0, "entidad"},
    {FP_ENTITIES, 0, "entidades"},
    {FP_BY, 0, "se pide con|clave|key|pide con|known"},
    {FP_RATE, 'r', "veces/s|frecuencia|frequency|rps|peak|pico"},
    {FP_AVG, 'r', "average|media|promedio"},
    {FP_LATENCY, 'l', "latencia"},
    {FP_CONSISTENCY, 0, "consistencia"},
    {FP_WHY, 0, "por qué|porque|por que|razón|razon"},
    {FP_ORDER, 0, "orden"},
    {FP_LIMIT, 'n', "límite|limite"},
    {FP_RANGE, 0, "rango"},
    {FP_FILTER, 0, "filtro"},
    {FP_JOIN, 0, ""},
    {FP_COVERED_BY, 0, "covered by|cubierto por"},
    {FP_NEEDS, 0, "necesita"},
    {FP_SERVED_BY, 0, "served by|servido por"},
    {FP_OP, 0, "operation|operación|operacion"},
    {FP_ITEMS, 'n', "elementos"},
    {FP_CHANGES, 0, "cambia|cambios"},
    {FP_RETURNS, 0, "devuelve"},
};
#define COL__COUNT ((int)(sizeof COLS / sizeof *COLS))
#define COL_NONE   (-1)

static const char *col_name(int c) { return kp_rec_pattern.f[COLS[c].field].key; }

/* ---- writer -------------------------------------------------------------------------------- */

static void field(sbuf *b, const char *s, bool first)
{
    if (!first)
        sbuf_addc(b, ',');
    if (!s || !*s)
        return;
    bool quote = strpbrk(s, ",\"\r\n") != NULL || s[0] == ' ' || s[strlen(s) - 1] == ' ';
    if (!quote) {
        sbuf_add(b, s);
        return;
    }
    sbuf_addc(b, '"');
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            sbuf_addc(b, '"');
        sbuf_addc(b, *p);
    }
    sbuf_addc(b, '"');
}

static char *num(double v)
{
    if (isnan(v))
        return xstrdup("");
    return xasprintf("%.15g", v);
}

static char *strs(const kp_str *v, size_t n)
{
    sbuf b;
    sbuf_init(&b);
    for (size_t i = 0; i < n; i++)
        sbuf_printf(&b, "%s%s", i ? ", " : "", v[i].s);
    return sbuf_steal(&b);
}

static void by_text(sbuf *b, const void *by) { syn_by_text(b, by); }
static void join_text(sbuf *b, const void *j) { syn_join_text(b, j); }

/* A record list of the pattern as "a, b". */
static char *list_text(const kp_pattern *p, const kp_field *f, void (*text)(sbuf *, const void *))
{
    sbuf x;
    sbuf_init(&x);
    const char *v = *(char *const *)kp_fcptr(p, f);
    for (size_t k = 0; k < kp_fcount(p, f); k++) {
        sbuf_add(&x, k ? ", " : "");
        text(&x, v + k * f->sub->size);
    }
    return sbuf_steal(&x);
}

/* The cell of column c for pattern p; NULL when empty. */
static char *export_cell(const kp_pattern *p, int c)
{
    const kp_field *f = &kp_rec_pattern.f[COLS[c].field];
    const void *v = kp_fcptr(p, f);
    switch (COLS[c].field) {
    case FP_ENTITY:
        return !p->multi_form && p->nentities ? xstrdup(p->entities[0].s) : NULL;
    case FP_ENTITIES:
        return p->multi_form ? strs(p->entities, p->nentities) : NULL;
    case FP_BY:
        return list_text(p, f, by_text);
    case FP_ORDER:
        if (!p->order.s)
            return NULL;
        sbuf ob;
        sbuf_init(&ob);
        syn_order_text(&ob, p->order.s, p->order_desc);
        return sbuf_steal(&ob);
    case FP_JOIN:
        return list_text(p, f, join_text);
    case FP_OP: /* a read has no op */
        if (p->kind != KP_WRITE)
            return NULL;
        break;
    }
    switch (f->kind) {
    case KF_TEXT:
        return xstrdup(*(char *const *)v);
    case KF_REF:
        return xstrdup(((const kp_str *)v)->s);
    case KF_NUM:
        return num(*(const double *)v);
    case KF_ENUM:
        if ((f->flags & KP_F_GIVEN) && !*(const bool *)kp_fcptr(p, f + 1))
            return NULL;
        return xstrdup(kp_word(f->words, *(const int *)v));
    case KF_REFS:
        return strs(*(kp_str *const *)v, kp_fcount(p, f));
    default:
        return NULL;
    }
}

char *csvio_export(const kp_design *d, char **err)
{
    (void)err;
    sbuf b;
    sbuf_init(&b);
    for (int c = 0; c < COL__COUNT; c++)
        field(&b, col_name(c), c == 0);
    sbuf_add(&b, "\r\n");
    for (size_t i = 0; i < d->npatterns; i++) {
        for (int c = 0; c < COL__COUNT; c++) {
            char *v = export_cell(&d->patterns[i], c);
            field(&b, v, c == 0);
            free(v);
        }
        sbuf_add(&b, "\r\n");
    }
    return sbuf_steal(&b);
}

/* ---- reader -------------------------------------------------------------------------------- */

typedef struct cfield {
    char *s;
    kp_loc loc;
} cfield;

typedef struct crow {
    cfield *f;
    size_t n;
    int line;
} crow;

static void rows_free(crow *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < rows[i].n; k++)
            free(rows[i].f[k].s);
        free(rows[i].f);
    }
    free(rows);
}

static char guess_delim(const char *p, const char *end)
{
    size_t comma = 0, semi = 0, tab = 0;
    bool q = false;
    for (; p < end && (q || (*p != '\n' && *p != '\r')); p++) {
        if (*p == '"')
            q = !q;
        else if (!q && *p == ',')
            comma++;
        else if (!q && *p == ';')
            semi++;
        else if (!q && *p == '\t')
            tab++;
    }
    if (semi > comma && semi >= tab)
        return ';';
    if (tab > comma && tab > semi)
        return '\t';
    return ',';
}

/* RFC 4180 with the usual leniency (LF or CRLF, a final line without a newline). */
static bool csv_parse(const char *text, size_t len, kp_diags *diags, crow **rows, size_t *nrows)
{
    const char *p = text, *end = text + len;
    if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
        p += 3;
    char delim = guess_delim(p, end);
    int line = 1, col = 1;
    crow *row = NULL;
    while (p < end) {
        if (!row) {
            row = PUSH(*rows, *nrows);
            row->line = line;
        }
        cfield *f = PUSH(row->f, row->n);
        f->loc = (kp_loc){line, col};
        sbuf b;
        sbuf_init(&b);
        sbuf_add(&b, "");
        if (*p == '"') {
            kp_loc open = {line, col};
            p++, col++;
            for (;;) {
                if (p >= end) {
                    diags_add(diags, KP_SYNTAX, open,
                              _("quoted field never closed; expected a closing '\"' (a quote inside a "
                                "field is written \"\")"));
                    sbuf_free(&b);
                    return false;
                }
                if (*p == '"') {
                    if (p + 1 < end && p[1] == '"') {
                        sbuf_addc(&b, '"');
                        p += 2, col += 2;
                        continue;
                    }
                    p++, col++;
                    break;
                }
                if (*p == '\n') {
                    line++;
                    col = 1;
                } else if (((unsigned char)*p & 0xC0) != 0x80)
                    col++;
                sbuf_addc(&b, *p++);
            }
            if (p < end && *p != delim && *p != '\n' && *p != '\r') {
                diags_add(diags, KP_SYNTAX, (kp_loc){line, col},
                          _("text after a closing quote; expected '%s' or the end of the line"),
                          delim == '\t' ? _("tab") : (char[]){delim, 0});
                sbuf_free(&b);
                return false;
            }
        } else {
            while (p < end && *p != delim && *p != '\n' && *p != '\r') {
                if (((unsigned char)*p & 0xC0) != 0x80)
                    col++;
                sbuf_addc(&b, *p++);
            }
        }
        f->s = sbuf_steal(&b);
        ptrdiff_t ctl = util_control_at(f->s, true);
        if (ctl >= 0) {
            /* as the design file refuses them: a control byte would reach a terminal or cut text */
            diags_add(diags, KP_SYNTAX, f->loc,
                      _("a control character (0x%02x) at byte %td of the field; expected printable text "
                        "(newlines and tabs are the only controls allowed)"),
                      (unsigned char)f->s[ctl], ctl + 1);
            return false;
        }
        if (strlen(f->s) > KP_MAX_VALUE) { /* as the design file refuses it: the save would not load */
            diags_add(diags, KP_RANGE, f->loc, _("a field of %zu bytes; expected at most %d (64 KiB)"),
                      strlen(f->s), KP_MAX_VALUE);
            return false;
        }
        if (p < end && *p == delim) {
            p++, col++;
            if (p == end) {
                cfield *g = PUSH(row->f, row->n);
                g->s = xstrdup("");
                g->loc = (kp_loc){line, col};
            }
            continue;
        }
        if (p < end && *p == '\r')
            p++;
        if (p < end && *p == '\n')
            p++;
        line++;
        col = 1;
        row = NULL;
    }
    return true;
}

/* Trims white space as the YAML loader does (isspace), so a name survives the round trip. */
static char *trim(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return xstrndup(s, n);
}

static bool blank(const char *s)
{
    for (; *s; s++)
        if (!isspace((unsigned char)*s))
            return false;
    return true;
}

/* ASCII-lowercase, trimmed */
static char *norm_header(const char *s)
{
    char *t = trim(s);
    for (char *p = t; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    /* "Nº" -> "nº" works bytewise; "Patrón" -> "patrón" too (only ASCII changes) */
    return t;
}

static int header_col(const char *h)
{
    for (int c = 0; c < COL__COUNT; c++) {
        if (!strcmp(h, col_name(c)))
            return c;
        const char *a = COLS[c].aliases;
        while (*a) {
            const char *bar = strchr(a, '|');
            size_t n = bar ? (size_t)(bar - a) : strlen(a);
            if (strlen(h) == n && !strncmp(h, a, n))
                return c;
            a += n + (bar ? 1 : 0);
        }
    }
    return COL_NONE;
}

/* Splits a list at ',' and ';' (and '+' when plus), trimming; empty elements dropped. */
static char **split_list(const char *s, bool plus, size_t *n)
{
    char **v = NULL;
    *n = 0;
    const char *p = s;
    while (*p) {
        const char *q = p;
        while (*q && *q != ',' && *q != ';' && !(plus && *q == '+'))
            q++;
        char *one = xstrndup(p, (size_t)(q - p));
        char *t = trim(one);
        free(one);
        if (*t)
            *PUSH(v, *n) = t;
        else
            free(t);
        p = *q ? q + 1 : q;
    }
    return v;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void set_strs(kp_str **v, size_t *n, const char *s, kp_loc loc)
{
    size_t k;
    char **l = split_list(s, false, &k);
    for (size_t i = 0; i < k; i++)
        *PUSH(*v, *n) = str_make(l[i], loc);
    free_list(l, k);
}

static bool row_blank(const crow *r)
{
    for (size_t i = 0; i < r->n; i++)
        if (!blank(r->f[i].s))
            return false;
    return true;
}

/* Reads the (trimmed, non-empty) cell v of column c into p; false with an error in diags. The
 * entity column is kept in *entity until the row is read (entities may come after it). */
static bool import_cell(kp_pattern *p, int c, const char *v, kp_loc loc, kp_diags *diags, char **entity,
                        kp_loc *entity_loc)
{
    const kp_field *f = &kp_rec_pattern.f[COLS[c].field];
    const char *col = f->key;
    void *at = kp_fptr(p, f);
    bool ok = true;
    double x;
    switch (COLS[c].field) {
    case FP_ENTITY:
        free(*entity);
        *entity = xstrdup(v);
        *entity_loc = loc;
        return true;
    case FP_ENTITIES:
        set_strs(&p->entities, &p->nentities, v, loc);
        p->multi_form = true;
        return true;
    case FP_BY: {
        size_t k;
        char **l = split_list(v, true, &k);
        for (size_t q = 0; q < k; q++) {
            syn_by sb;
            if (syn_by_parse(l[q], strlen(l[q]), &sb, NULL) != KP_OK) {
                diags_add(diags, KP_INVALID, loc,
                          _("%s '%s' has an empty name or value; expected ATTR or ATTR=VALUE"), col, l[q]);
                ok = false;
                continue;
            }
            kp_by *b = PUSH(p->by, p->nby);
            char *a = syn_name(l[q], sb.attr);
            b->attr = str_make(a, loc);
            b->value = sb.has_value ? xstrndup(l[q] + sb.value.at, sb.value.len) : NULL;
            free(a);
        }
        free_list(l, k);
        return ok;
    }
    case FP_ORDER: {
        syn_span sp;
        if (syn_order_parse(v, strlen(v), &sp, &p->order_desc, NULL) != KP_OK) {
            diags_add(diags, KP_INVALID, loc,
                      _("%s '%s'; expected an attribute, optionally followed by asc or desc"), col, v);
            return false;
        }
        char *a = syn_name(v, sp);
        p->order = str_make(a, loc);
        free(a);
        return true;
    }
    case FP_JOIN: {
        size_t k;
        char **l = split_list(v, false, &k);
        for (size_t q = 0; q < k && ok; q++) {
            syn_span to, from;
            if (syn_join_parse(l[q], strlen(l[q]), &to, &from, NULL) != KP_OK) {
                diags_add(diags, KP_INVALID, loc,
                          _("join '%s'; expected to=from pairs (username=followingUsername)"), l[q]);
                ok = false;
                break;
            }
            kp_join *j = PUSH(p->join, p->njoin);
            char *a = syn_name(l[q], to), *b = syn_name(l[q], from);
            j->to = str_make(a, loc);
            j->from = str_make(b, loc);
            free(a);
            free(b);
        }
        free_list(l, k);
        return ok;
    }
    }
    switch (f->kind) {
    case KF_TEXT:
        *(char **)at = xstrdup(v);
        return true;
    case KF_REF:
        *(kp_str *)at = str_make(v, loc);
        return true;
    case KF_REFS:
        set_strs(at, (size_t *)((char *)p + f->count_off), v, loc);
        return true;
    case KF_NUM:
        if (COLS[c].unit == 'n') { /* a plain count: an error when it does not read */
            if (syn_figure(v, 'n', &x) && x >= 0) {
                *(double *)at = x;
                return true;
            }
            diags_add(diags, KP_TYPE, loc, _("%s '%s'; expected a number"), col, v);
            return false;
        }
        if (syn_figure(v, COLS[c].unit, &x))
            *(double *)at = x;
        else /* a qualitative figure ("alta"): left unset */
            diags_warn(
                diags, KP_TYPE, loc,
                COLS[c].unit == 'l'
                    ? _("%s '%s' is not a figure; left unset (expected a number of ms, or with s / min)")
                    : _("%s '%s' is not a figure; left unset (expected a number per second, or /min /h "
                        "/día)"),
                col, v);
        return true;
    case KF_ENUM: {
        if (f->flags & KP_F_GIVEN)
            *(bool *)kp_fptr(p, f + 1) = true;
        int k = kp_word_find_ci(f->words, v);
        if (k >= 0) {
            *(int *)at = k;
            return true;
        }
        sbuf e;
        sbuf_init(&e);
        /* TRANSLATORS: joins the last two names of a list: "a, b or c" */
        kp_words_join(f->words, &e, ", ", _(" or "));
        diags_add(diags, KP_INVALID, loc, _("%s '%s'; expected %s"), col, v, e.s);
        sbuf_free(&e);
        return false;
    }
    default:
        return true;
    }
}

static bool read_patterns(const char *text, size_t len, const char *name, kp_diags *diags, kp_pattern **out,
                          size_t *nout)
{
    (void)name;
    *out = NULL;
    *nout = 0;
    size_t bad;
    if (!util_utf8_valid(text, len, &bad)) {
        kp_loc loc = util_loc_of(text, len, bad);
        diags_add(diags, KP_ENCODING, loc,
                  _("invalid UTF-8 (byte 0x%02X); expected UTF-8 text (save the "
                    "spreadsheet as CSV UTF-8)"),
                  (unsigned char)text[bad]);
        return false;
    }
    crow *rows = NULL;
    size_t nrows = 0;
    if (!csv_parse(text, len, diags, &rows, &nrows)) {
        rows_free(rows, nrows);
        return false;
    }
    size_t h = 0;
    while (h < nrows && row_blank(&rows[h]))
        h++;
    if (h == nrows) {
        diags_add(diags, KP_EMPTY, (kp_loc){0, 0},
                  _("no header row; expected a CSV pattern table whose first row names the columns "
                    "(id, name, entity, by, rate, latency, ...)"));
        rows_free(rows, nrows);
        return false;
    }
    int *map = xcalloc(rows[h].n, sizeof *map);
    bool have_name = false, have_entity = false, ok = true;
    for (size_t i = 0; i < rows[h].n; i++) {
        char *hn = norm_header(rows[h].f[i].s);
        map[i] = header_col(hn);
        if (map[i] != COL_NONE && COLS[map[i]].field == FP_NAME)
            have_name = true;
        if (map[i] != COL_NONE && (COLS[map[i]].field == FP_ENTITY || COLS[map[i]].field == FP_ENTITIES))
            have_entity = true;
        for (size_t k = 0; k < i && map[i] != COL_NONE; k++)
            if (map[k] == map[i]) {
                diags_add(diags, KP_DUPLICATE, rows[h].f[i].loc,
                          _("column '%s' repeats '%s'; expected each pattern field once"), rows[h].f[i].s,
                          col_name(map[i]));
                ok = false;
            }
        if (map[i] == COL_NONE && *hn)
            diags_warn(diags, KP_UNKNOWN_KEY, rows[h].f[i].loc,
                       _("column '%s' is not a pattern field; ignored"), rows[h].f[i].s);
        free(hn);
    }
    if (!have_name) {
        diags_add(diags, KP_MISSING_KEY, (kp_loc){rows[h].line, 1},
                  _("the header row has no 'name' column; expected a header naming the columns "
                    "(id, name, kind, entity, by, rate, latency, ...)"));
        ok = false;
    } else if (!have_entity)
        diags_warn(diags, KP_MISSING_KEY, (kp_loc){rows[h].line, 1},
                   _("the header row has no entity column; expected 'entity' or 'entities' (entidad, "
                     "entidades) naming what each pattern reads"));
    size_t auto_id = 0;
    for (size_t r = h + 1; ok && r < nrows; r++) {
        crow *row = &rows[r];
        if (row_blank(row))
            continue;
        auto_id++;
        if (row->n > rows[h].n)
            for (size_t i = rows[h].n; i < row->n; i++)
                if (!blank(row->f[i].s)) {
                    diags_add(diags, KP_INVALID, row->f[i].loc,
                              _("more fields than the header has columns (%zu); expected at most %zu"),
                              row->n, rows[h].n);
                    ok = false;
                    break;
                }
        kp_pattern *p = PUSH(*out, *nout);
        pattern_init(p);
        p->loc = (kp_loc){row->line, 1};
        char *entity = NULL;
        kp_loc entity_loc = {0, 0};
        for (size_t i = 0; i < row->n && i < rows[h].n && ok; i++) {
            if (map[i] == COL_NONE)
                continue;
            char *v = trim(row->f[i].s);
            kp_loc loc = row->f[i].loc;
            if (!*v) {
                free(v);
                continue;
            }
            if (!import_cell(p, map[i], v, loc, diags, &entity, &entity_loc))
                ok = false;
            free(v);
        }
        if (entity) {
            if (p->nentities) {
                diags_add(diags, KP_INVALID, entity_loc,
                          _("both entity and entities given; expected one of them"));
                ok = false;
            } else if (strchr(entity, ',') || strchr(entity, ';')) {
                set_strs(&p->entities, &p->nentities, entity, entity_loc);
                p->multi_form = true;
            } else
                *PUSH(p->entities, p->nentities) = str_make(entity, entity_loc);
            free(entity);
        }
        if (ok && !p->name) {
            diags_add(diags, KP_MISSING_KEY, p->loc,
                      _("pattern without a name; expected a name in column 'name'"));
            ok = false;
        }
        if (!p->id)
            p->id = xasprintf("%zu", auto_id);
    }
    free(map);
    rows_free(rows, nrows);
    if (!ok) {
        for (size_t i = 0; i < *nout; i++)
            pattern_free(&(*out)[i]);
        free(*out);
        *out = NULL;
        *nout = 0;
    }
    return ok;
}

kp_status csvio_read_patterns(const char *text, size_t len, const char *name, kp_diags *diags,
                              kp_pattern **out, size_t *nout)
{
    size_t first = diags->n;
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        /* C text would end there and silently cut the table */
        diags_add(diags, KP_ENCODING, util_loc_of(text, len, (size_t)(nul - text)),
                  _("a NUL character; expected CSV text (is it a binary file?)"));
        *out = NULL;
        *nout = 0;
        return KP_ENCODING;
    }
    if (read_patterns(text, len, name, diags, out, nout))
        return KP_OK;
    for (size_t i = first; i < diags->n; i++)
        if (diags->v[i].sev == KP_SEV_ERROR)
            return diags->v[i].code;
    return KP_INVALID;
}

/* ---- skeleton design ---------------------------------------------------------------------- */

/* The entity a pattern of a table without an entity column reads in the skeleton. */
#define CSV_DEFAULT_ENTITY "Item"

/* Adds attribute a (its place in the CSV kept, for the messages about it) unless e has it. */
static void add_attr(kp_entity *e, const kp_str *a)
{
    if (!a->s || !*a->s)
        return;
    for (size_t i = 0; i < e->nattrs; i++)
        if (!strcmp(e->attrs[i].s, a->s))
            return;
    *PUSH(e->attrs, e->nattrs) = str_make(a->s, a->loc);
}

static char *upper_name(const char *s)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p != '{' && *p != '}')
            sbuf_addc(&b, (char)toupper(*p));
    return sbuf_steal(&b);
}

kp_design *csvio_import(const char *text, size_t len, const char *name, kp_diags *diags)
{
    kp_pattern *pats;
    size_t npats;
    if (csvio_read_patterns(text, len, name, diags, &pats, &npats) != KP_OK)
        return NULL;
    kp_design *d = design_new();
    d->patterns = pats;
    d->npatterns = npats;
    /* names from the file: "dir/orders.csv" -> "orders" */
    const char *base = name ? strrchr(name, '/') : NULL;
    base = base ? base + 1 : name ? name : "patterns";
    if (!strcmp(base, "-") || base[0] == '<' || !base[0])
        base = "patterns";
    const char *dot = strrchr(base, '.');
    char *stem = dot && dot > base ? xstrndup(base, (size_t)(dot - base)) : xstrdup(base);
    d->name = util_escape_controls(stem); /* a file's name may hold controls, or not be UTF-8 */
    free(stem);
    /* DynamoDB table names: [A-Za-z0-9_.-], 3 to 255 characters */
    sbuf tn;
    sbuf_init(&tn);
    for (const unsigned char *p = (const unsigned char *)d->name; *p && tn.len < 255; p++)
        sbuf_addc(&tn, isalnum(*p) && *p < 0x80 ? (char)*p : (*p == '_' || *p == '.') ? (char)*p : '-');
    while (tn.len < 3)
        sbuf_addc(&tn, '_');
    d->table.name = sbuf_steal(&tn);
    d->table.pk = str_make("PK", (kp_loc){0, 0});
    d->table.sk = str_make("SK", (kp_loc){0, 0});
    d->description =
        xstrdup(_("Skeleton around an imported CSV pattern table: one entity per entity the patterns name, "
                  "carrying the attributes they use, with placeholder keys (ENTITY#{first by}), counts and "
                  "sizes. Write the real key templates, counts and sizes before reading the figures."));
    for (size_t i = 0; i < npats; i++) {
        kp_pattern *p = &pats[i];
        if (!p->nentities && !p->served_by && p->needs == KP_NEEDS_NONE) {
            /* a table without an entity column (the course's own: No;Patrón;Se pide con;...): one
               placeholder entity, said in the warning about the missing column */
            *PUSH(p->entities, p->nentities) = str_make(CSV_DEFAULT_ENTITY, p->loc);
        }
        for (size_t k = 0; k < p->nentities; k++) {
            kp_entity *e = (kp_entity *)design_entity(d, p->entities[k].s);
            if (!e) {
                e = PUSH(d->entities, d->nentities);
                entity_init(e);
                e->name = xstrdup(p->entities[k].s);
                e->loc = p->entities[k].loc; /* where the CSV names it first */
                e->count = 100000;
                e->size = 1000;
            }
            for (size_t q = 0; q < p->nby; q++)
                add_attr(e, &p->by[q].attr);
            add_attr(e, &p->range);
            add_attr(e, &p->order);
            for (size_t q = 0; q < p->nfilter; q++)
                add_attr(e, &p->filter[q]);
            for (size_t q = 0; q < p->nchanges; q++)
                add_attr(e, &p->changes[q]);
            for (size_t q = 0; q < p->njoin; q++)
                add_attr(e, k == 0 ? &p->join[q].from : &p->join[q].to);
        }
    }
    for (size_t i = 0; i < d->nentities; i++) {
        kp_entity *e = &d->entities[i];
        /* the first plain `by` attribute of its first pattern keys the partition */
        const char *pkattr = NULL, *skattr = NULL;
        for (size_t q = 0; q < npats && !pkattr; q++) {
            const kp_pattern *p = &pats[q];
            bool mine = false;
            for (size_t k = 0; k < p->nentities; k++)
                mine = mine || !strcmp(p->entities[k].s, e->name);
            if (!mine)
                continue;
            for (size_t k = 0; k < p->nby && !pkattr; k++)
                if (!p->by[k].value && tpl_name_valid(p->by[k].attr.s))
                    pkattr = p->by[k].attr.s;
            if (pkattr && tpl_name_valid(p->range.s) && strcmp(p->range.s, pkattr))
                skattr = p->range.s;
            else if (pkattr && tpl_name_valid(p->order.s) && strcmp(p->order.s, pkattr))
                skattr = p->order.s;
        }
        char *up = upper_name(e->name);
        char *pk = pkattr ? xasprintf("%s#{%s}", up, pkattr) : xasprintf("%s", up);
        char *sk = skattr ? xasprintf("{%s}", skattr) : xstrdup(up);
        const char *srcs[2] = {pk, sk};
        const char *attrs[2] = {"PK", "SK"};
        for (int k = 0; k < 2; k++) {
            kp_keytpl *kt = PUSH(e->keys, e->nkeys);
            kt->attr = str_make(attrs[k], e->loc);
            kt->loc = e->loc; /* made from the CSV's names: the entity's place */
            if (tpl_parse(srcs[k], &kt->tpl, NULL, NULL) != KP_OK)
                tpl_parse("ITEM", &kt->tpl, NULL, NULL);
        }
        free(up);
        free(pk);
        free(sk);
        e->description = xstrdup(_("skeleton from the CSV import: write its keys, count and size"));
    }
    diags_warn(diags, KP_INVALID, (kp_loc){0, 0},
               ngettext("a CSV pattern table holds no keys: the design around its %zu pattern is a "
                        "skeleton (keys ENTITY#{attribute}, 100000 items of 1000 bytes each); edit it",
                        "a CSV pattern table holds no keys: the design around its %zu patterns is a "
                        "skeleton (keys ENTITY#{attribute}, 100000 items of 1000 bytes each); edit it",
                        npats),
               npats);
    return d;
}
