/* analysis.h - the live model: every pattern resolved, sized, the partitions'
 * heat, the cost in both billing modes, the checklist and the named mistakes
 *, and the metrics signals read. Pure computation over a kp_design; the result
 * is one kp_analysis owned by the caller (analysis_free).
 *
 * Order of work inside analysis_run: plan (resolver) -> capacity -> heat -> cost -> checklist ->
 * findings. Each stage reads the design and the earlier stages only. */
#ifndef KP_ANALYSIS_H
#define KP_ANALYSIS_H

#include "design.h"
#include "edit.h"
#include "expr.h"

#include <stdbool.h>
#include <stddef.h>

/* Plans, with the symbol the model pane shows and the word. */
/* clang-format off */
#define KP_PLANS(X)              \
    X(GET, "get", "=")           \
    X(QUERY, "query", "~")       \
    X(MULTI, "multi", "+")       \
    X(SCAN, "scan", "!")         \
    X(OUTSIDE, "outside", ">")   \
    X(COVERED, "covered", "^")   \
    X(WRITE, "write", "w")       \
    X(TRANSACT, "transact", "t") \
    X(INVALID, "invalid", "?")
/* clang-format on */

typedef enum kp_plan {
/* clang-format off */
#define KP_PLAN_ENUM(name, word, sym) KP_PLAN_##name,
    KP_PLANS(KP_PLAN_ENUM)
#undef KP_PLAN_ENUM
    KP_PLAN__COUNT
    /* clang-format on */
} kp_plan;

const char *kp_plan_word(kp_plan p);   /* "query" */
const char *kp_plan_symbol(kp_plan p); /* "~" */

/* The DynamoDB operation of one request. */
typedef enum kp_op {
    KP_OP_GETITEM,
    KP_OP_QUERY,
    KP_OP_SCAN,
    KP_OP_BATCHGET,
    KP_OP_PUTITEM,
    KP_OP_UPDATEITEM,
    KP_OP_DELETEITEM,
    KP_OP_TRANSACTWRITE,
    KP_OP_TRANSACTGET,
    KP_OP_NONE,
} kp_op;
const char *kp_op_name(kp_op o); /* "GetItem" */

/* A value the caller supplies in a key condition: ":pk" = "CLIENTE#{customerId}". */
typedef struct kp_keyval {
    char *name;  /* ":pk", ":sk", ":sk1", ":sk2" */
    char *value; /* template text of the value: literals and {placeholders} */
} kp_keyval;

/* One request (or group of identical requests) of a plan. Its key condition and filter are
 * data (kc, fexpr: what requests and verify use) and the text DynamoDB receives, rendered once
 * from them (key_condition, filter: what people read), with `names` the
 * ExpressionAttributeNames both use and `values` the ExpressionAttributeValues' templates. */
typedef struct kp_step {
    kp_op op;
    ptrdiff_t index;         /* -1 base table, else position in design->indexes */
    const kp_entity *entity; /* the entity the step reads or writes (first one for screens) */
    const expr_keycond *kc;  /* the key condition; NULL for scans/writes (shared, read only) */
    const kp_expr *fexpr;    /* the FilterExpression; NULL when none */
    char *key_condition;     /* "PK = :pk AND begins_with(SK, :sk)", "#State_Date = :pk"; NULL with kc */
    char *filter;            /* FilterExpression text, NULL when none */
    expr_name *names;        /* "#State_Date" -> "State#Date": the names key_condition and filter alias */
    size_t nnames;
    kp_keyval *values; /* ":pk" -> "CLIENTE#{customerId}" */
    size_t nvalues;
    bool forward;  /* ScanIndexForward */
    double limit;  /* NAN when not pushed down */
    double count;  /* how many such requests per call (fan-out over shards/values) */
    double items;  /* items read (or written) per request */
    double rcu;    /* read units per request */
    double wcu;    /* write units per request */
    bool fetch;    /* the attributes the index does not project come from the table: a Query on an
                     LSI fetching them itself (Select ALL_ATTRIBUTES, its read units included), or
                     the BatchGetItem after a GSI's Query */
    bool key_move; /* a TransactWriteItems replacing an item whose table key an update changes:
                      a Delete of the old key and a Put of the new item (items 2) */
} kp_step;

