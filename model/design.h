/* design.h - the design: table, indexes, attributes, entities, patterns, alerts, pricing and
 * decisions. Plain data, owned by one kp_design and released with
 * design_free(). Every element remembers where it came from (kp_loc) so that validation and the
 * resolver can name the place of a problem.
 *
 * Conventions:
 * - Optional numbers use NAN for "not given" (test with isnan); counts use -1 for unset.
 * - Names that refer to other things are kp_str (text + place), so that an unknown reference
 *   can be reported at the reference.
 * - Arrays are (pointer, count) pairs; the order is the file's order and is preserved.
 * - Every member is described once in the field tables of fields.h (its key, kind, editor cell),
 *   which the file format, the editor, the CSV table, clone/equal/free and the diff loop over: a
 *   new member gets its line there. */
#ifndef KP_DESIGN_H
#define KP_DESIGN_H

#include "template.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>

#define KP_FORMAT_VERSION 1

/* The longest value (a name, a template, a text) a design may hold: 64 KiB, in the file and in a
 * cell. Longer values are refused at their place. (Names and keys have DynamoDB's own, shorter
 * limits, checked by validation.) */
#define KP_MAX_VALUE 65536

typedef struct kp_str {
    char *s;
    kp_loc loc;
} kp_str;

typedef enum kp_tristate { KP_UNSET = -1, KP_FALSE = 0, KP_TRUE = 1 } kp_tristate;

/* ---- table --------------------------------------------------------------------------- */
/* Each enum of the design is an X-macro list: value, its word in files and cells, and the other
 * words a spreadsheet may use for it (NULL = none). fields.h turns the lists into word tables. */
#define KP_ENUM_ITEM(e, word, alias) e,

#define KP_BILLING_WORDS(X) \
    X(KP_BILLING_ON_DEMAND, "on-demand", NULL) X(KP_BILLING_PROVISIONED, "provisioned", NULL)
typedef enum kp_billing { KP_BILLING_WORDS(KP_ENUM_ITEM) } kp_billing;

typedef struct kp_table {
    char *name;
    kp_str pk;                 /* attribute name of the partition key (required) */
    kp_str sk;                 /* sort key attribute name, s == NULL when the table has none */
    kp_billing billing;        /* default on-demand */
    kp_tristate streams;       /* explicit true/false wanted by the cost checklist */
    kp_tristate pitr;          /* continuous backups */
    double target_utilization; /* provisioned autoscaling target, NAN = default 0.7 */
    kp_str *replicas;          /* global table: the other regions the table is replicated to */
    size_t nreplicas;
    kp_loc loc;
} kp_table;

/* ---- indexes ------------------------------------------------------------------------- */
#define KP_INDEX_KIND_WORDS(X) X(KP_GSI, "gsi", NULL) X(KP_LSI, "lsi", NULL)
typedef enum kp_index_kind { KP_INDEX_KIND_WORDS(KP_ENUM_ITEM) } kp_index_kind;
#define KP_PROJECTION_WORDS(X) \
    X(KP_PROJ_ALL, "all", NULL) X(KP_PROJ_KEYS, "keys", NULL) X(KP_PROJ_INCLUDE, "include", NULL)
typedef enum kp_projection { KP_PROJECTION_WORDS(KP_ENUM_ITEM) } kp_projection;

typedef struct kp_index {
    char *name;
    kp_index_kind kind;       /* default gsi */
    kp_str pk;                /* item attribute the index is partitioned on */
    kp_str sk;                /* s == NULL when none */
    kp_projection projection; /* default all (DynamoDB's default) */
    kp_str *include;          /* projection: include */
    size_t ninclude;
    char *why; /* free text: why the index exists (decision record) */
    kp_loc loc;
} kp_index;

/* ---- attributes ---------------------------------------------------------------------- */
/* string is the default; date is ISO 8601 text (sorts chronologically); shard is a
 * write-sharding suffix 0..count-1 */
/* clang-format off */
#define KP_ATTR_TYPE_WORDS(X)         \
    X(KP_ATTR_STRING, "string", NULL) \
    X(KP_ATTR_NUMBER, "number", NULL) \
    X(KP_ATTR_DATE, "date", NULL)     \
    X(KP_ATTR_ENUM, "enum", NULL)     \
    X(KP_ATTR_SHARD, "shard", NULL)   \
    X(KP_ATTR_BOOL, "bool", NULL)
/* clang-format on */
typedef enum kp_attr_type { KP_ATTR_TYPE_WORDS(KP_ENUM_ITEM) } kp_attr_type;

