/* metrics.c - the numbers signals read and the catalogue of named mistakes.
 *
 * Metric names: pattern.<id>.rate|rcu|requests|latency (rate = the design's peak rate, rcu =
 * read units/s at peak, requests = DynamoDB requests per call, latency = the estimate in ms),
 * entity.<name>.count|size|writes (writes = `writes`, else the sum of the write patterns'
 * rates x items naming it), index.<name>.items|wcu|hot_share (the base table answers to
 * "table" and to its own name), table.hot_share, cost.total, cost.<line> of the design's
 * billing mode ("cost.index writes" and "cost.index_writes" both work). Names may contain dots:
 * the kind is before the first dot and the field after the last. */
#include "analysis.h"
#include "i18n.h"

#include <math.h>
#include <string.h>

static bool field_is(const char *f, size_t n, const char *want)
{
    return strlen(want) == n && memcmp(f, want, n) == 0;
}

/* Compares a cost line name with the metric's text, '_' standing for ' '. */
static bool line_name_is(const char *line, const char *s)
{
    for (; *line && *s; line++, s++)
        if (*line != *s && !(*line == ' ' && *s == '_'))
            return false;
    return !*line && !*s;
}

static bool name_is(const char *have, const char *name, size_t n)
{
    return have && strlen(have) == n && memcmp(have, name, n) == 0;
}

bool analysis_metric(const kp_analysis *a, const char *metric, double *out)
{
    if (!a || !metric || !out)
        return false;
    const kp_design *d = a->design;
    const char *dot = strchr(metric, '.');
    if (!dot)
        return false;
    size_t klen = (size_t)(dot - metric);
    if (field_is(metric, klen, "table")) {
        if (strcmp(dot + 1, "hot_share") != 0)
            return false;
        *out = a->table_hot_share;
        return true;
    }
    if (field_is(metric, klen, "cost")) {
        const char *line = dot + 1;
        if (!a->cost)
            return false;
        if (strcmp(line, "total") == 0) {
            *out = a->cost->total;
            return true;
        }
        for (size_t i = 0; i < a->cost->nlines; i++)
            if (line_name_is(a->cost->lines[i].name, line)) {
                *out = a->cost->lines[i].amount;
                return true;
            }
        return false;
    }
    const char *last = strrchr(metric, '.');
    if (last == dot)
        return false;
    const char *name = dot + 1, *field = last + 1;
    size_t nlen = (size_t)(last - name), flen = strlen(field);

    if (field_is(metric, klen, "pattern")) {
        for (size_t i = 0; i < a->npatterns; i++) {
            const kp_pattern_result *pr = &a->patterns[i];
            const kp_pattern *p = pr->pattern ? pr->pattern : &d->patterns[i];
            if (!name_is(p->id, name, nlen))
                continue;
            if (field_is(field, flen, "rate"))
                *out = p->rate;
            else if (field_is(field, flen, "rcu"))
                *out = pr->rcu_per_s;
            else if (field_is(field, flen, "requests"))
                *out = pr->requests;
            else if (field_is(field, flen, "latency"))
                *out = pr->latency_ms;
            else
                return false;
            return true;
        }
        return false;
    }
    if (field_is(metric, klen, "entity")) {
        for (size_t i = 0; i < d->nentities; i++) {
            const kp_entity *e = &d->entities[i];
            if (!name_is(e->name, name, nlen))
                continue;
            if (field_is(field, flen, "count"))
                *out = e->count;
            else if (field_is(field, flen, "size"))
                *out = e->size;
            else if (field_is(field, flen, "writes")) {
                if (!isnan(e->writes)) {
                    *out = e->writes;
                    return true;
                }
                double w = 0;
                for (size_t k = 0; k < d->npatterns; k++) {
                    const kp_pattern *p = &d->patterns[k];
                    if (p->kind != KP_WRITE || isnan(p->rate))
                        continue;
                    for (size_t j = 0; j < p->nentities; j++)
                        if (p->entities[j].s && strcmp(p->entities[j].s, e->name) == 0) {
                            double items = isnan(p->items) || p->items <= 0 ? 1 : p->items;
                            w += p->rate * fmax(1, items / (double)p->nentities);
                        }
                }
                *out = w;
            } else
                return false;
            return true;
        }
        return false;
    }
    if (field_is(metric, klen, "index")) {
        for (size_t x = 0; x < a->nindexes; x++) {
            const kp_index_result *ir = &a->indexes[x];
            bool match = name_is(ir->name, name, nlen) || (x == 0 && name_is(d->table.name, name, nlen));
            if (!match)
                continue;
            if (field_is(field, flen, "items"))
                *out = ir->items;
            else if (field_is(field, flen, "wcu"))
                *out = ir->wcu_per_s;
            else if (field_is(field, flen, "hot_share"))
                *out = ir->hot_share;
            else
                return false;
            return true;
        }
        return false;
    }
    return false;
}

/* The named mistakes. Fixes translate the course's "errores frecuentes" / "errores comunes"
 * faithfully. Titles and fixes are only marked (N_): the findings translate the fix (_()). */
