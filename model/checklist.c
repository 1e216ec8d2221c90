/* checklist.c - the course's checklist: eleven items, each pass / fail / n/a
 * with a one-line reason computed from the design and the earlier stages.
 *
 * Rules (n/a when there is nothing to judge):
 *  1. every pattern served by DynamoDB (not `served_by`) has a rate, and every read a latency
 *     target;
 *  2. >= 80 % of the DynamoDB read requests (patterns not outside, not covered, weighted by
 *     their rate: "nearly every query" is about the queries sent; by count of patterns when no
 *     rate is given) supply every
 *     placeholder of their first entity's base-table partition-key template (`by` or `join`;
 *     a shard suffix counts as supplied: the application enumerates it);
 *  3. no base-table partition is hot, and no base-table template with >= 10,000 items has fewer
 *     than 100 distinct values;
 *  4. every read pattern asking an `order` is served by the sort key (no app-side sort) and
 *     every `range` reaches DynamoDB as a key condition (between, <, >), not a filter;
 *  5. when the table holds several entities, a decision names single-table use ("single-table",
 *     "single table", "tabla única");
 *  6. every GSI is read by some read pattern (any of its steps) and none projects ALL;
 *  7. with GSIs: an alert on throttling (metric or name containing "throttl") or a decision
 *     that speaks of throttling ("throttl", "saturat");
 *  8. every strong or transactional read has a `why`;
 *  9. an alert on throttling and an alert on hot keys ("hot", "key", "contributor");
 * 10. `streams:` and `pitr:` are both said explicitly (indexes are always costed);
 * 11. every search / aggregate / adhoc pattern is `served_by` something. */
#include "analysis_stages.h"
#include "namemap.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const titles[KP_CHECKLIST_ITEMS] = {
    "Access patterns are written down, with frequency and latency",
    "The partition key is in nearly every query",
    "The partition key spreads: many values and distributed traffic",
    "The sort key allows useful prefixes and ranges",
    "Single-table use is justified, not copied",
    "Indexes are the minimum, with adjusted projection",
    "It is known that a saturated index makes writes fail",
    "Reads use eventual consistency except where they cannot",
    "There are alerts for throttling and for hot keys",
    "The cost includes indexes, streams and backups",
    "What does not fit is replicated to another store, not forced",
};

/* A quick test that byte c may equal the first byte of a word under tolower (lo: that byte
 * under tolower). tolower maps no ASCII byte but the letter and its ASCII capital onto an ASCII
 * small letter in any locale; bytes >= 0x80 (and words not starting with a-z) always go to the
 * full comparison. */

static bool decision_mentions(const kp_decision *dc, const char *word)
{
    if (util_contains_ci(dc->title, word) || util_contains_ci(dc->context, word) || util_contains_ci(dc->decision, word) ||
        util_contains_ci(dc->limitations, word))
        return true;
    for (size_t i = 0; i < dc->nalternatives; i++)
        if (util_contains_ci(dc->alternatives[i].option, word) || util_contains_ci(dc->alternatives[i].why_not, word))
            return true;
    for (size_t i = 0; i < dc->nassumptions; i++)
        if (util_contains_ci(dc->assumptions[i], word))
            return true;
    return false;
}

static bool alert_mentions(const kp_alert *al, const char *word)
{
    return util_contains_ci(al->name, word) || util_contains_ci(al->metric, word) || util_contains_ci(al->when, word);
}

static bool is_dynamo_read(const kp_pattern *p)
{
    return p->kind == KP_READ && !p->served_by && !p->covered_by.s && p->needs == KP_NEEDS_NONE;
}

static bool pattern_supplies(const kp_pattern *p, const char *name)
{
    for (size_t i = 0; i < p->nby; i++)
        if (p->by[i].attr.s && strcmp(p->by[i].attr.s, name) == 0)
            return true;
    for (size_t i = 0; i < p->njoin; i++)
        if (p->join[i].to.s && strcmp(p->join[i].to.s, name) == 0)
            return true;
    return false;
}

/* true when p supplies the base table's partition key of its first entity. */
/* The design's attributes and entities by name, the last of a name winning: each map is filled
 * from the last element to the first, and a namemap keeps the first position put. */
typedef struct cnames {
    namemap attrs, ents;
} cnames;

