/* findings.c - the named mistakes: a->findings, each with a stable code from the
 * catalogue (model/metrics.c), a severity, the place and a one-line message.
 *
 * Rules (documented once, here):
 * - low-cardinality-pk: a table or GSI partition template whose only placeholder is an enum,
 *   bool or date, or is named like a status, type, country or date (status, state, type, kind,
 *   country, date, day, estado, tipo, pais, país, fecha, dia, día); or whose known distinct
 *   values are under 100 while it holds >= 10,000 items; or a constant template holding
 *   >= 10,000 items. Warning on the table; a note on a GSI a decision names (an accepted
 *   concentration, like CloudShop's GSI-1).
 * - time-bucket-pk: a partition template with a date-like placeholder (type date, `write_hot`,
 *   or a date-like name) and no shard placeholder whose hottest value takes >= 10 % of a
 *   partition's write limit (100 WCU/s).
 * - hot-partition (error): a partition at >= 100 % of its read or write limit.
 * - gsi-throttles-writes (error): a GSI partition at >= 100 % of its write limit (its throttling
 *   rejects the table's writes).
 * - scan-user-path (error): a read pattern resolved to a scan with a latency target under 1 s.
 * - filter-narrowing: a read pattern with `filter:` that is a scan or reads a collection (>= 2
 *   items per call): the key condition does the reading, the filter only discards, and every
 *   item read is paid for.
 * - many-requests-join: a read pattern needing >= 3 requests per call with a `join` or several
 *   entities.
 * - unused-gsi: a GSI no read pattern reads (no step of any read pattern, main or not, queries
 *   it).
 * - projection-all (note): a GSI projecting ALL.
 * - index-writes-exceed: GSI write units (average) above the table's.
 * - lsi: each LSI; an error when a table partition value's collection (items plus LSI entries)
 *   passes 10 GB.
 * - item-too-large (error) over 400 KB; item-over-4kb over 4 KB.
 * - date-not-iso-sk: a sort-key template (table's or an index's) with a placeholder that is a
 *   date whose `format` does not start with the year (YYYY, yyyy, %Y), a number named like a
 *   date (epoch seconds) without a zero-padded format (as text, 9 sorts after 10), or a string
 *   attribute named like a date (ends in Date/date/At/Time/time, or contains the word fecha,
 *   day, dia) not declared `type: date`: only ISO 8601 text sorts chronologically.
 * - strong-read-gsi (error): a strong or transactional read whose main step is on a GSI; a
 *   warning when the resolver had to refuse a GSI for a strong read (its warning says "strong").
 * - counter-update: an update pattern that changes a number attribute, or any attribute named
 *   like a counter (count, counter, total, views, likes, stock, balance, quantity, qty, saldo,
 *   contador), or whose name says increment/decrement/incrementa, unless its `why` mentions a
 *   condition or idempotency.
 * - unknown-distribution: a partition template with an undeclared placeholder or one without
 *   `distinct` (heat assumed one value per item).
 * - key-too-long: a key template (table's or an index's, rendering a string) whose average value
 *   by the declared sizes (validate_key_size's `likely`: a string's `size:`) passes DynamoDB's
 *   2,048-byte partition / 1,024-byte sort key limit: the longer items' writes are refused.
 *   (A template whose bounded parts alone pass it is a validation error.)
 * - table-quota: the table (with its LSIs) or a GSI above 40,000 read or write units/s at peak
 *   (provisioned: the capacity to set, peak / target utilisation), DynamoDB's default per-table
 *   quota; provisioned, also the table and its GSIs together above the account's 80,000. A
 *   quota AWS raises on request: a warning naming the quota to raise.
 * - DynamoDB's rules behind a pattern's plan (the resolver's why-not lines that carry a rule),
 *   one per pattern and rule: number-sorts-as-text (a number inside a string sort key serves
 *   neither its order nor a range of it), index-fetch (the index does not project what the
 *   pattern returns: a fetch per result), projection-filter (an index refused because a
 *   FilterExpression would test an attribute it does not project), key-update (an update of a
 *   table-key attribute: Delete + Put in a transaction) — warnings; transactional-read (a
 *   transactional read that is not a Get by the table's key: refused) — an error.
 * - pad-too-narrow: a number in a sort key zero-padded to w digits with a declared distinct count
 *   of 10^w or more (past the pad it sorts as text). */
#include "analysis_stages.h"
#include "capacity.h"
#include "humanfmt.h"
#include "i18n.h"
#include "namemap.h"
#include "textf.h"
#include "validate.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- messages ------------------------------------------------------------------------ */

/* The catalogue's entry of `code`, NULL when it has none. */
static const kp_finding_info *catalogue_entry(const char *code)
{
    size_t n;
    const kp_finding_info *cat = analysis_finding_catalogue(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(cat[i].code, code) == 0)
            return &cat[i];
    return NULL;
}

typedef struct flist {
    kp_finding *v;
    size_t n, cap;
} flist;

static void add(flist *l, const char *code, kp_severity sev, char *where, char *msg)
{
    VEC_GROW(l->v, l->n, l->cap);
    kp_finding *f = &l->v[l->n++];
    const kp_finding_info *info = catalogue_entry(code);
    f->code = info ? info->code : "unknown";
    f->sev = sev;
    f->where = where;
    f->message = msg;
    f->fix = info ? _(info->fix) : "";
}

/* A quick test that byte c may equal the first byte of a word under tolower: lo and up are that
 * byte under tolower. tolower maps no ASCII byte but the letter and its ASCII capital onto an
 * ASCII small letter in any locale; bytes >= 0x80 (and words not starting with a-z) always go to
 * the full comparison. */
static bool may_start(unsigned char c, unsigned char lo, bool any)
{
    return any || (c | 0x20) == lo || c >= 0x80; /* lo is a-z: (c | 0x20) == lo for lo and its capital */
}

/* true when `word` appears in identifier `name` as a word of its own: at a camelCase, '_',
 * '-' or start boundary, and ending at the end or before an uppercase letter or non-letter
 * ("orderStatus", "order_status", "status" match "status"; "mediaId" does not match "dia"). */
