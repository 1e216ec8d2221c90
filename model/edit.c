/* edit.c - cells of a design as text, set from text with validation; row operations. */
#include "edit.h"

#include "fields.h"
#include "syntax.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- column catalogues ----------------------------------------------------------------- */

typedef struct col_info {
    const char *name;
    const char *hint;
} col_info;

enum { P_ID, P_NAME, P_KIND, P_ENTITY, P_BY, P_RATE, P_AVG, P_LATENCY, P_CONSISTENCY, P_ORDER,
       P_LIMIT, P_RANGE, P_FILTER, P_JOIN, P_COVERED, P_NEEDS, P_SERVED, P_OP, P_ITEMS,
       P_CHANGES, P_WHY, P__N };
static const col_info pattern_cols[P__N] = {
    [P_ID] = {"id", "unique id: a number or a short word"},
    [P_NAME] = {"name", "what the screen or job asks"},
    [P_KIND] = {"kind", "read | write"},
    [P_ENTITY] = {"entity", "entity name, or several separated by commas"},
    [P_BY] = {"by", "attributes the caller knows: a, b  (status=paid fixes a value)"},
    [P_RATE] = {"rate", "peak requests per second (number >= 0; empty = not given)"},
    [P_AVG] = {"avg", "average requests per second (empty = same as rate)"},
    [P_LATENCY] = {"latency", "target in ms (empty = not given)"},
    [P_CONSISTENCY] = {"consistency", "eventual | strong | transactional"},
    [P_ORDER] = {"order", "attribute [asc|desc], e.g. orderDate desc"},
    [P_LIMIT] = {"limit", "items per page (empty = none)"},
    [P_RANGE] = {"range", "attribute of a between / < / > condition"},
    [P_FILTER] = {"filter", "non-key attributes filtered on: a, b"},
    [P_JOIN] = {"join", "chain: to=from, e.g. username=followingUsername"},
    [P_COVERED] = {"covered_by", "id of the pattern whose result already has this"},
    [P_NEEDS] = {"needs", "search | aggregate | adhoc (empty = none)"},
    [P_SERVED] = {"served_by", "what serves it outside DynamoDB"},
    [P_OP] = {"op", "put | update | delete | transact (writes)"},
    [P_ITEMS] = {"items", "items per call (empty = estimated)"},
    [P_CHANGES] = {"changes", "key attributes an update changes: a, b"},
    [P_WHY] = {"why", "free text (required for strong reads)"},
};

enum { E_NAME, E_COUNT, E_SIZE, E_WRITES, E_WRITES_AVG, E_ATTRS, E_DESC, E__N };
static const col_info entity_cols[E__N] = {
    [E_NAME] = {"name", "unique entity name"},
    [E_COUNT] = {"count", "number of items (number >= 0)"},
    [E_SIZE] = {"size", "average item size in bytes"},
    [E_WRITES] = {"writes", "peak writes per second (empty = from write patterns)"},
    [E_WRITES_AVG] = {"writes_avg", "average writes per second (empty = same as writes)"},
    [E_ATTRS] = {"attributes", "domain attributes the items carry: a, b"},
    [E_DESC] = {"description", "free text"},
};

enum { X_NAME, X_TYPE, X_PK, X_SK, X_PROJ, X_INCLUDE, X_WHY, X__N };
static const col_info index_cols[X__N] = {
    [X_NAME] = {"name", "unique index name"},
    [X_TYPE] = {"type", "gsi | lsi"},
    [X_PK] = {"pk", "item attribute the index is partitioned on"},
    [X_SK] = {"sk", "item attribute it sorts on (empty = none)"},
    [X_PROJ] = {"projection", "keys | include | all"},
    [X_INCLUDE] = {"include", "projected attributes for include: a, b"},
    [X_WHY] = {"why", "free text: why the index exists"},
};

enum { A_NAME, A_TYPE, A_DISTINCT, A_SKEW, A_VALUES, A_FORMAT, A_COUNT, A_WRITE_HOT, A_SIZE, A__N };
static const col_info attr_cols[A__N] = {
    [A_NAME] = {"name", "unique attribute name"},
    [A_TYPE] = {"type", "string | number | date | enum | shard | bool"},
    [A_DISTINCT] = {"distinct", "number of distinct values (empty = unknown)"},
    [A_SKEW] = {"skew", "zipf:S (e.g. zipf:1.1); empty = uniform"},
    [A_VALUES] = {"values", "enum shares: name: share[/write share], ..."},
    [A_FORMAT] = {"format", "zero-padded width inside templates, e.g. 03"},
    [A_COUNT] = {"count", "shard: number of suffixes"},
    [A_WRITE_HOT] = {"write_hot", "share of writes on the hottest value (0..1)"},
    [A_SIZE] = {"size", "average bytes of a value"},
};

enum { D_ID, D_TITLE, D_STATUS, D_PATTERNS, D_CONTEXT, D_DECISION, D_ALTS, D_ASSUMPTIONS,
       D_FAILURE, D_ROLLBACK, D_LIMITS, D_SIGNALS, D__N };
static const col_info decision_cols[D__N] = {
    [D_ID] = {"id", "unique id, e.g. D3"},
    [D_TITLE] = {"title", "one line"},
    [D_STATUS] = {"status", "proposed | accepted | reopened | superseded"},
    [D_PATTERNS] = {"patterns", "pattern ids: 1, 5"},
    [D_CONTEXT] = {"context", "free text"},
    [D_DECISION] = {"decision", "free text"},
    [D_ALTS] = {"alternatives", "option => why not; option => why not"},
    [D_ASSUMPTIONS] = {"assumptions", "falsifiable statements separated by ;"},
    [D_FAILURE] = {"failure_test", "how we would see it fail"},
    [D_ROLLBACK] = {"rollback", "free text"},
    [D_LIMITS] = {"limitations", "free text"},
    [D_SIGNALS] = {"signals", "metric op number; ... e.g. pattern.5.rate > 50"},
};

static const char *const table_names[EDIT__TABLES] = {"patterns",  "entities", "indexes", "attributes",
                                                      "decisions", "keys",     "settings"};

enum { S_NAME, S_DESC, S_TABLE, S_PK, S_SK, S_BILLING, S_STREAMS, S_PITR, S_TARGET, S_CURRENCY, S_READ, S_WRITE,
       S_IWRITE, S_RCU_HOUR, S_WCU_HOUR, S_STORAGE, S_BACKUP, S_STREAM_READ, S__N };