/* What a string placeholder's values may hold. no-separator (the default): never a character
 * a template puts right next to the placeholder ('#' in USER#{userId}, '-' in {stage}-{title});
 * any: every character (ids that really contain a separator). */
#define KP_CHARS_WORDS(X) X(KP_CHARS_NO_SEPARATOR, "no-separator", NULL) X(KP_CHARS_ANY, "any", NULL)
typedef enum kp_chars { KP_CHARS_WORDS(KP_ENUM_ITEM) } kp_chars;

typedef struct kp_enum_value {
    char *name;
    double share;       /* share of the items with this value; shares sum to 1 */
    double write_share; /* share of the writes that land on this value; NAN = same as share */
    kp_loc loc;
} kp_enum_value;

typedef struct kp_attr {
    char *name;
    kp_attr_type type;
    double distinct;       /* number of distinct values; NAN = unknown (enum: count of values;
                           shard: count) */
    double zipf;           /* zipf exponent s of "skew: zipf:s"; 0 = uniform */
    kp_enum_value *values; /* enum */
    size_t nvalues;
    char *format;     /* number format inside templates ("03"); NULL = none */
    int shard_count;  /* shard: count of suffixes; -1 unset */
    double write_hot; /* share of the writes that land on the single hottest value, where it
                           differs from the item distribution (a date written "today": 1.0);
                           NAN = follow the item distribution */
    double size;      /* average bytes of the value, NAN = unknown (estimates use 8) */
    kp_chars chars;   /* string values: may they hold the templates' separators (default no) */
    kp_loc loc;
} kp_attr;

/* ---- entities ------------------------------------------------------------------------ */
typedef struct kp_keytpl {
    kp_str attr; /* key attribute the template fills (PK, SK, GSI1PK, ...) */
    tpl tpl;     /* parsed template */
    kp_loc loc;  /* of the template value */
} kp_keytpl;

#define KP_SPARSE_KIND_WORDS(X) X(KP_SPARSE_COND, "condition", NULL) X(KP_SPARSE_SHARE, "share", NULL)
typedef enum kp_sparse_kind { KP_SPARSE_KIND_WORDS(KP_ENUM_ITEM) } kp_sparse_kind;
#define KP_COND_OP_WORDS(X) X(KP_COND_EQ, "=", NULL) X(KP_COND_NE, "!=", NULL) X(KP_COND_IN, "in", NULL)
typedef enum kp_cond_op { KP_COND_OP_WORDS(KP_ENUM_ITEM) } kp_cond_op;

/* The key attribute `attr` exists only on some items: those meeting the condition
 * ("status = pending-shipment", "status != delivered", "status in [paid, pending-shipment]")
 * or a share of them (0.05). */
typedef struct kp_sparse {
    kp_str attr;
    kp_sparse_kind kind;
    kp_str cond_attr; /* COND: the attribute tested */
    kp_cond_op op;
    kp_str *values; /* COND: one value for = and !=, several for in */
    size_t nvalues;
    double share; /* SHARE: the share of items carrying attr */
    char *src;    /* the condition as written (for saving) */
    kp_loc loc;
} kp_sparse;

typedef struct kp_entity {
    char *name;
    double count;      /* items */
    double size;       /* average item bytes */
    double writes;     /* puts/updates per second at peak; NAN = only from write patterns */
    double writes_avg; /* average writes per second; NAN = same as writes */
    kp_str *attrs;     /* domain attributes the items carry */
    size_t nattrs;
    kp_keytpl *keys; /* templates of the item's key attributes */
    size_t nkeys;
    kp_sparse *sparse;
    size_t nsparse;
    kp_str *together; /* groups of attributes set on the same items: "GSI1PK+GSI1SK" (syn_group);
                         a group of one sets its attribute on its own */
    size_t ntogether;
    char *description;
    kp_loc loc;
} kp_entity;

/* ---- patterns ------------------------------------------------------------------------ */
#define KP_PATTERN_KIND_WORDS(X) X(KP_READ, "read", "lectura") X(KP_WRITE, "write", "escritura")
typedef enum kp_pattern_kind { KP_PATTERN_KIND_WORDS(KP_ENUM_ITEM) } kp_pattern_kind;
/* clang-format off */
#define KP_CONSISTENCY_WORDS(X)                           \
    X(KP_EVENTUAL, "eventual", NULL)                      \
    X(KP_STRONG, "strong", "fuerte")                      \
    X(KP_TRANSACTIONAL, "transactional", "transaccional")
/* clang-format on */
typedef enum kp_consistency { KP_CONSISTENCY_WORDS(KP_ENUM_ITEM) } kp_consistency;
/* clang-format off */
#define KP_WRITE_OP_WORDS(X)            \
    X(KP_OP_PUT, "put", NULL)           \
    X(KP_OP_UPDATE, "update", NULL)     \
    X(KP_OP_DELETE, "delete", NULL)     \
    X(KP_OP_TRANSACT, "transact", NULL)
