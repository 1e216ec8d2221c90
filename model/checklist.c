/* checklist.c - the course's checklist: eleven items, each pass / fail / n/a with a one-line
 * reason computed from the design and the earlier stages. Each item is a row of `items` (at the
 * end): its title and its rule; the comment of each rule says what passes (n/a when there is
 * nothing to judge). */
#include "analysis_stages.h"
#include "i18n.h"
#include "namemap.h"
#include "textf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool decision_mentions(const kp_decision *dc, const char *word)
{
    if (util_contains_ci(dc->title, word) || util_contains_ci(dc->context, word) ||
        util_contains_ci(dc->decision, word) || util_contains_ci(dc->limitations, word))
        return true;
    for (size_t i = 0; i < dc->nalternatives; i++)
        if (util_contains_ci(dc->alternatives[i].option, word) ||
            util_contains_ci(dc->alternatives[i].why_not, word))
            return true;
    for (size_t i = 0; i < dc->nassumptions; i++)
        if (util_contains_ci(dc->assumptions[i], word))
            return true;
    return false;
}

static bool alert_mentions(const kp_alert *al, const char *word)
{
    return util_contains_ci(al->name, word) || util_contains_ci(al->metric, word) ||
           util_contains_ci(al->when, word);
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

/* The design's attributes and entities by name (analysis_name_maps). */
typedef struct cnames {
    namemap attrs, ents;
} cnames;

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

/* The ids a rule names: how many, and the text of the first few ("a, b, c, d, e, ...").
 * Zero-initialise. */
typedef struct idlist {
    size_t n;
    sbuf b;
} idlist;

static void idlist_add(idlist *l, const char *id)
{
    if (l->n < 5)
        sbuf_printf(&l->b, "%s%s", l->n ? ", " : "", id ? id : "?");
    else if (l->n == 5)
        sbuf_add(&l->b, ", ...");
    l->n++;
}

/* The text ("" when none); l is left empty; caller frees. */
static char *idlist_text(idlist *l) { return sbuf_steal(&l->b); }

static void set(kp_check_item *it, kp_check_status st, char *why)
{
    it->status = st;
    it->why = why;
}

static bool key_condition_has_range(const char *kc)
{
    return kc && (util_contains_ci(kc, "between") || strchr(kc, '<') || strchr(kc, '>'));
}

/* Passes when every pattern served by DynamoDB (not `served_by`) has a rate, and every read a
 * latency target. */
/* Per pattern, what a rule found (kept by analysis_update): 0 not counted, 1 passes, 2 fails;
 * -1 not known yet. */
typedef signed char pans;

static pans written_answer(const kp_pattern *p)
{
    if (p->served_by)
        return 0;
    return isnan(p->rate) || (p->kind == KP_READ && isnan(p->latency)) ? 2 : 1;
}

/* ans: the answers kept (NULL: none) */
static void patterns_written(const kp_analysis *a, pans *ans, kp_check_item *it)
{
    const kp_design *d = a->design;
    size_t total = 0;
    idlist bad = {0};
    for (size_t i = 0; i < d->npatterns; i++) {
        pans v = ans && ans[i] >= 0 ? ans[i] : written_answer(&d->patterns[i]);
        if (ans)
            ans[i] = v;
        total += v != 0;
        if (v == 2)
            idlist_add(&bad, d->patterns[i].id);
    }
    char *ids = idlist_text(&bad);
    if (total == 0)
        set(it, KP_CHECK_NA, xstrdup(_("no patterns written yet")));
    else if (bad.n == 0)
        set(it, KP_CHECK_PASS, textf(_("all %zu DynamoDB patterns have a rate and a latency target"), total));
    else
        set(it, KP_CHECK_FAIL,
            textf(_("%zu of %zu patterns lack a rate or (reads) a latency target (%s)"), bad.n, total, ids));
    free(ids);
}

static void rule_patterns_written(const kp_analysis *a, kp_check_item *it) { patterns_written(a, NULL, it); }

/* Passes when >= 80 % of the DynamoDB read requests (patterns not outside, not covered, weighted
 * by their rate: "nearly every query" is about the queries sent; by count of patterns when no
 * rate is given) supply every placeholder of their first entity's base-table partition-key
 * template (`by` or `join`; a shard suffix counts as supplied: the application enumerates it). */
/* What analysis_update keeps for the checklist: the names, and per pattern whether it binds the
 * table's partition key (-1: to be looked at). */
struct checklist_keep {
    cnames names;
    const kp_keytpl **pkt; /* per entity: entity_key(e, table pk), looked up once (pkt_done) */
    unsigned char *pkt_done;
    signed char *bound;
    pans *written, *sorted; /* per pattern: patterns_written's and sort_key_serves' answers */
    size_t n;
};

static void pk_in_queries(const kp_analysis *a, const cnames *names, const kp_keytpl **pkt,
                          unsigned char *pkt_done, signed char *bound, kp_check_item *it)
{
    const kp_design *d = a->design;
    size_t total = 0, nbound = 0;
    long double rate_all = 0, rate_bound = 0; /* two rates of 1e308 do not overflow their sum */
    idlist miss = {0};
    for (size_t i = 0; i < d->npatterns; i++) {
        const kp_pattern *p = &d->patterns[i];
        if (!is_dynamo_read(p))
            continue;
        total++;
        double r = isnan(p->rate) ? 0 : p->rate;
        rate_all += r;
        bool b;
        if (bound && bound[i] >= 0)
            b = bound[i];
        else {
            b = binds_table_pk(d, names, p, pkt, pkt_done);
            if (bound)
                bound[i] = b;
        }
        if (b) {
            nbound++;
            rate_bound += r;
        } else
            idlist_add(&miss, p->id);
    }
    char *ids = idlist_text(&miss);
    if (total == 0)
        set(it, KP_CHECK_NA, xstrdup(_("no DynamoDB read patterns")));
    else {
        double share = (double)nbound / (double)total;
        double rshare = rate_all > 0 ? (double)(rate_bound / rate_all) : share;
        if (!isfinite(rshare)) /* a rate of inf */
            rshare = share;
        const char *pk = d->table.pk.s ? d->table.pk.s : "";
        set(it, rshare >= 0.8 ? KP_CHECK_PASS : KP_CHECK_FAIL,
            miss.n ? textf(_("%zu of %zu read patterns (%.0f %%), %.1f %% of the read requests, give the "
                             "table's partition key %s; not: %s"),
                           nbound, total, share * 100, rshare * 100, pk, ids)
                   : textf(_("all %zu read patterns give the table's partition key %s"), total, pk));
    }
    free(ids);
}

static void rule_pk_in_queries(const kp_analysis *a, kp_check_item *it)
{
    const kp_design *d = a->design;
    cnames names;
    analysis_name_maps(d, &names.attrs, &names.ents);
    const kp_keytpl **pkt = xcalloc(d->nentities ? d->nentities : 1, sizeof *pkt);
    unsigned char *pkt_done = xcalloc(d->nentities ? d->nentities : 1, 1);
    pk_in_queries(a, &names, pkt, pkt_done, NULL, it);
    free(pkt);
    free(pkt_done);
    namemap_free(&names.attrs);
    namemap_free(&names.ents);
}

/* Passes when no base-table partition is hot, and no base-table template with >= 10,000 items
 * has fewer than 100 distinct values. */
static void rule_pk_spreads(const kp_analysis *a, kp_check_item *it)
{
    const kp_design *d = a->design;
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
        set(it, KP_CHECK_NA, xstrdup(_("no entities on the table")));
    else if (bad && why[0] == 'h')
        set(it, KP_CHECK_FAIL,
            textf(_("partition %s is hot: %.0f %% of a partition's reads, %.0f %% of its writes"),
                  bad->template_src, bad->read_util * 100, bad->write_util * 100));
    else if (bad)
        set(it, KP_CHECK_FAIL,
            textf(_("partition key %s has only %.0f distinct values"), bad->template_src, bad->distinct));
    else if (a->nindexes && isfinite(a->indexes[0].distinct))
        set(it, KP_CHECK_PASS,
            textf(_("%.0f distinct values; hottest value under its partition limit"),
                  a->indexes[0].distinct));
    else /* a placeholder without a distribution: heat assumed one value per item */
        set(it, KP_CHECK_PASS,
            xstrdup(
                _("distinct values not known (a placeholder has no distribution); hottest value under its "
                  "partition limit")));
}

/* Passes when every read pattern asking an `order` is served by the sort key (no app-side sort)
 * and every `range` reaches DynamoDB as a key condition (between, <, >), not a filter. */
static pans sort_key_answer(const kp_pattern *p, const kp_pattern_result *pr)
{
    if (!is_dynamo_read(p) || (!p->order.s && !p->range.s))
        return 0;
    bool ok = true;
    if (pr->plan == KP_PLAN_SCAN || (p->order.s && pr->app_sort))
        ok = false;
    if (p->range.s && !key_condition_has_range(pr->key_condition))
        ok = false;
    return ok ? 1 : 2;
}

static void sort_key_serves(const kp_analysis *a, pans *ans, kp_check_item *it)
{
    const kp_design *d = a->design;
    size_t asked = 0;
    idlist bad = {0};
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *pr = &a->patterns[i];
        const kp_pattern *p = pr->pattern ? pr->pattern : &d->patterns[i];
        pans v = ans && ans[i] >= 0 ? ans[i] : sort_key_answer(p, pr);
        if (ans)
            ans[i] = v;
        asked += v != 0;
        if (v == 2)
            idlist_add(&bad, p->id);
    }
    char *ids = idlist_text(&bad);
    if (asked == 0)
        set(it, KP_CHECK_NA, xstrdup(_("no pattern asks for an order or a range")));
    else if (bad.n == 0)
        set(it, KP_CHECK_PASS,
            textf(_("the sort keys serve the order and ranges of all %zu patterns asking"), asked));
    else
        set(it, KP_CHECK_FAIL,
            textf(_("%zu of %zu patterns get their order or range from the application or a filter (%s)"),
                  bad.n, asked, ids));
    free(ids);
}