static const col_info setting_rows[S__N] = {
    [S_NAME] = {"name", "the design's name"},
    [S_DESC] = {"description", "free text"},
    [S_TABLE] = {"table", "the DynamoDB table's name"},
    [S_PK] = {"pk", "attribute name of the table's partition key"},
    [S_SK] = {"sk", "attribute name of the table's sort key (empty = none)"},
    [S_BILLING] = {"billing", "on-demand | provisioned"},
    [S_STREAMS] = {"streams", "true | false (the cost checklist wants it said)"},
    [S_PITR] = {"pitr", "true | false: continuous backups"},
    [S_TARGET] = {"target_utilization", "provisioned autoscaling target, 0..1 (empty = 0.7)"},
    [S_CURRENCY] = {"currency", "USD, EUR, ... (empty = USD)"},
    [S_READ] = {"read_per_million", "on-demand price per million read units (empty = built-in)"},
    [S_WRITE] = {"write_per_million", "on-demand price per million write units"},
    [S_IWRITE] = {"index_write_per_million", "price per million index write units (empty = writes)"},
    [S_RCU_HOUR] = {"rcu_hour", "provisioned price per RCU-hour"},
    [S_WCU_HOUR] = {"wcu_hour", "provisioned price per WCU-hour"},
    [S_STORAGE] = {"storage_gb_month", "storage price per GB-month"},
    [S_BACKUP] = {"backup_gb_month", "continuous backup price per GB-month"},
    [S_STREAM_READ] = {"stream_read_per_100k", "stream read price per 100,000 requests"},
};

int edit_setting_find(const char *name)
{
    for (int i = 0; i < S__N; i++)
        if (name && strcmp(name, setting_rows[i].name) == 0)
            return i;
    return -1;
}

const char *edit_table_name(edit_table t) { return (unsigned)t < EDIT__TABLES ? table_names[t] : "?"; }

static const col_info *fixed_cols(edit_table t, size_t *n)
{
    switch (t) {
    case EDIT_PATTERNS: *n = P__N; return pattern_cols;
    case EDIT_ENTITIES: *n = E__N; return entity_cols;
    case EDIT_INDEXES: *n = X__N; return index_cols;
    case EDIT_ATTRS: *n = A__N; return attr_cols;
    case EDIT_DECISIONS: *n = D__N; return decision_cols;
    default: *n = 0; return NULL;
    }
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

static char *fmt_num(double x)
{
    if (isnan(x))
        return xstrdup("");
    if (x == floor(x) && fabs(x) < 1e15)
        return xasprintf("%.0f", x);
    return xasprintf("%g", x);
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
        *err = xstrdup("a number is required here");
        return false;
    }
    double v;
    bool ok = syn_number(t, strlen(t), 0, &v) && v >= 0;
    if (!ok)
        *err = xasprintf("'%s' is not a number; expected a number >= 0", t);
    free(t);
    if (ok)
        *out = v;
    return ok;
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
    sbuf_printf(&b, "'%s' is not one of: ", t);
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (!names[i])
            continue;
        sbuf_printf(&b, "%s%s", first ? "" : ", ", names[i]);
        first = false;
    }
    const char *dym = util_did_you_mean(t, names, (size_t)n);
    if (dym)
        sbuf_printf(&b, " (did you mean '%s'?)", dym);
    free(t);
    *err = sbuf_steal(&b);
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
        *err = xasprintf("the %s cannot be empty", what);
        return false;
    }
    if (strpbrk(t, ",;{}[]=:") || strchr(t, ' ') != NULL) {
        *err = xasprintf("'%s' is not a valid %s; expected one word without , ; { } [ ] = : or spaces",
                         t, what);
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
    case EDIT_PATTERNS: *r = (rows_ref){(void **)&d->patterns, &d->npatterns, sizeof(kp_pattern)}; return true;
    case EDIT_ENTITIES:
    case EDIT_KEYS: *r = (rows_ref){(void **)&d->entities, &d->nentities, sizeof(kp_entity)}; return true;
    case EDIT_INDEXES: *r = (rows_ref){(void **)&d->indexes, &d->nindexes, sizeof(kp_index)}; return true;
    case EDIT_ATTRS: *r = (rows_ref){(void **)&d->attrs, &d->nattrs, sizeof(kp_attr)}; return true;
    case EDIT_DECISIONS: *r = (rows_ref){(void **)&d->decisions, &d->ndecisions, sizeof(kp_decision)}; return true;
    default: return false;
    }
}

size_t edit_nrows(const kp_design *d, edit_table t)
{
    if (t == EDIT_SETTINGS)
        return d ? S__N : 0;
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
    size_t n;
    fixed_cols(t, &n);
    return n;
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
    size_t n;
    const col_info *c = fixed_cols(t, &n);
    return col < n ? c[col].name : NULL;
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
        return col == 0 ? "the setting's name (fixed)" : "the setting's value (the row says what it takes)";
    if (t == EDIT_KEYS) {
        size_t n = edit_ncols(d, t);
        if (col == 0)
            return "entity name";
        if (col + 1 == n)
            return "ATTR: status = value | status != value | status in [a, b] | share; ...";
        return "key template: literal text with {attribute} placeholders (empty = not carried)";
    }
    size_t n;
    const col_info *c = fixed_cols(t, &n);
    return col < n ? c[col].hint : "";
}

/* ---- patterns --------------------------------------------------------------------------- */

static const char *const kind_names[] = {"read", "write"};
static const char *const consistency_names[] = {"eventual", "strong", "transactional"};
static const char *const op_names[] = {"put", "update", "delete", "transact"};
static const char *const needs_names[] = {"", "search", "aggregate", "adhoc"};
static const char *const proj_names[] = {"all", "keys", "include"};
static const char *const itype_names[] = {"gsi", "lsi"};
static const char *const atype_names[] = {"string", "number", "date", "enum", "shard", "bool"};
static const char *const dstatus_names[] = {"proposed", "accepted", "reopened", "superseded"};

