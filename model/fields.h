/* fields.h - every field of every record of a design, said once (tig's OPTION_INFO, redis's
 * static_configs[]). One X-macro list per record gives, for each field:
 *
 *   X(ID, key, member, kind, flags, cell, hint)
 *
 *   ID      the field's name in the enum of its record (FP_RATE for the pattern's rate)
 *   key     its key in the design file (YAML); also its column name in the editor and the CSV
 *   member  the struct member (offsetof)
 *   kind    how it is stored: K_TEXT (char *), K_REF (kp_str, a name that refers to something),
 *           K_NUM(rule) (double, NAN = not given; rule = what the file accepts, see kp_numrule),
 *           K_INT(rule) (int, -1 = not given), K_ENUM(words) (an enum with its kp_words_* table),
 *           K_TRI (kp_tristate), K_FLAG (bool state with no key of its own: qualifies the field
 *           before it), K_REFS(count) (kp_str * + size_t count), K_TEXTS(count) (char ** + count),
 *           K_TPL (a key template), K_REC(record) (an embedded record), K_RECS(record, count)
 *           (an array of records), K_VIRTUAL (a second key of the field before it: no storage)
 *   flags   KP_F_* below
 *   cell    its column among the editor's columns of the record (the settings rows for the
 *           design, table and pricing), -1 when the editor does not show it
 *   hint    the editor's one-line hint of what the cell accepts
 *
 * YAML load and canonical save, the editor's cells, the CSV columns, clone/equal/free and the
 * designer's diff loop over these tables: plain kinds are handled by their kind, fields flagged
 * KP_F_CUSTOM have a syntax of their own (model/syntax.h) that each consumer handles by ID.
 * Adding a field is one line here and a member in design.h; tests/test_fields.c fails until
 * every consumer carries it. */
#ifndef KP_FIELDS_H
#define KP_FIELDS_H

#include "design.h"
#include "i18n.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- enum words ------------------------------------------------------------------------ */

/* The words of one enum of design.h, by value (from its KP_*_WORDS list). */
typedef struct kp_words {
    const char *const *word;  /* NULL for a value without a word (needs: none) */
    const char *const *alias; /* another word a spreadsheet may use, or NULL */
    int n;
} kp_words;

extern const kp_words kp_words_billing, kp_words_index_kind, kp_words_projection, kp_words_attr_type,
    kp_words_sparse_kind, kp_words_cond_op, kp_words_pattern_kind, kp_words_consistency, kp_words_write_op,
    kp_words_needs, kp_words_decision_status, kp_words_cmp, kp_words_chars;

/* The word of value v; NULL when v is out of range or has no word. */
const char *kp_word(const kp_words *w, int v);
/* The value whose word is exactly s; -1 when none (or s is NULL). */
int kp_word_find(const kp_words *w, const char *s);
/* The value whose word or alias is s, ignoring ASCII case (spreadsheets); -1 when none. */
int kp_word_find_ci(const kp_words *w, const char *s);
/* The words with a word, in value order, into out (which holds KP_WORDS_MAX pointers); returns
 * how many. Every enum has at most KP_WORDS_MAX values (fields.c checks it). */
#define KP_WORDS_MAX 16
size_t kp_words_all(const kp_words *w, const char **out);
/* Appends the words to b: "a, b or c" with sep ", " and last " or ". */
void kp_words_join(const kp_words *w, sbuf *b, const char *sep, const char *last);

/* ---- fields and records ---------------------------------------------------------------- */

typedef enum kp_fkind {
    KF_TEXT,
    KF_REF,
    KF_NUM,
    KF_INT,
    KF_ENUM,
    KF_TRI,
    KF_FLAG,
    KF_REFS,
    KF_TEXTS,
    KF_TPL,
    KF_REC,
    KF_RECS,
    KF_VIRTUAL,
} kp_fkind;

/* What a number must be in the design file (the loader's message says it). */
typedef enum kp_numrule {
    KP_NUM_ANY,
    KP_NUM_NONNEG,  /* >= 0 */
    KP_NUM_SHARE,   /* 0..1 */
    KP_NUM_GE1,     /* >= 1 */
    KP_NUM_INT_POS, /* a whole number 1..1000000 */
    KP_NUM_UTIL,    /* 0..1 in the file, 0.01..1 for validation (autoscaling target) */
} kp_numrule;

