/* edit.c - cells of a design as text, set from text with validation; row operations. */
#include "edit.h"

#include "i18n.h"
#include "fields.h"
#include "syntax.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the tables and their columns: the fields with a cell (model/fields.h) ---------------- */

static const char *const table_names[EDIT__TABLES] = {"patterns",  "entities", "indexes", "attributes",
                                                      "decisions", "keys",     "settings"};

const char *edit_table_name(edit_table t) { return (unsigned)t < EDIT__TABLES ? table_names[t] : "?"; }

/* The record of a table's rows; NULL for the keys and the settings. */
static const kp_record *table_rec(edit_table t)
{
    switch (t) {
    case EDIT_PATTERNS:
        return &kp_rec_pattern;
    case EDIT_ENTITIES:
        return &kp_rec_entity;
    case EDIT_INDEXES:
        return &kp_rec_index;
    case EDIT_ATTRS:
        return &kp_rec_attr;
    case EDIT_DECISIONS:
        return &kp_rec_decision;
    default:
        return NULL;
    }
}

/* The field of `rec` shown in column (or settings row) `col`, or -1. */
static int col_field(const kp_record *rec, size_t col)
{
    for (size_t i = 0; i < rec->n; i++)
        if (rec->f[i].cell == (int)col)
            return (int)i;
    return -1;
}

static size_t rec_ncols(const kp_record *rec)
{
    size_t n = 0;
    for (size_t i = 0; i < rec->n; i++)
        n += rec->f[i].cell >= 0;
    return n;
}

/* The settings rows are the fields with a cell of the design, its table and its pricing. */
static const kp_record *const setting_recs[] = {&kp_rec_design, &kp_rec_table, &kp_rec_pricing};
#define NSETTING_RECS (sizeof setting_recs / sizeof *setting_recs)

typedef struct setting {
    const kp_record *rec;
    int id;
} setting;

static bool setting_at(size_t row, setting *s)
{
    for (size_t r = 0; r < NSETTING_RECS; r++) {
        int id = col_field(setting_recs[r], row);
        if (id >= 0) {
            *s = (setting){setting_recs[r], id};
            return true;
        }
    }
    return false;
}

static size_t nsettings(void)
{
    size_t n = 0;
    for (size_t r = 0; r < NSETTING_RECS; r++)
        n += rec_ncols(setting_recs[r]);
    return n;
}

/* The row's name: the field's key, but the table's own name reads "table". */
static const char *setting_name(setting s)
{
    return s.rec == &kp_rec_table && s.id == FT_NAME ? "table" : s.rec->f[s.id].key;
}

/* The struct a setting lives in. */
static void *setting_target(kp_design *d, const kp_record *rec)
{
    return rec == &kp_rec_design ? (void *)d : rec == &kp_rec_table ? (void *)&d->table : (void *)&d->pricing;
}

int edit_setting_find(const char *name)
{
    size_t n = nsettings();
    for (size_t row = 0; name && row < n; row++) {
        setting s;
        if (setting_at(row, &s) && strcmp(name, setting_name(s)) == 0)
            return (int)row;
    }
    return -1;
}

/* ---- small text helpers ---------------------------------------------------------------- */

static bool streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/* Copy of text without leading/trailing blanks. */
static char *trim_dup(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return xstrndup(s, n);
}

static char *trimmed(const char *s) { return trim_dup(s ? s : "", s ? strlen(s) : 0); }

/* Splits on `sep`, trimming each element, dropping empty ones and one pair of surrounding
 * brackets. Returns the count; *out is an array of strings (caller frees each and the array). */
static size_t split_list(const char *text, char sep, char ***out)
{
    char *t = trimmed(text);
    char *s = t;
    size_t len = strlen(s);
    if (len >= 2 && s[0] == '[' && s[len - 1] == ']') {
        s[len - 1] = '\0';
        s++;
    }
    char **v = NULL;
    size_t n = 0, cap = 0;
    const char *p = s;
    for (;;) {
        const char *e = strchr(p, sep);
        size_t l = e ? (size_t)(e - p) : strlen(p);
        char *item = trim_dup(p, l);
        if (*item) {
            VEC_GROW(v, n, cap);
            v[n++] = item;
        } else {
            free(item);
        }
        if (!e)
            break;
        p = e + 1;
    }
    free(t);
    *out = v;
    return n;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* A number as the cell shows it: exactly (the shortest text that reads back as it), "" for NAN. */
static char *fmt_num(double x)
{
    char buf[32];
    return xstrdup(isnan(x) ? "" : syn_number_text(x, buf, sizeof buf));
}

/* Parses a number >= 0. Empty text gives NAN when `optional`. */
static bool parse_num(const char *text, bool optional, double *out, char **err)
{
    char *t = trimmed(text);
    if (!*t) {
        free(t);
        if (optional) {
            *out = NAN;
            return true;
        }
        *err = xstrdup(_("a number is required here"));
        return false;
    }
    double v;
    bool num = syn_number(t, strlen(t), 0, &v), ok = num && v >= 0;
    if (num && !ok)
        *err = xasprintf(_("%s must be >= 0"), t);
    else if (!ok)
        *err =
            xasprintf(_("'%s' is not a number; expected a decimal number >= 0 (1_000 and 2.5 are fine)"), t);
    free(t);
    if (ok)
        *out = v;
    return ok;
}

/* A number field's value: what parse_num reads (empty: not given), or for a rate or a latency
 * (kp_field_unit) a figure with its unit in the field's unit ("1/day", "5 min"). false with *err
 * (for those two, a text that is no number says the units they take). */
static bool parse_field_num(const kp_field *f, const char *text, double *out, char **err)
{
    if (parse_num(text, true, out, err))
        return true;
    char unit = kp_field_unit(f);
    if (!unit)
        return false;
    char *t = trimmed(text);
    double x;
    bool number = syn_number(t, strlen(t), 0, &x); /* below zero: parse_num said so */
    bool figure = !number && syn_figure(t, unit, &x) && x >= 0;
    if (!number) {
        free(*err);
        *err = figure
                   ? NULL
                   : xasprintf(unit == 'r' ? _("'%s' is not a rate; expected requests a second (2.5), or a "
                                               "figure per /min, /h or /day (30/min, 1/day)")
                                           : _("'%s' is not a latency; expected milliseconds (20), or a "
                                               "figure in s, min or h (5 min)"),
                               t);
    }
    if (figure)
        *out = x;
    free(t);
    return figure;
}

/* The enum value whose name is `text` (trimmed), or -1 with *err listing the choices. */
static int parse_choice(const char *text, const char *const *names, int n, char **err)
{
    char *t = trimmed(text);
    for (int i = 0; i < n; i++)
        if (names[i] && strcmp(t, names[i]) == 0) {
            free(t);
            return i;
        }
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (!names[i])
            continue;
        sbuf_printf(&b, "%s%s", first ? "" : ", ", names[i]);
        first = false;
    }
    const char *dym = util_did_you_mean(t, names, (size_t)n);
    if (dym)
        /* TRANSLATORS: the second %s is the list of the words allowed ("read, write") */
        *err = xasprintf(_("'%s' is not one of: %s (did you mean '%s'?)"), t, b.s, dym);
    else
        *err = xasprintf(_("'%s' is not one of: %s"), t, b.s);
    sbuf_free(&b);
    free(t);
    return -1;
}

static char *join_strs(const kp_str *v, size_t n, const char *sep)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    for (size_t i = 0; i < n; i++)
        sbuf_printf(&b, "%s%s", i ? sep : "", v[i].s ? v[i].s : "");
    return sbuf_steal(&b);
}

static kp_str *strs_from_list(char **v, size_t n)
{
    if (!n)
        return NULL;
    kp_str *o = xcalloc(n, sizeof *o);
    for (size_t i = 0; i < n; i++)
        o[i].s = xstrdup(v[i]);
    return o;
}

static void strs_release(kp_str *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].s);
    free(v);
}