static char *pattern_get(const kp_pattern *p, size_t col)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    switch (col) {
    case P_ID: sbuf_add(&b, p->id ? p->id : ""); break;
    case P_NAME: sbuf_add(&b, p->name ? p->name : ""); break;
    case P_KIND: sbuf_add(&b, kind_names[p->kind == KP_WRITE]); break;
    case P_ENTITY: sbuf_free(&b); return join_strs(p->entities, p->nentities, ", ");
    case P_BY:
        for (size_t i = 0; i < p->nby; i++) {
            sbuf_printf(&b, "%s%s", i ? ", " : "", p->by[i].attr.s ? p->by[i].attr.s : "");
            if (p->by[i].value)
                sbuf_printf(&b, "=%s", p->by[i].value);
        }
        break;
    case P_RATE: sbuf_free(&b); return fmt_num(p->rate);
    case P_AVG: sbuf_free(&b); return fmt_num(p->avg);
    case P_LATENCY: sbuf_free(&b); return fmt_num(p->latency);
    case P_CONSISTENCY: sbuf_add(&b, consistency_names[p->consistency]); break;
    case P_ORDER:
        if (p->order.s)
            sbuf_printf(&b, "%s %s", p->order.s, p->order_desc ? "desc" : "asc");
        break;
    case P_LIMIT: sbuf_free(&b); return fmt_num(p->limit);
    case P_RANGE: sbuf_add(&b, p->range.s ? p->range.s : ""); break;
    case P_FILTER: sbuf_free(&b); return join_strs(p->filter, p->nfilter, ", ");
    case P_JOIN:
        for (size_t i = 0; i < p->njoin; i++)
            sbuf_printf(&b, "%s%s=%s", i ? ", " : "", p->join[i].to.s ? p->join[i].to.s : "",
                        p->join[i].from.s ? p->join[i].from.s : "");
        break;
    case P_COVERED: sbuf_add(&b, p->covered_by.s ? p->covered_by.s : ""); break;
    case P_NEEDS: sbuf_add(&b, needs_names[p->needs]); break;
    case P_SERVED: sbuf_add(&b, p->served_by ? p->served_by : ""); break;
    case P_OP: sbuf_add(&b, op_names[p->op]); break;
    case P_ITEMS: sbuf_free(&b); return fmt_num(p->items);
    case P_CHANGES: sbuf_free(&b); return join_strs(p->changes, p->nchanges, ", ");
    case P_WHY: sbuf_add(&b, p->why ? p->why : ""); break;
    default: break;
    }
    return sbuf_steal(&b);
}

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

static bool pattern_set(kp_design *d, size_t row, size_t col, const char *text, char **err)
{
    kp_pattern *p = &d->patterns[row];
    double x;
    int c;
    switch (col) {
    case P_ID: {
        char *t = trimmed(text);
        if (!check_name(t, "pattern id", err)) {
            free(t);
            return false;
        }
        ptrdiff_t at = design_pattern_pos(d, t);
        if (at >= 0 && (size_t)at != row) {
            *err = xasprintf("pattern id '%s' is already used by pattern %td; expected a unique id", t,
                             at + 1);
            free(t);
            return false;
        }
        if (p->id && strcmp(p->id, t) != 0)
            rename_pattern_refs(d, p->id, t);
        free(p->id);
        p->id = t;
        return true;
    }
    case P_NAME: set_text(&p->name, text); return true;
    case P_KIND:
        if ((c = parse_choice(text, kind_names, 2, err)) < 0)
            return false;
        p->kind = c ? KP_WRITE : KP_READ;
        return true;
    case P_ENTITY:
        set_strs(&p->entities, &p->nentities, text, ',');
        p->multi_form = p->nentities > 1;
        return true;
    case P_BY: {
        char **items;
        size_t m = split_list(text, ',', &items);
        kp_by *by = m ? xcalloc(m, sizeof *by) : NULL;
        for (size_t i = 0; i < m; i++) {
            syn_by sb;
            const char *berr;
            if (syn_by_parse(items[i], strlen(items[i]), &sb, &berr)) {
                by[i].attr.s = xstrndup(items[i] + sb.attr.at, sb.attr.len);
                by[i].value = sb.has_value ? xstrndup(items[i] + sb.value.at, sb.value.len) : NULL;
            } else {
                *err = xasprintf("'%s' is not an attribute or attribute=value", items[i]);
                for (size_t j = 0; j < i; j++) {
                    free(by[j].attr.s);
                    free(by[j].value);
                }
                free(by);
                free_list(items, m);
                return false;
            }
        }
        free_list(items, m);
        for (size_t i = 0; i < p->nby; i++) {
            free(p->by[i].attr.s);
            free(p->by[i].value);
        }
        free(p->by);
        p->by = by;
        p->nby = m;
        return true;
    }
    case P_RATE:
        if (!parse_num(text, true, &x, err))
            return false;
        p->rate = x;
        return true;
    case P_AVG:
        if (!parse_num(text, true, &x, err))
            return false;
        p->avg = x;
        return true;
    case P_LATENCY:
        if (!parse_num(text, true, &x, err))
            return false;
        p->latency = x;
        return true;
    case P_CONSISTENCY:
        if ((c = parse_choice(text, consistency_names, 3, err)) < 0)
            return false;
        p->consistency = (kp_consistency)c;
        p->consistency_given = true;
        return true;
    case P_ORDER: {
        /* the cell may keep one pair of brackets, as the list cells do */
        char *t = trimmed(text);
        size_t len = strlen(t), from = 0;
        if (len >= 2 && t[0] == '[' && t[len - 1] == ']')
            from = 1, len -= 2;
        syn_span at = {0, 0};
        bool desc = false;
        size_t a, z;
        syn_trim(t + from, len, &a, &z);
        if (z > a && !syn_order_parse(t + from, len, &at, &desc)) {
            *err = xstrdup("expected 'attribute', 'attribute asc' or 'attribute desc'");
            free(t);
            return false;
        }
        free(p->order.s);
        p->order.s = z > a ? xstrndup(t + from + at.at, at.len) : NULL;
        p->order_desc = desc;
        free(t);
        return true;
    }
    case P_LIMIT:
        if (!parse_num(text, true, &x, err))
            return false;
        p->limit = x;
        return true;
    case P_RANGE: set_kstr(&p->range, text); return true;
    case P_FILTER: set_strs(&p->filter, &p->nfilter, text, ','); return true;
    case P_JOIN: {
        char **items;
        size_t m = split_list(text, ',', &items);
        kp_join *j = m ? xcalloc(m, sizeof *j) : NULL;
        for (size_t i = 0; i < m; i++) {
            syn_span to, from;
            if (!syn_join_parse(items[i], strlen(items[i]), &to, &from)) {
                *err = xasprintf("'%s' is not to=from (e.g. username=followingUsername)", items[i]);
                for (size_t k = 0; k < i; k++) {
                    free(j[k].to.s);
                    free(j[k].from.s);
                }
                free(j);
                free_list(items, m);
                return false;
            }
            j[i].to.s = xstrndup(items[i] + to.at, to.len);
            j[i].from.s = xstrndup(items[i] + from.at, from.len);
        }
        free_list(items, m);
        for (size_t i = 0; i < p->njoin; i++) {
            free(p->join[i].to.s);
            free(p->join[i].from.s);
        }
        free(p->join);
        p->join = j;
        p->njoin = m;
        return true;
    }
    case P_COVERED: set_kstr(&p->covered_by, text); return true;
    case P_NEEDS: {
        char *t = trimmed(text);
        bool empty = !*t;
        free(t);
        if (empty) {
            p->needs = KP_NEEDS_NONE;
            return true;
        }
        if ((c = parse_choice(text, needs_names + 1, 3, err)) < 0)
            return false;
        p->needs = (kp_needs)(c + 1);
        return true;
    }
    case P_SERVED: set_text(&p->served_by, text); return true;
    case P_OP:
        if ((c = parse_choice(text, op_names, 4, err)) < 0)
            return false;
        p->op = (kp_write_op)c;
        return true;
    case P_ITEMS:
        if (!parse_num(text, true, &x, err))
            return false;
        p->items = x;
        return true;
    case P_CHANGES: set_strs(&p->changes, &p->nchanges, text, ','); return true;
    case P_WHY: set_text(&p->why, text); return true;
    default: *err = xstrdup("no such column"); return false;
    }
}

