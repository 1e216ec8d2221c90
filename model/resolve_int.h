/* resolve_int.h - what the files of the resolver share, and nobody else: the per-analysis
 * context (rctx), its precomputed indexes, the candidates of a plan, and the functions each file
 * offers the others (prefix rs_). The stage itself is in analysis_stages.h; resolve.c says which
 * file does what. */
#ifndef KP_RESOLVE_INT_H
#define KP_RESOLVE_INT_H

#include "analysis_stages.h"
#include "capacity.h"
#include "namemap.h"
#include "overlap.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* The estimates' constants (resolve_capacity.c documents them). */
#define DEFAULT_COLLECTION  10.0
#define UNKNOWN_SELECTIVITY 0.5
#define LAT_RTT_MS          4.0
#define LAT_MS_PER_MB       10.0
#define LAT_MERGE_MS        0.2
#define LAT_WRITE_MS        5.0
#define LAT_TRANSACT_MS     10.0

/* ---- the per-analysis context (resolve_index.c) ---------------------------------------------- */

/* A key template as the resolver walks it: the entity's template, or a plain domain attribute
 * as a one-placeholder template. */
typedef struct keyview {
    const tpl_part *parts;
    size_t n;
    tpl_part one; /* a plain domain attribute as a one-placeholder template */
    const char *src;
    bool plain; /* parts must point at `one` */
    /* render_parts' text when no part has a fixed value (then it depends only on the parts and
     * `end`), in the arena: of every part, and of parts [0, r_end) */
    char *r_full, *r_part;
    size_t r_end;
} keyview;

/* One entity on one index (the base table included). */
typedef struct entry {
    const kp_entity *e;
    size_t epos;
    keyview pk, sk;
    bool has_sk;
    double share;        /* share of the entity's items on the index */
    double proj;         /* projected bytes per entry */
    double coll;         /* its items per partition value (collection size) */
    const char *sk_lead; /* the sort key's leading literal ("" when none) */
    size_t sk_lead_len;
    bool sk_const;
    size_t group;
    ov_lang *lang[2]; /* the partition [0] and sort-key [1] templates' languages (rs_entry_lang) */
} entry;

/* The key condition of one index and one kind of sort-key condition, as data and as text with
 * the names it aliases (resolve_render.c). */
typedef struct kcshare {
    expr_keycond kc;
    char *text;
    expr_name *names;
    size_t nnames;
} kcshare;

/* One index (the base table included): its entries, grouped by the shape of their partition
 * template. */
typedef struct ixinfo {
    ptrdiff_t index; /* -1 base table */
    const char *name;
    const char *pk, *sk;
    bool gsi;
    entry *entries;
    size_t n, cap;
    size_t ngroups;
    size_t *gstart;        /* members of group g: gmembers[gstart[g] .. gstart[g+1]) */
    size_t *gmembers;      /* entry positions */
    size_t **coll;         /* lazily: compatible groups of g */
    struct collsum **sums; /* per entry, on its first use: per sort-key condition (rs_sum_slot),
                              the other entities read */
    size_t *ncoll;
    bool *coll_done;
    struct glead *byshape; /* lazily: the groups sorted by the leading literal of their partition template */
    size_t nempty;         /* byshape[0 .. nempty): the groups whose template has no leading literal */
    struct kcshare *kc[4]; /* lazily, in the arena: the key condition per sort-key condition kind (skc);
                              the steps on the index share it (read only, released with the arena) */
} ixinfo;

/* What a mixed collection adds for one entry and one kind of sort-key condition, when the
 * pattern asks for that entity alone (cached: many patterns read the same collections). */
typedef struct collsum {
    bool done;
    double others, bytes;
    const struct entry *first;
    size_t *who; /* the entities whose items meet the query (their count aside): rs_note_read */
    size_t nwho;
} collsum;