/* Replaces a (kp_str *, count) list with the comma list in text. */
static void set_strs(kp_str **v, size_t *n, const char *text, char sep)
{
    char **items;
    size_t m = split_list(text, sep, &items);
    strs_release(*v, *n);
    *v = strs_from_list(items, m);
    *n = m;
    free_list(items, m);
}

static void set_text(char **field, const char *text)
{
    char *t = trimmed(text);
    free(*field);
    if (!*t) {
        free(t);
        t = NULL;
    }
    *field = t;
}

static void set_kstr(kp_str *field, const char *text)
{
    char *t = trimmed(text);
    free(field->s);
    if (!*t) {
        free(t);
        t = NULL;
    }
    field->s = t;
    field->loc = (kp_loc){0, 0};
}

/* A name must be non-empty and hold no list or template punctuation. */
static bool check_name(const char *t, const char *what, char **err)
{
    if (!*t) {
        /* TRANSLATORS: %s names the cell ("entity name", "key attribute") */
        *err = xasprintf(_("the %s cannot be empty"), what);
        return false;
    }
    if (strpbrk(t, ",;{}[]=:") || strchr(t, ' ') != NULL) {
        /* TRANSLATORS: the second %s names the cell ("entity name", "key attribute") */
        *err = xasprintf(_("'%s' is not a valid %s; expected one word without , ; { } [ ] = : or spaces"), t,
                         what);
        return false;
    }
    return true;
}

/* ---- generic row storage -------------------------------------------------------------- */

typedef struct rows_ref {
    void **arr;
    size_t *n;
    size_t elsize;
} rows_ref;

static bool table_rows(kp_design *d, edit_table t, rows_ref *r)
{
    switch (t) {
    case EDIT_PATTERNS:
        *r = (rows_ref){(void **)&d->patterns, &d->npatterns, sizeof(kp_pattern)};
        return true;
    case EDIT_ENTITIES:
    case EDIT_KEYS:
        *r = (rows_ref){(void **)&d->entities, &d->nentities, sizeof(kp_entity)};
        return true;
    case EDIT_INDEXES:
        *r = (rows_ref){(void **)&d->indexes, &d->nindexes, sizeof(kp_index)};
        return true;
    case EDIT_ATTRS:
        *r = (rows_ref){(void **)&d->attrs, &d->nattrs, sizeof(kp_attr)};
        return true;
    case EDIT_DECISIONS:
        *r = (rows_ref){(void **)&d->decisions, &d->ndecisions, sizeof(kp_decision)};
        return true;
    default:
        return false;
    }
}

size_t edit_nrows(const kp_design *d, edit_table t)
{
    if (t == EDIT_SETTINGS)
        return d ? nsettings() : 0;
    rows_ref r;
    if (!d || !table_rows((kp_design *)d, t, &r))
        return 0;
    return *r.n;
}

/* ---- key attributes ---------------------------------------------------------------------- */

static bool is_domain_attr(const kp_design *d, const char *name)
{
    for (size_t i = 0; i < d->nentities; i++)
        for (size_t j = 0; j < d->entities[i].nattrs; j++)
            if (streq(d->entities[i].attrs[j].s, name))
                return true;
    return false;
}

static void rename_key_slot(kp_design *d, kp_str *slot, const char *text);

const char **edit_key_attrs(const kp_design *d, size_t *n)
{
    const char **v = NULL;
    size_t cnt = 0, cap = 0;
    const char *cands[2];
    size_t total = 1 + (d ? d->nindexes : 0);
    for (size_t k = 0; d && k < total; k++) {
        if (k == 0) {
            cands[0] = d->table.pk.s;
            cands[1] = d->table.sk.s;
        } else {
            cands[0] = d->indexes[k - 1].pk.s;
            cands[1] = d->indexes[k - 1].sk.s;
        }
        for (int c = 0; c < 2; c++) {
            const char *name = cands[c];
            if (!name || !*name)
                continue;
            bool seen = false;
            for (size_t i = 0; i < cnt; i++)
                if (strcmp(v[i], name) == 0)
                    seen = true;
            if (seen || (k > 0 && is_domain_attr(d, name)))
                continue;
            VEC_GROW(v, cnt, cap);
            v[cnt++] = name;
        }
    }
    *n = cnt;
    return v;
}

size_t edit_ncols(const kp_design *d, edit_table t)
{
    if (t == EDIT_SETTINGS)
        return 2;
    if (t == EDIT_KEYS) {
        size_t n = 0;
        free(edit_key_attrs(d, &n));
        return n + 2;
    }
    const kp_record *rec = table_rec(t);
    return rec ? rec_ncols(rec) : 0;
}

const char *edit_col_name(const kp_design *d, edit_table t, size_t col)
{
    if (t == EDIT_SETTINGS)
        return col == 0 ? "setting" : col == 1 ? "value" : NULL;
    if (t == EDIT_KEYS) {
        size_t n = 0;
        const char **k = edit_key_attrs(d, &n);
        const char *r = col == 0 ? "entity" : col <= n ? k[col - 1] : col == n + 1 ? "sparse" : NULL;
        free(k);
        return r;
    }
    const kp_record *rec = table_rec(t);
    int id = rec ? col_field(rec, col) : -1;
    return id >= 0 ? rec->f[id].key : NULL;
}

int edit_col_find(const kp_design *d, edit_table t, const char *name)
{
    size_t n = edit_ncols(d, t);
    for (size_t i = 0; i < n; i++)
        if (streq(edit_col_name(d, t, i), name))
            return (int)i;
    return -1;
}

const char *edit_col_hint(const kp_design *d, edit_table t, size_t col)
{
    if (t == EDIT_SETTINGS)
        return col == 0 ? _("the setting's name (fixed)")
                        : _("the setting's value (the row says what it takes)");
    if (t == EDIT_KEYS) {
        size_t n = edit_ncols(d, t);
        if (col == 0)
            return _("entity name");
        if (col + 1 == n)
            return _("ATTR: status = value | status != value | status in [a, b] | share; ...");
        return _("key template: literal text with {attribute} placeholders (empty = not carried)");
    }
    const kp_record *rec = table_rec(t);
    int id = rec ? col_field(rec, col) : -1;
    return id >= 0 && rec->f[id].hint && *rec->f[id].hint ? _(rec->f[id].hint) : "";
}

/* ---- renames -------------------------------------------------------------------------------- */

static void rename_pattern_refs(kp_design *d, const char *old, const char *new_id)
{
    for (size_t i = 0; i < d->npatterns; i++) {
        kp_str *c = &d->patterns[i].covered_by;
        if (streq(c->s, old)) {
            free(c->s);
            c->s = xstrdup(new_id);
        }
    }
    for (size_t i = 0; i < d->ndecisions; i++)
        for (size_t j = 0; j < d->decisions[i].npatterns; j++) {
            kp_str *s = &d->decisions[i].patterns[j];
            if (streq(s->s, old)) {
                free(s->s);
                s->s = xstrdup(new_id);
            }
        }
}

/* ---- lists of records ----------------------------------------------------------------------- */

/* Reads one list element into a zeroed record; false with *err (caller frees) when it does not
 * read. Whatever it allocated before failing is released by the caller (fields_free). */
typedef bool (*item_parse)(const char *item, void *out, char **err);

/* Replaces the record list of field f of the record at r with the elements of `text` separated
 * by `sep`; on failure the list is left as it was. */
static bool set_list(const kp_field *f, void *r, const char *text, char sep, item_parse parse, char **err)
{
    char **items;
    size_t m = split_list(text, sep, &items);
    size_t el = f->sub->size;
    char *v = m ? xcalloc(m, el) : NULL;
    for (size_t i = 0; i < m; i++)
        if (!parse(items[i], v + i * el, err)) {
            for (size_t k = 0; k <= i; k++)
                fields_free(f->sub, v + k * el);
            free(v);
            free_list(items, m);
            return false;
        }
    free_list(items, m);
    char **old = kp_fptr(r, f);
    size_t *n = (size_t *)((char *)r + f->count_off);
    for (size_t k = 0; k < *n; k++)
        fields_free(f->sub, *old + k * el);
    free(*old);
    *old = v;
    *n = m;
    return true;
}