enum {
    KP_F_LABEL = 1 << 0,        /* names the element in messages; read before the other keys */
    KP_F_HIDDEN = 1 << 1,       /* no key in the file (the attribute's name is its map key) */
    KP_F_CUSTOM = 1 << 2,       /* a syntax of its own: each consumer handles it by ID */
    KP_F_ID = 1 << 3,           /* saved quoted when it would read as null ("", "~") */
    KP_F_QUOTED = 1 << 4,       /* saved double-quoted */
    KP_F_OMIT_DEFAULT = 1 << 5, /* an enum left out of the file at its value 0 */
    KP_F_OMIT_ZERO = 1 << 6,    /* a number left out of the file when 0 */
    KP_F_GIVEN = 1 << 7,        /* an enum saved only when the K_FLAG after it is set; reading sets it */
    KP_F_NOEQ = 1 << 8,         /* derived (the text as written): not compared by equality */
};

struct kp_record;

typedef struct kp_field {
    const char *key;
    kp_fkind kind;
    unsigned flags;
    size_t off;       /* of the member */
    size_t count_off; /* K_REFS, K_TEXTS, K_RECS: of the size_t count */
    kp_numrule num;
    const kp_words *words;       /* K_ENUM */
    const struct kp_record *sub; /* K_REC, K_RECS */
    int cell;
    const char *hint;
} kp_field;

typedef struct kp_record {
    const char *name;  /* "pattern" */
    size_t size;       /* of the struct */
    ptrdiff_t loc_off; /* of its kp_loc (where it starts in the file), -1 when it has none */
    const kp_field *f;
    size_t n;
} kp_record;

/* The place of the record at r, or NULL when its kind has none. */
static inline kp_loc *kp_rloc(const kp_record *rec, void *r)
{
    return rec->loc_off < 0 ? NULL : (kp_loc *)((char *)r + rec->loc_off);
}

/* The unit of a number field, by its key: 'r' requests a second (rate, avg, writes, writes_avg),
 * 'l' milliseconds (latency), 0 none. A figure typed with its unit ("1/day", "5 min") reads as
 * that unit by syn_figure. */
char kp_field_unit(const kp_field *f);

/* The member of field f in the record at r. */
static inline void *kp_fptr(void *r, const kp_field *f) { return (char *)r + f->off; }
static inline const void *kp_fcptr(const void *r, const kp_field *f) { return (const char *)r + f->off; }
static inline size_t kp_fcount(const void *r, const kp_field *f)
{
    return *(const size_t *)((const char *)r + f->count_off);
}

/* clang-format off */
#define KP_DESIGN_FIELDS(X)                                                         \
    X(VERSION, "keyplan", version, K_INT(KP_NUM_ANY), KP_F_CUSTOM, -1, NULL)        \
    X(NAME, "name", name, K_TEXT, 0, 0, N_("the design's name"))                        \
    X(DESCRIPTION, "description", description, K_TEXT, 0, 1, N_("free text"))           \
    X(TABLE, "table", table, K_REC(table), 0, -1, NULL)                             \
    X(INDEXES, "indexes", indexes, K_RECS(index, nindexes), 0, -1, NULL)            \
    X(ATTRIBUTES, "attributes", attrs, K_RECS(attr, nattrs), KP_F_CUSTOM, -1, NULL) \
    X(ENTITIES, "entities", entities, K_RECS(entity, nentities), 0, -1, NULL)       \
    X(PATTERNS, "patterns", patterns, K_RECS(pattern, npatterns), 0, -1, NULL)      \
    X(ALERTS, "alerts", alerts, K_RECS(alert, nalerts), 0, -1, NULL)                \
    X(PRICING, "pricing", pricing, K_REC(pricing), 0, -1, NULL)                     \
    X(DECISIONS, "decisions", decisions, K_RECS(decision, ndecisions), 0, -1, NULL)
/* clang-format on */