/* clang-format on */
typedef enum kp_write_op { KP_WRITE_OP_WORDS(KP_ENUM_ITEM) } kp_write_op;
/* none has no word: the key is left out */
/* clang-format off */
#define KP_NEEDS_WORDS(X)                    \
    X(KP_NEEDS_NONE, NULL, NULL)             \
    X(KP_NEEDS_SEARCH, "search", NULL)       \
    X(KP_NEEDS_AGGREGATE, "aggregate", NULL) \
    X(KP_NEEDS_ADHOC, "adhoc", NULL)
/* clang-format on */
typedef enum kp_needs { KP_NEEDS_WORDS(KP_ENUM_ITEM) } kp_needs;

/* One element of `by`: "customerId", or "status=pending-shipment" (a fixed value). */
typedef struct kp_by {
    kp_str attr;
    char *value; /* NULL when the caller supplies it */
} kp_by;

/* One element of `join`: attribute `to` of the next request comes from `from` of the
 * previous result ({ username: followingUsername }). */
typedef struct kp_join {
    kp_str to;
    kp_str from;
} kp_join;

typedef struct kp_pattern {
    char *id; /* unique; numbers are kept as their text ("1") */
    char *name;
    kp_pattern_kind kind; /* default read */
    kp_str *entities;     /* `entity: X` gives one; `entities: [...]` several */
    size_t nentities;
    bool multi_form; /* written as `entities:` (several kinds in one screen) */
    kp_by *by;
    size_t nby;
    double rate;    /* requests per second at peak; NAN = not given */
    double avg;     /* average requests per second; NAN = same as rate */
    double latency; /* target, ms; NAN = not given */
    kp_consistency consistency;
    bool consistency_given;
    char *why;
    kp_str order; /* attribute of `order: a desc`; s == NULL when none */
    bool order_desc;
    double limit;   /* NAN = none */
    kp_str range;   /* attribute of a between / < / > condition */
    kp_str *filter; /* FilterExpression attributes */
    size_t nfilter;
    kp_join *join;
    size_t njoin;
    kp_str covered_by; /* pattern id */
    kp_needs needs;
    char *served_by; /* served outside DynamoDB */
    kp_write_op op;  /* writes; default put */
    double items;    /* writes: items per request; reads: items read per call; NAN */
    kp_str *changes; /* attributes an update changes */
    size_t nchanges;
    kp_str *returns; /* attributes a read returns; none = the whole item */
    size_t nreturns;
    kp_loc loc;
} kp_pattern;

/* ---- alerts, pricing ------------------------------------------------------------------ */
typedef struct kp_alert {
    char *name;
    char *metric;
    char *when;
    kp_loc loc;
} kp_alert;

/* Every figure NAN = take the base table's (built-in "aws-us-east-1"). */
typedef struct kp_pricing {
    char *base;     /* "aws-us-east-1" (the only built-in table); NULL = default */
    char *currency; /* NULL = "USD" */
    double read_per_million;
    double write_per_million;
    double index_write_per_million; /* NAN = write_per_million */
    double rcu_hour;
    double wcu_hour;
    double storage_gb_month;
    double backup_gb_month; /* continuous backups (PITR) */
    double stream_read_per_100k;
    double replicated_write_per_million; /* global tables, on-demand; NAN = write_per_million */
    double replicated_wcu_hour;          /* global tables, provisioned; NAN = wcu_hour */
    double transfer_gb;                  /* cross-region data transfer, per GB */
    bool given;                          /* a pricing: block was present */
    kp_loc loc;
} kp_pricing;

/* ---- decisions ------------------------------------------------------------------------ */
/* accepted is the default */
/* clang-format off */
#define KP_DECISION_STATUS_WORDS(X)          \
    X(KP_DEC_PROPOSED, "proposed", NULL)     \
    X(KP_DEC_ACCEPTED, "accepted", NULL)     \
    X(KP_DEC_REOPENED, "reopened", NULL)     \
    X(KP_DEC_SUPERSEDED, "superseded", NULL)
/* clang-format on */
typedef enum kp_decision_status { KP_DECISION_STATUS_WORDS(KP_ENUM_ITEM) } kp_decision_status;

typedef struct kp_alternative {
    char *option;
    char *why_not;
    kp_loc loc;
} kp_alternative;