/* Writes one list element as its cell reads. */
typedef void (*item_text)(sbuf *b, const void *item);

/* The record list of field f of the record at r as a cell: its elements joined by sep. */
static char *list_text(const kp_field *f, const void *r, const char *sep, item_text text)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    const char *v = *(char *const *)kp_fcptr(r, f);
    for (size_t i = 0; i < kp_fcount(r, f); i++) {
        if (i)
            sbuf_add(&b, sep);
        text(&b, v + i * f->sub->size);
    }
    return sbuf_steal(&b);
}

/* ---- entities and keys ------------------------------------------------------------------- */

static void sparse_item_text(sbuf *b, const void *rule)
{
    const kp_sparse *s = rule;
    sbuf_printf(b, "%s: ", s->attr.s ? s->attr.s : "");
    if (s->kind == KP_SPARSE_SHARE) {
        char n[32];
        sbuf_add(b, isnan(s->share) ? "" : syn_number_text(s->share, n, sizeof n));
    } else if (s->src) {
        sbuf_add(b, s->src);
    } else {
        syn_condition_text(b, s);
    }
}

/* Parses one "ATTR: condition" rule. */
static bool sparse_item(const char *item, void *rule, char **err)
{
    kp_sparse *out = rule;
    const char *colon = strchr(item, ':');
    if (!colon) {
        *err = xasprintf(_("'%s': expected ATTR: condition (e.g. GSI1PK: status = pending-shipment)"), item);
        return false;
    }
    out->attr.s = trim_dup(item, (size_t)(colon - item));
    char *cond = trimmed(colon + 1);
    double share;
    if (syn_number(cond, strlen(cond), 0, &share)) {
        if (!(share >= 0 && share <= 1)) {
            *err = xasprintf(_("share %s is out of range; expected a number from 0 to 1"), cond);
            goto fail;
        }
        out->kind = KP_SPARSE_SHARE;
        out->share = share;
        out->src = cond;
        return true;
    }
    syn_cond c;
    char *perr = NULL;
    if (syn_condition_parse(cond, strlen(cond), &c, &perr, NULL) != KP_OK) {
        if (!strcmp(perr, _("expected '=', '!=' or 'in' after the attribute")))
            *err =
                xasprintf(_("'%s': expected attr = value, attr != value, attr in [a, b] or a share"), cond);
        else
            *err = xasprintf(_("'%s': expected attr = value, attr != value or attr in [a, b]"), cond);
        free(perr);
        goto fail;
    }
    out->kind = KP_SPARSE_COND;
    out->op = c.op;
    out->cond_attr.s = syn_name(cond, c.attr);
    out->values = xcalloc(c.nvalues, sizeof *out->values);
    for (size_t i = 0; i < c.nvalues; i++)
        out->values[out->nvalues++].s = xstrndup(cond + c.values[i].at, c.values[i].len);
    syn_cond_free(&c);
    out->src = cond;
    return true;
fail:
    free(cond);
    return false;
}

static bool sparse_set(kp_entity *e, const char *text, char **err)
{
    return set_list(&kp_rec_entity.f[FE_SPARSE], e, text, ';', sparse_item, err);
}

/* true when every placeholder of `t` names an attribute of entity e: one of its attributes or a
 * placeholder of one of its key templates (the one being replaced included, so that a template
 * read back sets unchanged). An entity that lists no attributes takes a new placeholder as one,
 * unless it is a near miss of a known one (a typo). Else false with *err naming the closest. */
static bool placeholders_known(const kp_entity *e, const tpl *t, char **err)
{
    const char **names = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < e->nattrs; i++) {
        VEC_GROW(names, n, cap);
        names[n++] = e->attrs[i].s ? e->attrs[i].s : "";
    }
    for (size_t k = 0; k < e->nkeys; k++)
        for (size_t j = 0; j < e->keys[k].tpl.n; j++)
            if (e->keys[k].tpl.parts[j].kind == TPL_ATTR) {
                VEC_GROW(names, n, cap);
                names[n++] = e->keys[k].tpl.parts[j].text;
            }
    bool ok = true;
    for (size_t j = 0; j < t->n && ok; j++) {
        const char *ph = t->parts[j].text;
        if (t->parts[j].kind != TPL_ATTR)
            continue;
        ok = false;
        for (size_t i = 0; i < n && !ok; i++)
            ok = streq(names[i], ph);
        const char *dym = ok ? NULL : util_did_you_mean(ph, names, n);
        if (!ok && !e->nattrs && !dym)
            ok = true; /* an entity listing no attributes takes its placeholders as its attributes */
        if (ok)
            continue;
        const char *en = e->name ? e->name : _("the entity");
        if (e->nattrs) {
            sbuf b;
            sbuf_init(&b);
            for (size_t i = 0; i < e->nattrs; i++)
                sbuf_printf(&b, "%s%s", i ? ", " : "", e->attrs[i].s ? e->attrs[i].s : "");
            /* TRANSLATORS: the second %s is the entity's name, the last one the list of its attributes */
            *err =
                dym ? xasprintf(
                          _("placeholder {%s} is not an attribute of %s (did you mean '%s'?); expected one "
                            "of its attributes: %s (or add it to the entity's attributes)"),
                          ph, en, dym, b.s)
                    : xasprintf(
                          _("placeholder {%s} is not an attribute of %s; expected one of its attributes: "
                            "%s (or add it to the entity's attributes)"),
                          ph, en, b.s);
            sbuf_free(&b);
        } else {
            *err =
                dym ? xasprintf(_("placeholder {%s} is not an attribute of %s (did you mean '%s'?); a new "
                                  "attribute goes in the entity's attributes first"),
                                ph, en, dym)
                    : xasprintf(_("placeholder {%s} is not an attribute of %s; a new attribute goes in the "
                                  "entity's attributes first"),
                                ph, en);
        }
    }
    free(names);
    return ok;
}

static bool key_set(kp_entity *e, const char *attr, const char *text, char **err)
{
    char *t = trimmed(text);
    size_t at = e->nkeys;
    for (size_t i = 0; i < e->nkeys; i++)
        if (streq(e->keys[i].attr.s, attr))
            at = i;
    if (!*t) {
        free(t);
        if (at < e->nkeys) {
            fields_free(&kp_rec_keytpl, &e->keys[at]);
            VEC_DEL(e->keys, e->nkeys, at);
        }
        return true;
    }
    tpl parsed;
    char *perr = NULL;
    size_t off = 0;
    if (tpl_parse(t, &parsed, &perr, &off) != KP_OK) {
        *err = xasprintf(_("template column %zu: %s"), off + 1, perr);
        free(perr);
        free(t);
        return false;
    }
    free(t);
    if (!placeholders_known(e, &parsed, err)) {
        tpl_free(&parsed);
        return false;
    }
    if (at == e->nkeys) {
        e->keys = xrealloc(e->keys, (e->nkeys + 1) * sizeof *e->keys);
        memset(&e->keys[at], 0, sizeof e->keys[at]);
        e->keys[at].attr.s = xstrdup(attr);
        e->nkeys++;
    } else {
        tpl_free(&e->keys[at].tpl);
    }
    e->keys[at].tpl = parsed;
    return true;
}

static bool entity_rename(kp_design *d, size_t row, const char *text, char **err)
{
    kp_entity *e = &d->entities[row];
    char *t = trimmed(text);
    if (!check_name(t, _("entity name"), err)) {
        free(t);
        return false;
    }
    ptrdiff_t at = design_entity_pos(d, t);
    if (at >= 0 && (size_t)at != row) {
        *err = xasprintf(_("entity '%s' already exists; expected a unique name"), t);
        free(t);
        return false;
    }
    if (e->name && strcmp(e->name, t) != 0)
        for (size_t i = 0; i < d->npatterns; i++)
            edit_rename_entity_refs(&d->patterns[i], e->name, t);
    free(e->name);
    e->name = t;
    return true;
}