/* Everything the resolver keeps for one analysis; rs_ctx_init fills the indexes. */
typedef struct rctx {
    const kp_design *d;
    capacity_memo *cap; /* the analysis' capacity figures (a->capacity_memo) */
    ov_domains *dom;    /* the placeholders' domains: which templates meet */
    ixinfo *ix;
    size_t nix; /* 1 + d->nindexes */
    entry **on; /* on[epos * nix + i] */
    namemap ents, attrs;
    double table_items, table_bytes;
    unsigned *mark; /* mark[epos] == stamp: the entity is asked for by the current pattern */
    namemap knows;  /* (attribute name, entity position): every name each entity knows, an
                       entity's names added on first use (knows_built) */
    bool *knows_built;
    struct cand *cands; /* room for two candidates per index (a fan-out variant) */
    arena *ar;          /* where the results' strings go (a->resolve_arena) */
    char *keynames[4];  /* ":pk", ":sk", ":sk1", ":sk2" in the arena, shared by the key values */
    struct steplist {
        kp_step *v;
        size_t n, cap;
    } steps;   /* scratch steps of the pattern being resolved */
    char **wv; /* scratch warning list of the pattern being resolved (wlist.v) */
    size_t wcap;
    unsigned stamp;
    size_t nasked;        /* entities marked by the current pattern */
    char unknown_sel[32]; /* UNKNOWN_SELECTIVITY as %g writes it (for the warnings) */
    /* what the read being planned must return (resolve.c sets it per read): the attributes
     * want[0..nwant) (want_item: the whole item, the pattern's default); want_keys: the table key
     * only (a find before a write) */
    const kp_str *want;
    size_t nwant;
    bool want_item, want_keys;
    struct reject *rej;     /* per index: why the last rs_best_for_entity did not take it */
    signed char *sk_num;    /* per index, lazily: 1 its sort key is a number, 2 text, 0 not known yet */
    const char **item_miss; /* per (entity, index), lazily: the first attribute of a whole item the
                               index does not return ("" none, NULL not known yet) */
    unsigned char *carry;   /* per (entity, index), lazily: bit 1 carries its pk, 2 its sk; bit 4
                               of an entity's first slot: computed */
    struct whylist {
        kp_why_not *v;
        size_t n, cap;
    } why; /* scratch why-not list of the pattern being resolved */
    /* the entities, other than those it asks for, whose items a query of the pattern being
       resolved would read (the colliders of its partitions, whatever their count), each once
       (rmark[epos] == rstamp): what its result reads of entities it does not name */
    struct readlist {
        size_t *v;
        size_t n, cap;
    } reads;
    unsigned *rmark;
    unsigned rstamp;
} rctx;

/* Entity epos's items are read by the pattern being resolved (rctx.reads). */
static inline void rs_note_read(rctx *c, size_t epos)
{
    if (c->rmark[epos] == c->rstamp)
        return;
    c->rmark[epos] = c->rstamp;
    VEC_GROW(c->reads.v, c->reads.n, c->reads.cap);
    c->reads.v[c->reads.n++] = epos;
}

/* ---- what the caller knows, candidates, plans (resolve_plan.c) ------------------------------- */

#define KNOWN_VALS 8
typedef struct known {
    const char *name;
    const char *value;   /* its one fixed value, or NULL (none fixed, or several: vals) */
    const kp_attr *attr; /* rs_attr_of(name), looked up once */
    size_t nvals;        /* fixed values in vals; several ("status=paid", "status=shipped") ask for
                            the items with any of them */
    const char *vals[KNOWN_VALS];
} known;

/* Does the caller give one value of k per request (not several fixed values)? */
static inline bool rs_known_one(const known *k) { return k && k->nvals <= 1; }

/* A pattern's known attributes: a few, so they start in the struct (no malloc per pattern).
 * Zero-initialise; never copy by value (v may point into it); release with rs_kset_free. */
#define KSET_INL 8
typedef struct kset {
    known *v;
    size_t n, cap;
    size_t nfixed; /* entries with a fixed value */
    known inl[KSET_INL];
} kset;

/* The kind of sort-key condition a candidate sends. */
typedef enum skc { SKC_NONE, SKC_BEGINS, SKC_BETWEEN, SKC_EXACT } skc;