static bool word_in_name(const char *name, const char *word)
{
    size_t n = strlen(word), len = strlen(name);
    unsigned char lo = (unsigned char)tolower((unsigned char)word[0]);
    bool any = lo < 'a' || lo > 'z';
    for (size_t p = 0; p + n <= len; p++) {
        if (n && !may_start((unsigned char)name[p], lo, any))
            continue;
        size_t i = 0;
        while (i < n && tolower((unsigned char)name[p + i]) == tolower((unsigned char)word[i]))
            i++;
        if (i < n)
            continue;
        unsigned char first = (unsigned char)name[p], prev = p ? (unsigned char)name[p - 1] : 0;
        unsigned char next = (unsigned char)name[p + n];
        bool start = p == 0 || !isalpha(prev) || isupper(first) || prev >= 0x80;
        bool end = next == 0 || isupper(next) || !isalpha(next);
        if (start && end)
            return true;
    }
    return false;
}

static bool name_in(const char *name, const char *const *words, size_t n)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < n; i++)
        if (strlen(words[i]) <= len && word_in_name(name, words[i])) /* a longer word cannot appear */
            return true;
    return false;
}

static const char *const lowcard_words[14] = {"status", "state", "type", "kind", "country", "date", "day",
                                              "estado", "tipo",  "pais", "país", "fecha",   "dia",  "día"};
static const char *const counter_words[] = {"count",   "counter",  "total", "views", "likes",   "stock",
                                            "balance", "quantity", "qty",   "saldo", "contador"};

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static bool date_like_name(const char *n)
{
    return ends_with(n, "Date") || ends_with(n, "date") || ends_with(n, "At") || ends_with(n, "Time") ||
           ends_with(n, "time") || word_in_name(n, "fecha") || word_in_name(n, "day") ||
           word_in_name(n, "dia");
}

/* date_attr's answer given the attribute `at` named `name` (NULL when undeclared). */
static bool date_attr_of(const kp_attr *at, const char *name)
{
    if (at && at->type == KP_ATTR_DATE)
        return true;
    if (at && !isnan(at->write_hot) && at->write_hot >= 0.5)
        return true;
    return (!at || at->type == KP_ATTR_STRING) && date_like_name(name);
}

/* Per design attribute, the name tests partition_findings repeats for every row keyed by it:
 * computed once per attribute (the name of `at` is the name looked up, so the answers are the
 * same as testing the placeholder's text). */
enum { NF_DONE = 1, NF_DATE = 2, NF_LOWCARD = 4 };

static bool name_in(const char *name, const char *const *words, size_t n);
static const char *const lowcard_words[14];

static unsigned name_flags(const kp_design *d, unsigned char *cache, const kp_attr *at, const char *name)
{
    unsigned char *slot = at ? &cache[at - d->attrs] : NULL;
    if (slot && *slot)
        return *slot;
    unsigned f = NF_DONE;
    if (date_attr_of(at, name))
        f |= NF_DATE;
    if (name_in(name, lowcard_words, sizeof lowcard_words / sizeof *lowcard_words))
        f |= NF_LOWCARD;
    if (slot)
        *slot = (unsigned char)f;
    return f;
}

/* The design's attribute named `name` (NULL when none) through the map of analysis_name_maps. */
static const kp_attr *fattr(const namemap *names, const kp_design *d, const char *name)
{
    size_t i;
    return namemap_get(names, name, &i) ? &d->attrs[i] : NULL;
}

static const char *index_name(const kp_design *d, ptrdiff_t x)
{
    return x < 0 ? "table" : d->indexes[x].name;
}

static char *where_partition(const kp_design *d, const kp_partition_result *pr)
{
    if (pr->index < 0)
        /* TRANSLATORS: a finding's place; %s a partition-key template */
        return textf(_("table %s"), pr->template_src);
    /* TRANSLATORS: a finding's place; %s an index's name */
    return textf(_("index %s"), index_name(d, pr->index));
}

/* The template behind a partition row (first entity's). */
static const tpl *row_tpl(const kp_design *d, const kp_partition_result *pr)
{
    const char *pk = pr->index < 0 ? d->table.pk.s : d->indexes[pr->index].pk.s;
    if (!pr->entity || !pk)
        return NULL;
    const kp_keytpl *k = entity_key(pr->entity, pk);
    return k ? &k->tpl : NULL;
}

static bool decision_names(const kp_design *d, const char *name)
{
    for (size_t i = 0; name && i < d->ndecisions; i++) {
        const kp_decision *dc = &d->decisions[i];
        if (util_contains_ci(dc->title, name) || util_contains_ci(dc->context, name) ||
            util_contains_ci(dc->decision, name))
            return true;
    }
    return false;
}

/* What a partition's findings read of its template: the design's alone. */
typedef struct pinfo {
    bool has_date, has_shard;
} pinfo;

/* The findings of partition i that depend on the design alone (its items come from the design):
 * low cardinality into *low, unknown distribution into *unk; and *pi. */