static char *keys_get(const kp_design *d, size_t row, size_t col)
{
    const kp_entity *e = &d->entities[row];
    size_t n = 0;
    const char **k = edit_key_attrs(d, &n);
    char *r;
    if (col == 0)
        r = xstrdup(e->name ? e->name : "");
    else if (col <= n) {
        const kp_keytpl *kt = entity_key(e, k[col - 1]);
        r = kt ? (kt->tpl.src ? xstrdup(kt->tpl.src) : tpl_format(&kt->tpl)) : xstrdup("");
    } else if (col == n + 1)
        r = list_text(&kp_rec_entity.f[FE_SPARSE], e, "; ", sparse_item_text);
    else
        r = xstrdup("");
    free(k);
    return r;
}

static bool keys_set(kp_design *d, size_t row, size_t col, const char *text, char **err)
{
    size_t n = 0;
    const char **k = edit_key_attrs(d, &n);
    bool ok;
    if (col == 0)
        ok = entity_rename(d, row, text, err);
    else if (col <= n) {
        char *attr = xstrdup(k[col - 1]);
        ok = key_set(&d->entities[row], attr, text, err);
        free(attr);
    } else if (col == n + 1)
        ok = sparse_set(&d->entities[row], text, err);
    else {
        *err = xstrdup(_("no such column"));
        ok = false;
    }
    free(k);
    return ok;
}

/* ---- settings and key attribute renames ----------------------------------------------------- */

/* How many of the table's and indexes' key slots name `attr`. */
static size_t key_uses(const kp_design *d, const char *attr)
{
    size_t n = streq(d->table.pk.s, attr) + streq(d->table.sk.s, attr);
    for (size_t i = 0; i < d->nindexes; i++)
        n += streq(d->indexes[i].pk.s, attr) + streq(d->indexes[i].sk.s, attr);
    return n;
}

/* The key slot *slot (table or index pk/sk) becomes `text`; the entities' templates and sparse
 * rules for the old name follow it when nothing else is keyed on the old name and no entity
 * already has a template for the new one. */
static void rename_key_slot(kp_design *d, kp_str *slot, const char *text)
{
    char *old = slot->s ? xstrdup(slot->s) : NULL;
    set_kstr(slot, text);
    const char *now = slot->s;
    if (!old || !now || strcmp(old, now) == 0 || key_uses(d, old) > 0 || is_domain_attr(d, now)) {
        free(old);
        return;
    }
    for (size_t i = 0; i < d->nentities; i++)
        if (entity_key(&d->entities[i], now)) {
            free(old);
            return;
        }
    for (size_t i = 0; i < d->nentities; i++) {
        kp_entity *e = &d->entities[i];
        for (size_t k = 0; k < e->nkeys; k++)
            if (streq(e->keys[k].attr.s, old)) {
                free(e->keys[k].attr.s);
                e->keys[k].attr.s = xstrdup(now);
            }
        for (size_t k = 0; k < e->nsparse; k++)
            if (streq(e->sparse[k].attr.s, old)) {
                free(e->sparse[k].attr.s);
                e->sparse[k].attr.s = xstrdup(now);
            }
    }
    free(old);
}

/* ---- cells: read ---------------------------------------------------------------------------- */

static const char *tristate_text(kp_tristate t)
{
    return t == KP_TRUE ? "true" : t == KP_FALSE ? "false" : "";
}

/* A field as its kind reads. */
static char *field_get(const kp_field *f, const void *r)
{
    const void *p = kp_fcptr(r, f);
    switch (f->kind) {
    case KF_TEXT:
        return xstrdup(*(char *const *)p ? *(char *const *)p : "");
    case KF_REF:
        return xstrdup(((const kp_str *)p)->s ? ((const kp_str *)p)->s : "");
    case KF_NUM:
        return fmt_num(*(const double *)p);
    case KF_INT:
        return *(const int *)p >= 0 ? xasprintf("%d", *(const int *)p) : xstrdup("");
    case KF_ENUM: {
        const char *w = kp_word(f->words, *(const int *)p);
        return xstrdup(w ? w : "");
    }
    case KF_TRI:
        return xstrdup(tristate_text(*(const kp_tristate *)p));
    case KF_REFS:
        return join_strs(*(kp_str *const *)p, kp_fcount(r, f), ", ");
    case KF_TEXTS: {
        sbuf b;
        sbuf_init(&b);
        sbuf_add(&b, "");
        char *const *v = *(char **const *)p;
        for (size_t i = 0; i < kp_fcount(r, f); i++)
            sbuf_printf(&b, "%s%s", i ? "; " : "", v[i]);
        return sbuf_steal(&b);
    }
    default:
        return xstrdup("");
    }
}

static void by_item_text(sbuf *b, const void *by) { syn_by_text(b, by); }
static void join_item_text(sbuf *b, const void *j) { syn_join_text(b, j); }

static void value_item_text(sbuf *b, const void *value)
{
    const kp_enum_value *v = value;
    char n[32];
    sbuf_printf(b, "%s: %s", v->name, syn_number_text(v->share, n, sizeof n));
    if (!isnan(v->write_share))
        sbuf_printf(b, "/%s", syn_number_text(v->write_share, n, sizeof n));
}

static void alternative_item_text(sbuf *b, const void *alt)
{
    const kp_alternative *a = alt;
    sbuf_printf(b, "%s => %s", a->option ? a->option : "", a->why_not ? a->why_not : "");
}

static void signal_item_text(sbuf *b, const void *g)
{
    const kp_signal *s = g;
    sbuf_add(b, s->src ? s->src : "");
}

/* The cell of field `id` of the record at r. */
static char *cell_get(const kp_record *rec, int id, const void *r)
{
    if (rec == &kp_rec_pattern) {
        const kp_pattern *p = r;
        switch (id) {
        case FP_BY:
            return list_text(&rec->f[id], p, ", ", by_item_text);
        case FP_ORDER:
            if (!p->order.s)
                return xstrdup("");
            sbuf ob;
            sbuf_init(&ob);
            syn_order_text(&ob, p->order.s, p->order_desc);
            if (!p->order_desc)
                sbuf_add(&ob, " asc");
            return sbuf_steal(&ob);
        case FP_JOIN:
            return list_text(&rec->f[id], p, ", ", join_item_text);
        }
    } else if (rec == &kp_rec_attr) {
        const kp_attr *a = r;
        switch (id) {
        case FA_DISTINCT: /* enum and shard count their own */
            if (a->type == KP_ATTR_ENUM || a->type == KP_ATTR_SHARD)
                return xstrdup("");
            break;
        case FA_SKEW: {
            char buf[32];
            return a->zipf > 0 ? xasprintf("zipf:%s", syn_number_text(a->zipf, buf, sizeof buf))
                               : xstrdup("");
        }
        case FA_VALUES:
            return list_text(&rec->f[id], a, ", ", value_item_text);
        }
    } else if (rec == &kp_rec_decision) {
        switch (id) {
        case FD_ALTERNATIVES:
            return list_text(&rec->f[id], r, "; ", alternative_item_text);
        case FD_SIGNALS:
            return list_text(&rec->f[id], r, "; ", signal_item_text);
        }
    }
    return field_get(&rec->f[id], r);
}

/* ---- cells: write ----------------------------------------------------------------------------- */