/* clang-format off */
#define KP_CMP_WORDS(X)      \
    X(KP_CMP_GT, ">", NULL)  \
    X(KP_CMP_GE, ">=", NULL) \
    X(KP_CMP_LT, "<", NULL)  \
    X(KP_CMP_LE, "<=", NULL) \
    X(KP_CMP_EQ, "==", NULL) \
    X(KP_CMP_NE, "!=", NULL)
/* clang-format on */
typedef enum kp_cmp { KP_CMP_WORDS(KP_ENUM_ITEM) } kp_cmp;

/* "pattern.5.rate > 50" */
typedef struct kp_signal {
    char *src;    /* as written */
    char *metric; /* "pattern.5.rate" */
    kp_cmp cmp;
    double value;
    kp_loc loc;
} kp_signal;

typedef struct kp_decision {
    char *id;
    char *title;
    kp_decision_status status;
    kp_str *patterns; /* pattern ids */
    size_t npatterns;
    char *context;
    char *decision;
    kp_alternative *alternatives;
    size_t nalternatives;
    char **assumptions;
    size_t nassumptions;
    char *failure_test;
    char *rollback;
    char *limitations;
    kp_signal *signals;
    size_t nsignals;
    kp_loc loc;
} kp_decision;

/* ---- the design ------------------------------------------------------------------------ */
typedef struct kp_design {
    int version; /* the `keyplan:` format version (1) */
    char *name;
    char *description;
    kp_table table;
    kp_index *indexes;
    size_t nindexes;
    kp_attr *attrs;
    size_t nattrs;
    kp_entity *entities;
    size_t nentities;
    kp_pattern *patterns;
    size_t npatterns;
    kp_alert *alerts;
    size_t nalerts;
    kp_pricing pricing;
    kp_decision *decisions;
    size_t ndecisions;
} kp_design;

/* A new empty design with every default set (version 1, on-demand, streams/pitr unset, NAN for
 * optional figures). Never NULL. Release with design_free. */
kp_design *design_new(void);
void design_free(kp_design *d);
/* Deep copy. Never NULL. */
kp_design *design_clone(const kp_design *d);
/* Deep structural equality (places kp_loc are ignored). */
bool design_equal(const kp_design *a, const kp_design *b);

/* A design's model is what resolving its patterns, their capacity and heat read: the table's
 * keys, the indexes, attributes, entities and patterns. The rest (the version, name and
 * description, the table's name and settings, alerts, pricing and decisions) only the cost, the
 * checklist, the findings and the checks of those parts read: an edit of it alone leaves every
 * pattern's resolution and diagnostics as they were (validate_rest_edit, analysis_update with
 * ANALYSIS_REST). */
/* Whether a and b differ in their rest alone (or not at all). */
bool design_same_model(const kp_design *a, const kp_design *b);
/* Makes to's rest a copy of from's (to's own released); to's model is untouched. */
void design_rest_copy(kp_design *to, const kp_design *from);
/* The design's keys: the table's key attributes, the indexes and the entities (what a key
 * attribute renamed changes: edit_changes_keys_only). design_keys_swap exchanges a's and b's;
 * design_keys_copy makes a design (caller frees) holding a copy of d's keys and nothing else. */
void design_keys_swap(kp_design *a, kp_design *b);
kp_design *design_keys_copy(const kp_design *d);
/* Makes to's keys a copy of from's (to's own released); the rest of to is untouched. */
void design_keys_copy_to(kp_design *to, const kp_design *from);
/* Exchanges the rests of a and b (each keeps its model). */
void design_rest_swap(kp_design *a, kp_design *b);
/* A design holding d's rest alone, its model empty, d's rest moved into it (d's rest is then
 * empty). Never NULL; release with design_free. */
kp_design *design_rest_take(kp_design *d);

/* A structural step of one list of a design (the patterns, as the workbench's row commands
 * make them): an element inserted at `row` (its position afterwards), removed from `row` (its
 * position before), or moved from `row` to `to` (the others between shift by one). What the
 * incremental checks and analysis (validate_rows_edit, analysis_update_rows) and the editor's
 * caches are told instead of comparing the lists. */
typedef enum kp_rowop_kind { KP_ROW_INSERT, KP_ROW_REMOVE, KP_ROW_MOVE } kp_rowop_kind;
typedef struct kp_rowop {
    kp_rowop_kind kind;
    size_t row;
    size_t to; /* KP_ROW_MOVE only */
} kp_rowop;
/* Whether op fits a list of n elements (before the step): row < n (<= n to insert), to < n. */
bool kp_rowop_fits(kp_rowop op, size_t n);
/* The list's length after op on n elements. */
size_t kp_rowop_count(kp_rowop op, size_t n);
/* Applies op to the array v of n elements (before the step) of `size` bytes each, by moving
 * bytes only: an insertion needs room for n + 1 and leaves the old bytes in the new slot (the
 * caller fills it); a removal drops the element's bytes (the caller released what it held). op
 * must fit n. */