/* Why an index does not serve an entity for a pattern (rs_why_not renders it). */
typedef enum whynot {
    WN_NONE,
    WN_NOT_ON,      /* attr: the key attribute of the index the entity does not carry */
    WN_SPARSE,      /* attr: the key attribute whose sparse rule the pattern does not fix */
    WN_STRONG,      /* a GSI, and the read is strong or transactional */
    WN_TRANSACT,    /* an LSI, and the read is transactional (TransactGetItems reads the table) */
    WN_PK_UNBOUND,  /* attr: a placeholder of the partition key the pattern does not give */
    WN_NO_KEY_USE,  /* the key uses nothing the pattern gives */
    WN_PROJ_FILTER, /* attr: an attribute a FilterExpression needs, which the index does not project */
} whynot;

typedef struct reject {
    whynot why;
    const char *attr;
} reject;

/* cand.warn: what rs_cand_warnings says of a candidate. */
enum {
    W_CONST_PK = 1 << 0,
    W_UNKNOWN_DIST = 1 << 1,
    W_UNKNOWN_SEL = 1 << 2,
};

/* One way to read an entity: one index, its key condition and figures (rs_cand_finish). */
typedef struct cand {
    const ixinfo *xi;
    const entry *en;
    bool get;
    double fanout;
    skc kind;
    size_t sk_end;    /* sort-key parts in the prefix */
    const char *next; /* first unbound sort-key placeholder */
    bool app_sort, range_unserved, filter, mixed, limit_pushed;
    const entry *collider; /* first other entity read by a mixed collection */
    double matched;        /* entity items matching the key condition (all requests) */
    double result;         /* items returned per call */
    double items;          /* items read per request */
    double bytes;          /* bytes read per request */
    double rcu;            /* per request (all its pages) */
    double pages;          /* 1 MB pages per request: each page is a request of its own */
    double latency;
    int quality;                /* 0 best */
    double mine, per_req, fsel; /* the entity's own items read / matching per request; filter selectivity */
    bool has_limit, has_filters, finished;
    const char *skfan; /* the sort-key placeholder fanned out: one query per value (alt) */
    bool alt;          /* the fan-out variant of another candidate on its index */
    unsigned warn;
    const char *unknown_attr;
    const char *fanout_attr;
    const char *text_attr;  /* the order or range attribute, a number that sorts as text here */
    size_t text_part;       /* its part in the sort-key template */
    bool fetch;             /* the index does not project what the read returns */
    const char *fetch_attr; /* the first such attribute */
    double fetch_requests;  /* BatchGetItem requests per call after a GSI's Query */
    double fetch_rcu;       /* read units per call of the fetch (LSI: inside the Query's) */
    double reqs;            /* requests per call: fan-out plus the fetch's */
    whynot why;             /* eval_entity refused the index: why */
    const char *why_attr;
} cand;

/* What one entity knows of a pattern, computed once per pattern and entity. */
#define PI_MAX 64
typedef struct pinfo {
    bool knows[PI_MAX]; /* K->v[i] is an attribute the entity knows */
    bool range_known;
    double filter_sel; /* product of the selectivities of the `filter:` attributes it knows */
    size_t nfilter;
    bool filter_unknown;
} pinfo;

/* What a read of one entity (or a find before a write) comes to: its plan and totals. */
typedef struct readout {
    kp_plan plan;
    double requests, rcu, items, result, latency;
    bool filter, app_sort, limit_pushed, scan;
} readout;

/* The best single query serving every entity of a screen on one index, when there is one. */
typedef struct screenplan {
    size_t k;           /* the index: c->ix[k] */
    char *prefix;       /* the entities' common sort-key prefix (in the arena); "" none */
    const entry *first; /* the first entity on the index */
    const entry *coll;  /* the first other entity the query reads (mixed) */
    bool mixed;
    double rcu, items, latency, result, pages;
    /* order and limit over the whole item collection (`order:` on one of the entities) */
    bool forward;         /* ScanIndexForward */
    bool app_sort;        /* the order is not the sort key's: the app sorts */
    double limit;         /* pushed down as Limit; NAN when not */
    const entry *ordered; /* the entity whose sort key serves the order, NULL when none */
    const entry *lead;    /* the first entity read before the ordered one, NULL when none */
    const entry *outside; /* an asked entity the Limit cuts away (not pushed then), NULL */
    double lead_items;    /* items of the entities read before the ordered one */
} screenplan;