/* Sets a field as its kind says. */
static bool field_set(const kp_field *f, void *r, const char *text, char **err)
{
    void *p = kp_fptr(r, f);
    double x;
    switch (f->kind) {
    case KF_TEXT:
        set_text(p, text);
        return true;
    case KF_REF:
        set_kstr(p, text);
        return true;
    case KF_NUM:
        if (!parse_field_num(f, text, &x, err))
            return false;
        *(double *)p = x;
        return true;
    case KF_ENUM: {
        char *t = trimmed(text);
        bool empty = !*t;
        free(t);
        int v = 0; /* an empty cell is the value without a word (needs: none), where there is one */
        if (!empty || kp_word(f->words, 0)) {
            const char *names[KP_WORDS_MAX];
            int n = (int)kp_words_all(f->words, names);
            int c = parse_choice(text, names, n, err);
            if (c < 0)
                return false;
            v = kp_word_find(f->words, names[c]);
        }
        *(int *)p = v;
        if (f->flags & KP_F_GIVEN)
            *(bool *)kp_fptr(r, f + 1) = true;
        return true;
    }
    case KF_TRI: {
        static const char *const bool_names[] = {"false", "true"};
        char *t = trimmed(text);
        bool empty = !*t;
        free(t);
        if (empty) {
            *(kp_tristate *)p = KP_UNSET;
            return true;
        }
        int c = parse_choice(text, bool_names, 2, err);
        if (c < 0)
            return false;
        *(kp_tristate *)p = c ? KP_TRUE : KP_FALSE;
        return true;
    }
    case KF_REFS:
        set_strs(p, (size_t *)((char *)r + f->count_off), text, ',');
        return true;
    case KF_TEXTS: {
        char **items;
        size_t m = split_list(text, ';', &items);
        size_t *n = (size_t *)((char *)r + f->count_off);
        char ***v = p;
        free_list(*v, *n);
        *v = m ? items : NULL;
        if (!m)
            free(items);
        *n = m;
        return true;
    }
    default:
        *err = xstrdup(_("no such column"));
        return false;
    }
}

/* A new unique name for row `row` of the record list (pattern ids, entity, index, attribute
 * names, decision ids): one word, not used by another row. `what` names it in messages. */
static char *unique_name(const kp_design *d, edit_table t, size_t row, const char *text, const char *what,
                         char **err);

static bool by_item(const char *item, void *out, char **err)
{
    kp_by *by = out;
    syn_by sb;
    if (syn_by_parse(item, strlen(item), &sb, NULL) != KP_OK) {
        *err = xasprintf(_("'%s' is not an attribute or attribute=value"), item);
        return false;
    }
    by->attr.s = syn_name(item, sb.attr);
    by->value = sb.has_value ? xstrndup(item + sb.value.at, sb.value.len) : NULL;
    return true;
}

static bool set_order(kp_pattern *p, const char *text, char **err)
{
    /* the cell may keep one pair of brackets, as the list cells do */
    char *t = trimmed(text);
    size_t len = strlen(t), from = 0;
    if (len >= 2 && t[0] == '[' && t[len - 1] == ']')
        from = 1, len -= 2;
    syn_span at = {0, 0};
    bool desc = false;
    size_t a, z;
    syn_trim(t + from, len, &a, &z);
    if (z > a && syn_order_parse(t + from, len, &at, &desc, NULL) != KP_OK) {
        *err = xstrdup(_("expected 'attribute', 'attribute asc' or 'attribute desc'"));
        free(t);
        return false;
    }
    free(p->order.s);
    p->order.s = z > a ? syn_name(t + from, at) : NULL;
    p->order_desc = desc;
    free(t);
    return true;
}

static bool join_item(const char *item, void *out, char **err)
{
    kp_join *j = out;
    syn_span to, from;
    if (syn_join_parse(item, strlen(item), &to, &from, NULL) != KP_OK) {
        *err = xasprintf(_("'%s' is not to=from (e.g. username=followingUsername)"), item);
        return false;
    }
    j->to.s = syn_name(item, to);
    j->from.s = syn_name(item, from);
    return true;
}

static bool set_skew(kp_attr *a, const char *text, char **err)
{
    char *t = trimmed(text);
    if (!*t) {
        a->zipf = 0;
        free(t);
        return true;
    }
    double s;
    bool ok = strncmp(t, "zipf:", 5) == 0 && syn_number(t + 5, strlen(t + 5), 0, &s) && s >= 0;
    if (!ok)
        *err = xasprintf(_("'%s' is not a skew; expected zipf:S with S >= 0 (e.g. zipf:1.1)"), t);
    else
        a->zipf = s;
    free(t);
    return ok;
}

/* "paid: 0.03" or "paid: 0.03/0.10" (share of the items / of the writes) */
static bool value_item(const char *item, void *out, char **err)
{
    kp_enum_value *v = out;
    const char *colon = strchr(item, ':');
    char *end = NULL;
    double share = colon ? strtod(colon + 1, &end) : NAN;
    double wshare = NAN;
    if (end && *end == '/')
        wshare = strtod(end + 1, &end);
    while (end && isspace((unsigned char)*end))
        end++;
    if (!colon || !end || *end || !(share >= 0 && share <= 1) ||
        (!isnan(wshare) && !(wshare >= 0 && wshare <= 1))) {
        *err = xasprintf(_("'%s' is not value: share; expected e.g. paid: 0.03 (or paid: 0.03/0.10)"), item);
        return false;
    }
    v->name = trim_dup(item, (size_t)(colon - item));
    v->share = share;
    v->write_share = wshare;
    return true;
}

static bool set_values(kp_attr *a, const char *text, char **err)
{
    if (!set_list(&kp_rec_attr.f[FA_VALUES], a, text, ',', value_item, err))
        return false;
    if (a->nvalues && a->type == KP_ATTR_STRING)
        a->type = KP_ATTR_ENUM;
    if (a->type == KP_ATTR_ENUM)
        a->distinct = a->nvalues ? (double)a->nvalues : NAN;
    return true;
}

static bool set_format(kp_attr *a, const char *text, char **err)
{
    char *t = trimmed(text);
    for (const char *p = t; *p; p++)
        if (!isdigit((unsigned char)*p)) {
            *err = xasprintf(_("'%s' is not a format; expected digits such as 03"), t);
            free(t);
            return false;
        }
    free(a->format);
    a->format = *t ? t : NULL;
    if (!*t)
        free(t);
    return true;
}

static bool set_shard_count(kp_attr *a, const char *text, char **err)
{
    double x;
    if (!parse_num(text, true, &x, err))
        return false;
    if (!isnan(x) && (x != floor(x) || x < 1 || x > 100000)) {
        *err = xstrdup(_("expected a whole number of shards from 1 to 100000"));
        return false;
    }
    a->shard_count = isnan(x) ? -1 : (int)x;
    if (a->shard_count > 0 && a->type == KP_ATTR_STRING)
        a->type = KP_ATTR_SHARD;
    if (a->type == KP_ATTR_SHARD)
        a->distinct = a->shard_count > 0 ? a->shard_count : NAN;
    return true;
}

/* "option => why not" */
static bool alternative_item(const char *item, void *out, char **err)
{
    (void)err;
    kp_alternative *a = out;
    const char *arrow = strstr(item, "=>");
    a->option = arrow ? trim_dup(item, (size_t)(arrow - item)) : xstrdup(item);
    a->why_not = arrow ? trimmed(arrow + 2) : NULL;
    return true;
}

static bool signal_item(const char *item, void *out, char **err)
{
    char *perr = NULL;
    if (signal_parse(item, out, &perr) == KP_OK)
        return true;
    *err = xasprintf(_("signal '%s': %s; expected metric op number (e.g. pattern.5.rate > 50)"), item, perr);
    free(perr);
    return false;
}

/* A number that must be given (entities' count and size). */
static bool set_required_num(double *f, const char *text, double max, char **err)
{
    double x;
    if (!parse_num(text, false, &x, err))
        return false;
    if (x > max) {
        *err = xasprintf(_("an item of %.0f bytes exceeds DynamoDB's 400 KB limit"), x);
        return false;
    }
    *f = x;
    return true;
}

/* A key attribute of the table or an index: one word (the sort key may be empty); renaming it
 * renames the entities' templates for it. */
static bool set_key_slot(kp_design *d, kp_str *slot, bool optional, const char *text, char **err)
{
    char *t = trimmed(text);
    bool ok = optional && !*t ? true : check_name(t, _("key attribute"), err);
    free(t);
    if (ok)
        rename_key_slot(d, slot, text);
    return ok;
}