/* clang-format off */
#define KP_TABLE_FIELDS(X)                                                                                                                          \
    X(NAME, "name", name, K_TEXT, 0, 2, N_("the DynamoDB table's name"))                                                                                \
    X(PK, "pk", pk, K_REF, 0, 3, N_("attribute name of the table's partition key"))                                                                     \
    X(SK, "sk", sk, K_REF, 0, 4, N_("attribute name of the table's sort key (empty = none)"))                                                           \
    X(BILLING, "billing", billing, K_ENUM(billing), 0, 5, "on-demand | provisioned")                                                                \
    X(STREAMS, "streams", streams, K_TRI, 0, 6, N_("true | false (the cost checklist wants it said)"))                                                  \
    X(PITR, "pitr", pitr, K_TRI, 0, 7, N_("true | false: continuous backups"))                                                                          \
    X(TARGET_UTILIZATION, "target_utilization", target_utilization, K_NUM(KP_NUM_UTIL), 0, 8, N_("provisioned autoscaling target, 0..1 (empty = 0.7)")) \
    X(REPLICAS, "replicas", replicas, K_REFS(nreplicas), 0, 9, N_("global table: other regions it is replicated to: eu-west-1, ..."))
/* clang-format on */

/* clang-format off */
#define KP_INDEX_FIELDS(X)                                                                           \
    X(NAME, "name", name, K_TEXT, KP_F_LABEL, 0, N_("unique index name"))                                \
    X(TYPE, "type", kind, K_ENUM(index_kind), KP_F_OMIT_DEFAULT, 1, "gsi | lsi")                     \
    X(PK, "pk", pk, K_REF, 0, 2, N_("item attribute the index is partitioned on"))                       \
    X(SK, "sk", sk, K_REF, 0, 3, N_("item attribute it sorts on (empty = none)"))                        \
    X(PROJECTION, "projection", projection, K_ENUM(projection), 0, 4, "keys | include | all")        \
    X(INCLUDE, "include", include, K_REFS(ninclude), 0, 5, N_("projected attributes for include: a, b")) \
    X(WHY, "why", why, K_TEXT, 0, 6, N_("free text: why the index exists"))
/* clang-format on */

/* clang-format off */
#define KP_ENUM_VALUE_FIELDS(X)                                                  \
    X(NAME, "name", name, K_TEXT, KP_F_LABEL, -1, NULL)                          \
    X(SHARE, "share", share, K_NUM(KP_NUM_SHARE), 0, -1, NULL)                   \
    X(WRITE_SHARE, "write_share", write_share, K_NUM(KP_NUM_SHARE), 0, -1, NULL)
/* clang-format on */

/* clang-format off */
#define KP_ATTR_FIELDS(X)                                                                                                   \
    X(NAME, "name", name, K_TEXT, KP_F_LABEL | KP_F_HIDDEN, 0, N_("unique attribute name"))                                     \
    X(TYPE, "type", type, K_ENUM(attr_type), KP_F_OMIT_DEFAULT, 1, "string | number | date | enum | shard | bool")          \
    X(DISTINCT, "distinct", distinct, K_NUM(KP_NUM_GE1), 0, 2, N_("number of distinct values (empty = unknown)"))               \
    X(SKEW, "skew", zipf, K_NUM(KP_NUM_NONNEG), KP_F_CUSTOM, 3, N_("zipf:S (e.g. zipf:1.1); empty = uniform"))                  \
    X(VALUES, "values", values, K_RECS(enum_value, nvalues), KP_F_CUSTOM, 4, N_("enum shares: name: share[/write share], ...")) \
    X(WRITE_SHARES, "write_shares", values, K_VIRTUAL, KP_F_CUSTOM, -1, NULL)                                               \
    X(WRITE_HOT, "write_hot", write_hot, K_NUM(KP_NUM_SHARE), 0, 7, N_("share of writes on the hottest value (0..1)"))          \
    X(FORMAT, "format", format, K_TEXT, KP_F_CUSTOM | KP_F_QUOTED, 5, N_("zero-padded width inside templates, e.g. 03"))        \
    X(COUNT, "count", shard_count, K_INT(KP_NUM_INT_POS), 0, 6, N_("shard: number of suffixes"))                                \
    X(SIZE, "size", size, K_NUM(KP_NUM_NONNEG), 0, 8, N_("average bytes of a value"))                                           \
    X(CHARS, "chars", chars, K_ENUM(chars), KP_F_OMIT_DEFAULT, 9, N_("any: values may hold the templates' separators (# - |)"))