static void rule_sort_key_serves(const kp_analysis *a, kp_check_item *it) { sort_key_serves(a, NULL, it); }

/* Passes when a decision names single-table use ("single-table", "single table", "tabla única",
 * "one table"); n/a with fewer than two entities. */
static void rule_single_table(const kp_analysis *a, kp_check_item *it)
{
    const kp_design *d = a->design;
    const char *words[] = {"single-table", "single table", "tabla única", "tabla unica", "one table"};
    const kp_decision *found = NULL;
    for (size_t i = 0; i < d->ndecisions && !found; i++)
        for (size_t w = 0; w < sizeof words / sizeof *words; w++)
            if (decision_mentions(&d->decisions[i], words[w])) {
                found = &d->decisions[i];
                break;
            }
    if (d->nentities < 2)
        set(it, KP_CHECK_NA, xstrdup(_("one entity on the table: not a single-table design")));
    else if (found)
        set(it, KP_CHECK_PASS,
            textf(_("decision %s justifies keeping %zu entities in one table"), found->id ? found->id : "?",
                  d->nentities));
    else
        set(it, KP_CHECK_FAIL,
            textf(_("%zu entities share the table but no decision justifies single-table use"),
                  d->nentities));
}

/* Passes when every GSI is read by some read pattern (any of its steps) and none projects ALL. */
static void rule_minimal_indexes(const kp_analysis *a, kp_check_item *it)
{
    const kp_design *d = a->design;
    size_t ngsi = 0;
    idlist unused = {0}, all = {0};
    bool *idx_read = NULL;
    for (size_t x = 0; x < d->nindexes; x++) {
        const kp_index *ix = &d->indexes[x];
        if (ix->kind != KP_GSI)
            continue;
        ngsi++;
        if (!analysis_index_read(a, (ptrdiff_t)x, &idx_read))
            idlist_add(&unused, ix->name);
        if (ix->projection == KP_PROJ_ALL)
            idlist_add(&all, ix->name);
    }
    free(idx_read);
    char *u = idlist_text(&unused), *al = idlist_text(&all);
    if (ngsi == 0)
        set(it, KP_CHECK_NA, xstrdup(_("no secondary indexes")));
    else if (unused.n == 0 && all.n == 0)
        set(it, KP_CHECK_PASS,
            textf(_("each of the %zu GSIs serves a pattern with a keys/include projection"), ngsi));
    else if (unused.n)
        set(it, KP_CHECK_FAIL, textf(_("%zu GSI(s) serve no pattern (%s)"), unused.n, u));
    else
        set(it, KP_CHECK_FAIL, textf(_("%zu GSI(s) project ALL (%s)"), all.n, al));
    free(u);
    free(al);
}