static void partition_design(const kp_analysis *a, size_t i, const namemap *names, unsigned char *nflags,
                             flist *low, flist *unk, pinfo *pi)
{
    const kp_design *d = a->design;
    const kp_partition_result *pr = &a->partitions[i];
    const tpl *t = row_tpl(d, pr);
    size_t nph = 0;
    const char *only = NULL;
    const kp_attr *only_at = NULL;
    bool has_shard = false, has_date = false;
    sbuf unknown;
    sbuf_init(&unknown);
    if (t) {
        for (size_t k = 0; k < t->n; k++) {
            if (t->parts[k].kind != TPL_ATTR)
                continue;
            const char *nm = t->parts[k].text;
            const kp_attr *at = fattr(names, d, nm);
            nph++;
            only = nm;
            only_at = at;
            if (at && at->type == KP_ATTR_SHARD)
                has_shard = true;
            if (name_flags(d, nflags, at, nm) & NF_DATE)
                has_date = true;
            bool known = at && (at->type == KP_ATTR_ENUM || at->type == KP_ATTR_SHARD ||
                                at->type == KP_ATTR_BOOL || !isnan(at->distinct));
            if (!known)
                sbuf_printf(&unknown, "%s%s", unknown.len ? ", " : "", nm);
        }
    } else if (pr->template_src[0] == '{') {
        nph = 1;
    }
    double items = pr->items;
    /* low cardinality */
    bool is_low = false;
    char *why = NULL;
    if (nph == 1 && only) {
        const kp_attr *at = only_at;
        if ((at && (at->type == KP_ATTR_ENUM || at->type == KP_ATTR_BOOL || at->type == KP_ATTR_DATE)) ||
            (name_flags(d, nflags, at, only) & NF_LOWCARD)) {
            is_low = true;
            why = textf(_("partition key %s is keyed by %s alone"), pr->template_src, only);
        }
    }
    if (!is_low && !isnan(pr->distinct) && pr->distinct < 100 && items >= 10000) {
        is_low = true;
        why = textf(_("partition key %s has %.0f distinct values for %.0f items"), pr->template_src,
                    pr->distinct, items);
    }
    if (!is_low && t && nph == 0 && items >= 10000) {
        is_low = true;
        why = textf(_("partition key %s is a constant holding %.0f items"), pr->template_src, items);
    }
    if (is_low) {
        bool accepted = pr->index >= 0 && decision_names(d, index_name(d, pr->index));
        char *msg = textf(_("%s; the hottest value holds %.0f %% of the items"), why, pr->hot_share * 100);
        free(why);
        add(low, "low-cardinality-pk", accepted ? KP_SEV_NOTE : KP_SEV_WARNING, where_partition(d, pr), msg);
    }
    if (unknown.len && isnan(pr->distinct))
        add(unk, "unknown-distribution", KP_SEV_NOTE, where_partition(d, pr),
            textf(_("no distribution for %s in %s: heat assumed one value per item; declare distinct/skew"),
                  unknown.s, pr->template_src));
    sbuf_free(&unknown);
    pi->has_date = has_date;
    pi->has_shard = has_shard;
}

/* The findings of partition i that depend on its loads. */
static void partition_loads(flist *l, const kp_analysis *a, size_t i, const pinfo *pi)
{
    const kp_design *d = a->design;
    const kp_partition_result *pr = &a->partitions[i];
    /* time bucket under write load */
    if (pi->has_date && !pi->has_shard && pr->write_units >= 0.1 * CAP_PARTITION_WCU)
        add(l, "time-bucket-pk", KP_SEV_WARNING, where_partition(d, pr),
            textf(_("partition key %s is a time bucket: its current value takes %.0f write units/s "
                    "(%.0f %% of a partition)"),
                  pr->template_src, pr->write_units, pr->write_util * 100));
    /* hot */
    if (pr->hot) {
        add(l, "hot-partition", KP_SEV_ERROR, where_partition(d, pr),
            textf(_("the hottest value of %s takes %.0f read units/s (%.0f %% of 3,000) and %.0f write "
                    "units/s (%.0f %% of 1,000); %d shards would bring both under 50 %%"),
                  pr->template_src, pr->read_units, pr->read_util * 100, pr->write_units,
                  pr->write_util * 100, pr->suggest_shards));
        if (pr->index >= 0 && pr->write_util >= 1)
            add(l, "gsi-throttles-writes", KP_SEV_ERROR, textf(_("index %s"), index_name(d, pr->index)),
                textf(_("GSI %s's hottest partition needs %.0f write units/s: its throttling rejects the "
                        "table's writes"),
                      index_name(d, pr->index), pr->write_units));
    }
}

/* Appends m's findings to l (moved: m is left empty). */
static void flist_move(flist *l, flist *m)
{
    for (size_t i = 0; i < m->n; i++) {
        VEC_GROW(l->v, l->n, l->cap);
        l->v[l->n++] = m->v[i];
    }
    free(m->v);
    *m = (flist){0};
}

static void partition_findings(flist *l, const kp_analysis *a, const namemap *names)
{
    const kp_design *d = a->design;
    unsigned char *nflags = xcalloc(d->nattrs ? d->nattrs : 1, 1);
    for (size_t i = 0; i < a->npartitions; i++) {
        flist low = {0}, unk = {0};
        pinfo pi;
        partition_design(a, i, names, nflags, &low, &unk, &pi);
        flist_move(l, &low);
        partition_loads(l, a, i, &pi);
        flist_move(l, &unk);
    }
    free(nflags);
}

/* A pattern's findings come in three groups, each listed for every pattern in turn: what its
 * plan costs, DynamoDB's rules behind its plan, a counter update. Each group of one pattern
 * depends on that pattern, its result and the design only (analysis_update keeps them). */
enum { PF_PLAN, PF_RULES, PF_COUNTER, PF__GROUPS };

static void pattern_plan_findings(flist *l, const kp_design *d, const kp_pattern *p,
                                  const kp_pattern_result *pr)
{
    if (p->kind == KP_READ && !p->served_by) {
        if (pr->plan == KP_PLAN_SCAN && !isnan(p->latency) && p->latency < 1000)
            add(l, "scan-user-path", KP_SEV_ERROR, textf(_("pattern %s"), p->id),
                textf(_("'%s' scans the table (%.0f ms estimated) on a path with a %.0f ms target"),
                      p->name ? p->name : p->id, pr->latency_ms, p->latency));
        if (p->nfilter > 0 && (pr->plan == KP_PLAN_SCAN || pr->items_per_call >= 2))
            add(l, "filter-narrowing", KP_SEV_WARNING, textf(_("pattern %s"), p->id),
                textf(_("'%s' narrows with a FilterExpression on %s: it pays for %.0f items read per call"),
                      p->name ? p->name : p->id, p->filter[0].s ? p->filter[0].s : "?", pr->items_per_call));
        if (pr->requests >= 3 && (p->njoin > 0 || p->nentities > 1))
            add(l, "many-requests-join", KP_SEV_WARNING, textf(_("pattern %s"), p->id),
                textf(_("'%s' needs %.0f requests and a join in the application for one screen"),
                      p->name ? p->name : p->id, pr->requests));
        if (p->consistency != KP_EVENTUAL) {
            if (pr->index >= 0 && pr->index < (ptrdiff_t)d->nindexes && d->indexes[pr->index].kind == KP_GSI)
                add(l, "strong-read-gsi", KP_SEV_ERROR, textf(_("pattern %s"), p->id),
                    textf(p->consistency == KP_STRONG
                              /* TRANSLATORS: %1$s a pattern's name, %2$s an index's name */
                              ? _("'%s' asks a strong read of GSI %s, which is always eventually consistent")
                              /* TRANSLATORS: %1$s a pattern's name, %2$s an index's name */
                              : _("'%s' asks a transactional read of GSI %s, which is always eventually "
                                  "consistent"),
                          p->name ? p->name : p->id, d->indexes[pr->index].name));
            else if (pr->strong_gsi_warning && pr->strong_gsi_warning <= pr->nwarnings)
                add(l, "strong-read-gsi", KP_SEV_WARNING, textf(_("pattern %s"), p->id),
                    textf("'%s': %s", p->name ? p->name : p->id, pr->warnings[pr->strong_gsi_warning - 1]));
        }
    }
}