/* clang-format on */

/* clang-format off */
#define KP_KEYTPL_FIELDS(X)                            \
    X(ATTR, "attr", attr, K_REF, KP_F_LABEL, -1, NULL) \
    X(TEMPLATE, "template", tpl, K_TPL, 0, -1, NULL)
/* clang-format on */

/* clang-format off */
#define KP_SPARSE_FIELDS(X)                                    \
    X(ATTR, "attr", attr, K_REF, KP_F_LABEL, -1, NULL)         \
    X(KIND, "kind", kind, K_ENUM(sparse_kind), 0, -1, NULL)    \
    X(COND_ATTR, "cond_attr", cond_attr, K_REF, 0, -1, NULL)   \
    X(OP, "op", op, K_ENUM(cond_op), 0, -1, NULL)              \
    X(VALUES, "values", values, K_REFS(nvalues), 0, -1, NULL)  \
    X(SHARE, "share", share, K_NUM(KP_NUM_SHARE), 0, -1, NULL) \
    X(SRC, "src", src, K_TEXT, KP_F_NOEQ, -1, NULL)
/* clang-format on */

/* clang-format off */
#define KP_ENTITY_FIELDS(X)                                                                                                   \
    X(NAME, "name", name, K_TEXT, KP_F_LABEL, 0, N_("unique entity name"))                                                        \
    X(DESCRIPTION, "description", description, K_TEXT, 0, 6, N_("free text"))                                                     \
    X(COUNT, "count", count, K_NUM(KP_NUM_NONNEG), KP_F_OMIT_ZERO, 1, N_("number of items (number >= 0)"))                        \
    X(SIZE, "size", size, K_NUM(KP_NUM_NONNEG), KP_F_OMIT_ZERO, 2, N_("average item size in bytes"))                              \
    X(WRITES, "writes", writes, K_NUM(KP_NUM_NONNEG), 0, 3, N_("peak writes per second (empty = from write patterns)"))           \
    X(WRITES_AVG, "writes_avg", writes_avg, K_NUM(KP_NUM_NONNEG), 0, 4, N_("average writes per second (empty = same as writes)")) \
    X(ATTRIBUTES, "attributes", attrs, K_REFS(nattrs), 0, 5, N_("domain attributes the items carry: a, b"))                       \
    X(KEYS, "keys", keys, K_RECS(keytpl, nkeys), KP_F_CUSTOM, -1, NULL)                                                       \
    X(SPARSE, "sparse", sparse, K_RECS(sparse, nsparse), KP_F_CUSTOM, -1, NULL)                                              \
    X(TOGETHER, "together", together, K_REFS(ntogether), 0, 7, N_("attributes set on the same items: GSI1PK+GSI1SK, a"))
/* clang-format on */

/* clang-format off */
#define KP_BY_FIELDS(X)                                \
    X(ATTR, "attr", attr, K_REF, KP_F_LABEL, -1, NULL) \
    X(VALUE, "value", value, K_TEXT, 0, -1, NULL)
/* clang-format on */

/* clang-format off */
#define KP_JOIN_FIELDS(X)                        \
    X(TO, "to", to, K_REF, KP_F_LABEL, -1, NULL) \
    X(FROM, "from", from, K_REF, 0, -1, NULL)
/* clang-format on */