void kp_rowop_shift(void *v, size_t n, size_t size, kp_rowop op);
/* The step that takes op back: a removal for an insertion, an insertion at the same row for a
 * removal, the move back for a move. */
kp_rowop kp_rowop_inverse(kp_rowop op);
/* Makes op (fitting the list) on the list *v of *n elements of `size` bytes, growing or
 * shrinking it: an insertion copies the element *in there (taken: its contents are the list's),
 * a removal copies the element taken out to *out (the caller's then), a move moves. An emptied
 * list is freed (NULL). */
void kp_rowop_apply(void **v, size_t *n, size_t size, kp_rowop op, const void *in, void *out);
/* Makes op (fitting d's patterns) on d's pattern list: an insertion puts *in there (taken: its
 * contents now d's), a removal hands the pattern taken out to *out (the caller frees it or keeps
 * it), a move moves. An emptied list is freed (NULL). */
void design_patterns_step(kp_design *d, kp_rowop op, const kp_pattern *in, kp_pattern *out);
/* Is `to` `from` with one attribute inserted or removed and nothing else changed (an undo or a
 * redo of such a step, found by comparing)? Then *op is that step on from's attributes. */
bool design_attr_step(const kp_design *from, const kp_design *to, kp_rowop *op);

/* Zero-initialised elements with their defaults, for builders (the YAML loader, the TUI). */
void table_init(kp_table *t);
void index_init(kp_index *x);
void attr_init(kp_attr *a);
void entity_init(kp_entity *e);
void pattern_init(kp_pattern *p);
void pricing_init(kp_pricing *p);
void decision_init(kp_decision *d);
void index_free(kp_index *x);
void attr_free(kp_attr *a);
void entity_free(kp_entity *e);
void pattern_free(kp_pattern *p);
void alert_free(kp_alert *a);
void decision_free(kp_decision *d);
void str_free(kp_str *s);
/* A copy of list v of n strings (texts copied, places kept), NULL when n is 0; and its release. */
kp_str *strs_clone(const kp_str *v, size_t n);
void strs_free(kp_str *v, size_t n);
kp_str str_make(const char *s, kp_loc loc); /* copies s */

/* Look-ups by name; NULL / -1 when absent. */
const kp_attr *design_attr(const kp_design *d, const char *name);
const kp_entity *design_entity(const kp_design *d, const char *name);
const kp_pattern *design_pattern(const kp_design *d, const char *id);
const kp_index *design_index(const kp_design *d, const char *name);
ptrdiff_t design_entity_pos(const kp_design *d, const char *name);
ptrdiff_t design_pattern_pos(const kp_design *d, const char *id);
ptrdiff_t design_index_pos(const kp_design *d, const char *name);

/* The entity's template for key attribute `attr`, or NULL when its items do not carry it.
 * A plain domain attribute listed in the entity's `attributes` counts as carrying itself: for
 * such a name the function returns NULL but entity_carries() is true. */
const kp_keytpl *entity_key(const kp_entity *e, const char *attr);
/* true when the entity's items carry attribute `attr` (as a key template or a domain attribute). */
bool entity_carries(const kp_entity *e, const char *attr);
/* true when the entity carries `attr` as a domain attribute or a placeholder of any template. */
bool entity_knows(const kp_entity *e, const char *attr);
/* The sparse rule for attribute `attr`, or NULL. */
const kp_sparse *entity_sparse(const kp_entity *e, const char *attr);

const char *kp_billing_name(kp_billing b);                 /* "on-demand" */
const char *kp_index_kind_name(kp_index_kind k);           /* "gsi" */
const char *kp_projection_name(kp_projection p);           /* "keys" */
const char *kp_attr_type_name(kp_attr_type t);             /* "string" */
const char *kp_consistency_name(kp_consistency c);         /* "eventual" */
const char *kp_write_op_name(kp_write_op o);               /* "put" */
const char *kp_needs_name(kp_needs n);                     /* "search"; NULL for none */
const char *kp_decision_status_name(kp_decision_status s); /* "accepted" */
const char *kp_cmp_name(kp_cmp c);                         /* ">" */

/* Parses a signal "metric op number" (syn_signal_parse) into *out (src copied; the caller
 * frees out->src and out->metric). KP_SIGNAL with *err (caller frees; err may be NULL) and
 * *out empty on a malformed signal. */
kp_status signal_parse(const char *src, kp_signal *out, char **err);

#endif