/* DynamoDB's rules behind a plan: one finding per pattern and rule, the resolver's line */
static void pattern_rule_findings(flist *l, const kp_pattern *p, const kp_pattern_result *pr)
{
    for (size_t w = 0; w < pr->nwhy_not; w++) {
        const kp_why_not *y = &pr->why_not[w];
        bool dup = !y->rule;
        for (size_t k = 0; k < w && !dup; k++)
            dup = pr->why_not[k].rule && strcmp(pr->why_not[k].rule, y->rule) == 0;
        if (dup)
            continue;
        kp_severity sev = strcmp(y->rule, "transactional-read") == 0 ? KP_SEV_ERROR : KP_SEV_WARNING;
        add(l, y->rule, sev, textf(_("pattern %s"), p->id),
            textf("'%s': %s", p->name ? p->name : p->id, y->text));
    }
}

/* counter: per design attribute, 0 not known yet, 1 not counter-like, 2 counter-like. */
static void pattern_counter_findings(flist *l, const kp_design *d, const kp_pattern *p, const namemap *names,
                                     unsigned char *counter)
{
    if (p->kind != KP_WRITE || p->op != KP_OP_UPDATE)
        return;
    if (util_contains_ci(p->why, "condition") || util_contains_ci(p->why, "idempot"))
        return;
    const char *what = NULL;
    for (size_t k = 0; k < p->nchanges && !what; k++) {
        const char *nm = p->changes[k].s;
        const kp_attr *at = nm ? fattr(names, d, nm) : NULL;
        if (!nm)
            continue;
        if (at && at->type == KP_ATTR_NUMBER) {
            what = nm;
            continue;
        }
        /* named like a counter: once per declared attribute (its name is nm) */
        unsigned char *slot = at ? &counter[at - d->attrs] : NULL;
        if (!slot || !*slot) {
            bool yes = name_in(nm, counter_words, sizeof counter_words / sizeof *counter_words);
            if (slot)
                *slot = yes ? 2 : 1;
            if (yes)
                what = nm;
        } else if (*slot == 2) {
            what = nm;
        }
    }
    if (!what &&
        /* "incrementa" (Spanish) contains "increment": the first test finds it */
        (util_contains_ci(p->name, "increment") || util_contains_ci(p->name, "decrement")))
        what = _("a counter");
    if (what)
        add(l, "counter-update", KP_SEV_WARNING, textf(_("pattern %s"), p->id),
            textf(_("'%s' updates %s with SET n = n + :x: a retried request counts twice"),
                  p->name ? p->name : p->id, what));
}

static void pattern_group(flist *l, const kp_analysis *a, size_t i, int g, const namemap *names,
                          unsigned char *counter)
{
    const kp_design *d = a->design;
    const kp_pattern_result *pr = &a->patterns[i];
    const kp_pattern *p = pr->pattern ? pr->pattern : &d->patterns[i];
    if (g == PF_PLAN)
        pattern_plan_findings(l, d, p, pr);
    else if (g == PF_RULES)
        pattern_rule_findings(l, p, pr);
    else
        pattern_counter_findings(l, d, &d->patterns[i], names, counter);
}

static void pattern_findings(flist *l, const kp_analysis *a, const namemap *names)
{
    const kp_design *d = a->design;
    unsigned char *counter = xcalloc(d->nattrs ? d->nattrs : 1, 1);
    for (int g = 0; g < PF__GROUPS; g++)
        for (size_t i = 0; i < a->npatterns; i++)
            pattern_group(l, a, i, g, names, counter);
    free(counter);
}

static void index_findings(flist *l, const kp_analysis *a)
{
    const kp_design *d = a->design;
    double gsi_wcu = 0, table_wcu = a->nindexes ? a->indexes[0].wcu_per_s_avg : 0;
    bool *idx_read = NULL;
    for (size_t x = 0; x < d->nindexes; x++) {
        const kp_index *ix = &d->indexes[x];
        const kp_index_result *ir = x + 1 < a->nindexes ? &a->indexes[x + 1] : NULL;
        if (ix->kind == KP_LSI) {
            const kp_partition_result *big = NULL;
            for (size_t i = 0; i < a->npartitions; i++)
                if (a->partitions[i].index < 0 && a->partitions[i].bytes > CAP_PARTITION_BYTES &&
                    (!big || a->partitions[i].bytes > big->bytes))
                    big = &a->partitions[i];
            if (big)
                add(l, "lsi", KP_SEV_ERROR, textf(_("index %s"), ix->name),
                    textf(
                        _("LSI %s caps each %s value at 10 GB, but the hottest %s collection holds %.1f GB"),
                        ix->name, d->table.pk.s ? d->table.pk.s : _("partition key"), big->template_src,
                        big->bytes / 1e9));
            else
                add(l, "lsi", KP_SEV_WARNING, textf(_("index %s"), ix->name),
                    textf(_("LSI %s can only be created with the table and caps each %s value at 10 GB"),
                          ix->name, d->table.pk.s ? d->table.pk.s : _("partition key")));
            continue;
        }
        if (ir)
            gsi_wcu += isnan(ir->wcu_per_s_avg) ? 0 : ir->wcu_per_s_avg;
        if (ir && !analysis_index_read(a, (ptrdiff_t)x, &idx_read))
            add(l, "unused-gsi", KP_SEV_WARNING, textf(_("index %s"), ix->name),
                textf(_("GSI %s serves no read pattern but receives %.1f write units/s"), ix->name,
                      ir->wcu_per_s));
        if (ix->projection == KP_PROJ_ALL)
            add(l, "projection-all", KP_SEV_NOTE, textf(_("index %s"), ix->name),
                textf(_("GSI %s projects ALL: every write and every byte of its items is copied"), ix->name));
    }
    free(idx_read);
    if (gsi_wcu > table_wcu && gsi_wcu > 0)
        add(l, "index-writes-exceed", KP_SEV_WARNING, xstrdup(_("indexes")),
            textf(_("index writes (%.1f units/s on average) exceed the table's (%.1f units/s)"), gsi_wcu,
                  table_wcu));
}