/* clang-format off */
#define KP_PATTERN_FIELDS(X)                                                                                            \
    X(ID, "id", id, K_TEXT, KP_F_LABEL | KP_F_ID, 0, N_("unique id: a number or a short word"))                             \
    X(NAME, "name", name, K_TEXT, 0, 1, N_("what the screen or job asks"))                                                  \
    X(KIND, "kind", kind, K_ENUM(pattern_kind), KP_F_OMIT_DEFAULT, 2, "read | write")                                   \
    X(OP, "op", op, K_ENUM(write_op), KP_F_OMIT_DEFAULT, 17, N_("put | update | delete | transact (writes)"))               \
    X(ENTITY, "entity", entities, K_REFS(nentities), KP_F_CUSTOM, 3, N_("entity name, or several separated by commas"))     \
    X(ENTITIES, "entities", entities, K_VIRTUAL, KP_F_CUSTOM, -1, NULL)                                                 \
    X(MULTI_FORM, "multi_form", multi_form, K_FLAG, 0, -1, NULL)                                                        \
    X(BY, "by", by, K_RECS(by, nby), KP_F_CUSTOM, 4, N_("attributes the caller knows: a, b  (status=paid fixes a value)"))  \
    X(RATE, "rate", rate, K_NUM(KP_NUM_NONNEG), 0, 5, N_("peak requests per second (number >= 0; empty = not given)"))      \
    X(AVG, "avg", avg, K_NUM(KP_NUM_NONNEG), 0, 6, N_("average requests per second (empty = same as rate)"))                \
    X(LATENCY, "latency", latency, K_NUM(KP_NUM_NONNEG), 0, 7, N_("target in ms (empty = not given)"))                      \
    X(CONSISTENCY, "consistency", consistency, K_ENUM(consistency), KP_F_GIVEN, 8, "eventual | strong | transactional") \
    X(CONSISTENCY_GIVEN, "consistency_given", consistency_given, K_FLAG, 0, -1, NULL)                                   \
    X(WHY, "why", why, K_TEXT, 0, 20, N_("free text (required for strong reads)"))                                          \
    X(ORDER, "order", order, K_REF, KP_F_CUSTOM, 9, N_("attribute [asc|desc], e.g. orderDate desc"))                        \
    X(ORDER_DESC, "order_desc", order_desc, K_FLAG, 0, -1, NULL)                                                        \
    X(LIMIT, "limit", limit, K_NUM(KP_NUM_NONNEG), 0, 10, N_("items per page (empty = none)"))                              \
    X(RANGE, "range", range, K_REF, 0, 11, N_("attribute of a between / < / > condition"))                                  \
    X(FILTER, "filter", filter, K_REFS(nfilter), 0, 12, N_("non-key attributes filtered on: a, b"))                         \
    X(JOIN, "join", join, K_RECS(join, njoin), KP_F_CUSTOM, 13, N_("chain: to=from, e.g. username=followingUsername"))      \
    X(CHANGES, "changes", changes, K_REFS(nchanges), 0, 19, N_("attributes an update changes: a, b"))                       \
    X(RETURNS, "returns", returns, K_REFS(nreturns), 0, 21, N_("attributes a read returns (empty = the whole item)"))       \
    X(ITEMS, "items", items, K_NUM(KP_NUM_NONNEG), 0, 18, N_("items per call (empty = estimated)"))                         \
    X(COVERED_BY, "covered_by", covered_by, K_REF, KP_F_ID, 14, N_("id of the pattern whose result already has this"))      \
    X(NEEDS, "needs", needs, K_ENUM(needs), 0, 15, N_("search | aggregate | adhoc (empty = none)"))                         \
    X(SERVED_BY, "served_by", served_by, K_TEXT, 0, 16, N_("what serves it outside DynamoDB"))
/* clang-format on */

/* clang-format off */
#define KP_ALERT_FIELDS(X)                           \
    X(NAME, "name", name, K_TEXT, 0, -1, NULL)       \
    X(METRIC, "metric", metric, K_TEXT, 0, -1, NULL) \
    X(WHEN, "when", when, K_TEXT, 0, -1, NULL)
/* clang-format on */