/* Why an index did not serve a pattern, or served it less well than it seems to: one line for
 * people ("Order has no GSI1SK template, so Order items are not in GSI1"), and the code of the
 * finding (model/metrics.c) that names the DynamoDB rule behind it, NULL when none. */
typedef struct kp_why_not {
    const char *rule; /* static */
    char *text;
} kp_why_not;

typedef struct kp_pattern_result {
    const kp_pattern *pattern;
    kp_plan plan;
    double requests;        /* DynamoDB requests per call (0 for covered / outside) */
    ptrdiff_t index;        /* the index of the main step: -1 base table */
    const char *index_name; /* "table" or the index name (points into the design) */
    char *key_condition;    /* of the main step, as DynamoDB receives it; "" when none */
    kp_keyval *values;      /* of the main step */
    size_t nvalues;
    expr_name *names; /* of the main step: the names its key condition and filter alias */
    size_t nnames;
    bool filter;   /* a FilterExpression is needed (mixed collection or filter:) */
    bool app_sort; /* the asked order is not served: the app sorts */
    bool limit_pushed;
    kp_step *steps;
    size_t nsteps;
    double items_per_call; /* items read (reads) or written (writes) per call */
    double rcu_per_call;
    double rcu_per_s;     /* at peak rate */
    double rcu_per_s_avg; /* at average rate (cost) */
    double wcu_per_call;  /* writes: table units; index units separately */
    double wcu_per_s;
    double index_wcu_per_call;
    double latency_ms; /* estimate */
    bool latency_ok;   /* estimate within the target (true when no target) */
    char **warnings;   /* one line each */
    size_t nwarnings;
    size_t strong_gsi_warning; /* 1 + the index in warnings of "strong read refused on a GSI"; 0: none */
    kp_why_not *why_not;       /* the indexes that nearly served it and why not, and the DynamoDB rules
                            that shaped its plan (a fetch, a key update, a refused transaction) */
    size_t nwhy_not;
} kp_pattern_result;

/* Heat of one partition-key template on the base table or a GSI. */
typedef struct kp_partition_result {
    ptrdiff_t index;        /* -1 base table */
    const char *index_name; /* "table" or index name */
    const kp_entity *entity;
    char *template_src;     /* the template as written ("CLIENTE#{customerId}") */
    double distinct;        /* distinct partition values; NAN when unknown */
    double hot_share;       /* share of the items in the hottest value */
    double read_hot_share;  /* share of the reads landing on the hottest value */
    double write_hot_share; /* share of the writes landing on the hottest value */
    double read_units;      /* read units per second on the hottest value */
    double write_units;     /* write units per second on the hottest value */
    double read_util;       /* read_units / 3000 */
    double write_util;      /* write_units / 1000 */
    double bytes;           /* bytes in the hottest value (10 GB per-partition for LSIs) */
    bool hot;               /* read_util or write_util >= 1 */
    int suggest_shards;     /* shard count bringing both under 50 %; 0 when not hot */
    double items;           /* items (index entries) under this template, all values */
} kp_partition_result;

/* Whole-index figures (base table and each GSI/LSI). */
typedef struct kp_index_result {
    ptrdiff_t index; /* -1 base table */
    const char *name;
    double items;     /* items it holds */
    double bytes;     /* storage, including the 100 B overhead per item */
    double rcu_per_s; /* peak read units */
    double wcu_per_s; /* peak write units */
    double wcu_per_s_avg;
    double hot_share;       /* max hot share over its partitions */
    double distinct;        /* distinct partition-key values over all its templates; NAN unknown */
    double read_hot_share;  /* share of all its reads landing on its hottest partition value */
    double write_hot_share; /* share of all its writes landing on its hottest partition value */
    int patterns_served;    /* read patterns whose main step uses it */
} kp_index_result;

