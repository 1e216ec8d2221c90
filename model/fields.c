/* fields.c - the records' field tables and enum words, and the loops that copy, compare and
 * release any record through them. */
#include "fields.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- enum words ------------------------------------------------------------------------ */

#define WORD_OF(e, word, alias)  [e] = word,
#define ALIAS_OF(e, word, alias) [e] = alias,
#define COUNT_OF(e, word, alias) +1
#define WORDS(name, LIST)                                                          \
    _Static_assert(0 LIST(COUNT_OF) <= KP_WORDS_MAX, #name " has too many words"); \
    static const char *const name##_word[] = {LIST(WORD_OF)};                      \
    static const char *const name##_alias[] = {LIST(ALIAS_OF)};                    \
    const kp_words kp_words_##name = {name##_word, name##_alias, 0 LIST(COUNT_OF)};

WORDS(billing, KP_BILLING_WORDS)
WORDS(index_kind, KP_INDEX_KIND_WORDS)
WORDS(projection, KP_PROJECTION_WORDS)
WORDS(attr_type, KP_ATTR_TYPE_WORDS)
WORDS(sparse_kind, KP_SPARSE_KIND_WORDS)
WORDS(cond_op, KP_COND_OP_WORDS)
WORDS(pattern_kind, KP_PATTERN_KIND_WORDS)
WORDS(consistency, KP_CONSISTENCY_WORDS)
WORDS(write_op, KP_WRITE_OP_WORDS)
WORDS(needs, KP_NEEDS_WORDS)
WORDS(decision_status, KP_DECISION_STATUS_WORDS)
WORDS(cmp, KP_CMP_WORDS)
WORDS(chars, KP_CHARS_WORDS)

const char *kp_word(const kp_words *w, int v) { return v >= 0 && v < w->n ? w->word[v] : NULL; }

int kp_word_find(const kp_words *w, const char *s)
{
    for (int i = 0; s && i < w->n; i++)
        if (w->word[i] && !strcmp(w->word[i], s))
            return i;
    return -1;
}

int kp_word_find_ci(const kp_words *w, const char *s)
{
    for (int i = 0; s && i < w->n; i++)
        if ((w->word[i] && !strcasecmp(w->word[i], s)) || (w->alias[i] && !strcasecmp(w->alias[i], s)))
            return i;
    return -1;
}

size_t kp_words_all(const kp_words *w, const char **out)
{
    size_t n = 0;
    for (int i = 0; i < w->n && n < KP_WORDS_MAX; i++)
        if (w->word[i])
            out[n++] = w->word[i];
    return n;
}

void kp_words_join(const kp_words *w, sbuf *b, const char *sep, const char *last)
{
    const char *v[KP_WORDS_MAX];
    size_t n = kp_words_all(w, v);
    for (size_t i = 0; i < n; i++) {
        if (i)
            sbuf_add(b, i + 1 == n ? last : sep);
        sbuf_add(b, v[i]);
    }
}

/* ---- the tables ------------------------------------------------------------------------ */

#define K_TEXT           .kind = KF_TEXT
#define K_REF            .kind = KF_REF
#define K_NUM(rule)      .kind = KF_NUM, .num = rule
#define K_INT(rule)      .kind = KF_INT, .num = rule
#define K_ENUM(w)        .kind = KF_ENUM, .words = &kp_words_##w
#define K_TRI            .kind = KF_TRI
#define K_FLAG           .kind = KF_FLAG
#define K_REFS(count)    .kind = KF_REFS, .count_off = offsetof(REC, count)
#define K_TEXTS(count)   .kind = KF_TEXTS, .count_off = offsetof(REC, count)
#define K_TPL            .kind = KF_TPL
#define K_REC(r)         .kind = KF_REC, .sub = &kp_rec_##r
#define K_RECS(r, count) .kind = KF_RECS, .sub = &kp_rec_##r, .count_off = offsetof(REC, count)
#define K_VIRTUAL        .kind = KF_VIRTUAL

#define FIELD(id, key_, member, kind_, flags_, cell_, hint_) \
    {.key = key_, kind_, .flags = flags_, .off = offsetof(REC, member), .cell = cell_, .hint = hint_},

#define RECORD_AT(name_, type, LIST, loc_off)                                        \
    static const kp_field name_##_fields[] = {LIST(FIELD)};                          \
    const kp_record kp_rec_##name_ = {#name_, sizeof(type), loc_off, name_##_fields, \
                                      sizeof name_##_fields / sizeof *name_##_fields};
#define RECORD(name_, type, LIST) RECORD_AT(name_, type, LIST, (ptrdiff_t)offsetof(type, loc))

#define REC kp_design
RECORD_AT(design, kp_design, KP_DESIGN_FIELDS, -1)
#undef REC
#define REC kp_table
RECORD(table, kp_table, KP_TABLE_FIELDS)
#undef REC
#define REC kp_index
RECORD(index, kp_index, KP_INDEX_FIELDS)
#undef REC
#define REC kp_enum_value
RECORD(enum_value, kp_enum_value, KP_ENUM_VALUE_FIELDS)
#undef REC
#define REC kp_attr
RECORD(attr, kp_attr, KP_ATTR_FIELDS)
#undef REC
#define REC kp_keytpl
RECORD(keytpl, kp_keytpl, KP_KEYTPL_FIELDS)
#undef REC
#define REC kp_sparse
RECORD(sparse, kp_sparse, KP_SPARSE_FIELDS)
#undef REC
#define REC kp_entity
RECORD(entity, kp_entity, KP_ENTITY_FIELDS)
#undef REC
#define REC kp_by
RECORD_AT(by, kp_by, KP_BY_FIELDS, -1)
#undef REC
#define REC kp_join
RECORD_AT(join, kp_join, KP_JOIN_FIELDS, -1)
#undef REC
#define REC kp_pattern
RECORD(pattern, kp_pattern, KP_PATTERN_FIELDS)
#undef REC
#define REC kp_alert
RECORD(alert, kp_alert, KP_ALERT_FIELDS)
#undef REC
#define REC kp_pricing
RECORD(pricing, kp_pricing, KP_PRICING_FIELDS)
#undef REC
#define REC kp_alternative
RECORD(alternative, kp_alternative, KP_ALTERNATIVE_FIELDS)
#undef REC
#define REC kp_signal
RECORD(signal, kp_signal, KP_SIGNAL_FIELDS)
#undef REC
#define REC kp_decision
RECORD(decision, kp_decision, KP_DECISION_FIELDS)
#undef REC

const kp_record *const kp_records[] = {
    &kp_rec_design,  &kp_rec_table,       &kp_rec_index,  &kp_rec_enum_value, &kp_rec_attr,    &kp_rec_keytpl,
    &kp_rec_sparse,  &kp_rec_entity,      &kp_rec_by,     &kp_rec_join,       &kp_rec_pattern, &kp_rec_alert,
    &kp_rec_pricing, &kp_rec_alternative, &kp_rec_signal, &kp_rec_decision};
const size_t kp_nrecords = sizeof kp_records / sizeof *kp_records;

/* Enums are read and written through int: every enum of the design must have int's size. */
_Static_assert(sizeof(kp_billing) == sizeof(int) && sizeof(kp_cmp) == sizeof(int) &&
                   sizeof(kp_needs) == sizeof(int) && sizeof(kp_sparse_kind) == sizeof(int),
               "enums are int-sized");

int fields_find(const kp_record *rec, const char *key)
{
    for (size_t i = 0; key && i < rec->n; i++)
        if (!strcmp(rec->f[i].key, key))
            return (int)i;
    return -1;
}

/* ---- clone, equal, free ---------------------------------------------------------------- */

void fields_clone(const kp_record *rec, void *dst, const void *src)
{
    for (size_t i = 0; i < rec->n; i++) {
        const kp_field *f = &rec->f[i];
        void *d = kp_fptr(dst, f);
        const void *s = kp_fcptr(src, f);
        switch (f->kind) {
        case KF_TEXT:
            *(char **)d = xstrdup(*(char *const *)s);
            break;
        case KF_REF:
            ((kp_str *)d)->s = xstrdup(((const kp_str *)s)->s);
            break;
        case KF_REFS:
        case KF_TEXTS:
        case KF_RECS: {
            size_t n = kp_fcount(src, f);
            size_t el = f->kind == KF_REFS    ? sizeof(kp_str)
                        : f->kind == KF_TEXTS ? sizeof(char *)
                                              : f->sub->size;
            const char *from = *(char *const *)s;
            char *to = n ? xmalloc(n * el) : NULL;
            if (n)
                memcpy(to, from, n * el);
            *(char **)d = to;
            for (size_t k = 0; k < n; k++) {
                if (f->kind == KF_REFS)
                    ((kp_str *)to)[k].s = xstrdup(((const kp_str *)from)[k].s);
                else if (f->kind == KF_TEXTS)
                    ((char **)to)[k] = xstrdup(((char *const *)from)[k]);
                else
                    fields_clone(f->sub, to + k * el, from + k * el);
            }
            break;
        }
        case KF_TPL:
            tpl_copy(d, s);
            break;
        case KF_REC:
            fields_clone(f->sub, d, s);
            break;
        default:
            break; /* plain values: already in the byte copy */
        }
    }
}

static bool s_eq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

static bool n_eq(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return a == b;
}

static bool tpl_eq(const tpl *a, const tpl *b)
{
    if (a->n != b->n || !s_eq(a->src, b->src))
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (a->parts[i].kind != b->parts[i].kind || !s_eq(a->parts[i].text, b->parts[i].text) ||
            !s_eq(a->parts[i].format, b->parts[i].format))
            return false;
    return true;
}

bool fields_equal(const kp_record *rec, const void *a, const void *b)
{
    for (size_t i = 0; i < rec->n; i++) {
        const kp_field *f = &rec->f[i];
        if (f->flags & KP_F_NOEQ)
            continue;
        const void *x = kp_fcptr(a, f), *y = kp_fcptr(b, f);
        bool eq = true;
        switch (f->kind) {
        case KF_TEXT:
            eq = s_eq(*(char *const *)x, *(char *const *)y);
            break;
        case KF_REF:
            eq = s_eq(((const kp_str *)x)->s, ((const kp_str *)y)->s);
            break;
        case KF_NUM:
            eq = n_eq(*(const double *)x, *(const double *)y);
            break;
        case KF_INT:
        case KF_ENUM:
        case KF_TRI:
            eq = *(const int *)x == *(const int *)y;
            break;
        case KF_FLAG:
            eq = *(const bool *)x == *(const bool *)y;
            break;
        case KF_TPL:
            eq = tpl_eq(x, y);
            break;
        case KF_REC:
            eq = fields_equal(f->sub, x, y);
            break;
        case KF_REFS:
        case KF_TEXTS:
        case KF_RECS: {
            size_t n = kp_fcount(a, f);
            if (n != kp_fcount(b, f))
                return false;
            const char *u = *(char *const *)x, *v = *(char *const *)y;
            for (size_t k = 0; k < n && eq; k++) {
                if (f->kind == KF_REFS)
                    eq = s_eq(((const kp_str *)u)[k].s, ((const kp_str *)v)[k].s);
                else if (f->kind == KF_TEXTS)
                    eq = s_eq(((char *const *)u)[k], ((char *const *)v)[k]);
                else
                    eq = fields_equal(f->sub, u + k * f->sub->size, v + k * f->sub->size);
            }
            break;
        }
        case KF_VIRTUAL:
            break;
        }
        if (!eq)
            return false;
    }
    return true;
}

void fields_free(const kp_record *rec, void *r)
{
    for (size_t i = 0; i < rec->n; i++) {
        const kp_field *f = &rec->f[i];
        void *p = kp_fptr(r, f);
        switch (f->kind) {
        case KF_TEXT:
            free(*(char **)p);
            break;
        case KF_REF:
            str_free(p);
            break;
        case KF_TPL:
            tpl_free(p);
            break;
        case KF_REC:
            fields_free(f->sub, p);
            break;
        case KF_REFS:
        case KF_TEXTS:
        case KF_RECS: {
            size_t n = kp_fcount(r, f);
            char *v = *(char **)p;
            for (size_t k = 0; k < n; k++) {
                if (f->kind == KF_REFS)
                    free(((kp_str *)v)[k].s);
                else if (f->kind == KF_TEXTS)
                    free(((char **)v)[k]);
                else
                    fields_free(f->sub, v + k * f->sub->size);
            }
            free(v);
            break;
        }
        default:
            break;
        }
    }
}

void fields_copy(const kp_record *rec, void *dst, const void *src)
{
    fields_free(rec, dst);
    memcpy(dst, src, rec->size);
    fields_clone(rec, dst, src);
}

void *fields_dup(const kp_record *rec, const void *src)
{
    void *r = xmalloc(rec->size);
    memcpy(r, src, rec->size);
    fields_clone(rec, r, src);
    return r;
}

char kp_field_unit(const kp_field *f)
{
    static const char *const rates[] = {"rate", "avg", "writes", "writes_avg"};
    if (!f || f->kind != KF_NUM || !f->key)
        return 0;
    for (size_t i = 0; i < sizeof rates / sizeof *rates; i++)
        if (!strcmp(f->key, rates[i]))
            return 'r';
    return strcmp(f->key, "latency") == 0 ? 'l' : 0;
}