static const kp_finding_info catalogue[] = {
    {"low-cardinality-pk", N_("Low-cardinality partition key (status, date, type, country)"),
     N_("Choose a key with many values and traffic spread among them; if it is too late, spread it "
        "with a suffix, cache, or aggregate before writing.")},
    {"time-bucket-pk", N_("Time-bucket partition key under write load"),
     N_("Write sharding: add a suffix (EVENTS#4, a number between 0 and N) to the partition key to "
        "spread the writes over several logical partitions; read every shard in parallel and merge.")},
    {"hot-partition", N_("Hot partition: the traffic concentrates on few keys"),
     N_("Choose a key with many values and traffic spread among them; if it is too late, spread it "
        "with a suffix, cache, or aggregate before writing.")},
    {"scan-user-path", N_("Scan on a user-facing path"),
     N_("The partition key must appear in nearly all queries; the fix is usually a new GSI or a "
        "redesigned sort key, not a faster scan (scans are for migrations, exports and background jobs).")},
    {"filter-narrowing", N_("Filter expression as the main narrowing"),
     N_("Redesign the key structure so that the database reads only what you need: a filter is "
        "applied after the read, and you pay for everything read, not for what is returned.")},
    {"many-requests-join", N_("Three or more requests plus a join for one screen"),
     N_("Write the patterns with their frequency and latency before modelling, and group in the sort "
        "key what is queried together.")},
    {"unused-gsi", N_("GSI serving no pattern"),
     N_("Create only the indexes that serve real patterns, project the minimum, and take out of the "
        "index what stops being queryable.")},
    {"projection-all", N_("Projection ALL"),
     N_("Project only what the query needs and fetch the rest from the table when that is rare: "
        "projecting everything doubles storage and write cost.")},
    {"index-writes-exceed", N_("Index writes exceed the table's writes"),
     N_("Create only the indexes that serve real patterns, project the minimum, and take out of the "
        "index what stops being queryable (a sparse index).")},
    {"gsi-throttles-writes", N_("A saturated GSI throttles the table's writes"),
     N_("Watch each index's capacity separately and keep indexes and projections to the minimum "
        "needed.")},
    {"lsi", N_("Local secondary index"),
     N_("An LSI can only be created with the table, never added or removed later, and it limits each "
        "partition key value to 10 GB; almost always what you wanted was a GSI.")},
    {"item-too-large", N_("Item over 400 KB"),
     N_("Items cannot exceed 400 KB: store the payload in S3 and keep a reference in the item "
        "(claim-check).")},
    {"item-over-4kb", N_("Item over 4 KB: reads cost more"),
     N_("Keep items small: a read unit covers 4 KB, so a 5 KB item costs twice as much as a 4 KB one; "
        "move rarely read attributes to another item.")},
    {"date-not-iso-sk", N_("Date not in ISO 8601 in a sort key"),
     N_("Build sort keys so that lexicographic order means something: a date in ISO format "
        "(2025-03-14) sorts chronologically.")},
    {"strong-read-gsi", N_("Strong read on a GSI"),
     N_("A global index is always eventually consistent: read the base table where the latest data "
        "is required, or accept eventual reads.")},
    {"counter-update", N_("Non-idempotent counter update"),
     N_("SET n = n + :x is not idempotent: a retry counts twice. Where exactness matters (balances, "
        "stock), use a conditional write.")},
    {"unknown-distribution", N_("Unknown distribution where heat needs it"),
     N_("Declare the attribute's `distinct` (and `skew`) or its enum shares, so that the partition's "
        "heat can be computed.")},
    {"key-too-long", N_("Key values over DynamoDB's limit"),
     N_("A partition key value takes at most 2,048 bytes and a sort key 1,024: key on an identifier, and "
        "keep long text (names, descriptions, paths) in ordinary attributes.")},
    {"table-quota", N_("Throughput above the per-table quota"),
     N_("A table or GSI takes 40,000 read and 40,000 write units/s by default (80,000 per account, "
        "provisioned): request the increase in Service Quotas before launch, or cut the units (eventual "
        "reads, a cache, smaller items).")},
    /* DynamoDB's own rules, proven on DynamoDB Local (tests/data/rules) */
    {"number-sorts-as-text", N_("A number inside a string key sorts as text"),
     N_("Zero-pad the number with `format:` as wide as its largest value (format: \"04\" up to 9,999), or "
        "make the sort key a number-typed attribute holding only the number: as text P#10 sorts before P#4, "
        "and BETWEEN \"P#4\" AND \"P#10\" is refused.")},
    {"pad-too-narrow", N_("A zero pad narrower than the attribute's values"),
     N_("Widen `format:` to the digits of the largest value (5,000 values need \"04\"): past the pad the "
        "numbers sort as text again (1000 before 999).")},
    {"index-fetch", N_("An index that does not project what the pattern returns"),
     N_("Project what the pattern returns (include: [...]), or say what it needs (returns:): a GSI returns "
        "only what it projects, so every result is read again from the table (BatchGetItem), and an LSI "
        "fetches it for you at a table read per item.")},
    {"projection-filter", N_("A filter on an attribute the index does not project"),
     N_("DynamoDB refuses a FilterExpression on an attribute a keys-only or INCLUDE index does not project: "
        "include the attribute in the projection (entityType for a mixed collection), or use another key.")},
    {"key-update", N_("An update that changes a key attribute"),
     N_("DynamoDB cannot update a key attribute: the item is deleted and put again, in a TransactWriteItems "
        "to be safe, which doubles every write; keep attributes that change out of the table's key.")},
    {"transactional-read", N_("A transactional read that is not a Get by key"),
     N_("TransactGetItems holds only Gets by the table's full key (no Query, no Scan, no index): give the "
        "full key, or read it strongly consistent when atomicity across items is not needed.")},
};

const kp_finding_info *analysis_finding_catalogue(size_t *n)
{
    *n = sizeof catalogue / sizeof *catalogue;
    return catalogue;
}