/* Sets the cell of field `id` of the record at r (row `row` of table t, when it is one). */
static bool cell_set(kp_design *d, edit_table t, size_t row, const kp_record *rec, int id, void *r,
                     const char *text, char **err)
{
    const kp_field *f = &rec->f[id];
    if ((f->flags & KP_F_LABEL) && rec != &kp_rec_entity) {
        /* a row's id or name: one word, unique; a pattern's references follow it */
        char *what = rec == &kp_rec_attr       ? xstrdup(_("attribute name"))
                     : rec == &kp_rec_pattern  ? xstrdup(_("pattern id"))
                     : rec == &kp_rec_index    ? xstrdup(_("index name"))
                     : rec == &kp_rec_decision ? xstrdup(_("decision id"))
                                               : xasprintf("%s %s", rec->name, f->key);
        char *name = unique_name(d, t, row, text, what, err);
        free(what);
        if (!name)
            return false;
        char **slot = kp_fptr(r, f);
        if (rec == &kp_rec_pattern && *slot && strcmp(*slot, name) != 0)
            rename_pattern_refs(d, *slot, name);
        free(*slot);
        *slot = name;
        return true;
    }
    if (rec == &kp_rec_pattern) {
        kp_pattern *p = r;
        switch (id) {
        case FP_ENTITY:
            set_strs(&p->entities, &p->nentities, text, ',');
            p->multi_form = p->nentities > 1;
            return true;
        case FP_BY:
            return set_list(f, p, text, ',', by_item, err);
        case FP_ORDER:
            return set_order(p, text, err);
        case FP_JOIN:
            return set_list(f, p, text, ',', join_item, err);
        case FP_LIMIT: {
            double x;
            if (!parse_num(text, true, &x, err))
                return false;
            if (!isnan(x) && (x < 1 || x != floor(x))) {
                char buf[32];
                *err = xasprintf(_("a limit of %s items: expected a whole number >= 1 (empty = none)"),
                                 syn_number_text(x, buf, sizeof buf));
                return false;
            }
            p->limit = x;
            return true;
        }
        }
    } else if (rec == &kp_rec_entity) {
        kp_entity *e = r;
        switch (id) {
        case FE_NAME:
            return entity_rename(d, row, text, err);
        case FE_COUNT:
            return set_required_num(&e->count, text, INFINITY, err);
        case FE_SIZE:
            return set_required_num(&e->size, text, 400 * 1024, err);
        }
    } else if (rec == &kp_rec_index) {
        kp_index *x = r;
        switch (id) {
        case FX_PK:
            return set_key_slot(d, &x->pk, false, text, err);
        case FX_SK:
            return set_key_slot(d, &x->sk, true, text, err);
        }
    } else if (rec == &kp_rec_attr) {
        kp_attr *a = r;
        switch (id) {
        case FA_TYPE:
            if (!field_set(f, r, text, err))
                return false;
            if (a->type == KP_ATTR_ENUM)
                a->distinct = a->nvalues ? (double)a->nvalues : NAN;
            if (a->type == KP_ATTR_SHARD)
                a->distinct = a->shard_count > 0 ? a->shard_count : NAN;
            return true;
        case FA_SKEW:
            return set_skew(a, text, err);
        case FA_VALUES:
            return set_values(a, text, err);
        case FA_FORMAT:
            return set_format(a, text, err);
        case FA_COUNT:
            return set_shard_count(a, text, err);
        case FA_WRITE_HOT: {
            double x;
            if (!parse_num(text, true, &x, err))
                return false;
            if (x > 1) {
                *err = xstrdup(_("write_hot is a share; expected a number from 0 to 1"));
                return false;
            }
            a->write_hot = x;
            return true;
        }
        }
    } else if (rec == &kp_rec_decision) {
        switch (id) {
        case FD_ALTERNATIVES:
            return set_list(f, r, text, ';', alternative_item, err);
        case FD_SIGNALS:
            return set_list(f, r, text, ';', signal_item, err);
        }
    } else if (rec == &kp_rec_table) {
        switch (id) {
        case FT_NAME: {
            char *tn = trimmed(text);
            bool ok = check_name(tn, _("table name"), err);
            free(tn);
            if (ok)
                set_text(&d->table.name, text);
            return ok;
        }
        case FT_PK:
            return set_key_slot(d, &d->table.pk, false, text, err);
        case FT_SK:
            return set_key_slot(d, &d->table.sk, true, text, err);
        case FT_TARGET_UTILIZATION: {
            double x;
            if (!parse_num(text, true, &x, err))
                return false;
            if (!isnan(x) && (x <= 0 || x > 1)) {
                *err = xstrdup(_("target utilization is a share; expected a number above 0 and at most 1"));
                return false;
            }
            d->table.target_utilization = x;
            return true;
        }
        }
    } else if (rec == &kp_rec_pricing) {
        /* any price said makes the design's pricing its own */
        if (!field_set(f, r, text, err))
            return false;
        d->pricing.given = true;
        return true;
    }
    return field_set(f, r, text, err);
}

static char *unique_name(const kp_design *d, edit_table t, size_t row, const char *text, const char *what,
                         char **err)
{
    char *s = trimmed(text);
    if (!check_name(s, what, err)) {
        free(s);
        return NULL;
    }
    /* patterns and indexes clash with the first row of the name, the others with any other row */
    ptrdiff_t first = -1, other = -1;
    size_t n = edit_nrows(d, t);
    for (size_t i = 0; i < n; i++)
        if (streq(edit_row_name(d, t, i), s)) {
            if (first < 0)
                first = (ptrdiff_t)i;
            if (i != row && other < 0)
                other = (ptrdiff_t)i;
        }
    bool by_first = t == EDIT_PATTERNS || t == EDIT_INDEXES;
    bool clash = by_first ? first >= 0 && (size_t)first != row : other >= 0;
    if (t == EDIT_INDEXES && streq(s, "table"))
        clash = true;
    if (!clash)
        return s;
    switch (t) {
    case EDIT_PATTERNS:
        *err = xasprintf(_("pattern id '%s' is already used by pattern %td; expected a unique id"), s,
                         first + 1);
        break;
    case EDIT_INDEXES:
        *err = xasprintf(_("index name '%s' is already used; expected a unique name"), s);
        break;
    case EDIT_ATTRS:
        *err = xasprintf(_("attribute '%s' is already declared; expected a unique name"), s);
        break;
    default:
        *err = xasprintf(_("decision id '%s' is already used; expected a unique id"), s);
        break;
    }
    free(s);
    return NULL;
}

/* ---- dispatch ----------------------------------------------------------------------------- */

/* The element of row `row` of a record table. */
static void *row_elem(const kp_design *d, edit_table t, size_t row)
{
    rows_ref r;
    if (!table_rows((kp_design *)d, t, &r))
        return NULL; /* not a table of rows: callers ask for those only */
    return (char *)*r.arr + row * r.elsize;
}

char *edit_get(const kp_design *d, edit_table t, size_t row, size_t col)
{
    if (!d || row >= edit_nrows(d, t))
        return xstrdup("");
    const kp_record *rec = table_rec(t);
    if (rec) { /* a column past the last is no field's (a redraw asks for every cell: no count) */
        int f = col <= (size_t)INT_MAX ? col_field(rec, col) : -1;
        return f < 0 ? xstrdup("") : cell_get(rec, f, row_elem(d, t, row));
    }
    if (col >= edit_ncols(d, t))
        return xstrdup("");
    if (t == EDIT_KEYS)
        return keys_get(d, row, col);
    if (t == EDIT_SETTINGS) {
        setting s;
        if (!setting_at(row, &s))
            return xstrdup("");
        return col == 0 ? xstrdup(setting_name(s))
                        : cell_get(s.rec, s.id, setting_target((kp_design *)d, s.rec));
    }
    return xstrdup("");
}