/* Passes when, with GSIs, an alert watches throttling (metric or name containing "throttl") or a
 * decision speaks of it ("throttl", "saturat"). */
static void rule_saturation_known(const kp_analysis *a, kp_check_item *it)
{
    const kp_design *d = a->design;
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
            why = textf(_("decision %s speaks of index throttling"),
                        d->decisions[i].id ? d->decisions[i].id : "?");
    if (ngsi == 0)
        set(it, KP_CHECK_NA, xstrdup(_("no GSIs")));
    else if (how)
        set(it, KP_CHECK_PASS, textf(_("alert '%s' watches throttling"), how));
    else if (why)
        set(it, KP_CHECK_PASS, why), why = NULL;
    else
        set(it, KP_CHECK_FAIL,
            textf(
                _("%zu GSI(s) and no throttling alert or decision: a saturated GSI throttles the table's writes"),
                ngsi));
    free(why);
}

/* Passes when every strong or transactional read has a `why`. */
static void rule_eventual_reads(const kp_analysis *a, kp_check_item *it)
{
    const kp_design *d = a->design;
    size_t reads = 0, strong = 0;
    idlist bad = {0};
    for (size_t i = 0; i < d->npatterns; i++) {
        const kp_pattern *p = &d->patterns[i];
        if (p->kind != KP_READ || p->served_by)
            continue;
        reads++;
        if (p->consistency == KP_EVENTUAL)
            continue;
        strong++;
        if (!p->why || !*p->why)
            idlist_add(&bad, p->id);
    }
    char *ids = idlist_text(&bad);
    if (reads == 0)
        set(it, KP_CHECK_NA, xstrdup(_("no read patterns")));
    else if (bad.n)
        set(it, KP_CHECK_FAIL, textf(_("%zu strong read(s) without a why (%s)"), bad.n, ids));
    else if (strong)
        set(it, KP_CHECK_PASS,
            textf(_("%zu of %zu reads eventual; each strong read says why"), reads - strong, reads));
    else
        set(it, KP_CHECK_PASS, textf(_("all %zu reads are eventual"), reads));
    free(ids);
}