/* ---- entities and keys ------------------------------------------------------------------- */

static char *sparse_text(const kp_entity *e)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    for (size_t i = 0; i < e->nsparse; i++) {
        const kp_sparse *s = &e->sparse[i];
        sbuf_printf(&b, "%s%s: ", i ? "; " : "", s->attr.s ? s->attr.s : "");
        if (s->kind == KP_SPARSE_SHARE) {
            char *n = fmt_num(s->share);
            sbuf_add(&b, n);
            free(n);
        } else if (s->src) {
            sbuf_add(&b, s->src);
        } else {
            sbuf_printf(&b, "%s %s ", s->cond_attr.s ? s->cond_attr.s : "",
                        s->op == KP_COND_EQ ? "=" : s->op == KP_COND_NE ? "!=" : "in");
            if (s->op == KP_COND_IN)
                sbuf_add(&b, "[");
            for (size_t j = 0; j < s->nvalues; j++)
                sbuf_printf(&b, "%s%s", j ? ", " : "", s->values[j].s);
            if (s->op == KP_COND_IN)
                sbuf_add(&b, "]");
        }
    }
    return sbuf_steal(&b);
}

static void sparse_release(kp_sparse *s)
{
    free(s->attr.s);
    free(s->cond_attr.s);
    strs_release(s->values, s->nvalues);
    free(s->src);
}

/* Parses one "ATTR: condition" rule. */
static bool sparse_parse(const char *item, kp_sparse *out, char **err)
{
    memset(out, 0, sizeof *out);
    const char *colon = strchr(item, ':');
    if (!colon) {
        *err = xasprintf("'%s': expected ATTR: condition (e.g. GSI1PK: status = pending-shipment)", item);
        return false;
    }
    out->attr.s = trim_dup(item, (size_t)(colon - item));
    char *cond = trimmed(colon + 1);
    double share;
    if (syn_number(cond, strlen(cond), 0, &share)) {
        if (!(share >= 0 && share <= 1)) {
            *err = xasprintf("share %s is out of range; expected a number from 0 to 1", cond);
            goto fail;
        }
        out->kind = KP_SPARSE_SHARE;
        out->share = share;
        out->src = cond;
        return true;
    }
    syn_cond c;
    const char *perr;
    size_t at;
    if (!syn_condition_parse(cond, strlen(cond), &c, &perr, &at)) {
        if (strstr(perr, "after the attribute"))
            *err = xasprintf("'%s': expected attr = value, attr != value, attr in [a, b] or a share", cond);
        else
            *err = xasprintf("'%s': expected attr = value, attr != value or attr in [a, b]", cond);
        goto fail;
    }
    out->kind = KP_SPARSE_COND;
    out->op = c.op;
    out->cond_attr.s = xstrndup(cond + c.attr.at, c.attr.len);
    out->values = xcalloc(c.nvalues, sizeof *out->values);
    for (size_t i = 0; i < c.nvalues; i++)
        out->values[out->nvalues++].s = xstrndup(cond + c.values[i].at, c.values[i].len);
    syn_cond_free(&c);
    out->src = cond;
    return true;
fail:
    free(cond);
    sparse_release(out);
    memset(out, 0, sizeof *out);
    return false;
}

static bool sparse_set(kp_entity *e, const char *text, char **err)
{
    char **items;
    size_t m = split_list(text, ';', &items);
    kp_sparse *v = m ? xcalloc(m, sizeof *v) : NULL;
    for (size_t i = 0; i < m; i++)
        if (!sparse_parse(items[i], &v[i], err)) {
            for (size_t k = 0; k < i; k++)
                sparse_release(&v[k]);
            free(v);
            free_list(items, m);
            return false;
        }
    free_list(items, m);
    for (size_t i = 0; i < e->nsparse; i++)
        sparse_release(&e->sparse[i]);
    free(e->sparse);
    e->sparse = v;
    e->nsparse = m;
    return true;
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
            free(e->keys[at].attr.s);
            tpl_free(&e->keys[at].tpl);
            memmove(&e->keys[at], &e->keys[at + 1], (e->nkeys - at - 1) * sizeof *e->keys);
            e->nkeys--;
        }
        return true;
    }
    tpl parsed;
    const char *perr = NULL;
    size_t off = 0;
    if (!tpl_parse(t, &parsed, &perr, &off)) {
        *err = xasprintf("template column %zu: %s", off + 1, perr ? perr : "invalid template");
        free(t);
        return false;
    }
    free(t);
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

static char *entity_get(const kp_entity *e, size_t col)
{
    switch (col) {
    case E_NAME: return xstrdup(e->name ? e->name : "");
    case E_COUNT: return fmt_num(e->count);
    case E_SIZE: return fmt_num(e->size);
    case E_WRITES: return fmt_num(e->writes);
    case E_WRITES_AVG: return fmt_num(e->writes_avg);
    case E_ATTRS: return join_strs(e->attrs, e->nattrs, ", ");
    case E_DESC: return xstrdup(e->description ? e->description : "");
    default: return xstrdup("");
    }
}