typedef struct kp_cost_line {
    char *name;   /* "reads", "writes", "index writes", "storage", "streams", "backups"; a global
                     table adds "replicated writes", "replica storage", "transfer". English: the
                     line's identifier (cost.<line>, JSON); people read _(name) */
    double units; /* units per month (requests, GB...) for display; NAN when n/a */
    double amount;
} kp_cost_line;

typedef struct kp_cost {
    kp_billing mode;
    const char *currency; /* points into the design or a static string */
    kp_cost_line *lines;
    size_t nlines;
    double total;
} kp_cost;

typedef enum kp_check_status { KP_CHECK_PASS, KP_CHECK_FAIL, KP_CHECK_NA } kp_check_status;
const char *kp_check_status_name(kp_check_status s); /* "pass" | "fail" | "n/a" */

#define KP_CHECKLIST_ITEMS 11
typedef struct kp_check_item {
    int item;          /* 1..11 */
    const char *title; /* static */
    kp_check_status status;
    char *why;
} kp_check_item;

typedef struct kp_finding {
    const char *code; /* stable code, static ("low-cardinality-pk") */
    kp_severity sev;
    char *where; /* "pattern 1", "index GSI1", "entity Order" */
    char *message;
    const char *fix; /* static: the course's one-line fix */
} kp_finding;

typedef struct kp_analysis {
    const kp_design *design;     /* not owned; must outlive the analysis */
    kp_pattern_result *patterns; /* one per design pattern, same order */
    size_t npatterns;
    kp_partition_result *partitions;
    size_t npartitions;
    kp_index_result *indexes; /* [0] base table, then design indexes in order */
    size_t nindexes;
    kp_cost on_demand;
    kp_cost provisioned;
    const kp_cost *cost; /* the design's billing mode: &on_demand or &provisioned */
    kp_check_item checklist[KP_CHECKLIST_ITEMS];
    int checklist_pass, checklist_applicable;
    kp_finding *findings;
    size_t nfindings;
    double table_hot_share; /* hottest share on the base table */
    void *resolve_arena;    /* resolve.c: the block allocator holding the pattern results' strings
                                and key values (released by stage_resolve_free) */
    void *capacity_memo;    /* resolve.c: the capacity_memo (model/capacity.h) shared with heat.c,
                                NULL outside those stages (released by stage_heat, its last user, or
                                by stage_resolve_free when heat did not run; kept while `incr` is) */
    void *incr;             /* analysis.c: what analysis_update keeps between runs (its copy of the
                                design, the resolver's context), NULL after analysis_run */
    void *ids;              /* analysis.c: the patterns' ids to their results (analysis_pattern),
                                made when first asked, dropped when analysis_update patches */
} kp_analysis;

/* The result of the pattern whose id is `id` (the first such), or NULL (a or id NULL, or no
 * such pattern): by a map of the ids made on the first call, so that finding the results of a
 * design's rows in an analysis of another (an older design, the valid rest of a broken one) is
 * O(1) a row. */
const kp_pattern_result *analysis_pattern(const kp_analysis *a, const char *id);
/* Releases what analysis_pattern made for `a` (analysis_free does it): for an analysis made and
 * freed by other means (a fixed one in a test). */
void analysis_forget_ids(kp_analysis *a);

/* Runs the whole analysis of a design that passed validation. Never NULL; the caller frees it
 * with analysis_free. The analysis points into the design: free it first. */
kp_analysis *analysis_run(const kp_design *d);
void analysis_free(kp_analysis *a);

/* Was a made by a whole analysis: analysis_run, or an analysis_update* call that analysed the
 * design whole rather than patch the analysis it was given in place? (What tests and benchmarks
 * ask; a pointer compared with the one given can be the same block freed and taken again.) */
bool analysis_was_whole(const kp_analysis *a);