/* Passes when there is an alert on throttling and an alert on hot keys ("hot", "key",
 * "contributor"). */
static void rule_alerts(const kp_analysis *a, kp_check_item *it)
{
    const kp_design *d = a->design;
    bool throttle = false, hot = false;
    for (size_t i = 0; i < d->nalerts; i++) {
        const kp_alert *al = &d->alerts[i];
        if (alert_mentions(al, "throttl"))
            throttle = true;
        if (alert_mentions(al, "hot") || alert_mentions(al, "contributor") || alert_mentions(al, "key"))
            hot = true;
    }
    if (throttle && hot)
        set(it, KP_CHECK_PASS, xstrdup(_("alerts on throttling and on hot keys")));
    else if (throttle)
        set(it, KP_CHECK_FAIL, xstrdup(_("a throttling alert, but none on hot keys")));
    else if (hot)
        set(it, KP_CHECK_FAIL, xstrdup(_("a hot-key alert, but none on throttling")));
    else
        set(it, KP_CHECK_FAIL, xstrdup(_("no alerts on throttling or hot keys")));
}

/* Passes when `streams:` and `pitr:` are both said explicitly (indexes are always costed, and a
 * global table's replicas: the reason names their regions). */
static void rule_cost_complete(const kp_analysis *a, kp_check_item *it)
{
    const kp_design *d = a->design;
    bool s = d->table.streams != KP_UNSET, p = d->table.pitr != KP_UNSET;
    if (s && p) {
        /* [streams on][continuous backups on] */
        static const char *const said[2][2] = {{N_("indexes costed; streams off, continuous backups off"),
                                                N_("indexes costed; streams off, continuous backups on")},
                                               {N_("indexes costed; streams on, continuous backups off"),
                                                N_("indexes costed; streams on, continuous backups on")}};
        const char *costed = _(said[d->table.streams == KP_TRUE][d->table.pitr == KP_TRUE]);
        if (d->table.nreplicas) {
            /* a global table's regions are the cost the course lists among the forgotten ones */
            sbuf r;
            sbuf_init(&r);
            for (size_t i = 0; i < d->table.nreplicas; i++)
                sbuf_printf(&r, "%s%s", i ? ", " : "", d->table.replicas[i].s);
            /* TRANSLATORS: %1$s what is costed (the sentence above), %2$s a list of regions */
            set(it, KP_CHECK_PASS,
                textf(_("%s; replicas in %s costed (replicated writes, replica storage, transfer)"), costed,
                      r.s));
            sbuf_free(&r);
        } else
            set(it, KP_CHECK_PASS, xstrdup(costed));
    } else
        set(it, KP_CHECK_FAIL,
            xstrdup(!s && !p ? _("say streams and pitr explicitly (true or false) so the cost is complete")
                    : !s     ? _("say streams explicitly (true or false) so the cost is complete")
                             : _("say pitr explicitly (true or false) so the cost is complete")));
}