static void cnames_init(cnames *n, const kp_design *d)
{
    namemap_init(&n->attrs, d->nattrs);
    for (size_t i = d->nattrs; i-- > 0;)
        namemap_put(&n->attrs, d->attrs[i].name, i);
    namemap_init(&n->ents, d->nentities);
    for (size_t i = d->nentities; i-- > 0;)
        namemap_put(&n->ents, d->entities[i].name, i);
}

static void cnames_free(cnames *n)
{
    namemap_free(&n->attrs);
    namemap_free(&n->ents);
}

static const kp_attr *cn_attr(const cnames *n, const kp_design *d, const char *name)
{
    size_t i;
    return namemap_get(&n->attrs, name, &i) ? &d->attrs[i] : NULL;
}

static const kp_entity *cn_entity(const cnames *n, const kp_design *d, const char *name)
{
    size_t i;
    return namemap_get(&n->ents, name, &i) ? &d->entities[i] : NULL;
}

static bool binds_table_pk(const kp_design *d, const cnames *names, const kp_pattern *p,
                           const kp_keytpl **pkt, unsigned char *pkt_done)
{
    if (p->nentities == 0 || !p->entities[0].s || !d->table.pk.s)
        return false;
    const kp_entity *e = cn_entity(names, d, p->entities[0].s);
    if (!e)
        return false;
    /* entity_key(e, table pk), looked up once per entity (pkt, pkt_done: per design entity) */
    size_t ei = (size_t)(e - d->entities);
    if (!pkt_done[ei]) {
        pkt[ei] = entity_key(e, d->table.pk.s);
        pkt_done[ei] = 1;
    }
    const kp_keytpl *k = pkt[ei];
    if (!k)
        return pattern_supplies(p, d->table.pk.s);
    for (size_t i = 0; i < k->tpl.n; i++) {
        if (k->tpl.parts[i].kind != TPL_ATTR || pattern_supplies(p, k->tpl.parts[i].text))
            continue;
        const kp_attr *at = cn_attr(names, d, k->tpl.parts[i].text);
        if (!at || at->type != KP_ATTR_SHARD) /* a shard suffix the application enumerates */
            return false;
    }
    return true;
}

/* Appends "id" to a comma-separated list of at most a few names. */
static void list_add(sbuf *b, size_t *n, const char *id)
{
    if (*n < 5)
        sbuf_printf(b, "%s%s", *n ? ", " : "", id ? id : "?");
    else if (*n == 5)
        sbuf_add(b, ", ...");
    (*n)++;
}

static char *list_text(sbuf *b)
{
    if (!b->s)
        return xstrdup("");
    return sbuf_steal(b);
}

static void set(kp_check_item *it, kp_check_status st, char *why)
{
    it->status = st;
    it->why = why;
}

static bool key_condition_has_range(const char *kc)
{
    return kc && (util_contains_ci(kc, "between") || strchr(kc, '<') || strchr(kc, '>'));
}

/* Per design index 0..nx-1: some read pattern has a non-scan step (main or not) on it; one pass
 * over the patterns. Caller frees. */
static bool *indexes_read(const kp_analysis *a, size_t nx)
{
    bool *read = xcalloc(nx ? nx : 1, sizeof *read);
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *pr = &a->patterns[i];
        if (pr->pattern && pr->pattern->kind != KP_READ)
            continue;
        for (size_t s = 0; s < pr->nsteps; s++)
            if (pr->steps[s].index >= 0 && (size_t)pr->steps[s].index < nx && pr->steps[s].op != KP_OP_SCAN)
                read[pr->steps[s].index] = true;
    }
    return read;
}

/* true when some read pattern has a step (main or not) on design index x; *read: indexes_read's
 * answer, made on the first call that needs it (NULL before; the caller frees it). */
static bool index_read_by_any(const kp_analysis *a, ptrdiff_t x, bool **read)
{
    if (x + 1 < (ptrdiff_t)a->nindexes && x >= 0 && a->indexes[x + 1].patterns_served > 0)
        return true;
    if (!*read)
        *read = indexes_read(a, a->design->nindexes);
    return (*read)[x];
}