/* edit_set with the message always wanted (*err set on failure only). */
static kp_status set_cell(kp_design *d, edit_table t, size_t row, size_t col, const char *text, char **err)
{
    if (!d || row >= edit_nrows(d, t) || col >= edit_ncols(d, t)) {
        *err = xasprintf(_("no cell at row %zu, column %zu of %s"), row + 1, col + 1, edit_table_name(t));
        return KP_NOTFOUND;
    }
    if (!text)
        text = "";
    size_t bad;
    if (!util_utf8_valid(text, strlen(text), &bad)) {
        *err = xasprintf(_("invalid UTF-8 at byte %zu; expected UTF-8 text"), bad + 1);
        return KP_ENCODING;
    }
    if (strlen(text) > KP_MAX_VALUE) {
        *err = xasprintf(_("%zu bytes; expected at most %d (64 KiB)"), strlen(text), KP_MAX_VALUE);
        return KP_RANGE;
    }
    ptrdiff_t ctl = util_control_at(text, true);
    if (ctl >= 0) {
        *err = xasprintf(_("a control character at byte %td; expected printable text"), ctl + 1);
        return KP_ENCODING;
    }
    if (t == EDIT_KEYS)
        return keys_set(d, row, col, text, err) ? KP_OK : KP_INVALID;
    if (t == EDIT_SETTINGS) {
        setting s;
        if (col == 0) {
            *err = xstrdup(_("the setting's name is fixed; edit its value"));
            return KP_INVALID;
        }
        if (!setting_at(row, &s)) {
            *err = xstrdup(_("no such setting"));
            return KP_NOTFOUND;
        }
        return cell_set(d, t, row, s.rec, s.id, setting_target(d, s.rec), text, err) ? KP_OK : KP_INVALID;
    }
    const kp_record *rec = table_rec(t);
    return cell_set(d, t, row, rec, col_field(rec, col), row_elem(d, t, row), text, err) ? KP_OK : KP_INVALID;
}

kp_status edit_set(kp_design *d, edit_table t, size_t row, size_t col, const char *text, char **err)
{
    char *msg = NULL;
    kp_status st = set_cell(d, t, row, col, text, &msg);
    if (st != KP_OK && !msg) /* every refusal says why; this one did not */
        msg = xstrdup(kp_status_text(st));
    if (err)
        *err = msg;
    else
        free(msg);
    return st;
}

bool edit_changes_pattern_only(edit_table t, size_t col)
{
    if (t != EDIT_PATTERNS)
        return false;
    int f = col_field(&kp_rec_pattern, col);
    return f >= 0 && !(kp_rec_pattern.f[f].flags & KP_F_LABEL);
}

static void *row_elem(const kp_design *d, edit_table t, size_t row);

bool edit_changes_row_only(const kp_design *d, edit_table t, size_t col)
{
    if (t == EDIT_KEYS)
        return col > 0 && col < edit_ncols(d, t);
    if (t != EDIT_ENTITIES && t != EDIT_ATTRS && t != EDIT_INDEXES && t != EDIT_DECISIONS)
        return false;
    const kp_record *rec = table_rec(t);
    int f = col_field(rec, col);
    /* an index's key attributes rename the entities' templates that follow them; its name is
       named by nothing that follows it (a signal naming the old one is then an error), nor is an
       attribute's (a template or a pattern naming the old one reads no declared attribute then) */
    if (rec == &kp_rec_index)
        return f >= 0 && f != FX_PK && f != FX_SK;
    if (rec == &kp_rec_attr)
        return f >= 0;
    return f >= 0 && !(rec->f[f].flags & KP_F_LABEL);
}

bool edit_renames_entity(edit_table t, size_t col)
{
    if (t == EDIT_KEYS)
        return col == 0;
    int f = t == EDIT_ENTITIES ? col_field(&kp_rec_entity, col) : -1;
    return f == FE_NAME;
}

bool edit_renames_pattern(edit_table t, size_t col)
{
    int f = t == EDIT_PATTERNS ? col_field(&kp_rec_pattern, col) : -1;
    return f >= 0 && (kp_rec_pattern.f[f].flags & KP_F_LABEL);
}

void edit_rename_entity_refs(kp_pattern *p, const char *from, const char *to)
{
    for (size_t j = 0; from && j < p->nentities; j++)
        if (streq(p->entities[j].s, from)) {
            free(p->entities[j].s);
            p->entities[j].s = xstrdup(to);
        }
}

bool edit_names_entity(const kp_pattern *p, const char *name)
{
    for (size_t j = 0; name && j < p->nentities; j++)
        if (streq(p->entities[j].s, name))
            return true;
    return false;
}

bool edit_changes_rest_only(edit_table t, size_t row, size_t col)
{
    if (t == EDIT_DECISIONS)
        return edit_changes_row_only(NULL, t, col);
    setting st;
    if (t != EDIT_SETTINGS || col != 1 || !setting_at(row, &st))
        return false;
    return !(st.rec == &kp_rec_table && (st.id == FT_PK || st.id == FT_SK));
}

bool edit_changes_keys_only(edit_table t, size_t row, size_t col)
{
    if (t == EDIT_INDEXES) {
        int f = col_field(&kp_rec_index, col);
        return f == FX_PK || f == FX_SK;
    }
    setting st;
    return t == EDIT_SETTINGS && col == 1 && setting_at(row, &st) && st.rec == &kp_rec_table &&
           (st.id == FT_PK || st.id == FT_SK);
}

void *edit_row(kp_design *d, edit_table t, size_t row, const kp_record **rec)
{
    if (!d || t == EDIT_SETTINGS || row >= edit_nrows(d, t))
        return NULL;
    *rec = table_rec(t == EDIT_KEYS ? EDIT_ENTITIES : t);
    return row_elem(d, t, row);
}

/* ---- rows ---------------------------------------------------------------------------------- */

const char *edit_row_name(const kp_design *d, edit_table t, size_t i)
{
    switch (t) {
    case EDIT_PATTERNS:
        return d->patterns[i].id;
    case EDIT_ENTITIES:
    case EDIT_KEYS:
        return d->entities[i].name;
    case EDIT_INDEXES:
        return d->indexes[i].name;
    case EDIT_ATTRS:
        return d->attrs[i].name;
    case EDIT_DECISIONS:
        return d->decisions[i].id;
    default:
        return NULL;
    }
}

static bool name_used(const kp_design *d, edit_table t, const char *name)
{
    size_t n = edit_nrows(d, t);
    for (size_t i = 0; i < n; i++)
        if (streq(edit_row_name(d, t, i), name))
            return true;
    return false;
}

/* A fresh name: prefix followed by the smallest number >= start not used yet. */
static char *fresh_name(const kp_design *d, edit_table t, const char *prefix, size_t start)
{
    for (size_t k = start;; k++) {
        char *s = xasprintf("%s%zu", prefix, k);
        if (!name_used(d, t, s))
            return s;
        free(s);
    }
}

static void set_row_name(kp_design *d, edit_table t, size_t i, char *name)
{
    char **field = NULL;
    switch (t) {
    case EDIT_PATTERNS:
        field = &d->patterns[i].id;
        break;
    case EDIT_ENTITIES:
    case EDIT_KEYS:
        field = &d->entities[i].name;
        break;
    case EDIT_INDEXES:
        field = &d->indexes[i].name;
        break;
    case EDIT_ATTRS:
        field = &d->attrs[i].name;
        break;
    case EDIT_DECISIONS:
        field = &d->decisions[i].id;
        break;
    default:
        free(name);
        return;
    }
    free(*field);
    *field = name;
}

static char *new_row_name(const kp_design *d, edit_table t)
{
    switch (t) {
    case EDIT_PATTERNS: {
        size_t max = 0;
        for (size_t i = 0; i < d->npatterns; i++) {
            char *end;
            const char *id = d->patterns[i].id ? d->patterns[i].id : "";
            unsigned long v = strtoul(id, &end, 10);
            if (*id && !*end && v > max)
                max = v;
        }
        return fresh_name(d, t, "", max + 1);
    }
    case EDIT_ENTITIES:
    case EDIT_KEYS:
        return fresh_name(d, t, "Entity", d->nentities + 1);
    case EDIT_INDEXES:
        return fresh_name(d, t, "GSI", d->nindexes + 1);
    case EDIT_ATTRS:
        return fresh_name(d, t, "attr", d->nattrs + 1);
    case EDIT_DECISIONS:
        return fresh_name(d, t, "D", d->ndecisions + 1);
    default:
        return NULL;
    }
}