static void entity_findings(flist *ls, size_t step, const kp_analysis *a, const namemap *names,
                            const bool *only)
{
    const kp_design *d = a->design;
    /* the sort-key attribute names of the table and the indexes, numbered; per entity, the
     * template of each (entity_key's answer), found by looking each of its keys up once */
    size_t nx = d->nindexes + 1;
    namemap sknames;
    namemap_init(&sknames, nx);
    size_t *skslot = xmalloc(nx * sizeof *skslot);
    for (size_t x = 0; x < nx; x++)
        skslot[x] = namemap_number(&sknames, x == 0 ? d->table.sk.s : d->indexes[x - 1].sk.s);
    size_t nslots = sknames.n;
    const kp_keytpl **sktpl = xmalloc((nslots ? nslots : 1) * sizeof *sktpl);
    for (size_t e = 0; e < d->nentities; e++) {
        if (only && !only[e])
            continue;
        const kp_entity *en = &d->entities[e];
        flist *l = &ls[e * step];
        for (size_t i = 0; i < nslots; i++)
            sktpl[i] = NULL;
        for (size_t j = 0; j < en->nkeys; j++) {
            size_t sl;
            if (namemap_get(&sknames, en->keys[j].attr.s, &sl) && !sktpl[sl])
                sktpl[sl] = &en->keys[j];
        }
        if (en->size > CAP_ITEM_MAX_BYTES)
            add(l, "item-too-large", KP_SEV_ERROR, textf(_("entity %s"), en->name),
                textf(_("%s items of %.0f bytes exceed DynamoDB's 400 KB item limit"), en->name, en->size));
        else if (en->size > CAP_READ_UNIT_BYTES)
            add(l, "item-over-4kb", KP_SEV_WARNING, textf(_("entity %s"), en->name),
                textf(_("%s items of %.0f bytes take %.0f read units each (4 KB per unit)"), en->name,
                      en->size, ceil(en->size / CAP_READ_UNIT_BYTES)));
        /* sort keys: the table's and each index's */
        for (ptrdiff_t x = -1; x < (ptrdiff_t)d->nindexes; x++) {
            const char *sk = x < 0 ? d->table.sk.s : d->indexes[x].sk.s;
            if (!sk)
                continue;
            const kp_keytpl *k = sktpl[skslot[x + 1]];
            if (!k)
                continue;
            for (size_t i = 0; i < k->tpl.n; i++) {
                if (k->tpl.parts[i].kind != TPL_ATTR)
                    continue;
                const char *nm = k->tpl.parts[i].text;
                const kp_attr *at = fattr(names, d, nm);
                const char *fmt = k->tpl.parts[i].format ? k->tpl.parts[i].format : at ? at->format : NULL;
                char *msg = NULL;
                if (at && at->type == KP_ATTR_DATE && fmt && *fmt && strncmp(fmt, "YYYY", 4) != 0 &&
                    strncmp(fmt, "yyyy", 4) != 0 && strncmp(fmt, "%Y", 2) != 0)
                    msg = textf(
                        _("%s's %s sorts on date %s written as '%s', which does not sort chronologically"),
                        en->name, sk, nm, fmt);
                else if (at && at->type == KP_ATTR_NUMBER && (!fmt || !*fmt) && date_like_name(nm))
                    msg =
                        textf(_("%s's %s sorts on %s, a number written without padding: as text, 9 sorts "
                                "after 10; declare it type: date (ISO 8601) or give it a zero-padded format"),
                              en->name, sk, nm);
                else if ((!at || at->type == KP_ATTR_STRING) && date_like_name(nm))
                    msg = textf(
                        _("%s's %s sorts on %s, a date declared as a plain string; declare it type: date "
                          "(ISO 8601)"),
                        en->name, sk, nm);
                if (msg) {
                    add(l, "date-not-iso-sk", KP_SEV_WARNING, textf(_("entity %s"), en->name), msg);
                    break;
                }
                int width = fmt ? atoi(fmt) : 0;
                if (at && at->type == KP_ATTR_NUMBER && width > 0 && !isnan(at->distinct) &&
                    at->distinct >= pow(10, width))
                    add(l, "pad-too-narrow", KP_SEV_WARNING, textf(_("entity %s"), en->name),
                        textf(
                            _("%s's %s pads %s to %d digits ('%s'), but it has %.0f distinct values: from %.0f on "
                              "they sort as text (%.0f before %.0f)"),
                            en->name, sk, nm, width, fmt, at->distinct, pow(10, width), pow(10, width),
                            pow(10, width) - 1));
            }
        }
    }
    free(sktpl);
    free(skslot);
    namemap_free(&sknames);
}

/* The design's attributes through the analysis' name map, for validate_key_size. */
typedef struct attr_finder {
    const kp_design *d;
    const namemap *names;
} attr_finder;

static const kp_attr *finder_attr(const void *ctx, const char *name)
{
    const attr_finder *f = ctx;
    return fattr(f->names, f->d, name);
}