/* The analysis of design `d` (valid) for an editor that analyses after every change: prev
 * (taken: reused or freed; NULL = none) is an earlier result of analysis_update. What depends on
 * the design's entities, indexes, attributes and settings only (the name ids, the resolver's
 * index precompute, the capacity memo) is kept between runs; when d differs from the design prev
 * analysed in some patterns only (same number of patterns), only those patterns are resolved
 * again, and heat, cost, checklist and findings are computed from the results. Any other change
 * is a full analysis. `changed`: the only pattern row that differs from the design prev
 * analysed, when the caller knows that nothing else changed (a cell of one pattern, edited on
 * that design: edit_changes_pattern_only); then nothing else is compared, so a wrong row gives a
 * wrong analysis. ANALYSIS_UNKNOWN: the design is compared with prev's (every pattern).
 *
 * The result equals analysis_run(d) field by field; its `design` is the analysis' own copy of d
 * (d may be changed or freed afterwards). Never NULL; the caller frees it with analysis_free. */
#define ANALYSIS_UNKNOWN ((size_t)-1)
/* `changed` when d differs from the design prev analysed in its rest alone (design_same_model:
 * its name, settings, alerts, pricing or decisions), as the caller knows: the patterns' results
 * and heat stand, cost, checklist and findings are made again. A wrong claim gives a wrong
 * analysis. */
#define ANALYSIS_REST ((size_t)-2)
kp_analysis *analysis_update(kp_analysis *prev, const kp_design *d, size_t changed);
/* analysis_update after a structural step of the pattern list (a row added, deleted,
 * duplicated or moved, or such a step undone): d is the design prev analysed with op applied to
 * its patterns (an inserted pattern is d's at op.row) and nothing else changed, as the caller
 * knows (a wrong op gives a wrong analysis). The kept per-pattern results and the stages'
 * per-pattern records follow their patterns; only an inserted pattern is resolved; heat, cost,
 * checklist and findings are computed from the results as after a cell's edit. When prev was not
 * made by analysis_update, or its patterns' number does not fit op, it is analysis_update(prev,
 * d, ANALYSIS_UNKNOWN). The result equals analysis_run(d) field by field. Never NULL; the caller
 * frees it with analysis_free; prev is taken. */
kp_analysis *analysis_update_rows(kp_analysis *prev, const kp_design *d, kp_rowop op);
/* analysis_update after an edit of element `row` of list t alone that kept its name
 * (edit_changes_row_only: an entity's, an attribute's, an index's cell): d is the design prev
 * analysed with that element changed and nothing else, as the caller knows (a wrong row gives a
 * wrong analysis). The analysis' own copy of the design takes that element alone (no copy of the
 * design is made; the old element is kept with the analysis) and what the analysis keeps is
 * patched: only the patterns that read the element's entities or their neighbours, name the
 * attribute, or Scan are resolved again (prev is returned). It is a whole analysis when the
 * change reaches the whole design (an index's key attributes), when more than half the patterns
 * read what changed, or when the arena holds too many old strings. When prev was not made by
 * analysis_update, d's lists do not fit it, or t is the patterns' or the decisions' list, it is
 * analysis_update(prev, d, ANALYSIS_UNKNOWN). The result equals analysis_run(d) field by field.
 * Never NULL; the caller frees it with analysis_free; prev is taken. */
kp_analysis *analysis_update_row(kp_analysis *prev, const kp_design *d, edit_table t, size_t row);
/* analysis_update after a step of the attributes' list: d is the design prev analysed with op
 * applied to its attributes (an inserted one is d's at op.row) and nothing else changed, as the
 * caller knows. When nothing reads the attribute added or removed (no entity carries it, no
 * pattern names it, no key is it) only the attributes' positions change: what the analysis keeps
 * by position is made again (the resolver's context, heat with every pattern's loads kept, the
 * stages' maps of names) and no pattern is resolved again (prev is returned). Otherwise, and for a
 * move or an op that does not fit, it is analysis_update(prev, d, ANALYSIS_UNKNOWN). The result
 * equals analysis_run(d) field by field. Never NULL; the caller frees it; prev is taken. */
kp_analysis *analysis_update_attr_rows(kp_analysis *prev, const kp_design *d, kp_rowop op);