static bool entity_rename(kp_design *d, size_t row, const char *text, char **err)
{
    kp_entity *e = &d->entities[row];
    char *t = trimmed(text);
    if (!check_name(t, "entity name", err)) {
        free(t);
        return false;
    }
    ptrdiff_t at = design_entity_pos(d, t);
    if (at >= 0 && (size_t)at != row) {
        *err = xasprintf("entity '%s' already exists; expected a unique name", t);
        free(t);
        return false;
    }
    if (e->name && strcmp(e->name, t) != 0)
        for (size_t i = 0; i < d->npatterns; i++)
            for (size_t j = 0; j < d->patterns[i].nentities; j++) {
                kp_str *s = &d->patterns[i].entities[j];
                if (streq(s->s, e->name)) {
                    free(s->s);
                    s->s = xstrdup(t);
                }
            }
    free(e->name);
    e->name = t;
    return true;
}

static bool entity_set(kp_design *d, size_t row, size_t col, const char *text, char **err)
{
    kp_entity *e = &d->entities[row];
    double x;
    switch (col) {
    case E_NAME: return entity_rename(d, row, text, err);
    case E_COUNT:
        if (!parse_num(text, false, &x, err))
            return false;
        e->count = x;
        return true;
    case E_SIZE:
        if (!parse_num(text, false, &x, err))
            return false;
        if (x > 400 * 1024) {
            *err = xasprintf("an item of %.0f bytes exceeds DynamoDB's 400 KB limit", x);
            return false;
        }
        e->size = x;
        return true;
    case E_WRITES:
        if (!parse_num(text, true, &x, err))
            return false;
        e->writes = x;
        return true;
    case E_WRITES_AVG:
        if (!parse_num(text, true, &x, err))
            return false;
        e->writes_avg = x;
        return true;
    case E_ATTRS: set_strs(&e->attrs, &e->nattrs, text, ','); return true;
    case E_DESC: set_text(&e->description, text); return true;
    default: *err = xstrdup("no such column"); return false;
    }
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
        r = sparse_text(e);
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
        *err = xstrdup("no such column");
        ok = false;
    }
    free(k);
    return ok;
}

/* ---- indexes ------------------------------------------------------------------------------ */

static char *index_get(const kp_index *x, size_t col)
{
    switch (col) {
    case X_NAME: return xstrdup(x->name ? x->name : "");
    case X_TYPE: return xstrdup(itype_names[x->kind == KP_LSI]);
    case X_PK: return xstrdup(x->pk.s ? x->pk.s : "");
    case X_SK: return xstrdup(x->sk.s ? x->sk.s : "");
    case X_PROJ: return xstrdup(proj_names[x->projection]);
    case X_INCLUDE: return join_strs(x->include, x->ninclude, ", ");
    case X_WHY: return xstrdup(x->why ? x->why : "");
    default: return xstrdup("");
    }
}

static bool index_set(kp_design *d, size_t row, size_t col, const char *text, char **err)
{
    kp_index *x = &d->indexes[row];
    int c;
    switch (col) {
    case X_NAME: {
        char *t = trimmed(text);
        if (!check_name(t, "index name", err)) {
            free(t);
            return false;
        }
        ptrdiff_t at = design_index_pos(d, t);
        if (streq(t, "table") || (at >= 0 && (size_t)at != row)) {
            *err = xasprintf("index name '%s' is already used; expected a unique name", t);
            free(t);
            return false;
        }
        free(x->name);
        x->name = t;
        return true;
    }
    case X_TYPE:
        if ((c = parse_choice(text, itype_names, 2, err)) < 0)
            return false;
        x->kind = c ? KP_LSI : KP_GSI;
        return true;
    case X_PK:
    case X_SK: {
        char *t = trimmed(text);
        bool bad = col == X_PK ? !check_name(t, "key attribute", err)
                               : (*t && !check_name(t, "key attribute", err));
        free(t);
        if (bad)
            return false;
        rename_key_slot(d, col == X_PK ? &x->pk : &x->sk, text);
        return true;
    }
    case X_PROJ:
        if ((c = parse_choice(text, proj_names, 3, err)) < 0)
            return false;
        x->projection = (kp_projection)c;
        return true;
    case X_INCLUDE: set_strs(&x->include, &x->ninclude, text, ','); return true;
    case X_WHY: set_text(&x->why, text); return true;
    default: *err = xstrdup("no such column"); return false;
    }
}

/* ---- attributes -------------------------------------------------------------------------- */

static char *attr_get(const kp_attr *a, size_t col)
{
    switch (col) {
    case A_NAME: return xstrdup(a->name ? a->name : "");
    case A_TYPE: return xstrdup(atype_names[a->type]);
    case A_DISTINCT: return a->type == KP_ATTR_ENUM || a->type == KP_ATTR_SHARD ? xstrdup("") : fmt_num(a->distinct);
    case A_SKEW: return a->zipf > 0 ? xasprintf("zipf:%g", a->zipf) : xstrdup("");
    case A_VALUES: {
        sbuf b;
        sbuf_init(&b);
        sbuf_add(&b, "");
        for (size_t i = 0; i < a->nvalues; i++) {
            sbuf_printf(&b, "%s%s: %g", i ? ", " : "", a->values[i].name, a->values[i].share);
            if (!isnan(a->values[i].write_share))
                sbuf_printf(&b, "/%g", a->values[i].write_share);
        }
        return sbuf_steal(&b);
    }
    case A_FORMAT: return xstrdup(a->format ? a->format : "");
    case A_COUNT: return a->shard_count >= 0 ? xasprintf("%d", a->shard_count) : xstrdup("");
    case A_WRITE_HOT: return fmt_num(a->write_hot);
    case A_SIZE: return fmt_num(a->size);
    default: return xstrdup("");
    }
}