/* key-too-long: the average key value by the declared sizes over DynamoDB's limit. */
static void key_findings(flist *ls, size_t step, const kp_analysis *a, const namemap *names, const bool *only)
{
    const kp_design *d = a->design;
    attr_finder find = {d, names};
    namemap limits = {0};
    validate_key_limits(d, &limits);
    for (size_t e = 0; e < d->nentities; e++) {
        if (only && !only[e])
            continue;
        const kp_entity *en = &d->entities[e];
        flist *l = &ls[e * step];
        for (size_t k = 0; k < en->nkeys; k++) {
            const kp_keytpl *kt = &en->keys[k];
            size_t limit;
            if (!namemap_get(&limits, kt->attr.s, &limit))
                continue;
            double lim = (double)limit;
            const tpl *t = &kt->tpl;
            if (t->n == 1 && t->parts[0].kind == TPL_ATTR && !t->parts[0].format) {
                const kp_attr *at = fattr(names, d, t->parts[0].text);
                if (at && (at->type == KP_ATTR_NUMBER || at->type == KP_ATTR_SHARD))
                    continue; /* a number key: DynamoDB's numbers are at most 38 digits */
            }
            double sure, likely;
            validate_key_size(d, t, finder_attr, &find, &sure, &likely);
            if (likely > lim)
                add(l, "key-too-long", KP_SEV_WARNING, textf(_("entity %s"), en->name),
                    textf(
                        lim == KP_LIMIT_SK_VALUE_BYTES
                            /* TRANSLATORS: %1$s an entity, %2$s a key attribute, %3$s its template */
                            ? _("%s's %s (\"%s\") averages about %.0f bytes by the declared sizes; DynamoDB "
                                "refuses sort key values over %.0f bytes, so the longer items cannot be written")
                            /* TRANSLATORS: %1$s an entity, %2$s a key attribute, %3$s its template */
                            : _("%s's %s (\"%s\") averages about %.0f bytes by the declared sizes; DynamoDB "
                                "refuses partition key values over %.0f bytes, so the longer items cannot be "
                                "written"),
                        en->name, kt->attr.s, t->src ? t->src : "", likely, lim));
        }
    }
    namemap_free(&limits);
}

/* table-quota: the table (LSIs included) and each GSI against the per-table quota, in the units
 * of the design's billing mode. */
static void quota_findings(flist *l, const kp_analysis *a)
{
    const kp_design *d = a->design;
    bool prov = d->table.billing == KP_BILLING_PROVISIONED;
    double target = d->table.target_utilization;
    if (!(target > 0 && target <= 1))
        target = 0.7;
    double per = prov ? 1 / target : 1;
    /* [read 0, write 1][at peak 0, provisioned 1] */
    static const char *const gsi_msg[2][2] = {
        /* TRANSLATORS: %1$s an index's name, %2$s a number of units (a figure of the locale) */
        {N_("GSI %s needs %s read units/s at peak, over DynamoDB's default quota of 40,000 per table or GSI: "
            "raise 'Table-level read throughput limit' in Service Quotas first"),
         N_("GSI %s needs %s read units/s provisioned, over DynamoDB's default quota of 40,000 per table or "
            "GSI: raise 'Table-level read throughput limit' in Service Quotas first")},
        {N_("GSI %s needs %s write units/s at peak, over DynamoDB's default quota of 40,000 per table or GSI: "
            "raise 'Table-level write throughput limit' in Service Quotas first"),
         N_("GSI %s needs %s write units/s provisioned, over DynamoDB's default quota of 40,000 per table or "
            "GSI: raise 'Table-level write throughput limit' in Service Quotas first")}};
    static const char *const table_msg[2][2] = {
        /* TRANSLATORS: %s a number of units (a figure of the locale) */
        {N_("the table needs %s read units/s at peak, over DynamoDB's default quota of 40,000 per table: "
            "raise 'Table-level read throughput limit' in Service Quotas first"),
         N_("the table needs %s read units/s provisioned, over DynamoDB's default quota of 40,000 per table: "
            "raise 'Table-level read throughput limit' in Service Quotas first")},
        {N_("the table needs %s write units/s at peak, over DynamoDB's default quota of 40,000 per table: "
            "raise 'Table-level write throughput limit' in Service Quotas first"),
         N_("the table needs %s write units/s provisioned, over DynamoDB's default quota of 40,000 per table: "
            "raise 'Table-level write throughput limit' in Service Quotas first")}};
    static const char *const account_msg[2] = {
        /* TRANSLATORS: %s a number of units (a figure of the locale) */
        N_("the table and its GSIs provision %s read units/s together, over DynamoDB's default account quota "
           "of 80,000 per region: raise 'Account-level read throughput limit' first"),
        N_("the table and its GSIs provision %s write units/s together, over DynamoDB's default account quota "
           "of 80,000 per region: raise 'Account-level write throughput limit' first")};
    double r[2] = {0, 0}, w[2] = {0, 0}; /* the table; the account (table and GSIs) */
    char num[HUMANFMT_SIZE];
    for (size_t x = 0; x < a->nindexes; x++) {
        const kp_index_result *ir = &a->indexes[x];
        bool table = x == 0 || d->indexes[x - 1].kind == KP_LSI;
        double rx = util_nz(ir->rcu_per_s) * per, wx = util_nz(ir->wcu_per_s) * per;
        r[1] += rx, w[1] += wx;
        if (table) {
            r[0] += rx, w[0] += wx;
            continue;
        }
        const char *nm = d->indexes[x - 1].name;
        for (int k = 0; k < 2; k++)
            if ((k ? wx : rx) > KP_LIMIT_TABLE_UNITS)
                add(l, "table-quota", KP_SEV_WARNING, textf(_("index %s"), nm),
                    textf(_(gsi_msg[k][prov]), nm, humanfmt(num, sizeof num, ceil(k ? wx : rx), HF_NUM_DOC)));
    }
    for (int k = 0; k < 2; k++)
        if ((k ? w[0] : r[0]) > KP_LIMIT_TABLE_UNITS)
            add(l, "table-quota", KP_SEV_WARNING, xstrdup(_("table")),
                textf(_(table_msg[k][prov]), humanfmt(num, sizeof num, ceil(k ? w[0] : r[0]), HF_NUM_DOC)));
    for (int k = 0; prov && k < 2; k++)
        if ((k ? w[1] : r[1]) > 2 * KP_LIMIT_TABLE_UNITS)
            add(l, "table-quota", KP_SEV_WARNING, xstrdup(_("account")),
                textf(_(account_msg[k]), humanfmt(num, sizeof num, ceil(k ? w[1] : r[1]), HF_NUM_DOC)));
}