/* ---- texts and steps (resolve_render.c) ------------------------------------------------------ */

/* The pattern's warnings; the texts live in the analysis' arena (c->ar). */
typedef struct wlist {
    char **v;
    size_t n, cap;
    size_t strong_gsi; /* 1 + the index of the warning that a strong read refused a GSI; 0: none */
    const rctx *c;
} wlist;

/* A step's key values while they are made: a few, so they start in the struct. */
#define KV_INL 8
typedef struct kvlist {
    kp_keyval *v; /* NULL until the first value; then inl or the heap */
    size_t n, cap;
    kp_keyval inl[KV_INL];
} kvlist;

/* The key names rs_kv_add_key adds, c->keynames[KV_PK..KV_SK2]. */
enum { KV_PK, KV_SK, KV_SK1, KV_SK2 };

/* The steps of the pattern being resolved (scratch kept in rctx). */
typedef struct steplist steplist;

/* ---- small helpers: templates, marks, names -------------------------------------------------- */

static inline bool rs_starts_with(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static inline const char *rs_lead_lit(const keyview *v)
{
    return (v->n > 0 && v->parts[0].kind == TPL_LIT) ? v->parts[0].text : "";
}

static inline bool rs_is_const(const keyview *v)
{
    return v->n == 0 || (v->n == 1 && v->parts[0].kind == TPL_LIT);
}

static inline bool rs_is_asked(const rctx *c, size_t epos) { return c->mark[epos] == c->stamp; }

/* The design's attribute / entity of that name (the first of a name), NULL when none;
 * *pos (may be NULL) gets the entity's position. Inline, as the next: the resolver asks
 * thousands of times per run. */
static inline const kp_attr *rs_attr_of(const rctx *c, const char *name)
{
    size_t i;
    return namemap_get(&c->attrs, name, &i) ? &c->d->attrs[i] : NULL;
}

static inline const kp_entity *rs_entity_of(const rctx *c, const char *name, size_t *pos)
{
    size_t i;
    if (!namemap_get(&c->ents, name, &i))
        return NULL;
    if (pos)
        *pos = i;
    return &c->d->entities[i];
}

/* The known entry of that name, or NULL. */
static inline const known *rs_kset_find(const kset *k, const char *name)
{
    for (size_t i = 0; i < k->n; i++)
        if (strcmp(k->v[i].name, name) == 0)
            return &k->v[i];
    return NULL;
}

/* ---- resolve_index.c: the per-analysis context ----------------------------------------------- */

/* *v = entity e's template for key attribute `attr`, or attr itself as a placeholder (v must
 * stay where it is: it may point into itself). */
void rs_keyview_set(keyview *v, const kp_entity *e, const char *attr);
/* The template as written ("{attr}" for a plain attribute); caller frees. */
char *rs_keyview_src(const keyview *v);

/* The language of entry en's whole partition (sk false) or sort-key (sk true) template on the
 * placeholders' domains (overlap.h), compiled on first use and kept with the entry. */
const ov_lang *rs_entry_lang(const rctx *c, const entry *en, bool sk);

/* Can a partition value of group g be one of group h? (The groups' templates have the same
 * literals and placeholder domains, so their representatives answer for every member.) */
bool rs_groups_meet(const rctx *c, const ixinfo *xi, size_t g, size_t h);

/* Groups whose partition template can produce the same value as group g's (g included), in
 * group order. Two templates can only meet when one leading literal is a prefix of the other,
 * so only those groups are tested (rs_groups_meet): the ones without a leading literal, the ones
 * whose literal is a prefix of g's (looked up by length) and the ones g's literal prefixes (one
 * run of the sorted order). */
const size_t *rs_colliding_groups(const rctx *c, ixinfo *xi, size_t g, size_t *n);

/* The cache slot of a sort-key condition of kind k over the first `end` parts of entry k's
 * sort key (SKC_NONE: 0; exact: 1; begins_with: 2 + end; between: 3 + n + end). */
static inline size_t rs_sum_slot(const entry *en, skc kind, size_t end)
{
    size_t n = en->has_sk ? en->sk.n : 0;
    if (end > n)
        end = n;
    return kind == SKC_NONE || !en->has_sk ? 0
           : kind == SKC_EXACT             ? 1
           : kind == SKC_BEGINS            ? 2 + end
                                           : 3 + n + end;
}

/* Fills c for design d: names, the indexes' entries and groups, the tables' totals (the
 * capacity figures from memo cap). Release with rs_ctx_free. */
void rs_ctx_init(rctx *c, const kp_design *d, capacity_memo *cap);
/* Entity epos's figures changed (its count, size, writes or description; nothing else): its
 * entries, the table's totals and the collection sums that count its items made again. */
void rs_ctx_refigure(rctx *c, size_t epos);
void rs_ctx_free(rctx *c);
/* Releases the sums of entry j of index xi (their lists of entities read). */
void rs_sums_free(ixinfo *xi, size_t j);

/* entity_knows() through the (name, entity) set. */
bool rs_knows(rctx *c, const kp_entity *e, const char *name);

/* ---- resolve_plan.c: what the caller knows, candidates, plans -------------------------------- */

/* Adds name (value: a fixed value or NULL; attr: its declaration or NULL) unless known already;
 * a second fixed value of a known name joins its values. */
void rs_kset_add(kset *k, const char *name, const char *value, const kp_attr *attr);
/* Adds a copy of entry k (its fixed values too) unless its name is known already. */
void rs_kset_add_known(kset *K, const known *k);
void rs_kset_free(kset *k);
/* Adds what pattern p's `by` says. */
void rs_known_from_by(const rctx *c, const kp_pattern *p, kset *K);

/* Best candidate over every index holding entity epos (asked: the entities the pattern asks
 * for; screen: a screen's entity, without order, range or limit). false when no index serves it
 * (*strong_refused: only consistency forbade one). A sort-key placeholder that takes several
 * values (fixed by the pattern, or an enum before the range attribute) gives two plans, one
 * query per value or one query with a filter: the cheaper wins, and *other (may be NULL) gets
 * the other one (other->finished false when there was none). */
bool rs_best_for_entity(rctx *c, const kp_pattern *p, const kset *K, size_t epos, const size_t *asked,
                        size_t nasked, bool screen, cand *best, cand *other, bool *strong_refused);

/* The attribute a mixed collection's FilterExpression tests to keep entity cd's items: one the
 * entity carries and the first other entity read does not (attribute_exists), or NULL: the
 * "entityType" tag. */
const char *rs_mixed_tag(const cand *cd);

/* Appends to c->why the why-not lines of entity epos for pattern p after rs_best_for_entity
 * (its c->rej), best the candidate it chose (NULL: none; the read is a scan). `all`: every index
 * that nearly served it, else only the rules that shaped the chosen plan (text sort, fetch). */
void rs_why_not(rctx *c, const kp_pattern *p, size_t epos, const cand *best, bool all);

/* Adds a why-not line (text copied into the arena) unless the same text is there already. */
void rs_why_add(rctx *c, const char *rule, const char *text);

/* The best single query serving the n entities epos of a screen on one index; false when no
 * index serves them all. */
bool rs_plan_screen(rctx *c, const kp_pattern *p, const kset *K, const size_t *epos, size_t n,
                    screenplan *sp);

/* ---- resolve_capacity.c: estimates ----------------------------------------------------------- */

/* Share of items having a given value of attribute a (fixed value or any one value); NAN unknown
 * (a NULL: not declared). */
double rs_selectivity_of(const kp_attr *a, const char *value);

/* The same by attribute name. */
double rs_selectivity(const rctx *c, const char *name, const char *value);

/* Share of the items a known attribute selects: its fixed value's, the sum of its several
 * values' (any of them), any one value's when none is fixed; NAN unknown. */
double rs_known_sel(const known *k);

/* Latency (ms) of a Query reading `bytes` per request, `fanout` requests in parallel. */
double rs_query_latency(double bytes, double fanout);

/* Completes a candidate: the other entities a mixed collection reads (when `colliders`), items,
 * bytes, units, latency and quality. Without colliders the figures are a lower bound. */
void rs_cand_finish(rctx *c, const kp_pattern *p, const kset *K, cand *out, bool colliders);

/* Read units per call of candidate cd: its queries' (an LSI's fetch inside them) and a GSI's
 * fetch (BatchGetItem after the Query). What one query per value and one with a filter are
 * compared by. */
double rs_cand_cost(const cand *cd);

/* The Limit of candidate cd's request: the pattern's `limit` when nothing is filtered; with a
 * FilterExpression, DynamoDB counts the items it reads before the filter, so the Limit is the
 * items read to return about `limit` (limit / selectivity, the other entities of a mixed
 * collection included); NAN when the limit is not pushed down. */
double rs_cand_limit(const kp_pattern *p, const cand *cd);

/* The per-second figures of r from its per-call ones and p's rates; whether the latency target
 * holds. */
void rs_set_totals(kp_pattern_result *r, const kp_pattern *p);

/* Write units of one item of entity epos written by pattern p: *table on the table (its LSIs
 * included), *gsis on the GSIs: capacity_entity_write's figures, the ones heat and cost use. */
void rs_write_units(const rctx *c, const kp_pattern *p, size_t epos, double *table, double *gsis);

/* ---- resolve_render.c: texts and steps (in the arena) ---------------------------------------- */

/* Adds the text of the format string and its arguments as a warning, unless the same text is
 * there already. The warnings of the live pane are built without printf (textf.h: %s and the
 * common figures, positional too), which costs more than the resolution of a pattern. */
void rs_warnf(wlist *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* parts[0..end) as a value template; fixed values substituted (formatted); literal text with
 * its braces doubled, an unknown placeholder as {name} or {name:format}. The same text as
 * render_parts_long, built in a stack buffer (a key value is short); longer texts go there. */
char *rs_render_parts(const rctx *c, const keyview *v, size_t end, const kset *K);

/* render_parts' work: the text, in the arena. */
char *rs_render_parts_text(const rctx *c, const keyview *v, size_t end, const kset *K);

/* Appends key name KV_PK..KV_SK2 = value (in the arena): the names are in the arena once per
 * analysis (c->keynames) and shared by the values (read only, released with the arena). */
void rs_kv_add_key(const rctx *c, kvlist *l, int which, char *value);

/* Moves the values into the arena as the step's values. */
void rs_kv_finish(const rctx *c, kvlist *l, kp_step *st);

/* Appends a step with its defaults (no operation, base table, forward, no limit, count 1). */
kp_step *rs_step_new(steplist *s);

/* The warnings candidate cd earns (filter_what: what its FilterExpression filters on; other:
 * the plan it was chosen over, or NULL). */
void rs_cand_warnings(const rctx *c, const kp_pattern *p, const cand *cd, const cand *other, wlist *w,
                      const char *filter_what);

/* Appends the step of candidate cd; returns it. Filter description in *what. */
kp_step *rs_cand_step(rctx *c, const kp_pattern *p, const cand *cd, const kset *K, steplist *sl, sbuf *what);

/* Appends the step of a Scan of the whole table for entity e (NULL: the pattern names none),
 * its filter on what the caller knows; the Scan's read units and latency in *rcu_call, *lat. */
void rs_scan_step(const rctx *c, const kp_pattern *p, const kset *K, const kp_entity *e, steplist *sl,
                  double *rcu_call, double *lat);

/* The step of a screen's single query. */
void rs_screen_step(const rctx *c, const kp_pattern *p, const kset *K, const screenplan *sp, steplist *sl,
                    wlist *w);

#endif