/* clang-format off */
#define KP_PRICING_FIELDS(X)                                                                                                                                            \
    X(BASE, "base", base, K_TEXT, 0, -1, NULL)                                                                                                                          \
    X(CURRENCY, "currency", currency, K_TEXT, 0, 10, N_("USD, EUR, ... (empty = USD)"))                                                                                      \
    X(READ_PER_MILLION, "read_per_million", read_per_million, K_NUM(KP_NUM_NONNEG), 0, 11, N_("on-demand price per million read units (empty = built-in)"))                 \
    X(WRITE_PER_MILLION, "write_per_million", write_per_million, K_NUM(KP_NUM_NONNEG), 0, 12, N_("on-demand price per million write units"))                                \
    X(INDEX_WRITE_PER_MILLION, "index_write_per_million", index_write_per_million, K_NUM(KP_NUM_NONNEG), 0, 13, N_("price per million index write units (empty = writes)")) \
    X(RCU_HOUR, "rcu_hour", rcu_hour, K_NUM(KP_NUM_NONNEG), 0, 14, N_("provisioned price per RCU-hour"))                                                                    \
    X(WCU_HOUR, "wcu_hour", wcu_hour, K_NUM(KP_NUM_NONNEG), 0, 15, N_("provisioned price per WCU-hour"))                                                                    \
    X(STORAGE_GB_MONTH, "storage_gb_month", storage_gb_month, K_NUM(KP_NUM_NONNEG), 0, 16, N_("storage price per GB-month"))                                                \
    X(BACKUP_GB_MONTH, "backup_gb_month", backup_gb_month, K_NUM(KP_NUM_NONNEG), 0, 17, N_("continuous backup price per GB-month"))                                         \
    X(STREAM_READ_PER_100K, "stream_read_per_100k", stream_read_per_100k, K_NUM(KP_NUM_NONNEG), 0, 18, N_("stream read price per 100,000 requests"))                        \
    X(REPLICATED_WRITE_PER_MILLION, "replicated_write_per_million", replicated_write_per_million, K_NUM(KP_NUM_NONNEG), 0, 19, N_("global tables: price per million replicated write units (empty = writes)")) \
    X(REPLICATED_WCU_HOUR, "replicated_wcu_hour", replicated_wcu_hour, K_NUM(KP_NUM_NONNEG), 0, 20, N_("global tables: price per replicated WCU-hour (empty = wcu_hour)")) \
    X(TRANSFER_GB, "transfer_gb", transfer_gb, K_NUM(KP_NUM_NONNEG), 0, 21, N_("global tables: cross-region transfer price per GB")) \
    X(GIVEN, "given", given, K_FLAG, 0, -1, NULL)
/* clang-format on */

/* clang-format off */
#define KP_ALTERNATIVE_FIELDS(X)                        \
    X(OPTION, "option", option, K_TEXT, 0, -1, NULL)    \
    X(WHY_NOT, "why_not", why_not, K_TEXT, 0, -1, NULL)
/* clang-format on */

/* clang-format off */
#define KP_SIGNAL_FIELDS(X)                                  \
    X(SRC, "src", src, K_TEXT, KP_F_NOEQ, -1, NULL)          \
    X(METRIC, "metric", metric, K_TEXT, 0, -1, NULL)         \
    X(CMP, "cmp", cmp, K_ENUM(cmp), 0, -1, NULL)             \
    X(VALUE, "value", value, K_NUM(KP_NUM_ANY), 0, -1, NULL)
/* clang-format on */

/* clang-format off */
#define KP_DECISION_FIELDS(X)                                                                                                                 \
    X(ID, "id", id, K_TEXT, KP_F_LABEL | KP_F_ID, 0, N_("unique id, e.g. D3"))                                                                    \
    X(TITLE, "title", title, K_TEXT, 0, 1, N_("one line"))                                                                                        \
    X(STATUS, "status", status, K_ENUM(decision_status), 0, 2, "proposed | accepted | reopened | superseded")                                 \
    X(PATTERNS, "patterns", patterns, K_REFS(npatterns), KP_F_ID, 3, N_("pattern ids: 1, 5"))                                                     \
    X(CONTEXT, "context", context, K_TEXT, 0, 4, N_("free text"))                                                                                 \
    X(DECISION, "decision", decision, K_TEXT, 0, 5, N_("free text"))                                                                              \
    X(ALTERNATIVES, "alternatives", alternatives, K_RECS(alternative, nalternatives), KP_F_CUSTOM, 6, N_("option => why not; option => why not")) \
    X(ASSUMPTIONS, "assumptions", assumptions, K_TEXTS(nassumptions), 0, 7, N_("falsifiable statements separated by ;"))                          \
    X(FAILURE_TEST, "failure_test", failure_test, K_TEXT, 0, 8, N_("how we would see it fail"))                                                   \
    X(ROLLBACK, "rollback", rollback, K_TEXT, 0, 9, N_("free text"))                                                                              \
    X(LIMITATIONS, "limitations", limitations, K_TEXT, 0, 10, N_("free text"))                                                                    \
    X(SIGNALS, "signals", signals, K_RECS(signal, nsignals), KP_F_CUSTOM, 11, N_("metric op number; ... e.g. pattern.5.rate > 50"))