/* analysis_update after a step of the indexes' list: d is the design prev analysed with op applied
 * to its indexes (an inserted one is d's at op.row), its entities and its rest possibly changed
 * too (the templates and signals a deleted index leaves without a key, left out of a valid rest,
 * or put back), its patterns not, as the caller knows. The analysis' own copy of the design takes
 * d's keys (design_keys_swap: the step, the entities) and rest (no copy of the whole design is
 * made) and is analysed whole: any pattern may read an index. When prev was not made by analysis_update or op does not
 * fit, it is analysis_update(prev, d, ANALYSIS_UNKNOWN). The result equals analysis_run(d) field
 * by field. Never NULL; the caller frees it; prev is taken. */
kp_analysis *analysis_update_index_rows(kp_analysis *prev, const kp_design *d, kp_rowop op);

/* analysis_update after a key attribute of the table or of index `row` (t: EDIT_SETTINGS or
 * EDIT_INDEXES) was renamed (edit_changes_keys_only): d is the design prev analysed with its keys
 * changed (design_keys_swap: that slot, the templates and sparse rules keyed on it) and nothing
 * else, as the caller knows. An index's is patched in place when the patterns that read what it
 * renames are not most of the design (those naming an entity on it or keyed on either name, and
 * the Scans, resolved again; the resolver's context and heat made anew); else the analysis' own
 * copy takes d's keys (no copy of the design is made) and is analysed whole. When prev was not
 * made by analysis_update, it is analysis_update(prev, d, ANALYSIS_UNKNOWN). The result equals
 * analysis_run(d) field by field. Never NULL; the caller frees it; prev is taken. */
kp_analysis *analysis_update_keys(kp_analysis *prev, const kp_design *d, edit_table t, size_t row);

/* analysis_update after entity epos was renamed (edit_renames_entity): d is the design prev
 * analysed with that entity's name changed and the patterns that named it naming it by the new
 * one (edit_set's rename), nothing else, as the caller knows. The analysis' copy of the design
 * takes the entity and those patterns alone; what the analysis keeps by name is made again (the
 * resolver's context, the checklist's map of entities; heat, which knows entities by position,
 * stays) and resolved again are the patterns naming it, those whose results read its items,
 * and the Scans (prev is returned). It is a whole analysis when those are more than half the
 * design, or when prev was not made by analysis_update or d's lists do not fit it. The result
 * equals analysis_run(d) field by field. Never NULL; the caller frees it; prev is taken. */
kp_analysis *analysis_update_entity_name(kp_analysis *prev, const kp_design *d, size_t epos);

/* analysis_update after pattern `row`'s id was changed (edit_renames_pattern): d is the design
 * prev analysed with that pattern's id changed, the covered_by naming it (by the old id) and the
 * decisions' lists of patterns following it, nothing else, as the caller knows. Resolved again
 * are that pattern and those covered_by either id; the decisions are taken as after an edit of
 * the rest (ANALYSIS_REST); heat, cost, checklist and findings are computed from the results (prev
 * is returned). When prev was not made by analysis_update or d's patterns do not fit it, it is
 * analysis_update(prev, d, ANALYSIS_UNKNOWN). The result equals analysis_run(d) field by field.
 * Never NULL; the caller frees it; prev is taken. */
kp_analysis *analysis_update_pattern_id(kp_analysis *prev, const kp_design *d, size_t row);

/* The value of a signal metric (pattern.<id>.rate|rcu|requests|latency,
 * entity.<name>.count|size|writes, index.<name>.items|wcu|hot_share, table.hot_share,
 * cost.total, cost.<line>). false when the metric names nothing known. */
bool analysis_metric(const kp_analysis *a, const char *metric, double *out);

/* Finding catalogue: every stable code with its title and fix, in a fixed order. Title and fix
 * are in English, marked for the catalog: _(title) gives them in the reader's language (a
 * finding's fix is translated already). */
typedef struct kp_finding_info {
    const char *code;
    const char *title;
    const char *fix;
} kp_finding_info;
const kp_finding_info *analysis_finding_catalogue(size_t *n);

#endif