static bool attr_set(kp_design *d, size_t row, size_t col, const char *text, char **err)
{
    kp_attr *a = &d->attrs[row];
    double x;
    int c;
    switch (col) {
    case A_NAME: {
        char *t = trimmed(text);
        if (!check_name(t, "attribute name", err)) {
            free(t);
            return false;
        }
        for (size_t i = 0; i < d->nattrs; i++)
            if (i != row && streq(d->attrs[i].name, t)) {
                *err = xasprintf("attribute '%s' is already declared; expected a unique name", t);
                free(t);
                return false;
            }
        free(a->name);
        a->name = t;
        return true;
    }
    case A_TYPE:
        if ((c = parse_choice(text, atype_names, 6, err)) < 0)
            return false;
        a->type = (kp_attr_type)c;
        if (a->type == KP_ATTR_ENUM)
            a->distinct = a->nvalues ? (double)a->nvalues : NAN;
        if (a->type == KP_ATTR_SHARD)
            a->distinct = a->shard_count > 0 ? a->shard_count : NAN;
        return true;
    case A_DISTINCT:
        if (!parse_num(text, true, &x, err))
            return false;
        a->distinct = x;
        return true;
    case A_SKEW: {
        char *t = trimmed(text);
        if (!*t) {
            a->zipf = 0;
            free(t);
            return true;
        }
        char *end;
        double s = strncmp(t, "zipf:", 5) == 0 ? strtod(t + 5, &end) : NAN;
        bool ok = !isnan(s) && end != t + 5 && *end == '\0' && s >= 0 && isfinite(s);
        if (!ok)
            *err = xasprintf("'%s' is not a skew; expected zipf:S with S >= 0 (e.g. zipf:1.1)", t);
        else
            a->zipf = s;
        free(t);
        return ok;
    }
    case A_VALUES: {
        char **items;
        size_t m = split_list(text, ',', &items);
        kp_enum_value *v = m ? xcalloc(m, sizeof *v) : NULL;
        for (size_t i = 0; i < m; i++) {
            char *colon = strchr(items[i], ':');
            char *end = NULL;
            double share = colon ? strtod(colon + 1, &end) : NAN;
            double wshare = NAN;
            if (end && *end == '/')
                wshare = strtod(end + 1, &end);
            while (end && isspace((unsigned char)*end))
                end++;
            if (!colon || !end || *end || !(share >= 0 && share <= 1) ||
                (!isnan(wshare) && !(wshare >= 0 && wshare <= 1))) {
                *err = xasprintf("'%s' is not value: share; expected e.g. paid: 0.03 (or paid: 0.03/0.10)",
                                 items[i]);
                for (size_t k = 0; k < i; k++)
                    free(v[k].name);
                free(v);
                free_list(items, m);
                return false;
            }
            v[i].name = trim_dup(items[i], (size_t)(colon - items[i]));
            v[i].share = share;
            v[i].write_share = wshare;
        }
        free_list(items, m);
        for (size_t i = 0; i < a->nvalues; i++)
            free(a->values[i].name);
        free(a->values);
        a->values = v;
        a->nvalues = m;
        if (m && a->type == KP_ATTR_STRING)
            a->type = KP_ATTR_ENUM;
        if (a->type == KP_ATTR_ENUM)
            a->distinct = m ? (double)m : NAN;
        return true;
    }
    case A_FORMAT: {
        char *t = trimmed(text);
        for (const char *p = t; *p; p++)
            if (!isdigit((unsigned char)*p)) {
                *err = xasprintf("'%s' is not a format; expected digits such as 03", t);
                free(t);
                return false;
            }
        free(a->format);
        a->format = *t ? t : NULL;
        if (!*t)
            free(t);
        return true;
    }
    case A_COUNT:
        if (!parse_num(text, true, &x, err))
            return false;
        if (!isnan(x) && (x != floor(x) || x < 1 || x > 100000)) {
            *err = xstrdup("expected a whole number of shards from 1 to 100000");
            return false;
        }
        a->shard_count = isnan(x) ? -1 : (int)x;
        if (a->shard_count > 0 && a->type == KP_ATTR_STRING)
            a->type = KP_ATTR_SHARD;
        if (a->type == KP_ATTR_SHARD)
            a->distinct = a->shard_count > 0 ? a->shard_count : NAN;
        return true;
    case A_WRITE_HOT:
        if (!parse_num(text, true, &x, err))
            return false;
        if (x > 1) {
            *err = xstrdup("write_hot is a share; expected a number from 0 to 1");
            return false;
        }
        a->write_hot = x;
        return true;
    case A_SIZE:
        if (!parse_num(text, true, &x, err))
            return false;
        a->size = x;
        return true;
    default: *err = xstrdup("no such column"); return false;
    }
}

/* ---- decisions --------------------------------------------------------------------------- */

static char *decision_get(const kp_decision *x, size_t col)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    switch (col) {
    case D_ID: sbuf_add(&b, x->id ? x->id : ""); break;
    case D_TITLE: sbuf_add(&b, x->title ? x->title : ""); break;
    case D_STATUS: sbuf_add(&b, dstatus_names[x->status]); break;
    case D_PATTERNS: sbuf_free(&b); return join_strs(x->patterns, x->npatterns, ", ");
    case D_CONTEXT: sbuf_add(&b, x->context ? x->context : ""); break;
    case D_DECISION: sbuf_add(&b, x->decision ? x->decision : ""); break;
    case D_ALTS:
        for (size_t i = 0; i < x->nalternatives; i++)
            sbuf_printf(&b, "%s%s => %s", i ? "; " : "", x->alternatives[i].option ? x->alternatives[i].option : "",
                        x->alternatives[i].why_not ? x->alternatives[i].why_not : "");
        break;
    case D_ASSUMPTIONS:
        for (size_t i = 0; i < x->nassumptions; i++)
            sbuf_printf(&b, "%s%s", i ? "; " : "", x->assumptions[i]);
        break;
    case D_FAILURE: sbuf_add(&b, x->failure_test ? x->failure_test : ""); break;
    case D_ROLLBACK: sbuf_add(&b, x->rollback ? x->rollback : ""); break;
    case D_LIMITS: sbuf_add(&b, x->limitations ? x->limitations : ""); break;
    case D_SIGNALS:
        for (size_t i = 0; i < x->nsignals; i++)
            sbuf_printf(&b, "%s%s", i ? "; " : "", x->signals[i].src ? x->signals[i].src : "");
        break;
    default: break;
    }
    return sbuf_steal(&b);
}