static void init_row(edit_table t, void *slot)
{
    switch (t) {
    case EDIT_PATTERNS:
        pattern_init(slot);
        break;
    case EDIT_ENTITIES:
    case EDIT_KEYS:
        entity_init(slot);
        break;
    case EDIT_INDEXES:
        index_init(slot);
        break;
    case EDIT_ATTRS:
        attr_init(slot);
        break;
    case EDIT_DECISIONS:
        decision_init(slot);
        break;
    default:
        break;
    }
}

static void free_row(edit_table t, void *slot)
{
    switch (t) {
    case EDIT_PATTERNS:
        pattern_free(slot);
        break;
    case EDIT_ENTITIES:
    case EDIT_KEYS:
        entity_free(slot);
        break;
    case EDIT_INDEXES:
        index_free(slot);
        break;
    case EDIT_ATTRS:
        attr_free(slot);
        break;
    case EDIT_DECISIONS:
        decision_free(slot);
        break;
    default:
        break;
    }
}

/* Opens a hole at `at` and returns the slot (uninitialised). */
static void *insert_slot(rows_ref *r, size_t at)
{
    char *base = xrealloc(*r->arr, (*r->n + 1) * r->elsize);
    memmove(base + (at + 1) * r->elsize, base + at * r->elsize, (*r->n - at) * r->elsize);
    *r->arr = base;
    (*r->n)++;
    return base + at * r->elsize;
}

size_t edit_add(kp_design *d, edit_table t, size_t at)
{
    rows_ref r;
    if (!d || t == EDIT_KEYS || !table_rows(d, t, &r))
        return (size_t)-1;
    if (at > *r.n)
        at = *r.n;
    char *name = new_row_name(d, t);
    void *slot = insert_slot(&r, at);
    init_row(t, slot);
    set_row_name(d, t, at, name);
    if (t == EDIT_PATTERNS) {
        d->patterns[at].name = xstrdup("new pattern");
    } else if (t == EDIT_ENTITIES) {
        d->entities[at].count = 0;
        d->entities[at].size = 0;
    } else if (t == EDIT_INDEXES) {
        kp_index *x = &d->indexes[at];
        x->pk.s = xasprintf("%sPK", x->name);
        x->sk.s = xasprintf("%sSK", x->name);
    } else if (t == EDIT_DECISIONS) {
        d->decisions[at].status = KP_DEC_PROPOSED;
        d->decisions[at].title = xstrdup("new decision");
    }
    return at;
}

bool edit_delete(kp_design *d, edit_table t, size_t row)
{
    rows_ref r;
    if (!d || !table_rows(d, t, &r) || row >= *r.n)
        return false;
    char *base = *r.arr;
    free_row(t, base + row * r.elsize);
    memmove(base + row * r.elsize, base + (row + 1) * r.elsize, (*r.n - row - 1) * r.elsize);
    (*r.n)--;
    if (*r.n == 0) {
        free(*r.arr);
        *r.arr = NULL;
    }
    return true;
}

size_t edit_duplicate(kp_design *d, edit_table t, size_t row)
{
    rows_ref r;
    if (!d || !table_rows(d, t, &r) || row >= *r.n)
        return (size_t)-1;
    /* a deep copy of the element alone (its record's fields), in proportion to it */
    const kp_record *rec = t == EDIT_PATTERNS    ? &kp_rec_pattern
                           : t == EDIT_INDEXES   ? &kp_rec_index
                           : t == EDIT_ATTRS     ? &kp_rec_attr
                           : t == EDIT_DECISIONS ? &kp_rec_decision
                                                 : &kp_rec_entity;
    char *tmp = fields_dup(rec, (const char *)*r.arr + row * r.elsize);
    char *name = new_row_name(d, t);
    if (t == EDIT_ENTITIES || t == EDIT_KEYS || t == EDIT_INDEXES || t == EDIT_ATTRS) {
        const char *old = edit_row_name(d, t, row);
        free(name);
        char *prefix = xasprintf("%s_", old ? old : "copy");
        name = fresh_name(d, t, prefix, 2);
        free(prefix);
    }
    void *slot = insert_slot(&r, row + 1);
    memcpy(slot, tmp, r.elsize);
    free(tmp);
    set_row_name(d, t, row + 1, name);
    return row + 1;
}

bool edit_move(kp_design *d, edit_table t, size_t row, int delta)
{
    rows_ref r;
    if (!d || !table_rows(d, t, &r) || row >= *r.n)
        return false;
    ptrdiff_t to = (ptrdiff_t)row + delta;
    if (delta == 0 || to < 0 || (size_t)to >= *r.n)
        return false;
    char *base = *r.arr;
    char *tmp = xmalloc(r.elsize);
    memcpy(tmp, base + row * r.elsize, r.elsize);
    if ((size_t)to < row)
        memmove(base + ((size_t)to + 1) * r.elsize, base + (size_t)to * r.elsize,
                (row - (size_t)to) * r.elsize);
    else
        memmove(base + row * r.elsize, base + (row + 1) * r.elsize, ((size_t)to - row) * r.elsize);
    memcpy(base + (size_t)to * r.elsize, tmp, r.elsize);
    free(tmp);
    return true;
}

bool edit_rows_step(kp_design *d, edit_table t, kp_rowop op, const void *in, void *out)
{
    rows_ref r;
    if (!d || !table_rows(d, t, &r) || !kp_rowop_fits(op, *r.n))
        return false;
    kp_rowop_apply(r.arr, r.n, r.elsize, op, in, out);
    return true;
}

bool edit_rows_step_fits(const kp_design *to, const kp_design *d, edit_table t, kp_rowop op)
{
    rows_ref r = {0}, from = {0};
    return to && d && table_rows((kp_design *)to, t, &r) && table_rows((kp_design *)d, t, &from) &&
           kp_rowop_fits(op, *r.n) && kp_rowop_count(op, *r.n) == *from.n &&
           (op.kind != KP_ROW_INSERT || op.row < *from.n);
}

bool edit_rows_step_from(kp_design *to, const kp_design *d, edit_table t, kp_rowop op)
{
    rows_ref r = {0}, from = {0};
    if (!edit_rows_step_fits(to, d, t, op))
        return false;
    table_rows(to, t, &r);
    table_rows((kp_design *)d, t, &from);
    const kp_record *rec = edit_record(t);
    void *in = xcalloc(1, r.elsize), *out = xcalloc(1, r.elsize);
    if (op.kind == KP_ROW_INSERT) {
        const void *src = (const char *)*from.arr + op.row * from.elsize;
        memcpy(in, src, r.elsize);
        fields_clone(rec, in, src);
    }
    kp_rowop_apply(r.arr, r.n, r.elsize, op, in, out);
    if (op.kind == KP_ROW_REMOVE)
        fields_free(rec, out);
    free(in);
    free(out);
    return true;
}

const struct kp_record *edit_record(edit_table t) { return t == EDIT_KEYS ? &kp_rec_entity : table_rec(t); }

size_t edit_decision_from_pattern(kp_design *d, size_t pattern_row)
{
    if (!d || pattern_row >= d->npatterns)
        return (size_t)-1;
    const kp_pattern *p = &d->patterns[pattern_row];
    char *title = xasprintf("Pattern %s: %s", p->id ? p->id : "?", p->name ? p->name : "");
    char *pid = xstrdup(p->id ? p->id : "");
    size_t at = edit_add(d, EDIT_DECISIONS, d->ndecisions);
    kp_decision *x = &d->decisions[at];
    free(x->title);
    x->title = title;
    x->patterns = xcalloc(1, sizeof *x->patterns);
    x->patterns[0].s = pid;
    x->npatterns = 1;
    return at;
}