/* Passes when every search / aggregate / adhoc pattern is `served_by` something. */
static void rule_outside_store(const kp_analysis *a, kp_check_item *it)
{
    const kp_design *d = a->design;
    size_t n = 0;
    idlist bad = {0};
    for (size_t i = 0; i < d->npatterns; i++) {
        const kp_pattern *p = &d->patterns[i];
        if (p->needs == KP_NEEDS_NONE)
            continue;
        n++;
        if (!p->served_by)
            idlist_add(&bad, p->id);
    }
    char *ids = idlist_text(&bad);
    if (n == 0)
        set(it, KP_CHECK_NA, xstrdup(_("no search, aggregate or ad hoc patterns")));
    else if (bad.n)
        set(it, KP_CHECK_FAIL,
            textf(_("%zu pattern(s) DynamoDB cannot serve are not served elsewhere (%s)"), bad.n, ids));
    else
        set(it, KP_CHECK_PASS,
            textf(_("all %zu search/aggregate/ad hoc patterns are served outside DynamoDB"), n));
    free(ids);
}

static void rule_pk_in_queries_kept(const kp_analysis *a, struct checklist_keep *k, kp_check_item *it)
{
    pk_in_queries(a, &k->names, k->pkt, k->pkt_done, k->bound, it);
}

static void rule_patterns_written_kept(const kp_analysis *a, struct checklist_keep *k, kp_check_item *it)
{
    patterns_written(a, k->written, it);
}

static void rule_sort_key_serves_kept(const kp_analysis *a, struct checklist_keep *k, kp_check_item *it)
{
    sort_key_serves(a, k->sorted, it);
}

/* The items in the course's order: item i is items[i - 1]. */
static const struct {
    const char *title;
    void (*rule)(const kp_analysis *a, kp_check_item *it); /* sets it->status and it->why */
    /* the same on what analysis_update keeps, for the rules that have one */
    void (*kept)(const kp_analysis *a, struct checklist_keep *k, kp_check_item *it);
} items[] = {
    {N_("Access patterns are written down, with frequency and latency"), rule_patterns_written,
     rule_patterns_written_kept},
    {N_("The partition key is in nearly every query"), rule_pk_in_queries, rule_pk_in_queries_kept},
    {N_("The partition key spreads: many values and distributed traffic"), rule_pk_spreads, NULL},
    {N_("The sort key allows useful prefixes and ranges"), rule_sort_key_serves, rule_sort_key_serves_kept},
    {N_("Single-table use is justified, not copied"), rule_single_table, NULL},
    {N_("Indexes are the minimum, with adjusted projection"), rule_minimal_indexes, NULL},
    {N_("It is known that a saturated index makes writes fail"), rule_saturation_known, NULL},
    {N_("Reads use eventual consistency except where they cannot"), rule_eventual_reads, NULL},
    {N_("There are alerts for throttling and for hot keys"), rule_alerts, NULL},
    {N_("The cost includes indexes, streams and backups"), rule_cost_complete, NULL},
    {N_("What does not fit is replicated to another store, not forced"), rule_outside_store, NULL},
};
_Static_assert(sizeof items / sizeof *items == KP_CHECKLIST_ITEMS, "one row per checklist item");