/* clang-format on */

/* Field IDs: FW_ the design, FT_ table, FX_ index, FV_ enum value, FA_ attribute, FK_ key
 * template, FS_ sparse rule, FE_ entity, FB_ by, FJ_ join, FP_ pattern, FL_ alert, FR_ pricing,
 * FO_ alternative, FG_ signal, FD_ decision. */
#define KP_FW_ID(id, ...) FW_##id,
#define KP_FT_ID(id, ...) FT_##id,
#define KP_FX_ID(id, ...) FX_##id,
#define KP_FV_ID(id, ...) FV_##id,
#define KP_FA_ID(id, ...) FA_##id,
#define KP_FK_ID(id, ...) FK_##id,
#define KP_FS_ID(id, ...) FS_##id,
#define KP_FE_ID(id, ...) FE_##id,
#define KP_FB_ID(id, ...) FB_##id,
#define KP_FJ_ID(id, ...) FJ_##id,
#define KP_FP_ID(id, ...) FP_##id,
#define KP_FL_ID(id, ...) FL_##id,
#define KP_FR_ID(id, ...) FR_##id,
#define KP_FO_ID(id, ...) FO_##id,
#define KP_FG_ID(id, ...) FG_##id,
#define KP_FD_ID(id, ...) FD_##id,
enum { KP_DESIGN_FIELDS(KP_FW_ID) FW__N };
enum { KP_TABLE_FIELDS(KP_FT_ID) FT__N };
enum { KP_INDEX_FIELDS(KP_FX_ID) FX__N };
enum { KP_ENUM_VALUE_FIELDS(KP_FV_ID) FV__N };
enum { KP_ATTR_FIELDS(KP_FA_ID) FA__N };
enum { KP_KEYTPL_FIELDS(KP_FK_ID) FK__N };
enum { KP_SPARSE_FIELDS(KP_FS_ID) FS__N };
enum { KP_ENTITY_FIELDS(KP_FE_ID) FE__N };
enum { KP_BY_FIELDS(KP_FB_ID) FB__N };
enum { KP_JOIN_FIELDS(KP_FJ_ID) FJ__N };
enum { KP_PATTERN_FIELDS(KP_FP_ID) FP__N };
enum { KP_ALERT_FIELDS(KP_FL_ID) FL__N };
enum { KP_PRICING_FIELDS(KP_FR_ID) FR__N };
enum { KP_ALTERNATIVE_FIELDS(KP_FO_ID) FO__N };
enum { KP_SIGNAL_FIELDS(KP_FG_ID) FG__N };
enum { KP_DECISION_FIELDS(KP_FD_ID) FD__N };

extern const kp_record kp_rec_design, kp_rec_table, kp_rec_index, kp_rec_enum_value, kp_rec_attr,
    kp_rec_keytpl, kp_rec_sparse, kp_rec_entity, kp_rec_by, kp_rec_join, kp_rec_pattern, kp_rec_alert,
    kp_rec_pricing, kp_rec_alternative, kp_rec_signal, kp_rec_decision;

/* Every record, the design first (for tests and tools that walk them all). */
extern const kp_record *const kp_records[];
extern const size_t kp_nrecords;

/* The field of `rec` whose key is `key`, or -1. */
int fields_find(const kp_record *rec, const char *key);

/* Deep-copies what the record at src owns into dst, which already holds a byte copy of src
 * (places kp_loc are kept). Never fails. */
void fields_clone(const kp_record *rec, void *dst, const void *src);
/* Deep structural equality of two records (places and KP_F_NOEQ fields ignored). */
bool fields_equal(const kp_record *rec, const void *a, const void *b);
/* Releases what the record owns (not the record itself). */
void fields_free(const kp_record *rec, void *r);
/* Makes the record at dst a deep copy of src, what dst owned released first. */
void fields_copy(const kp_record *rec, void *dst, const void *src);
/* A deep copy of the record at src, allocated (release with fields_free, then free). */
void *fields_dup(const kp_record *rec, const void *src);

#endif
