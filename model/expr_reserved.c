/* expr_reserved.c - DynamoDB's reserved words (see expr.h): an expression that names an attribute
 * called one of them, in any case, is refused ("Attribute name is a reserved keyword"), so the
 * name must go through an ExpressionAttributeNames placeholder. The list is DynamoDB's own, the
 * Developer Guide's "Reserved words in DynamoDB" (573 words), lowercase, sorted by bytes.
 * tests/reserved_words.py holds it word by word against DynamoDB Local, which refuses 572 of
 * them unescaped and accepts "reserved": keyplan follows the guide there (a placeholder is
 * always accepted). The words of the grammar itself (and, or, not, in, between, set, add,
 * remove, delete) are refused as syntax errors rather than as reserved words. */
#include "expr.h"

#include <string.h>

/* clang-format off */
static const char *const reserved[] = {
    "abort", "absolute", "action", "add", "after", "agent", "aggregate", "all", "allocate", "alter",
    "analyze", "and", "any", "archive", "are", "array", "as", "asc", "ascii", "asensitive", "assertion",
    "asymmetric", "at", "atomic", "attach", "attribute", "auth", "authorization", "authorize", "auto",
    "avg", "back", "backup", "base", "batch", "before", "begin", "between", "bigint", "binary", "bit",
    "blob", "block", "boolean", "both", "breadth", "bucket", "bulk", "by", "byte", "call", "called",
    "calling", "capacity", "cascade", "cascaded", "case", "cast", "catalog", "char", "character", "check",
    "class", "clob", "close", "cluster", "clustered", "clustering", "clusters", "coalesce", "collate",
    "collation", "collection", "column", "columns", "combine", "comment", "commit", "compact", "compile",
    "compress", "condition", "conflict", "connect", "connection", "consistency", "consistent", "constraint",
    "constraints", "constructor", "consumed", "continue", "copy", "corresponding", "count", "counter",
    "create", "cross", "cube", "current", "cursor", "cycle", "data", "database", "date", "datetime", "day",
    "deallocate", "dec", "decimal", "declare", "default", "deferrable", "deferred", "define", "defined",
    "definition", "delete", "delimited", "depth", "deref", "desc", "describe", "descriptor", "detach",
    "deterministic", "diagnostics", "directories", "disable", "disconnect", "distinct", "distribute", "do",
    "domain", "double", "drop", "dump", "duration", "dynamic", "each", "element", "else", "elseif", "empty",
    "enable", "end", "equal", "equals", "error", "escape", "escaped", "eval", "evaluate", "exceeded",
    "except", "exception", "exceptions", "exclusive", "exec", "execute", "exists", "exit", "explain",
    "explode", "export", "expression", "extended", "external", "extract", "fail", "false", "family",
    "fetch", "fields", "file", "filter", "filtering", "final", "finish", "first", "fixed", "flattern",
    "float", "for", "force", "foreign", "format", "forward", "found", "free", "from", "full", "function",
    "functions", "general", "generate", "get", "glob", "global", "go", "goto", "grant", "greater", "group",
    "grouping", "handler", "hash", "have", "having", "heap", "hidden", "hold", "hour", "identified",
    "identity", "if", "ignore", "immediate", "import", "in", "including", "inclusive", "increment",
    "incremental", "index", "indexed", "indexes", "indicator", "infinite", "initially", "inline", "inner",
    "innter", "inout", "input", "insensitive", "insert", "instead", "int", "integer", "intersect",
    "interval", "into", "invalidate", "is", "isolation", "item", "items", "iterate", "join", "key", "keys",
    "lag", "language", "large", "last", "lateral", "lead", "leading", "leave", "left", "length", "less",
    "level", "like", "limit", "limited", "lines", "list", "load", "local", "localtime", "localtimestamp",
    "location", "locator", "lock", "locks", "log", "loged", "long", "loop", "lower", "map", "match",
    "materialized", "max", "maxlen", "member", "merge", "method", "metrics", "min", "minus", "minute",
    "missing", "mod", "mode", "modifies", "modify", "module", "month", "multi", "multiset", "name", "names",
    "national", "natural", "nchar", "nclob", "new", "next", "no", "none", "not", "null", "nullif", "number",
    "numeric", "object", "of", "offline", "offset", "old", "on", "online", "only", "opaque", "open",
    "operator", "option", "or", "order", "ordinality", "other", "others", "out", "outer", "output", "over",
    "overlaps", "override", "owner", "pad", "parallel", "parameter", "parameters", "partial", "partition",
    "partitioned", "partitions", "path", "percent", "percentile", "permission", "permissions", "pipe",
    "pipelined", "plan", "pool", "position", "precision", "prepare", "preserve", "primary", "prior",
    "private", "privileges", "procedure", "processed", "project", "projection", "property", "provisioning",
    "public", "put", "query", "quit", "quorum", "raise", "random", "range", "rank", "raw", "read", "reads",
    "real", "rebuild", "record", "recursive", "reduce", "ref", "reference", "references", "referencing",
    "regexp", "region", "reindex", "relative", "release", "remainder", "remove", "rename", "repeat",
    "replace", "request", "reserved", "reset", "resignal", "resource", "response", "restore", "restrict",
    "result", "return", "returning", "returns", "reverse", "revoke", "right", "role", "roles", "rollback",
    "rollup", "routine", "row", "rows", "rule", "rules", "sample", "satisfies", "save", "savepoint", "scan",
    "schema", "scope", "scroll", "search", "second", "section", "segment", "segments", "select", "self",
    "semi", "sensitive", "separate", "sequence", "serializable", "session", "set", "sets", "shard", "share",
    "shared", "short", "show", "signal", "similar", "skewed", "smallint", "snapshot", "some", "source",
    "space", "spaces", "sparse", "specific", "specifictype", "split", "sql", "sqlcode", "sqlerror",
    "sqlexception", "sqlstate", "sqlwarning", "start", "state", "static", "status", "storage", "store",
    "stored", "stream", "string", "struct", "style", "sub", "submultiset", "subpartition", "substring",
    "subtype", "sum", "super", "symmetric", "synonym", "system", "table", "tablesample", "temp",
    "temporary", "terminated", "text", "than", "then", "throughput", "time", "timestamp", "timezone",
    "tinyint", "to", "token", "total", "touch", "trailing", "transaction", "transform", "translate",
    "translation", "treat", "trigger", "trim", "true", "truncate", "ttl", "tuple", "type", "under", "undo",
    "union", "unique", "unit", "unknown", "unlogged", "unnest", "unprocessed", "unsigned", "until",
    "update", "upper", "url", "usage", "use", "user", "users", "using", "uuid", "vacuum", "value", "valued",
    "values", "varchar", "variable", "variance", "varint", "varying", "view", "views", "virtual", "void",
    "wait", "when", "whenever", "where", "while", "window", "with", "within", "without", "work", "wrapped",
    "write", "year", "zone",
};
/* clang-format on */

#define NRESERVED (sizeof reserved / sizeof *reserved)

/* clang-format off */
/* where the words of each first letter start: reserved[first['x' - 'a'] .. first['x' - 'a' + 1]) */
static const unsigned short first[27] = {0, 31, 50, 102, 139, 169, 194, 205, 213, 249, 250, 252, 282, 303, 318, 342, 375, 378, 428, 496, 526, 546, 559, 571, 571, 572, 573};
/* clang-format on */

size_t expr_reserved_count(void) { return NRESERVED; }

const char *expr_reserved_word(size_t i) { return i < NRESERVED ? reserved[i] : NULL; }

bool expr_reserved(const char *name)
{
    /* every word is 1..14 letters: anything else is not one, and the rest is looked up lowercase */
    char low[16];
    size_t n = 0;
    for (const char *p = name; p && *p; p++, n++) {
        char c = *p;
        if (n >= sizeof low - 1)
            return false;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        else if (c < 'a' || c > 'z')
            return false;
        low[n] = c;
    }
    if (n == 0)
        return false;
    low[n] = '\0';
    size_t lo = first[low[0] - 'a'], hi = first[low[0] - 'a' + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(low, reserved[mid]);
        if (c == 0)
            return true;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return false;
}