static void run_rules(kp_analysis *a, struct checklist_keep *k)
{
    a->checklist_pass = a->checklist_applicable = 0;
    for (int i = 0; i < KP_CHECKLIST_ITEMS; i++) {
        kp_check_item *it = &a->checklist[i];
        it->item = i + 1;
        it->title = _(items[i].title);
        it->status = KP_CHECK_NA;
        it->why = NULL;
        if (k && items[i].kept)
            items[i].kept(a, k, it);
        else
            items[i].rule(a, it);
        if (it->status == KP_CHECK_PASS)
            a->checklist_pass++;
        if (it->status != KP_CHECK_NA)
            a->checklist_applicable++;
    }
}

void stage_checklist(kp_analysis *a) { run_rules(a, NULL); }

struct checklist_keep *stage_checklist_open(const kp_analysis *a)
{
    const kp_design *d = a->design;
    struct checklist_keep *k = xcalloc(1, sizeof *k);
    analysis_name_maps(d, &k->names.attrs, &k->names.ents);
    k->pkt = xcalloc(d->nentities ? d->nentities : 1, sizeof *k->pkt);
    k->pkt_done = xcalloc(d->nentities ? d->nentities : 1, 1);
    k->n = d->npatterns;
    k->bound = xmalloc(k->n ? k->n : 1);
    k->written = xmalloc(k->n ? k->n : 1);
    k->sorted = xmalloc(k->n ? k->n : 1);
    memset(k->bound, -1, k->n ? k->n : 1);
    memset(k->written, -1, k->n ? k->n : 1);
    memset(k->sorted, -1, k->n ? k->n : 1);
    return k;
}

void stage_checklist_attrs_moved(struct checklist_keep *k, const kp_analysis *a)
{
    if (!k)
        return;
    namemap_free(&k->names.attrs); /* the entities' map stays: their list did not move */
    analysis_name_maps(a->design, &k->names.attrs, NULL);
}

void stage_checklist_entities_renamed(struct checklist_keep *k, const kp_analysis *a)
{
    if (!k)
        return;
    namemap_free(&k->names.ents);
    analysis_entity_map(a->design, &k->names.ents);
}

void stage_checklist_dirty(struct checklist_keep *k, size_t i)
{
    if (k && i < k->n)
        k->bound[i] = k->written[i] = k->sorted[i] = -1;
}

void stage_checklist_entity(struct checklist_keep *k, size_t epos)
{
    if (k)
        k->pkt_done[epos] = 0;
}

void stage_checklist_rows(struct checklist_keep *k, kp_rowop op)
{
    size_t n = k->n;
    if (!kp_rowop_fits(op, n))
        return;
    if (op.kind == KP_ROW_INSERT) {
        k->bound = xrealloc(k->bound, (n + 1) * sizeof *k->bound);
        k->written = xrealloc(k->written, (n + 1) * sizeof *k->written);
        k->sorted = xrealloc(k->sorted, (n + 1) * sizeof *k->sorted);
    }
    kp_rowop_shift(k->bound, n, sizeof *k->bound, op);
    kp_rowop_shift(k->written, n, sizeof *k->written, op);
    kp_rowop_shift(k->sorted, n, sizeof *k->sorted, op);
    k->n = kp_rowop_count(op, n);
    if (op.kind == KP_ROW_INSERT)
        stage_checklist_dirty(k, op.row);
}

void stage_checklist_run(struct checklist_keep *k, kp_analysis *a) { run_rules(a, k); }

void stage_checklist_close(struct checklist_keep *k)
{
    if (!k)
        return;
    namemap_free(&k->names.attrs);
    namemap_free(&k->names.ents);
    free(k->pkt);
    free(k->pkt_done);
    free(k->bound);
    free(k->written);
    free(k->sorted);
    free(k);
}

void stage_checklist_free(kp_analysis *a)
{
    for (int i = 0; i < KP_CHECKLIST_ITEMS; i++) {
        free(a->checklist[i].why);
        a->checklist[i].why = NULL;
    }
}