static bool decision_set(kp_design *d, size_t row, size_t col, const char *text, char **err)
{
    kp_decision *x = &d->decisions[row];
    int c;
    switch (col) {
    case D_ID: {
        char *t = trimmed(text);
        if (!check_name(t, "decision id", err)) {
            free(t);
            return false;
        }
        for (size_t i = 0; i < d->ndecisions; i++)
            if (i != row && streq(d->decisions[i].id, t)) {
                *err = xasprintf("decision id '%s' is already used; expected a unique id", t);
                free(t);
                return false;
            }
        free(x->id);
        x->id = t;
        return true;
    }
    case D_TITLE: set_text(&x->title, text); return true;
    case D_STATUS:
        if ((c = parse_choice(text, dstatus_names, 4, err)) < 0)
            return false;
        x->status = (kp_decision_status)c;
        return true;
    case D_PATTERNS: set_strs(&x->patterns, &x->npatterns, text, ','); return true;
    case D_CONTEXT: set_text(&x->context, text); return true;
    case D_DECISION: set_text(&x->decision, text); return true;
    case D_ALTS: {
        char **items;
        size_t m = split_list(text, ';', &items);
        kp_alternative *v = m ? xcalloc(m, sizeof *v) : NULL;
        for (size_t i = 0; i < m; i++) {
            char *arrow = strstr(items[i], "=>");
            v[i].option = arrow ? trim_dup(items[i], (size_t)(arrow - items[i])) : xstrdup(items[i]);
            v[i].why_not = arrow ? trimmed(arrow + 2) : NULL;
        }
        free_list(items, m);
        for (size_t i = 0; i < x->nalternatives; i++) {
            free(x->alternatives[i].option);
            free(x->alternatives[i].why_not);
        }
        free(x->alternatives);
        x->alternatives = v;
        x->nalternatives = m;
        return true;
    }
    case D_ASSUMPTIONS: {
        char **items;
        size_t m = split_list(text, ';', &items);
        for (size_t i = 0; i < x->nassumptions; i++)
            free(x->assumptions[i]);
        free(x->assumptions);
        x->assumptions = m ? items : NULL;
        if (!m)
            free(items);
        x->nassumptions = m;
        return true;
    }
    case D_FAILURE: set_text(&x->failure_test, text); return true;
    case D_ROLLBACK: set_text(&x->rollback, text); return true;
    case D_LIMITS: set_text(&x->limitations, text); return true;
    case D_SIGNALS: {
        char **items;
        size_t m = split_list(text, ';', &items);
        kp_signal *v = m ? xcalloc(m, sizeof *v) : NULL;
        for (size_t i = 0; i < m; i++) {
            const char *perr = NULL;
            if (!signal_parse(items[i], &v[i], &perr)) {
                *err = xasprintf("signal '%s': %s; expected metric op number (e.g. pattern.5.rate > 50)",
                                 items[i], perr ? perr : "malformed");
                for (size_t k = 0; k < i; k++) {
                    free(v[k].src);
                    free(v[k].metric);
                }
                free(v);
                free_list(items, m);
                return false;
            }
        }
        free_list(items, m);
        for (size_t i = 0; i < x->nsignals; i++) {
            free(x->signals[i].src);
            free(x->signals[i].metric);
        }
        free(x->signals);
        x->signals = v;
        x->nsignals = m;
        return true;
    }
    default: *err = xstrdup("no such column"); return false;
    }
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

static const char *tristate_text(kp_tristate t) { return t == KP_TRUE ? "true" : t == KP_FALSE ? "false" : ""; }

static double *price_field(kp_design *d, size_t row)
{
    kp_pricing *p = &d->pricing;
    switch (row) {
    case S_READ: return &p->read_per_million;
    case S_WRITE: return &p->write_per_million;
    case S_IWRITE: return &p->index_write_per_million;
    case S_RCU_HOUR: return &p->rcu_hour;
    case S_WCU_HOUR: return &p->wcu_hour;
    case S_STORAGE: return &p->storage_gb_month;
    case S_BACKUP: return &p->backup_gb_month;
    case S_STREAM_READ: return &p->stream_read_per_100k;
    default: return NULL;
    }
}

static char *setting_get(const kp_design *d, size_t row, size_t col)
{
    if (col == 0)
        return xstrdup(setting_rows[row].name);
    switch (row) {
    case S_NAME: return xstrdup(d->name ? d->name : "");
    case S_DESC: return xstrdup(d->description ? d->description : "");
    case S_TABLE: return xstrdup(d->table.name ? d->table.name : "");
    case S_PK: return xstrdup(d->table.pk.s ? d->table.pk.s : "");
    case S_SK: return xstrdup(d->table.sk.s ? d->table.sk.s : "");
    case S_BILLING: return xstrdup(kp_billing_name(d->table.billing));
    case S_STREAMS: return xstrdup(tristate_text(d->table.streams));
    case S_PITR: return xstrdup(tristate_text(d->table.pitr));
    case S_TARGET: return fmt_num(d->table.target_utilization);
    case S_CURRENCY: return xstrdup(d->pricing.currency ? d->pricing.currency : "");
    default: {
        double *f = price_field((kp_design *)d, row);
        return f ? fmt_num(*f) : xstrdup("");
    }
    }
}

static bool setting_set(kp_design *d, size_t row, size_t col, const char *text, char **err)
{
    static const char *const billing_names[] = {"on-demand", "provisioned"};
    static const char *const bool_names[] = {"false", "true"};
    if (col == 0) {
        *err = xstrdup("the setting's name is fixed; edit its value");
        return false;
    }
    int c;
    double x;
    switch (row) {
    case S_NAME: set_text(&d->name, text); return true;
    case S_DESC: set_text(&d->description, text); return true;
    case S_TABLE: {
        char *t = trimmed(text);
        bool ok = check_name(t, "table name", err);
        free(t);
        if (ok)
            set_text(&d->table.name, text);
        return ok;
    }
    case S_PK:
    case S_SK: {
        char *t = trimmed(text);
        bool ok = row == S_SK && !*t ? true : check_name(t, "key attribute", err);
        free(t);
        if (ok)
            rename_key_slot(d, row == S_PK ? &d->table.pk : &d->table.sk, text);
        return ok;
    }
    case S_BILLING:
        if ((c = parse_choice(text, billing_names, 2, err)) < 0)
            return false;
        d->table.billing = c ? KP_BILLING_PROVISIONED : KP_BILLING_ON_DEMAND;
        return true;
    case S_STREAMS:
    case S_PITR: {
        char *t = trimmed(text);
        bool empty = !*t;
        free(t);
        kp_tristate *f = row == S_STREAMS ? &d->table.streams : &d->table.pitr;
        if (empty) {
            *f = KP_UNSET;
            return true;
        }
        if ((c = parse_choice(text, bool_names, 2, err)) < 0)
            return false;
        *f = c ? KP_TRUE : KP_FALSE;
        return true;
    }
    case S_TARGET:
        if (!parse_num(text, true, &x, err))
            return false;
        if (!isnan(x) && (x <= 0 || x > 1)) {
            *err = xstrdup("target utilization is a share; expected a number above 0 and at most 1");
            return false;
        }
        d->table.target_utilization = x;
        return true;
    case S_CURRENCY: set_text(&d->pricing.currency, text); d->pricing.given = true; return true;
    default: {
        double *f = price_field(d, row);
        if (!f) {
            *err = xstrdup("no such setting");
            return false;
        }
        if (!parse_num(text, true, &x, err))
            return false;
        *f = x;
        d->pricing.given = true;
        return true;
    }
    }
}

/* ---- dispatch ----------------------------------------------------------------------------- */

char *edit_get(const kp_design *d, edit_table t, size_t row, size_t col)
{
    if (!d || row >= edit_nrows(d, t) || col >= edit_ncols(d, t))
        return xstrdup("");
    switch (t) {
    case EDIT_PATTERNS: return pattern_get(&d->patterns[row], col);
    case EDIT_ENTITIES: return entity_get(&d->entities[row], col);
    case EDIT_INDEXES: return index_get(&d->indexes[row], col);
    case EDIT_ATTRS: return attr_get(&d->attrs[row], col);
    case EDIT_DECISIONS: return decision_get(&d->decisions[row], col);
    case EDIT_KEYS: return keys_get(d, row, col);
    case EDIT_SETTINGS: return setting_get(d, row, col);
    default: return xstrdup("");
    }
}

bool edit_set(kp_design *d, edit_table t, size_t row, size_t col, const char *text, char **err)
{
    *err = NULL;
    if (!d || row >= edit_nrows(d, t) || col >= edit_ncols(d, t)) {
        *err = xasprintf("no cell at row %zu, column %zu of %s", row + 1, col + 1, edit_table_name(t));
        return false;
    }
    if (!text)
        text = "";
    size_t bad;
    if (!util_utf8_valid(text, strlen(text), &bad)) {
        *err = xasprintf("invalid UTF-8 at byte %zu; expected UTF-8 text", bad + 1);
        return false;
    }
    switch (t) {
    case EDIT_PATTERNS: return pattern_set(d, row, col, text, err);
    case EDIT_ENTITIES: return entity_set(d, row, col, text, err);
    case EDIT_INDEXES: return index_set(d, row, col, text, err);
    case EDIT_ATTRS: return attr_set(d, row, col, text, err);
    case EDIT_DECISIONS: return decision_set(d, row, col, text, err);
    case EDIT_KEYS: return keys_set(d, row, col, text, err);
    case EDIT_SETTINGS: return setting_set(d, row, col, text, err);
    default: *err = xstrdup("no such table"); return false;
    }
}

/* ---- rows ---------------------------------------------------------------------------------- */

static const char *row_name(const kp_design *d, edit_table t, size_t i)
{
    switch (t) {
    case EDIT_PATTERNS: return d->patterns[i].id;
    case EDIT_ENTITIES:
    case EDIT_KEYS: return d->entities[i].name;
    case EDIT_INDEXES: return d->indexes[i].name;
    case EDIT_ATTRS: return d->attrs[i].name;
    case EDIT_DECISIONS: return d->decisions[i].id;
    default: return NULL;
    }
}

static bool name_used(const kp_design *d, edit_table t, const char *name)
{
    size_t n = edit_nrows(d, t);
    for (size_t i = 0; i < n; i++)
        if (streq(row_name(d, t, i), name))
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
    case EDIT_PATTERNS: field = &d->patterns[i].id; break;
    case EDIT_ENTITIES:
    case EDIT_KEYS: field = &d->entities[i].name; break;
    case EDIT_INDEXES: field = &d->indexes[i].name; break;
    case EDIT_ATTRS: field = &d->attrs[i].name; break;
    case EDIT_DECISIONS: field = &d->decisions[i].id; break;
    default: free(name); return;
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
    case EDIT_KEYS: return fresh_name(d, t, "Entity", d->nentities + 1);
    case EDIT_INDEXES: return fresh_name(d, t, "GSI", d->nindexes + 1);
    case EDIT_ATTRS: return fresh_name(d, t, "attr", d->nattrs + 1);
    case EDIT_DECISIONS: return fresh_name(d, t, "D", d->ndecisions + 1);
    default: return NULL;
    }
}