void stage_checklist(kp_analysis *a)
{
    const kp_design *d = a->design;
    for (int i = 0; i < KP_CHECKLIST_ITEMS; i++) {
        a->checklist[i].item = i + 1;
        a->checklist[i].title = titles[i];
        a->checklist[i].status = KP_CHECK_NA;
        a->checklist[i].why = NULL;
    }
    kp_check_item *c = a->checklist;
    cnames names;
    cnames_init(&names, d);

    /* 1 */
    {
        size_t total = 0, bad = 0;
        sbuf b;
        sbuf_init(&b);
        for (size_t i = 0; i < d->npatterns; i++) {
            const kp_pattern *p = &d->patterns[i];
            if (p->served_by)
                continue;
            total++;
            if (isnan(p->rate) || (p->kind == KP_READ && isnan(p->latency)))
                list_add(&b, &bad, p->id);
        }
        char *ids = list_text(&b);
        if (total == 0)
            set(&c[0], KP_CHECK_NA, xstrdup("no patterns written yet"));
        else if (bad == 0)
            set(&c[0], KP_CHECK_PASS, xasprintf("all %zu DynamoDB patterns have a rate and a latency target", total));
        else
            set(&c[0], KP_CHECK_FAIL,
                xasprintf("%zu of %zu patterns lack a rate or (reads) a latency target (%s)", bad, total, ids));
        free(ids);
    }
    /* 2 */
    {
        size_t total = 0, bound = 0, nmiss = 0;
        double rate_all = 0, rate_bound = 0;
        sbuf b;
        sbuf_init(&b);
        const kp_keytpl **pkt = xcalloc(d->nentities ? d->nentities : 1, sizeof *pkt);
        unsigned char *pkt_done = xcalloc(d->nentities ? d->nentities : 1, 1);
        for (size_t i = 0; i < d->npatterns; i++) {
            const kp_pattern *p = &d->patterns[i];
            if (!is_dynamo_read(p))
                continue;
            total++;
            double r = isnan(p->rate) ? 0 : p->rate;
            rate_all += r;
            if (binds_table_pk(d, &names, p, pkt, pkt_done)) {
                bound++;
                rate_bound += r;
            } else
                list_add(&b, &nmiss, p->id);
        }
        free(pkt);
        free(pkt_done);
        char *ids = list_text(&b);
        if (total == 0)
            set(&c[1], KP_CHECK_NA, xstrdup("no DynamoDB read patterns"));
        else {
            double share = (double)bound / (double)total;
            double rshare = rate_all > 0 ? rate_bound / rate_all : share;
            const char *pk = d->table.pk.s ? d->table.pk.s : "";
            set(&c[1], rshare >= 0.8 ? KP_CHECK_PASS : KP_CHECK_FAIL,
                nmiss ? xasprintf("%zu of %zu read patterns (%.0f %%), %.1f %% of the read requests, give the "
                                  "table's partition key %s; not: %s",
                                  bound, total, share * 100, rshare * 100, pk, ids)
                      : xasprintf("all %zu read patterns give the table's partition key %s", total, pk));
        }
        free(ids);
    }
    /* 3 */
    {
        const kp_partition_result *bad = NULL;
        const char *why = NULL;
        for (size_t i = 0; i < a->npartitions && !bad; i++) {
            const kp_partition_result *pr = &a->partitions[i];
            if (pr->index != -1)
                continue;
            if (pr->hot) {
                bad = pr;
                why = "hot";
            }
        }
        for (size_t i = 0; i < a->npartitions && !bad; i++) {
            const kp_partition_result *pr = &a->partitions[i];
            if (pr->index != -1 || isnan(pr->distinct) || pr->distinct >= 100)
                continue;
            double items = pr->items;
            if (items >= 10000) {
                bad = pr;
                why = "few";
            }
        }
        if (a->npartitions == 0 || d->nentities == 0)
            set(&c[2], KP_CHECK_NA, xstrdup("no entities on the table"));
        else if (bad && why[0] == 'h')
            set(&c[2], KP_CHECK_FAIL,
                xasprintf("partition %s is hot: %.0f %% of a partition's reads, %.0f %% of its writes",
                          bad->template_src, bad->read_util * 100, bad->write_util * 100));
        else if (bad)
            set(&c[2], KP_CHECK_FAIL,
                xasprintf("partition key %s has only %.0f distinct values", bad->template_src, bad->distinct));
        else
            set(&c[2], KP_CHECK_PASS,
                xasprintf("%.0f distinct values; hottest value under its partition limit",
                          a->nindexes ? a->indexes[0].distinct : NAN));
    }
    /* 4 */
    {
        size_t asked = 0, bad = 0;
        sbuf b;
        sbuf_init(&b);
        for (size_t i = 0; i < a->npatterns; i++) {
            const kp_pattern_result *pr = &a->patterns[i];
            const kp_pattern *p = pr->pattern ? pr->pattern : &d->patterns[i];
            if (!is_dynamo_read(p) || (!p->order.s && !p->range.s))
                continue;
            asked++;
            bool ok = true;
            if (pr->plan == KP_PLAN_SCAN || (p->order.s && pr->app_sort))
                ok = false;
            if (p->range.s && !key_condition_has_range(pr->key_condition))
                ok = false;
            if (!ok)
                list_add(&b, &bad, p->id);
        }
        char *ids = list_text(&b);
        if (asked == 0)
            set(&c[3], KP_CHECK_NA, xstrdup("no pattern asks for an order or a range"));
        else if (bad == 0)
            set(&c[3], KP_CHECK_PASS,
                xasprintf("the sort keys serve the order and ranges of all %zu patterns asking", asked));
        else
            set(&c[3], KP_CHECK_FAIL,
                xasprintf("%zu of %zu patterns get their order or range from the application or a filter (%s)", bad,
                          asked, ids));
        free(ids);
    }
    /* 5 */
    {
        const char *words[] = {"single-table", "single table", "tabla única", "tabla unica", "one table"};
        const kp_decision *found = NULL;
        for (size_t i = 0; i < d->ndecisions && !found; i++)
            for (size_t w = 0; w < sizeof words / sizeof *words; w++)
                if (decision_mentions(&d->decisions[i], words[w])) {
                    found = &d->decisions[i];
                    break;
                }
        if (d->nentities < 2)
            set(&c[4], KP_CHECK_NA, xstrdup("one entity on the table: not a single-table design"));
        else if (found)
            set(&c[4], KP_CHECK_PASS,
                xasprintf("decision %s justifies keeping %zu entities in one table", found->id ? found->id : "?",
                          d->nentities));
        else
            set(&c[4], KP_CHECK_FAIL,
                xasprintf("%zu entities share the table but no decision justifies single-table use", d->nentities));
    }
    /* 6 */
    {
        size_t ngsi = 0, unused = 0, all = 0;
        sbuf bu, ba;
        sbuf_init(&bu);
        sbuf_init(&ba);
        bool *idx_read = NULL;
        for (size_t x = 0; x < d->nindexes; x++) {
            const kp_index *ix = &d->indexes[x];
            if (ix->kind != KP_GSI)
                continue;
            ngsi++;
            if (!index_read_by_any(a, (ptrdiff_t)x, &idx_read))
                list_add(&bu, &unused, ix->name);
            if (ix->projection == KP_PROJ_ALL)
                list_add(&ba, &all, ix->name);
        }
        free(idx_read);
        char *u = list_text(&bu), *al = list_text(&ba);
        if (ngsi == 0)
            set(&c[5], KP_CHECK_NA, xstrdup("no secondary indexes"));
        else if (unused == 0 && all == 0)
            set(&c[5], KP_CHECK_PASS,
                xasprintf("each of the %zu GSIs serves a pattern with a keys/include projection", ngsi));
        else if (unused)
            set(&c[5], KP_CHECK_FAIL, xasprintf("%zu GSI(s) serve no pattern (%s)", unused, u));
        else
            set(&c[5], KP_CHECK_FAIL, xasprintf("%zu GSI(s) project ALL (%s)", all, al));
        free(u);
        free(al);
    }
    /* 7 */
    {
        size_t ngsi = 0;
        for (size_t x = 0; x < d->nindexes; x++)
            ngsi += d->indexes[x].kind == KP_GSI;
        const char *how = NULL;
        for (size_t i = 0; i < d->nalerts && !how; i++)
            if (alert_mentions(&d->alerts[i], "throttl"))
                how = d->alerts[i].name ? d->alerts[i].name : d->alerts[i].metric;
        char *why = NULL;
        for (size_t i = 0; i < d->ndecisions && !how && !why; i++)
            if (decision_mentions(&d->decisions[i], "throttl") || decision_mentions(&d->decisions[i], "saturat"))
                why =
                    xasprintf("decision %s speaks of index throttling", d->decisions[i].id ? d->decisions[i].id : "?");
        if (ngsi == 0)
            set(&c[6], KP_CHECK_NA, xstrdup("no GSIs"));
        else if (how)
            set(&c[6], KP_CHECK_PASS, xasprintf("alert '%s' watches throttling", how));
        else if (why)
            set(&c[6], KP_CHECK_PASS, why), why = NULL;
        else
            set(&c[6], KP_CHECK_FAIL,
                xasprintf(
                    "%zu GSI(s) and no throttling alert or decision: a saturated GSI throttles the table's writes",
                    ngsi));
        free(why);
    }
    /* 8 */
    {
        size_t reads = 0, strong = 0, bad = 0;
        sbuf b;
        sbuf_init(&b);
        for (size_t i = 0; i < d->npatterns; i++) {
            const kp_pattern *p = &d->patterns[i];
            if (p->kind != KP_READ || p->served_by)
                continue;
            reads++;
            if (p->consistency == KP_EVENTUAL)
                continue;
            strong++;
            if (!p->why || !*p->why)
                list_add(&b, &bad, p->id);
        }
        char *ids = list_text(&b);
        if (reads == 0)
            set(&c[7], KP_CHECK_NA, xstrdup("no read patterns"));
        else if (bad)
            set(&c[7], KP_CHECK_FAIL, xasprintf("%zu strong read(s) without a why (%s)", bad, ids));
        else if (strong)
            set(&c[7], KP_CHECK_PASS,
                xasprintf("%zu of %zu reads eventual; each strong read says why", reads - strong, reads));
        else
            set(&c[7], KP_CHECK_PASS, xasprintf("all %zu reads are eventual", reads));
        free(ids);
    }
    /* 9 */
    {
        bool throttle = false, hot = false;
        for (size_t i = 0; i < d->nalerts; i++) {
            const kp_alert *al = &d->alerts[i];
            if (alert_mentions(al, "throttl"))
                throttle = true;
            if (alert_mentions(al, "hot") || alert_mentions(al, "contributor") || alert_mentions(al, "key"))
                hot = true;
        }
        if (throttle && hot)
            set(&c[8], KP_CHECK_PASS, xstrdup("alerts on throttling and on hot keys"));
        else if (throttle)
            set(&c[8], KP_CHECK_FAIL, xstrdup("a throttling alert, but none on hot keys"));
        else if (hot)
            set(&c[8], KP_CHECK_FAIL, xstrdup("a hot-key alert, but none on throttling"));
        else
            set(&c[8], KP_CHECK_FAIL, xstrdup("no alerts on throttling or hot keys"));
    }
    /* 10 */
    {
        bool s = d->table.streams != KP_UNSET, p = d->table.pitr != KP_UNSET;
        if (s && p)
            set(&c[9], KP_CHECK_PASS,
                xasprintf("indexes costed; streams %s, continuous backups %s",
                          d->table.streams == KP_TRUE ? "on" : "off", d->table.pitr == KP_TRUE ? "on" : "off"));
        else
            set(&c[9], KP_CHECK_FAIL,
                xasprintf("say %s%s%s explicitly (true or false) so the cost is complete", s ? "" : "streams",
                          !s && !p ? " and " : "", p ? "" : "pitr"));
    }
    /* 11 */
    {
        size_t n = 0, bad = 0;
        sbuf b;
        sbuf_init(&b);
        for (size_t i = 0; i < d->npatterns; i++) {
            const kp_pattern *p = &d->patterns[i];
            if (p->needs == KP_NEEDS_NONE)
                continue;
            n++;
            if (!p->served_by)
                list_add(&b, &bad, p->id);
        }
        char *ids = list_text(&b);
        if (n == 0)
            set(&c[10], KP_CHECK_NA, xstrdup("no search, aggregate or ad hoc patterns"));
        else if (bad)
            set(&c[10], KP_CHECK_FAIL,
                xasprintf("%zu pattern(s) DynamoDB cannot serve are not served elsewhere (%s)", bad, ids));
        else
            set(&c[10], KP_CHECK_PASS,
                xasprintf("all %zu search/aggregate/ad hoc patterns are served outside DynamoDB", n));
        free(ids);
    }

    cnames_free(&names);
    a->checklist_pass = a->checklist_applicable = 0;
    for (int i = 0; i < KP_CHECKLIST_ITEMS; i++) {
        if (c[i].status == KP_CHECK_PASS)
            a->checklist_pass++;
        if (c[i].status != KP_CHECK_NA)
            a->checklist_applicable++;
    }
}

void stage_checklist_free(kp_analysis *a)
{
    for (int i = 0; i < KP_CHECKLIST_ITEMS; i++) {
        free(a->checklist[i].why);
        a->checklist[i].why = NULL;
    }
}