void stage_findings(kp_analysis *a)
{
    flist l = {0};
    const kp_design *d = a->design;
    namemap names;
    analysis_name_maps(d, &names, NULL);
    partition_findings(&l, a, &names);
    pattern_findings(&l, a, &names);
    index_findings(&l, a);
    entity_findings(&l, 0, a, &names, NULL);
    key_findings(&l, 0, a, &names, NULL);
    quota_findings(&l, a);
    namemap_free(&names);
    a->findings = l.v;
    a->nfindings = l.n;
}

/* What partition_design reads of a partition besides the attributes' declarations and the
 * decisions: when these are the same after an element's edit, so are its findings. */
struct pin {
    ptrdiff_t index;
    const kp_entity *entity; /* whose partition-key template the row's is */
    char *template_src;
    double distinct, items, hot_share;
};

static bool same_double(double x, double y) { return memcmp(&x, &y, sizeof x) == 0; }

static bool pin_same(const struct pin *p, const kp_partition_result *pr)
{
    return p->index == pr->index && p->entity == pr->entity &&
           strcmp(p->template_src, pr->template_src) == 0 && same_double(p->distinct, pr->distinct) &&
           same_double(p->items, pr->items) && same_double(p->hot_share, pr->hot_share);
}

static void pin_set(struct pin *p, const kp_partition_result *pr)
{
    free(p->template_src);
    *p = (struct pin){pr->index,    pr->entity, xstrdup(pr->template_src),
                      pr->distinct, pr->items,  pr->hot_share};
}

/* Does partition pr's template hold placeholder `attr`? */
static bool holds_attr(const kp_design *d, const kp_partition_result *pr, const char *attr)
{
    const tpl *t = row_tpl(d, pr);
    if (!t)
        return pr->template_src[0] == '{'; /* a plain attribute: read again */
    for (size_t k = 0; k < t->n; k++)
        if (t->parts[k].kind == TPL_ATTR && strcmp(t->parts[k].text, attr) == 0)
            return true;
    return false;
}

/* What analysis_update keeps: each pattern's groups, and the findings of the design alone. */
struct findings_keep {
    size_t n;      /* patterns */
    flist *pat;    /* [i * PF__GROUPS + g]: group g of pattern i */
    bool *dirty;   /* pattern i's groups are to be made again */
    size_t nent;   /* entities */
    flist *efind;  /* per entity: entity_findings */
    flist *kfind;  /* per entity: key_findings */
    namemap names; /* analysis_name_maps */
    unsigned char *counter;
    flist run;          /* the findings of the last run's loads (partitions, indexes, quotas) */
    size_t npart;       /* partitions known (the rows of heat: the design's), 0 before the first run */
    flist *plow, *punk; /* per partition: its design's findings (partition_design) */
    pinfo *pinfo;
    struct pin *pin; /* per partition: what partition_design read of it; made again when that changed */
    char *attr;      /* an attribute edited since the last run (read by every template holding it) */
};

static void flist_clear(flist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].where);
        free(l->v[i].message);
    }
    l->n = 0;
}

/* Appends m's findings to l, their texts shared (the keep owns them; stage_findings_free leaves
 * them to it). */
static void flist_share(flist *l, const flist *m)
{
    for (size_t i = 0; i < m->n; i++) {
        VEC_GROW(l->v, l->n, l->cap);
        l->v[l->n++] = m->v[i];
    }
}

/* t's findings, made by this run, to the keep's run list and shared into l. */
static void take_run(struct findings_keep *k, flist *l, flist *t)
{
    flist_share(l, t);
    flist_share(&k->run, t);
    free(t->v);
    *t = (flist){0};
}

struct findings_keep *stage_findings_open(const kp_analysis *a)
{
    struct findings_keep *k = xcalloc(1, sizeof *k);
    const kp_design *d = a->design;
    k->n = d->npatterns;
    k->pat = xcalloc(k->n * PF__GROUPS + 1, sizeof *k->pat);
    k->dirty = xmalloc((k->n ? k->n : 1) * sizeof *k->dirty);
    for (size_t i = 0; i < k->n; i++)
        k->dirty[i] = true;
    k->counter = xcalloc(d->nattrs ? d->nattrs : 1, 1);
    analysis_name_maps(d, &k->names, NULL);
    k->nent = d->nentities;
    k->efind = xcalloc(k->nent + 1, sizeof *k->efind);
    k->kfind = xcalloc(k->nent + 1, sizeof *k->kfind);
    entity_findings(k->efind, 1, a, &k->names, NULL);
    key_findings(k->kfind, 1, a, &k->names, NULL);
    return k;
}

void stage_findings_attrs_moved(struct findings_keep *k, const kp_analysis *a)
{
    if (!k)
        return;
    const kp_design *d = a->design;
    namemap_free(&k->names);
    analysis_name_maps(d, &k->names, NULL);
    free(k->counter); /* per attribute, by position: known again when asked */
    k->counter = xcalloc(d->nattrs ? d->nattrs : 1, 1);
}

void stage_findings_dirty(struct findings_keep *k, size_t i)
{
    if (k && i < k->n)
        k->dirty[i] = true;
}