static void init_row(edit_table t, void *slot)
{
    switch (t) {
    case EDIT_PATTERNS: pattern_init(slot); break;
    case EDIT_ENTITIES:
    case EDIT_KEYS: entity_init(slot); break;
    case EDIT_INDEXES: index_init(slot); break;
    case EDIT_ATTRS: attr_init(slot); break;
    case EDIT_DECISIONS: decision_init(slot); break;
    default: break;
    }
}

static void free_row(edit_table t, void *slot)
{
    switch (t) {
    case EDIT_PATTERNS: pattern_free(slot); break;
    case EDIT_ENTITIES:
    case EDIT_KEYS: entity_free(slot); break;
    case EDIT_INDEXES: index_free(slot); break;
    case EDIT_ATTRS: attr_free(slot); break;
    case EDIT_DECISIONS: decision_free(slot); break;
    default: break;
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
    /* Deep-copy the element by cloning the design and taking it out of the clone. */
    kp_design *c = design_clone(d);
    rows_ref cr;
    table_rows(c, t, &cr);
    char *tmp = xmalloc(r.elsize);
    memcpy(tmp, (char *)*cr.arr + row * cr.elsize, cr.elsize);
    init_row(t, (char *)*cr.arr + row * cr.elsize);
    design_free(c);
    char *name = new_row_name(d, t);
    if (t == EDIT_ENTITIES || t == EDIT_KEYS || t == EDIT_INDEXES || t == EDIT_ATTRS) {
        const char *old = row_name(d, t, row);
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
        memmove(base + ((size_t)to + 1) * r.elsize, base + (size_t)to * r.elsize, (row - (size_t)to) * r.elsize);
    else
        memmove(base + row * r.elsize, base + (row + 1) * r.elsize, ((size_t)to - row) * r.elsize);
    memcpy(base + (size_t)to * r.elsize, tmp, r.elsize);
    free(tmp);
    return true;
}

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