void stage_findings_rows(struct findings_keep *k, kp_rowop op)
{
    size_t n = k->n;
    if (!kp_rowop_fits(op, n))
        return;
    flist *g = k->pat;
    if (op.kind == KP_ROW_REMOVE) {
        for (int i = 0; i < PF__GROUPS; i++) {
            flist_clear(&g[op.row * PF__GROUPS + (size_t)i]);
            free(g[op.row * PF__GROUPS + (size_t)i].v);
        }
    } else if (op.kind == KP_ROW_INSERT) {
        k->pat = g = xrealloc(g, ((n + 1) * PF__GROUPS + 1) * sizeof *g);
        k->dirty = xrealloc(k->dirty, (n + 1) * sizeof *k->dirty);
    }
    kp_rowop_shift(g, n, PF__GROUPS * sizeof *g, op); /* a pattern's groups move together */
    kp_rowop_shift(k->dirty, n, sizeof *k->dirty, op);
    if (op.kind == KP_ROW_INSERT) {
        for (int i = 0; i < PF__GROUPS; i++)
            g[op.row * PF__GROUPS + (size_t)i] = (flist){0};
        k->dirty[op.row] = true;
    }
    k->n = kp_rowop_count(op, n);
}

/* The partitions' design findings (partition_design) read the decisions (an index a decision
 * names keeps its low-cardinality finding a note): after an edit of the design's rest they are
 * made again by the next run. */
static void partitions_forget(struct findings_keep *k)
{
    for (size_t i = 0; i < k->npart; i++) {
        flist_clear(&k->plow[i]);
        free(k->plow[i].v);
        flist_clear(&k->punk[i]);
        free(k->punk[i].v);
        free(k->pin[i].template_src);
    }
    free(k->plow);
    free(k->punk);
    free(k->pinfo);
    free(k->pin);
    k->plow = k->punk = NULL;
    k->pinfo = NULL;
    k->pin = NULL;
    k->npart = 0;
    free(k->attr);
    k->attr = NULL;
}

void stage_findings_rest(struct findings_keep *k) { partitions_forget(k); }

void stage_findings_element(struct findings_keep *k, const kp_analysis *a, const char *attr, const bool *ents)
{
    if (k->attr && attr) /* two attributes' edits before a run: all of them again */
        partitions_forget(k);
    else if (attr && k->plow)
        k->attr = xstrdup(attr);
    /* an entity's findings read its own fields and keys, and the declarations of its keys'
       placeholders (their carriers are marked after an attribute's edit) */
    for (size_t e = 0; e < k->nent; e++)
        if (ents[e]) {
            flist_clear(&k->efind[e]);
            flist_clear(&k->kfind[e]);
        }
    entity_findings(k->efind, 1, a, &k->names, ents);
    key_findings(k->kfind, 1, a, &k->names, ents);
}

void stage_findings_run(struct findings_keep *k, kp_analysis *a)
{
    flist l = {0}, t = {0};
    flist_clear(&k->run);
    if (k->plow && k->npart != a->npartitions)
        partitions_forget(k);
    /* the partitions are heat's rows, mostly the same from run to run: each made again when what it
       read changed */
    bool all = !k->plow;
    if (all) {
        k->npart = a->npartitions;
        k->plow = xcalloc(k->npart + 1, sizeof *k->plow);
        k->punk = xcalloc(k->npart + 1, sizeof *k->punk);
        k->pinfo = xcalloc(k->npart + 1, sizeof *k->pinfo);
        k->pin = xcalloc(k->npart + 1, sizeof *k->pin);
    }
    unsigned char *nflags = xcalloc(a->design->nattrs ? a->design->nattrs : 1, 1);
    for (size_t i = 0; i < k->npart; i++) {
        const kp_partition_result *pr = &a->partitions[i];
        if (!all && pin_same(&k->pin[i], pr) && !(k->attr && holds_attr(a->design, pr, k->attr)))
            continue;
        flist_clear(&k->plow[i]);
        flist_clear(&k->punk[i]);
        partition_design(a, i, &k->names, nflags, &k->plow[i], &k->punk[i], &k->pinfo[i]);
        pin_set(&k->pin[i], pr);
    }
    free(nflags);
    free(k->attr);
    k->attr = NULL;
    for (size_t i = 0; i < k->npart && i < a->npartitions; i++) {
        flist_share(&l, &k->plow[i]);
        partition_loads(&t, a, i, &k->pinfo[i]);
        take_run(k, &l, &t);
        flist_share(&l, &k->punk[i]);
    }
    for (size_t i = 0; i < k->n && i < a->npatterns; i++) {
        if (!k->dirty[i])
            continue;
        for (int g = 0; g < PF__GROUPS; g++) {
            flist_clear(&k->pat[i * PF__GROUPS + g]);
            pattern_group(&k->pat[i * PF__GROUPS + g], a, i, g, &k->names, k->counter);
        }
        k->dirty[i] = false;
    }
    for (int g = 0; g < PF__GROUPS; g++)
        for (size_t i = 0; i < k->n; i++)
            flist_share(&l, &k->pat[i * PF__GROUPS + g]);
    index_findings(&t, a);
    take_run(k, &l, &t);
    for (size_t e = 0; e < k->nent; e++)
        flist_share(&l, &k->efind[e]);
    for (size_t e = 0; e < k->nent; e++)
        flist_share(&l, &k->kfind[e]);
    quota_findings(&t, a);
    take_run(k, &l, &t);
    a->findings = l.v;
    a->nfindings = l.n;
}

void stage_findings_close(struct findings_keep *k)
{
    if (!k)
        return;
    for (size_t i = 0; i < k->n * PF__GROUPS; i++) {
        flist_clear(&k->pat[i]);
        free(k->pat[i].v);
    }
    free(k->pat);
    free(k->dirty);
    for (size_t e = 0; e < k->nent; e++) {
        flist_clear(&k->efind[e]);
        free(k->efind[e].v);
        flist_clear(&k->kfind[e]);
        free(k->kfind[e].v);
    }
    free(k->efind);
    free(k->kfind);
    flist_clear(&k->run);
    free(k->run.v);
    partitions_forget(k);
    namemap_free(&k->names);
    free(k->counter);
    free(k);
}

void stage_findings_free(kp_analysis *a)
{
    /* after analysis_update the texts are its keep's (stage_findings_run) */
    for (size_t i = 0; !a->incr && i < a->nfindings; i++) {
        free(a->findings[i].where);
        free(a->findings[i].message);
    }
    free(a->findings);
    a->findings = NULL;
    a->nfindings = 0;
}
