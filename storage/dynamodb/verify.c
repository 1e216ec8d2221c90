/* verify.c - `keyplan verify`: the design against a real DynamoDB endpoint (see verify.h).
 * HTTP and SigV4 through libcurl, JSON through jansson. */
#include "verify.h"

#include "requests.h"

#include <curl/curl.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- credentials ---------------------------------------------------------------------------- */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/* Value of `key` in section `section` of an INI file (AWS shared config); NULL when absent. */
static char *ini_get(const char *path, const char *section, const char *alt_section, const char *key)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return NULL;
    char line[4096];
    bool in = false;
    char *found = NULL;
    while (!found && fgets(line, sizeof line, f)) {
        char *l = trim(line);
        if (*l == '[') {
            char *e = strchr(l, ']');
            if (e)
                *e = '\0';
            char *name = trim(l + 1);
            in = strcmp(name, section) == 0 || (alt_section && strcmp(name, alt_section) == 0);
            continue;
        }
        if (!in || *l == '#' || *l == ';')
            continue;
        char *eq = strchr(l, '=');
        if (!eq)
            continue;
        *eq = '\0';
        if (strcmp(trim(l), key) == 0)
            found = xstrdup(trim(eq + 1));
    }
    fclose(f);
    return found;
}

static char *home_file(const char *env, const char *rel)
{
    const char *p = getenv(env);
    if (p && *p)
        return xstrdup(p);
    const char *home = getenv("HOME");
    return home && *home ? xasprintf("%s/%s", home, rel) : NULL;
}

static char *env_dup(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? xstrdup(v) : NULL;
}

bool verify_creds_load(verify_creds *c, const char *region_opt, char **err)
{
    memset(c, 0, sizeof *c);
    const char *profile = getenv("AWS_PROFILE");
    if (!profile || !*profile)
        profile = "default";
    c->access_key = env_dup("AWS_ACCESS_KEY_ID");
    c->secret_key = env_dup("AWS_SECRET_ACCESS_KEY");
    if (c->access_key && c->secret_key) {
        c->session_token = env_dup("AWS_SESSION_TOKEN");
    } else {
        free(c->access_key);
        free(c->secret_key);
        char *path = home_file("AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials");
        c->access_key = ini_get(path, profile, NULL, "aws_access_key_id");
        c->secret_key = ini_get(path, profile, NULL, "aws_secret_access_key");
        c->session_token = ini_get(path, profile, NULL, "aws_session_token");
        free(path);
    }
    if (region_opt && *region_opt)
        c->region = xstrdup(region_opt);
    if (!c->region)
        c->region = env_dup("AWS_REGION");
    if (!c->region)
        c->region = env_dup("AWS_DEFAULT_REGION");
    if (!c->region) {
        char *path = home_file("AWS_CONFIG_FILE", ".aws/config");
        char *sect = xasprintf("profile %s", profile);
        c->region = ini_get(path, sect, profile, "region");
        free(sect);
        free(path);
    }
    if (!c->region)
        c->region = xstrdup("us-east-1");
    if (!c->access_key || !c->secret_key) {
        *err = xasprintf("no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give profile "
                         "'%s' in ~/.aws/credentials (DynamoDB Local accepts any values)",
                         profile);
        verify_creds_free(c);
        return false;
    }
    return true;
}

static void wipe_free(char *s)
{
    if (!s)
        return;
    volatile char *v = s;
    while (*v)
        *v++ = '\0';
    free(s);
}

void verify_creds_free(verify_creds *c)
{
    wipe_free(c->access_key);
    wipe_free(c->secret_key);
    wipe_free(c->session_token);
    free(c->region);
    memset(c, 0, sizeof *c);
}

/* ---- the HTTP client ------------------------------------------------------------------------ */

typedef struct ddb {
    CURL *curl;
    char *url;
    char *userpwd;
    char *sigv4;
    char *token_header;
    size_t requests; /* sent */
} ddb;

static size_t on_body(char *data, size_t size, size_t nmemb, void *ctx)
{
    sbuf_addn(ctx, data, size * nmemb);
    return size * nmemb;
}

enum { CALL_OK = 0, CALL_API = 1, CALL_TRANSPORT = 2 };

/* Sends one API call. CALL_OK with *out (caller json_decref); CALL_API with *err "Type: message"
 * for an error DynamoDB answered; CALL_TRANSPORT with *err for anything else. */
static int ddb_call(ddb *c, const char *op, const json_t *in, json_t **out, char **err)
{
    char *body = json_dumps(in, JSON_COMPACT);
    char *target = xasprintf("X-Amz-Target: DynamoDB_20120810.%s", op);
    int rc = CALL_TRANSPORT;
    *out = NULL;
    for (int attempt = 0; attempt < 5; attempt++) {
        struct curl_slist *h = NULL;
        h = curl_slist_append(h, "Content-Type: application/x-amz-json-1.0");
        h = curl_slist_append(h, target);
        if (c->token_header)
            h = curl_slist_append(h, c->token_header);
        sbuf resp;
        sbuf_init(&resp);
        sbuf_add(&resp, "");
        curl_easy_reset(c->curl);
        curl_easy_setopt(c->curl, CURLOPT_URL, c->url);
        curl_easy_setopt(c->curl, CURLOPT_POST, 1L);
        curl_easy_setopt(c->curl, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(c->curl, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
        curl_easy_setopt(c->curl, CURLOPT_HTTPHEADER, h);
        curl_easy_setopt(c->curl, CURLOPT_USERPWD, c->userpwd);
        curl_easy_setopt(c->curl, CURLOPT_AWS_SIGV4, c->sigv4);
        curl_easy_setopt(c->curl, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(c->curl, CURLOPT_WRITEDATA, &resp);
        curl_easy_setopt(c->curl, CURLOPT_CONNECTTIMEOUT, 5L);
        curl_easy_setopt(c->curl, CURLOPT_TIMEOUT, 60L);
        curl_easy_setopt(c->curl, CURLOPT_NOSIGNAL, 1L);
        CURLcode cc = curl_easy_perform(c->curl);
        curl_slist_free_all(h);
        c->requests++;
        if (cc != CURLE_OK) {
            *err = xasprintf("cannot reach %s: %s", c->url, curl_easy_strerror(cc));
            sbuf_free(&resp);
            rc = CALL_TRANSPORT;
            break;
        }
        long status = 0;
        curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &status);
        json_error_t je;
        json_t *j = json_loadb(resp.s, resp.len, 0, &je);
        if (status == 200 && json_is_object(j)) {
            *out = j;
            rc = CALL_OK;
            sbuf_free(&resp);
            break;
        }
        const char *type = json_string_value(json_object_get(j, "__type"));
        const char *msg = json_string_value(json_object_get(j, "Message"));
        if (!msg)
            msg = json_string_value(json_object_get(j, "message"));
        bool retry = status >= 500 || (type && (strstr(type, "Throttling") || strstr(type, "ProvisionedThroughput") ||
                                                strstr(type, "RequestLimitExceeded")));
        if (retry && attempt < 4) {
            json_decref(j);
            sbuf_free(&resp);
            usleep((useconds_t)(100000u << attempt));
            continue;
        }
        if (type) {
            const char *hash = strrchr(type, '#');
            *err = xasprintf("%s: %s", hash ? hash + 1 : type, msg ? msg : "(no message)");
            rc = CALL_API;
        } else {
            *err = xasprintf("%s answered HTTP %ld to %s%s%.200s", c->url, status, op, resp.len ? ": " : "",
                             resp.len ? resp.s : "");
            rc = CALL_TRANSPORT;
        }
        json_decref(j);
        sbuf_free(&resp);
        break;
    }
    free(target);
    free(body);
    return rc;
}

/* ---- the world: every loaded item with its entity ---------------------------------------------- */

typedef struct witem {
    const kp_entity *e;
    json_t *item; /* borrowed from the sample */
    char *key;    /* table key text */
} witem;

typedef struct world {
    const kp_design *d;
    witem *v;
    size_t n, cap;
} world;

static const char *scalar_of(const json_t *v)
{
    const char *k;
    json_t *x;
    if (!json_is_object(v))
        return NULL;
    json_object_foreach((json_t *)v, k, x)
    {
        if (json_is_string(x))
            return json_string_value(x);
        if (json_is_true(x))
            return "true";
        if (json_is_false(x))
            return "false";
    }
    return NULL;
}

static const char *sv(const json_t *item, const char *attr)
{
    return attr ? scalar_of(json_object_get(item, attr)) : NULL;
}

static char *key_text(const kp_design *d, const json_t *item)
{
    const char *pk = sv(item, d->table.pk.s);
    const char *sk = d->table.sk.s ? sv(item, d->table.sk.s) : NULL;
    if (!pk)
        return xstrdup("?");
    return sk ? xasprintf("%s=%s, %s=%s", d->table.pk.s, pk, d->table.sk.s, sk) : xasprintf("%s=%s", d->table.pk.s, pk);
}

static const witem *world_find(const world *w, const char *key)
{
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->v[i].key, key) == 0)
            return &w->v[i];
    return NULL;
}

static void world_free(world *w)
{
    for (size_t i = 0; i < w->n; i++)
        free(w->v[i].key);
    free(w->v);
}

/* Compares two key values of attribute `attr` the way DynamoDB orders them. */
static int key_cmp(const kp_design *d, const char *attr, const char *a, const char *b)
{
    if (strcmp(items_key_type(d, attr), "N") == 0) {
        double x = strtod(a, NULL), y = strtod(b, NULL);
        return x < y ? -1 : x > y;
    }
    return strcmp(a, b); /* UTF-8 byte order, as DynamoDB compares strings */
}

/* ---- per-pattern checking ------------------------------------------------------------------------ */

typedef struct check {
    sbuf why;      /* failure reasons, "; "-separated */
    sbuf info;     /* what ran */
    double measured, predicted, tolerance;
    size_t requests, items;
    bool failed, fatal;
    bool cap_checked;   /* measured vs predicted is compared */
    bool cap_unchecked; /* some requests' capacity is only reported */
    char *fatal_err;
} check;

static void fail(check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(check *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = xvasprintf(fmt, ap);
    va_end(ap);
    if (c->why.len)
        sbuf_add(&c->why, "; ");
    sbuf_add(&c->why, m);
    free(m);
    c->failed = true;
}

typedef struct vctx {
    const kp_design *d;
    const kp_analysis *a;
    const verify_opts *o;
    ddb *db;
    char *table;
    json_t *sample; /* {entity: [items]} */
    world w;
} vctx;

static bool on_index(const kp_design *d, ptrdiff_t index, const json_t *item)
{
    const char *pk = requests_index_pk(d, index), *sk = requests_index_sk(d, index);
    return sv(item, pk) && (!sk || sv(item, sk));
}

/* The item as index `index` holds it: the whole item on the table, an LSI or an ALL
 * projection, else the keys plus the projected attributes. New reference. */
static json_t *projected(const kp_design *d, ptrdiff_t index, const json_t *item)
{
    if (index < 0 || d->indexes[index].projection == KP_PROJ_ALL)
        return json_incref((json_t *)item);
    const kp_index *x = &d->indexes[index];
    json_t *p = json_object();
    const char *names[4] = {d->table.pk.s, d->table.sk.s, x->pk.s, x->sk.s};
    for (int i = 0; i < 4; i++)
        if (names[i] && json_object_get(item, names[i]))
            json_object_set(p, names[i], json_object_get(item, names[i]));
    for (size_t i = 0; x->projection == KP_PROJ_INCLUDE && i < x->ninclude; i++)
        if (json_object_get(item, x->include[i].s))
            json_object_set(p, x->include[i].s, json_object_get(item, x->include[i].s));
    return p;
}

/* Bytes DynamoDB reads for `item` on index `index`. */
static size_t read_size(const kp_design *d, ptrdiff_t index, const json_t *item)
{
    json_t *p = projected(d, index, item);
    size_t n = items_size(p);
    json_decref(p);
    return n;
}

/* Read units per 4 KB of the requests verify sends: strong on the table or an LSI, else
 * eventual. A `transactional` read is sent as a consistent read (the plans' GetItem and Query;
 * TransactGetItems would cost twice that). */
static double unit_factor(const kp_pattern *p, ptrdiff_t index, const kp_design *d)
{
    if ((p->consistency == KP_STRONG || p->consistency == KP_TRANSACTIONAL) &&
        (index < 0 || d->indexes[index].kind == KP_LSI))
        return 1;
    return 0.5;
}

static double units_of(double bytes) { return bytes <= 0 ? 1 : ceil(bytes / 4096.0); }

static double consumed(const json_t *resp)
{
    const json_t *cc = json_object_get(resp, "ConsumedCapacity");
    if (json_is_array(cc)) {
        double t = 0;
        size_t i;
        json_t *x;
        json_array_foreach((json_t *)cc, i, x) t += json_number_value(json_object_get(x, "CapacityUnits"));
        return t;
    }
    return json_number_value(json_object_get(cc, "CapacityUnits"));
}

typedef struct hit {
    const witem *w;
    const json_t *item; /* the returned item */
} hit;

typedef struct hits {
    hit *v;
    size_t n, cap;
} hits;

static void hits_push(hits *h, const witem *w, const json_t *item)
{
    VEC_GROW(h->v, h->n, h->cap);
    h->v[h->n++] = (hit){w, item};
}

/* Sorts world items by the index's sort key (then by table key, for ties). */
typedef struct sortctx {
    const kp_design *d;
    const char *sk;
} sortctx;

static void sort_witems(const kp_design *d, const char *sk, const witem **v, size_t n, bool forward)
{
    for (size_t i = 1; i < n; i++) { /* insertion sort: small sets, stable */
        const witem *x = v[i];
        size_t j = i;
        while (j > 0) {
            int c = sk ? key_cmp(d, sk, sv(v[j - 1]->item, sk), sv(x->item, sk)) : 0;
            if (c == 0)
                c = strcmp(v[j - 1]->key, x->key);
            if (forward ? c <= 0 : c >= 0)
                break;
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

static bool sk_matches(const kp_design *d, const requests_keycond *kc, const char *have, const char *v1,
                       const char *v2)
{
    if (kc->op == RQ_SK_NONE)
        return true;
    if (!have)
        return false;
    if (kc->op == RQ_SK_BEGINS)
        return strncmp(have, v1, strlen(v1)) == 0;
    int c = key_cmp(d, kc->sk, have, v1);
    switch (kc->op) {
    case RQ_SK_EQ: return c == 0;
    case RQ_SK_LT: return c < 0;
    case RQ_SK_LE: return c <= 0;
    case RQ_SK_GT: return c > 0;
    case RQ_SK_GE: return c >= 0;
    case RQ_SK_BETWEEN: return c >= 0 && key_cmp(d, kc->sk, have, v2) <= 0;
    default: return false;
    }
}

static const char *jstr(const json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

static bool entity_in_pattern(const kp_pattern *p, const kp_entity *e)
{
    for (size_t i = 0; e && i < p->nentities; i++)
        if (strcmp(p->entities[i].s, e->name) == 0)
            return true;
    return false;
}

/* How the plan's filter took part in a request. */
typedef enum filter_mode {
    FILTER_NONE,   /* the model predicted no filter */
    FILTER_SENT,   /* sent as FilterExpression and evaluated by verify the same way */
    FILTER_CLIENT, /* predicted but beyond verify's evaluator: other entities dropped by verify */
} filter_mode;

/* The result of one request compared with the model. `expected` is the request evaluated over
 * the loaded items (key condition, order, Limit, then the filter when it was sent), in
 * DynamoDB's order; `matched_own` counts the pattern's own items the key condition matched
 * before the filter. */
static void compare(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s, const char *what,
                    const json_t *returned, const witem **expected, size_t nexp, const witem **opt, size_t nopt,
                    bool ordered, filter_mode fm, const char *filter, size_t matched_own, const json_t *binding,
                    hits *out)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    size_t nret = json_array_size(returned);
    hits got = {0};
    size_t unknown = 0;
    size_t i;
    json_t *it;
    json_array_foreach((json_t *)returned, i, it)
    {
        char *k = key_text(d, it);
        const witem *w = world_find(&v->w, k);
        free(k);
        if (!w)
            unknown++;
        else
            hits_push(&got, w, it);
    }
    if (unknown)
        fail(c, "%s: %zu returned item(s) are not among the loaded items", what, unknown);
    /* same set */
    size_t missing = 0, extra = 0;
    const char *first_missing = NULL, *first_extra = NULL;
    for (size_t e = 0; e < nexp; e++) {
        bool f = false;
        for (size_t g = 0; g < got.n && !f; g++)
            f = got.v[g].w == expected[e];
        if (!f && !missing++)
            first_missing = expected[e]->key;
    }
    for (size_t g = 0; g < got.n; g++) {
        bool f = false;
        for (size_t e = 0; e < nexp && !f; e++)
            f = got.v[g].w == expected[e];
        for (size_t e = 0; e < nopt && !f; e++)
            f = got.v[g].w == opt[e];
        if (!f && !extra++)
            first_extra = got.v[g].w->key;
    }
    /* opt: items tied on the sort key at the Limit boundary; DynamoDB may return any of them */
    bool count_ok = nopt ? nret >= nexp && nret <= nexp + nopt : nret == nexp;
    if (missing || extra || !count_ok) {
        fail(c, "%s: DynamoDB returned %zu item(s), the plan evaluated over the loaded items gives %zu%s%s%s", what,
             nret, nexp, missing ? " (missing " : "", missing ? first_missing : "", missing ? ")" : "");
        if (extra)
            sbuf_printf(&c->why, " (unexpected %s)", first_extra);
    } else if (ordered) {
        /* positions compared by sort-key value: items that tie may come back in any order */
        const char *sk = requests_index_sk(d, s->index);
        for (size_t g = 0; sk && g < got.n && g < nexp; g++) {
            const char *a = sv(got.v[g].w->item, sk), *b = sv(expected[g]->item, sk);
            if (a && b && strcmp(a, b) != 0) {
                fail(c, "%s: items come back in another order than the sort key gives (item %zu is %s, expected %s)",
                     what, g + 1, got.v[g].w->key, expected[g]->key);
                break;
            }
        }
    }
    /* the model: only the pattern's entities come back (after the filter it predicted) */
    size_t foreign = 0, mine = 0;
    const witem *ex = NULL;
    for (size_t g = 0; g < got.n; g++) {
        if (entity_in_pattern(p, got.v[g].w->e)) {
            mine++;
            if (out)
                hits_push(out, got.v[g].w, got.v[g].item);
        } else if (!foreign++) {
            ex = got.v[g].w;
        }
    }
    if (foreign && fm == FILTER_NONE)
        fail(c,
             "%s: %zu of %zu items are %s items (e.g. %s): the key condition %s also matches them, and the model "
             "predicted no filter (the plan needs a filter, or a sort-key prefix that tells the entities apart)",
             what, foreign, got.n, ex->e ? ex->e->name : "unknown", ex->key, s->key_condition ? s->key_condition : "");
    else if (foreign && fm == FILTER_SENT)
        fail(c, "%s: the model's filter '%s' lets %zu %s item(s) through (e.g. %s)", what, filter, foreign,
             ex->e ? ex->e->name : "unknown", ex->key);
    /* ... and only items with the caller's values (`by`) */
    for (size_t g = 0; binding && g < got.n; g++) {
        const witem *w = got.v[g].w;
        if (!entity_in_pattern(p, w->e))
            continue;
        const char *bad = NULL;
        char *have = NULL, *want = NULL;
        for (size_t b = 0; b < p->nby && !bad; b++) {
            const char *an = p->by[b].attr.s;
            have = items_value_text(d, w->item, an);
            want = p->by[b].value ? xstrdup(p->by[b].value) : items_value_text(d, binding, an);
            if (have && want && strcmp(have, want) != 0)
                bad = an;
            else {
                free(have);
                free(want);
                have = want = NULL;
            }
        }
        if (bad) {
            size_t nbad = 0;
            for (size_t q = g; q < got.n; q++) {
                char *h2 = items_value_text(d, got.v[q].w->item, bad);
                if (entity_in_pattern(p, got.v[q].w->e) && h2 && strcmp(h2, want) != 0)
                    nbad++;
                free(h2);
            }
            fail(c,
                 "%s: asked %s=%s, but %zu returned item(s) have another %s (e.g. %s item %s with %s=%s): %s also "
                 "matches them, and the model predicted %s",
                 what, bad, want, nbad, bad, w->e->name, w->key, bad, have, s->key_condition ? s->key_condition : "",
                 fm == FILTER_NONE ? "no filter" : "a filter that keeps them");
            free(have);
            free(want);
            break;
        }
    }
    if (fm == FILTER_SENT && matched_own > 0 && mine == 0)
        fail(c, "%s: the key condition reads %zu %s item(s) but the model's filter '%s' drops them all%s", what,
             matched_own, s->entity ? s->entity->name : "", filter,
             s->index >= 0 && d->indexes[s->index].projection != KP_PROJ_ALL
                 ? " (the attribute it tests may not be projected on the index)"
                 : "");
    c->items += got.n;
    free(got.v);
}

/* Order check over the pattern's items: `order: a [desc]` served by the key. */
static void check_order(vctx *v, check *c, const kp_pattern_result *r, const hits *h)
{
    const kp_pattern *p = r->pattern;
    if (!p->order.s || r->app_sort || (r->plan != KP_PLAN_QUERY && r->plan != KP_PLAN_GET))
        return;
    const char *prev = NULL;
    for (size_t i = 0; i < h->n; i++) {
        char *cur = items_value_text(v->d, h->v[i].w->item, p->order.s);
        if (!cur)
            continue;
        if (prev) {
            int cmp = key_cmp(v->d, p->order.s, prev, cur);
            if (p->order_desc ? cmp < 0 : cmp > 0) {
                fail(c, "the model says the key serves 'order: %s %s', but %s=%s comes before %s=%s", p->order.s,
                     p->order_desc ? "desc" : "asc", p->order.s, prev, p->order.s, cur);
                free(cur);
                break;
            }
        }
        free((char *)prev);
        prev = cur;
    }
    free((char *)prev);
}

/* Runs a request, following pages when no Limit; returns the items (new array) or NULL. */
static json_t *run_paged(vctx *v, check *c, const char *op, json_t *in, const char *list_key)
{
    json_t *all = json_array();
    for (int page = 0; page < 100; page++) {
        json_t *resp = NULL;
        char *err = NULL;
        int rc = ddb_call(v->db, op, in, &resp, &err);
        if (rc != CALL_OK) {
            if (rc == CALL_TRANSPORT) {
                c->fatal = true;
                c->fatal_err = err;
            } else {
                fail(c, "%s rejected: %s", op, err);
                free(err);
            }
            json_decref(all);
            return NULL;
        }
        c->requests++;
        c->measured += consumed(resp);
        if (list_key) {
            json_array_extend(all, json_object_get(resp, list_key));
        } else if (json_object_get(resp, "Item")) {
            json_array_append(all, json_object_get(resp, "Item"));
        }
        json_t *lek = json_object_get(resp, "LastEvaluatedKey");
        bool more = lek && !json_object_get(in, "Limit");
        if (more)
            json_object_set(in, "ExclusiveStartKey", lek);
        json_decref(resp);
        if (!more)
            break;
    }
    return all;
}

/* The attributes of a step's value templates that fan out (shard or enum placeholders the
 * caller does not know): each value gets its own request. */
static void fanout_attrs(const kp_design *d, const kp_pattern *p, const kp_step *s, const char **out, size_t *n)
{
    *n = 0;
    if (!(isfinite(s->count) && s->count > 1))
        return;
    for (size_t i = 0; i < s->nvalues; i++) {
        tpl t;
        const char *e;
        size_t off;
        if (!s->values[i].value || !tpl_parse(s->values[i].value, &t, &e, &off))
            continue;
        for (size_t k = 0; k < t.n; k++) {
            if (t.parts[k].kind != TPL_ATTR)
                continue;
            const kp_attr *a = design_attr(d, t.parts[k].text);
            if (!a || (a->type != KP_ATTR_SHARD && a->type != KP_ATTR_ENUM))
                continue;
            bool known = false;
            for (size_t b = 0; b < p->nby; b++)
                if (strcmp(p->by[b].attr.s, a->name) == 0)
                    known = true;
            for (size_t q = 0; q < *n; q++)
                if (strcmp(out[q], a->name) == 0)
                    known = true;
            if (!known && *n < 4)
                out[(*n)++] = a->name;
        }
        tpl_free(&t);
    }
}

static size_t attr_value_count(const kp_attr *a)
{
    if (a->type == KP_ATTR_SHARD)
        return a->shard_count > 0 ? (size_t)a->shard_count : 10;
    return a->nvalues;
}

static void set_attr_value(json_t *item, const kp_attr *a, size_t k)
{
    if (a->type == KP_ATTR_SHARD) {
        char *s = xasprintf("%zu", k);
        json_object_set_new(item, a->name, json_pack("{s:s}", "N", s));
        free(s);
    } else {
        json_object_set_new(item, a->name, json_pack("{s:s}", "S", a->values[k].name));
    }
}

/* Renders value `name` of step s over `binding`; NULL when the plan has no such value. */
static char *render_value(const kp_design *d, const kp_step *s, const char *name, const json_t *binding)
{
    for (size_t i = 0; i < s->nvalues; i++) {
        if (!s->values[i].name || strcmp(s->values[i].name, name) != 0)
            continue;
        tpl t;
        const char *e;
        size_t off;
        if (!tpl_parse(s->values[i].value, &t, &e, &off))
            return NULL;
        char *out = items_render(d, &t, binding);
        tpl_free(&t);
        return out;
    }
    return NULL;
}

/* Range bounds: binding copies whose range attribute is a lower and an upper value of the items
 * in the anchor's partition. */
static void range_bounds(vctx *v, const kp_pattern *p, const kp_entity *e, ptrdiff_t index, const json_t *anchor,
                         json_t **lo, json_t **hi)
{
    *lo = json_deep_copy(anchor);
    *hi = json_deep_copy(anchor);
    if (!p->range.s)
        return;
    const char *pk = requests_index_pk(v->d, index);
    const char *pv = sv(anchor, pk);
    const json_t *vals[256];
    size_t n = 0;
    for (size_t i = 0; i < v->w.n && n < 256; i++) {
        const json_t *it = v->w.v[i].item;
        if (v->w.v[i].e != e || !on_index(v->d, index, it) || !pv || !sv(it, pk) || strcmp(sv(it, pk), pv) != 0)
            continue;
        if (json_object_get(it, p->range.s))
            vals[n++] = json_object_get(it, p->range.s);
    }
    if (n == 0)
        return;
    for (size_t i = 1; i < n; i++) /* insertion sort by value */
        for (size_t j = i; j > 0; j--) {
            const char *x = scalar_of(vals[j - 1]), *y = scalar_of(vals[j]);
            if (!x || !y || key_cmp(v->d, p->range.s, x, y) <= 0)
                break;
            const json_t *tmp = vals[j - 1];
            vals[j - 1] = vals[j];
            vals[j] = tmp;
        }
    json_object_set(*lo, p->range.s, (json_t *)vals[n / 4]);
    json_object_set(*hi, p->range.s, (json_t *)vals[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1]);
}

/* `range: a` asks for the items whose a lies between two values, both included. Every item of
 * the pattern's entities in the partition with a in [lo, hi] (and kept by the filter) must come
 * back: a bound that stops at the value ("PEDIDO#2025-01-10") sorts before the sort keys that
 * continue after it ("PEDIDO#2025-01-10#4471"), and loses the last value's items. */
static void check_range(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s, const requests_keycond *kc,
                        const char *pv, const char *upper, const json_t *lo, const json_t *hi, const json_t *ret, const json_t *in,
                        filter_mode fm, const char *what)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    const char *ra = p->range.s;
    const char *lov = sv(lo, ra), *hiv = sv(hi, ra);
    if (!lov || !hiv)
        return;
    const char *fx = jstr(in, "FilterExpression");
    for (size_t i = 0; i < v->w.n; i++) {
        const witem *w = &v->w.v[i];
        const char *val = sv(w->item, ra);
        const char *ipk = sv(w->item, kc->pk);
        if (!entity_in_pattern(p, w->e) || !on_index(d, s->index, w->item) || !val || !ipk ||
            key_cmp(d, kc->pk, ipk, pv) != 0 || key_cmp(d, ra, val, lov) < 0 || key_cmp(d, ra, val, hiv) > 0)
            continue;
        if (fm == FILTER_SENT && fx) {
            json_t *view = projected(d, s->index, w->item);
            int keep = requests_filter_eval(fx, view, json_object_get(in, "ExpressionAttributeValues"),
                                            json_object_get(in, "ExpressionAttributeNames"));
            json_decref(view);
            if (keep != 1)
                continue;
        }
        bool back = false;
        size_t k;
        json_t *it;
        json_array_foreach((json_t *)ret, k, it)
        {
            char *key = key_text(d, it);
            back = back || strcmp(key, w->key) == 0;
            free(key);
        }
        if (!back) {
            fail(c,
                 "%s: asked %s between %s and %s, but %s item %s (%s=%s) is not returned: the upper bound %s = '%s' "
                 "stops at the value and sorts before the sort keys that continue after it (it needs a suffix that "
                 "sorts after them, e.g. '%s~')",
                 what, ra, lov, hiv, w->e->name, w->key, ra, val, kc->sk_value2, upper, upper);
            return;
        }
    }
}

/* One Query or GetItem of a step with the values rendered from `binding` (lo/hi for ranges). */
static void run_keyed(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s, const json_t *binding,
                      const json_t *lo, const json_t *hi, const json_t *by_binding, hits *out)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    requests_keycond kc;
    char *err = NULL;
    if (!requests_keycond_parse(s->key_condition, &kc, &err)) {
        fail(c, "%s", err);
        free(err);
        return;
    }
    json_t *values = json_object();
    char *pv = render_value(d, s, kc.pk_value, binding);
    char *v1 = kc.sk_value ? render_value(d, s, kc.sk_value, kc.op == RQ_SK_BETWEEN ? lo : binding) : NULL;
    char *v2 = kc.sk_value2 ? render_value(d, s, kc.sk_value2, hi) : NULL;
    if (!pv || (kc.sk_value && !v1) || (kc.sk_value2 && !v2)) {
        fail(c, "the plan's values (%s) cannot be filled from a sample %s item", kc.pk_value,
             s->entity ? s->entity->name : "");
        goto done;
    }
    json_object_set_new(values, kc.pk_value, json_string(pv));
    if (v1)
        json_object_set_new(values, kc.sk_value, json_string(v1));
    if (v2)
        json_object_set_new(values, kc.sk_value2, json_string(v2));
    const json_t *samples[1] = {binding};
    bool predicted_filter = r->filter || (s->filter && *s->filter);
    filter_mode fm = predicted_filter ? FILTER_SENT : FILTER_NONE;
    bool get = s->op == KP_OP_GETITEM;
    if (get && predicted_filter)
        fm = FILTER_CLIENT;
    json_t *in = requests_step_input(d, r, s, v->table, values, samples, 1, !get, &err);
    if (in && fm == FILTER_SENT) {
        const char *fx = jstr(in, "FilterExpression");
        json_t *probe = json_object();
        if (!fx || requests_filter_eval(fx, probe, json_object_get(in, "ExpressionAttributeValues"),
                                        json_object_get(in, "ExpressionAttributeNames")) < 0) {
            /* a filter verify cannot evaluate: leave it to verify's entity check */
            fm = FILTER_CLIENT;
            json_decref(in);
            in = requests_step_input(d, r, s, v->table, values, samples, 1, false, &err);
            sbuf_printf(&c->info, "(filter '%s' checked as an entity filter) ", s->filter ? s->filter : "");
        }
        json_decref(probe);
    }
    if (!in) {
        fail(c, "%s", err);
        free(err);
        goto done;
    }
    json_t *ret = run_paged(v, c, get ? "GetItem" : "Query", in, get ? NULL : "Items");
    if (!ret) {
        json_decref(in);
        goto done;
    }
    /* the plan evaluated over the loaded items: key condition, order, Limit, then the filter */
    const witem **exp = xcalloc(v->w.n + 1, sizeof *exp);
    size_t nexp = 0;
    for (size_t i = 0; i < v->w.n; i++) {
        const json_t *it = v->w.v[i].item;
        if (!on_index(d, s->index, it))
            continue;
        const char *ipk = sv(it, kc.pk);
        if (!ipk || key_cmp(d, kc.pk, ipk, pv) != 0)
            continue;
        if (!sk_matches(d, &kc, kc.sk ? sv(it, kc.sk) : NULL, v1, v2))
            continue;
        exp[nexp++] = &v->w.v[i];
    }
    bool forward = get ? true : s->forward;
    const char *isk = requests_index_sk(d, s->index);
    sort_witems(d, isk, exp, nexp, forward);
    /* Limit: the first items by sort key; items tied with the last one kept are all possible */
    size_t nall = nexp, nopt = 0;
    if (!get && isfinite(s->limit) && s->limit >= 1 && nexp > (size_t)s->limit) {
        size_t lim = (size_t)s->limit;
        const char *bv = isk ? sv(exp[lim - 1]->item, isk) : NULL;
        size_t first = lim; /* first item tied with the boundary value */
        while (bv && first > 0 && sv(exp[first - 1]->item, isk) && strcmp(sv(exp[first - 1]->item, isk), bv) == 0)
            first--;
        size_t last = lim;
        while (bv && last < nall && sv(exp[last]->item, isk) && strcmp(sv(exp[last]->item, isk), bv) == 0)
            last++;
        if (last > lim) { /* ties straddle the boundary */
            nexp = first;
            nopt = last - first;
        } else {
            nexp = lim;
        }
    }
    /* capacity by the model's rules over what is read (before any filter) */
    double f = unit_factor(p, s->index, d);
    double bytes = 0;
    size_t matched_own = 0;
    size_t nread = nopt ? (size_t)s->limit : nexp;
    for (size_t i = 0; i < nread && i < nall; i++) {
        bytes += (double)read_size(d, s->index, exp[i]->item);
        if (exp[i]->e == s->entity || (!s->entity && entity_in_pattern(p, exp[i]->e)))
            matched_own++;
    }
    c->predicted += units_of(bytes) * f;
    c->tolerance += f;
    c->cap_checked = true;
    const char *fx = jstr(in, "FilterExpression");
    if (fm == FILTER_SENT && fx) {
        size_t kept = 0, keptopt = 0;
        for (size_t i = 0; i < nexp + nopt; i++) {
            json_t *view = projected(d, s->index, exp[i]->item);
            if (requests_filter_eval(fx, view, json_object_get(in, "ExpressionAttributeValues"),
                                     json_object_get(in, "ExpressionAttributeNames")) == 1) {
                exp[kept + keptopt] = exp[i];
                if (i < nexp)
                    kept++;
                else
                    keptopt++;
            }
            json_decref(view);
        }
        nexp = kept;
        nopt = keptopt;
    }
    char *what = xasprintf("%s %s", kp_op_name(s->op), pv);
    compare(v, c, r, s, what, ret, exp, nexp, exp + nexp, nopt, !get, fm, s->filter, matched_own, by_binding, out);
    if (kc.op == RQ_SK_BETWEEN && p->range.s && nall <= nexp + nopt)
        check_range(v, c, r, s, &kc, pv, v2, lo, hi, ret, in, fm, what);
    free(what);
    free(exp);
    json_decref(ret);
    json_decref(in);
done:
    json_decref(values);
    free(pv);
    free(v1);
    free(v2);
    requests_keycond_free(&kc);
}

static bool by_equal(vctx *v, const kp_pattern *p, const json_t *a, const json_t *b)
{
    for (size_t i = 0; i < p->nby; i++) {
        const char *x = sv(a, p->by[i].attr.s), *y = sv(b, p->by[i].attr.s);
        if (x && y && strcmp(x, y) != 0)
            return false;
    }
    (void)v;
    return true;
}

static void run_scan(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s, const json_t *binding,
                     hits *out)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    char *err = NULL;
    const json_t *samples[1] = {binding};
    json_t *in = requests_step_input(d, r, s, v->table, NULL, samples, 1, true, &err);
    if (!in) {
        fail(c, "%s", err);
        free(err);
        return;
    }
    json_t *ret = run_paged(v, c, "Scan", in, "Items");
    if (!ret) {
        json_decref(in);
        return;
    }
    const witem **exp = xcalloc(v->w.n + 1, sizeof *exp);
    size_t nexp = 0;
    double bytes = 0;
    const char *fx = jstr(in, "FilterExpression");
    const json_t *fvals = json_object_get(in, "ExpressionAttributeValues");
    const json_t *fnames = json_object_get(in, "ExpressionAttributeNames");
    for (size_t i = 0; i < v->w.n; i++) {
        const json_t *it = v->w.v[i].item;
        if (!on_index(d, s->index, it))
            continue;
        bytes += (double)read_size(d, s->index, it);
        json_t *view = projected(d, s->index, it);
        int keep = fx ? requests_filter_eval(fx, view, fvals, fnames) : 1;
        json_decref(view);
        if (keep < 0) {
            /* unreadable filter: the pattern's `by` values, compared as text */
            keep = 1;
            for (size_t b = 0; b < p->nby && keep; b++) {
                const char *x = sv(it, p->by[b].attr.s);
                const char *y = p->by[b].value ? p->by[b].value : sv(binding, p->by[b].attr.s);
                keep = x && y && strcmp(x, y) == 0;
            }
        }
        if (keep)
            exp[nexp++] = &v->w.v[i];
    }
    double f = unit_factor(p, s->index, d);
    c->predicted += units_of(bytes) * f;
    c->tolerance += f;
    c->cap_checked = true;
    compare(v, c, r, s, "Scan", ret, exp, nexp, NULL, 0, false, FILTER_CLIENT, s->filter, 0, NULL, out);
    free(exp);
    json_decref(ret);
    json_decref(in);
}

static void run_batchget(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s, const witem **want,
                         size_t nwant, hits *out)
{
    const kp_design *d = v->d;
    if (nwant == 0)
        return;
    if (nwant > 100)
        nwant = 100; /* BatchGetItem's limit */
    const json_t **samples = xcalloc(nwant, sizeof *samples);
    for (size_t i = 0; i < nwant; i++)
        samples[i] = want[i]->item;
    char *err = NULL;
    json_t *in = requests_step_input(d, r, s, v->table, NULL, samples, nwant > 100 ? 100 : nwant, false, &err);
    free(samples);
    if (!in) {
        fail(c, "%s", err);
        free(err);
        return;
    }
    json_t *resp = NULL;
    int rc = ddb_call(v->db, "BatchGetItem", in, &resp, &err);
    json_decref(in);
    if (rc != CALL_OK) {
        if (rc == CALL_TRANSPORT) {
            c->fatal = true;
            c->fatal_err = err;
        } else {
            fail(c, "BatchGetItem rejected: %s", err);
            free(err);
        }
        return;
    }
    c->requests++;
    c->measured += consumed(resp);
    json_t *ret = json_object_get(json_object_get(resp, "Responses"), v->table);
    double f = unit_factor(r->pattern, -1, d), units = 0;
    for (size_t i = 0; i < nwant; i++)
        units += units_of((double)items_size(want[i]->item));
    c->predicted += units * f;
    c->tolerance += f;
    c->cap_checked = true;
    json_t *none = json_array();
    compare(v, c, r, s, "BatchGetItem", ret ? ret : none, want, nwant, NULL, 0, false,
            r->filter || (s->filter && *s->filter) ? FILTER_CLIENT : FILTER_NONE, s->filter, 0, NULL, out);
    json_decref(none);
    json_decref(resp);
}

static const json_t *entity_items(vctx *v, const kp_entity *e)
{
    return e ? json_object_get(v->sample, e->name) : NULL;
}

/* The anchor of a later step: an item of its entity that agrees with the first step's `by`
 * values, else requests_anchor's choice. */
static const json_t *step_anchor(vctx *v, const kp_pattern *p, const kp_step *s, const kp_entity *e,
                                 const json_t *binding)
{
    const json_t *items = entity_items(v, e);
    if (binding) {
        size_t i;
        json_t *it;
        json_array_foreach((json_t *)items, i, it) if (on_index(v->d, s->index, it) && by_equal(v, p, it, binding))
            return it;
    }
    return requests_anchor(v->d, p, e, s->index, items);
}

static void verify_read(vctx *v, check *c, const kp_pattern_result *r)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    json_t *binding = NULL; /* the first step's anchor: the caller's `by` values */
    hits prev = {0};
    for (size_t k = 0; k < r->nsteps && !c->fatal; k++) {
        const kp_step *s = &r->steps[k];
        const kp_entity *e = s->entity ? s->entity : (p->nentities ? design_entity(d, p->entities[0].s) : NULL);
        hits got = {0};
        if (k > 0 && p->njoin > 0) {
            /* a chain: the previous result supplies this step's keys */
            const witem **want = xcalloc(v->w.n + 1, sizeof *want);
            size_t nwant = 0;
            for (size_t i = 0; i < v->w.n; i++) {
                if (v->w.v[i].e != e)
                    continue;
                bool found = false;
                for (size_t q = 0; q < prev.n && !found; q++) {
                    bool all = true;
                    for (size_t j = 0; j < p->njoin && all; j++) {
                        const char *x = sv(v->w.v[i].item, p->join[j].to.s);
                        const char *y = sv(prev.v[q].w->item, p->join[j].from.s);
                        all = x && y && strcmp(x, y) == 0;
                    }
                    found = all;
                }
                if (found)
                    want[nwant++] = &v->w.v[i];
            }
            if (s->op == KP_OP_BATCHGET) {
                run_batchget(v, c, r, s, want, nwant, &got);
            } else if (s->op == KP_OP_GETITEM || s->op == KP_OP_QUERY) {
                for (size_t i = 0; i < nwant && i < 10 && !c->fatal; i++)
                    run_keyed(v, c, r, s, want[i]->item, want[i]->item, want[i]->item, NULL, &got);
            }
            if (nwant == 0)
                sbuf_printf(&c->info, "(step %zu: the previous result names no loaded %s item) ", k + 1,
                            e ? e->name : "");
            free(want);
        } else if (s->op == KP_OP_BATCHGET) {
            /* a batch without a chain: the items of the entity that match the caller's values */
            const witem **want = xcalloc(v->w.n + 1, sizeof *want);
            size_t nwant = 0;
            for (size_t i = 0; i < v->w.n && nwant < 100; i++)
                if (v->w.v[i].e == e && (!binding || by_equal(v, p, v->w.v[i].item, binding)))
                    want[nwant++] = &v->w.v[i];
            run_batchget(v, c, r, s, want, nwant, &got);
            free(want);
        } else {
            const json_t *anchor = k == 0 ? requests_anchor(d, p, e, s->index, entity_items(v, e))
                                          : step_anchor(v, p, s, e, binding);
            if (!anchor) {
                fail(c, "no sample %s item lies on %s with the pattern's values", e ? e->name : "(no entity)",
                     s->index < 0 ? "the table" : d->indexes[s->index].name);
                free(got.v);
                break;
            }
            if (!binding)
                binding = json_deep_copy(anchor);
            json_t *b = json_deep_copy(anchor);
            for (size_t q = 0; q < p->nby; q++) /* the caller's values hold for every step */
                if (json_object_get(binding, p->by[q].attr.s) && json_object_get(b, p->by[q].attr.s))
                    json_object_set(b, p->by[q].attr.s, json_object_get(binding, p->by[q].attr.s));
            if (s->op == KP_OP_SCAN) {
                run_scan(v, c, r, s, b, &got);
            } else {
                const char *fan[4];
                size_t nfan;
                fanout_attrs(d, p, s, fan, &nfan);
                size_t combos = 1;
                for (size_t q = 0; q < nfan; q++)
                    combos *= attr_value_count(design_attr(d, fan[q]));
                if (combos > 64)
                    combos = 64;
                for (size_t m = 0; m < combos && !c->fatal; m++) {
                    json_t *bm = json_deep_copy(b);
                    size_t rest = m;
                    for (size_t q = 0; q < nfan; q++) {
                        const kp_attr *a = design_attr(d, fan[q]);
                        size_t cnt = attr_value_count(a);
                        set_attr_value(bm, a, cnt ? rest % cnt : 0);
                        rest = cnt ? rest / cnt : 0;
                    }
                    json_t *lo, *hi;
                    range_bounds(v, p, e, s->index, bm, &lo, &hi);
                    run_keyed(v, c, r, s, bm, lo, hi, bm, &got);
                    json_decref(lo);
                    json_decref(hi);
                    json_decref(bm);
                }
                if (nfan)
                    sbuf_printf(&c->info, "fan-out over %zu values ", combos);
            }
            json_decref(b);
        }
        if (r->nsteps == 1 || k == 0)
            check_order(v, c, r, &got);
        free(prev.v);
        prev = got;
    }
    free(prev.v);
    json_decref(binding);
}

/* ---- writes ---------------------------------------------------------------------------------- */

/* A fresh item of `e` (a key no loaded item has), or NULL. New reference. */
static json_t *fresh_item(vctx *v, const kp_entity *e)
{
    size_t have = json_array_size(entity_items(v, e));
    json_t *g = items_generate(v->d, e, have + 4, ITEMS_DEFAULT_SEED);
    json_t *out = NULL;
    for (size_t i = json_array_size(g); i-- > 0 && !out;) {
        char *k = key_text(v->d, json_array_get(g, i));
        if (!world_find(&v->w, k)) {
            out = json_incref(json_array_get(g, i));
            items_pad(e, out);
        }
        free(k);
    }
    json_decref(g);
    return out;
}

/* Write units of a new item by the model's rules: 1 KB units, each index holding it writes its
 * projected entry. */
static double write_units(const kp_design *d, const json_t *item)
{
    double u = ceil((double)items_size(item) / 1024.0);
    if (u < 1)
        u = 1;
    for (size_t i = 0; i < d->nindexes; i++)
        if (on_index(d, (ptrdiff_t)i, item)) {
            double x = ceil((double)read_size(d, (ptrdiff_t)i, item) / 1024.0);
            u += x < 1 ? 1 : x;
        }
    return u;
}

static void verify_write(vctx *v, check *c, const kp_pattern_result *r)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    for (size_t k = 0; k < r->nsteps && !c->fatal; k++) {
        const kp_step *s = &r->steps[k];
        const char *op = kp_op_name(s->op);
        if (s->op != KP_OP_PUTITEM && s->op != KP_OP_UPDATEITEM && s->op != KP_OP_DELETEITEM &&
            s->op != KP_OP_TRANSACTWRITE)
            continue; /* the read half of a find-then-write is not re-checked here */
        const kp_entity *e = s->entity ? s->entity : (p->nentities ? design_entity(d, p->entities[0].s) : NULL);
        const json_t *samples[100];
        size_t ns = 0;
        json_t *hold = json_array();
        if (s->op == KP_OP_TRANSACTWRITE) {
            for (size_t q = 0; q < p->nentities && ns < 100; q++) {
                json_t *f = fresh_item(v, design_entity(d, p->entities[q].s));
                if (f) {
                    json_array_append_new(hold, f);
                    samples[ns++] = f;
                }
            }
        } else if (s->op == KP_OP_PUTITEM) {
            json_t *f = e ? fresh_item(v, e) : NULL;
            if (f) {
                json_array_append_new(hold, f);
                samples[ns++] = f;
            }
        } else {
            const json_t *items = entity_items(v, e);
            if (json_array_size(items))
                samples[ns++] = json_array_get(items, json_array_size(items) - 1);
        }
        if (ns == 0) {
            fail(c, "no sample %s item to write", e ? e->name : "");
            json_decref(hold);
            continue;
        }
        char *err = NULL;
        json_t *in = requests_step_input(d, r, s, v->table, NULL, samples, ns, false, &err);
        if (!in) {
            fail(c, "%s", err);
            free(err);
            json_decref(hold);
            continue;
        }
        json_t *resp = NULL;
        int rc = ddb_call(v->db, op, in, &resp, &err);
        json_decref(in);
        if (rc == CALL_TRANSPORT) {
            c->fatal = true;
            c->fatal_err = err;
            json_decref(hold);
            return;
        }
        if (rc == CALL_API) {
            fail(c, "%s rejected: %s", op, err);
            free(err);
            json_decref(hold);
            continue;
        }
        c->requests++;
        c->items += ns;
        c->measured += consumed(resp);
        if (s->op == KP_OP_PUTITEM) {
            /* a new item: the model's write units are exact up to the number-size estimate */
            c->predicted += write_units(d, samples[0]);
            c->tolerance += 1;
            c->cap_checked = true;
        } else {
            c->cap_unchecked = true;
        }
        json_decref(resp);
        json_decref(hold);
    }
}

/* ---- table lifecycle ------------------------------------------------------------------------- */

static void add_attr_def(const kp_design *d, json_t *defs, const char *name)
{
    size_t i;
    json_t *x;
    json_array_foreach(defs, i, x) if (strcmp(jstr(x, "AttributeName"), name) == 0) return;
    json_array_append_new(defs, json_pack("{s:s,s:s}", "AttributeName", name, "AttributeType", items_key_type(d, name)));
}

static json_t *key_schema(const char *pk, const char *sk)
{
    json_t *k = json_pack("[{s:s,s:s}]", "AttributeName", pk, "KeyType", "HASH");
    if (sk)
        json_array_append_new(k, json_pack("{s:s,s:s}", "AttributeName", sk, "KeyType", "RANGE"));
    return k;
}

static json_t *projection(const kp_index *x)
{
    if (x->projection == KP_PROJ_KEYS)
        return json_pack("{s:s}", "ProjectionType", "KEYS_ONLY");
    if (x->projection == KP_PROJ_INCLUDE && x->ninclude) {
        json_t *n = json_array();
        for (size_t i = 0; i < x->ninclude; i++)
            json_array_append_new(n, json_string(x->include[i].s));
        return json_pack("{s:s,s:o}", "ProjectionType", "INCLUDE", "NonKeyAttributes", n);
    }
    if (x->projection == KP_PROJ_INCLUDE)
        return json_pack("{s:s}", "ProjectionType", "KEYS_ONLY");
    return json_pack("{s:s}", "ProjectionType", "ALL");
}

static json_t *create_table_input(const kp_design *d, const char *table)
{
    json_t *defs = json_array();
    add_attr_def(d, defs, d->table.pk.s);
    if (d->table.sk.s)
        add_attr_def(d, defs, d->table.sk.s);
    json_t *gsis = json_array(), *lsis = json_array();
    for (size_t i = 0; i < d->nindexes; i++) {
        const kp_index *x = &d->indexes[i];
        add_attr_def(d, defs, x->pk.s);
        if (x->sk.s)
            add_attr_def(d, defs, x->sk.s);
        json_t *ix = json_pack("{s:s,s:o,s:o}", "IndexName", x->name, "KeySchema", key_schema(x->pk.s, x->sk.s),
                               "Projection", projection(x));
        json_array_append_new(x->kind == KP_LSI ? lsis : gsis, ix);
    }
    json_t *in = json_pack("{s:s,s:o,s:o,s:s}", "TableName", table, "AttributeDefinitions", defs, "KeySchema",
                           key_schema(d->table.pk.s, d->table.sk.s), "BillingMode", "PAY_PER_REQUEST");
    if (json_array_size(gsis))
        json_object_set(in, "GlobalSecondaryIndexes", gsis);
    if (json_array_size(lsis))
        json_object_set(in, "LocalSecondaryIndexes", lsis);
    json_decref(gsis);
    json_decref(lsis);
    return in;
}

static int wait_active(vctx *v, char **err)
{
    json_t *in = json_pack("{s:s}", "TableName", v->table);
    int rc = CALL_TRANSPORT;
    for (int i = 0; i < 600 && !(v->o->stop && *v->o->stop); i++) { /* up to 2 minutes */
        json_t *resp = NULL;
        rc = ddb_call(v->db, "DescribeTable", in, &resp, err);
        if (rc != CALL_OK)
            break;
        json_t *t = json_object_get(resp, "Table");
        bool active = jstr(t, "TableStatus") && strcmp(jstr(t, "TableStatus"), "ACTIVE") == 0;
        size_t k;
        json_t *g;
        json_array_foreach(json_object_get(t, "GlobalSecondaryIndexes"), k, g)
        {
            const char *st = jstr(g, "IndexStatus");
            if (st && strcmp(st, "ACTIVE") != 0)
                active = false;
        }
        json_decref(resp);
        if (active) {
            json_decref(in);
            return CALL_OK;
        }
        usleep(200000);
        rc = CALL_TRANSPORT;
    }
    json_decref(in);
    if (rc == CALL_TRANSPORT && !*err)
        *err = v->o->stop && *v->o->stop ? xstrdup("interrupted")
                                          : xasprintf("table %s did not become ACTIVE within 2 minutes", v->table);
    return rc;
}

static int load_items(vctx *v, char **err)
{
    json_t *puts = json_array();
    for (size_t i = 0; i < v->w.n; i++)
        json_array_append_new(puts, json_pack("{s:{s:O}}", "PutRequest", "Item", v->w.v[i].item));
    int rc = CALL_OK;
    for (size_t off = 0; off < json_array_size(puts) && rc == CALL_OK; off += 25) {
        json_t *chunk = json_array();
        for (size_t k = off; k < off + 25 && k < json_array_size(puts); k++)
            json_array_append(chunk, json_array_get(puts, k));
        for (int attempt = 0; attempt < 10 && json_array_size(chunk); attempt++) {
            json_t *in = json_pack("{s:{s:O}}", "RequestItems", v->table, chunk);
            json_t *resp = NULL;
            rc = ddb_call(v->db, "BatchWriteItem", in, &resp, err);
            json_decref(in);
            if (rc != CALL_OK)
                break;
            json_t *un = json_object_get(json_object_get(resp, "UnprocessedItems"), v->table);
            json_decref(chunk);
            chunk = json_array();
            if (un)
                json_array_extend(chunk, un);
            json_decref(resp);
            if (json_array_size(chunk))
                usleep((useconds_t)(50000u << attempt));
        }
        if (rc == CALL_OK && json_array_size(chunk)) {
            *err = xstrdup("BatchWriteItem kept leaving items unprocessed");
            rc = CALL_TRANSPORT;
        }
        json_decref(chunk);
    }
    json_decref(puts);
    return rc;
}

static char *fresh_table_name(const char *base)
{
    sbuf b;
    sbuf_init(&b);
    for (const char *c = base ? base : "keyplan"; *c && b.len < 180; c++)
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
            *c == '-' || *c == '.')
            sbuf_addc(&b, *c);
    sbuf_printf(&b, "%s-verify-%ld-%ld", b.len ? "" : "keyplan", (long)time(NULL), (long)getpid());
    return sbuf_steal(&b);
}

static bool is_read_plan(kp_plan p) { return p == KP_PLAN_GET || p == KP_PLAN_QUERY || p == KP_PLAN_SCAN || p == KP_PLAN_MULTI; }

static void print_line(const verify_opts *o, const char *status, const kp_pattern_result *r, const check *c)
{
    const kp_pattern *p = r->pattern;
    fprintf(o->out, "%-4s  %-4s %s  [%s", status, p->id ? p->id : "?", p->name ? p->name : "", kp_plan_word(r->plan));
    if (r->index_name && r->plan != KP_PLAN_OUTSIDE && r->plan != KP_PLAN_COVERED)
        fprintf(o->out, " on %s", r->index_name);
    fprintf(o->out, "]");
    if (c) {
        if (c->info.len)
            fprintf(o->out, " %s", c->info.s);
        if (c->requests)
            fprintf(o->out, " %zu request(s), %zu item(s);", c->requests, c->items);
        if (c->requests && c->cap_checked)
            fprintf(o->out, " capacity %.1f units measured, %.1f predicted (tolerance %.1f)%s", c->measured,
                    c->predicted, c->tolerance, c->cap_unchecked ? " for the checked requests" : "");
        else if (c->requests)
            fprintf(o->out, " capacity %.1f units measured (not compared: updates, deletes and transactions "
                    "depend on the item's previous state and DynamoDB Local's accounting)", c->measured);
        if (c->why.len)
            fprintf(o->out, "\n      why: %s", c->why.s);
    }
    fputc('\n', o->out);
}

int verify_run(const kp_design *d, const kp_analysis *a, const verify_opts *o, char **err)
{
    *err = NULL;
    if (!o->endpoint || (strncmp(o->endpoint, "http://", 7) != 0 && strncmp(o->endpoint, "https://", 8) != 0)) {
        *err = xasprintf("--endpoint '%s' is not an http:// or https:// URL", o->endpoint ? o->endpoint : "");
        return 2;
    }
    if (!d->table.name || !d->table.pk.s) {
        *err = xstrdup("the design has no table name or partition key");
        return 2;
    }
    verify_creds cr;
    if (!verify_creds_load(&cr, o->region, err))
        return 2;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        verify_creds_free(&cr);
        *err = xstrdup("cannot initialise libcurl");
        return 2;
    }
    ddb db = {0};
    db.curl = curl_easy_init();
    db.url = xstrdup(o->endpoint);
    db.userpwd = xasprintf("%s:%s", cr.access_key, cr.secret_key);
    db.sigv4 = xasprintf("aws:amz:%s:dynamodb", cr.region);
    if (cr.session_token)
        db.token_header = xasprintf("X-Amz-Security-Token: %s", cr.session_token);
    verify_creds_free(&cr);

    vctx v = {.d = d, .a = a, .o = o, .db = &db};
    v.table = fresh_table_name(d->table.name);
    json_t *collisions = NULL;
    v.sample = items_sample(d, ITEMS_DEFAULT_SEED, true, &collisions);
    v.w.d = d;
    for (size_t i = 0; i < d->nentities; i++) {
        size_t k;
        json_t *it;
        json_array_foreach(json_object_get(v.sample, d->entities[i].name), k, it)
        {
            VEC_GROW(v.w.v, v.w.n, v.w.cap);
            v.w.v[v.w.n++] = (witem){&d->entities[i], it, key_text(d, it)};
        }
    }

    int status = 0;
    bool created = false;
    json_t *resp = NULL;
    json_t *in = create_table_input(d, v.table);
    int rc = ddb_call(&db, "CreateTable", in, &resp, err);
    json_decref(in);
    json_decref(resp);
    if (rc != CALL_OK) {
        if (rc == CALL_API) { /* DynamoDB refused the table the design describes */
            char *m = *err;
            *err = xasprintf("DynamoDB refused to create table %s from the design: %s", v.table, m);
            free(m);
        }
        status = 2;
        goto out;
    }
    created = true;
    if (wait_active(&v, err) != CALL_OK || load_items(&v, err) != CALL_OK || (o->stop && *o->stop)) {
        if (!*err)
            *err = xstrdup("interrupted");
        status = 2;
        goto out;
    }
    fprintf(o->out, "verify: table %s at %s: %zu sample items of %zu entities loaded\n", v.table, o->endpoint, v.w.n,
            d->nentities);
    fprintf(o->out, "verify: capacity is compared with the model's rules over the items each request reads; "
                    "tolerance one read unit per request\n");

    size_t passed = 0, failed = 0, skipped = 0;
    size_t i;
    json_t *cx;
    json_array_foreach(collisions, i, cx)
    {
        fprintf(o->out, "FAIL  keys  %s and %s items get the same primary key (%s): one overwrites the other\n",
                jstr(cx, "entity"), jstr(cx, "other"), jstr(cx, "key"));
        failed++;
    }
    for (int pass = 0; pass < 2 && status != 2; pass++) { /* reads first, then writes */
        for (size_t k = 0; a && k < a->npatterns; k++) {
            const kp_pattern_result *r = &a->patterns[k];
            if (o->stop && *o->stop) {
                *err = xstrdup("interrupted");
                status = 2;
                break;
            }
            if (!r->pattern)
                continue;
            bool read = r->pattern->kind == KP_READ;
            if ((pass == 0) != read)
                continue;
            if (r->plan == KP_PLAN_OUTSIDE || r->plan == KP_PLAN_COVERED) {
                if (pass == 0 || !read) {
                    print_line(o, "SKIP", r, NULL);
                    skipped++;
                }
                continue;
            }
            check c = {0};
            sbuf_init(&c.why);
            sbuf_init(&c.info);
            if (r->plan == KP_PLAN_INVALID || r->nsteps == 0) {
                fail(&c, "the model has no plan for this pattern");
            } else if (read && r->plan == KP_PLAN_SCAN && r->pattern->nentities == 0) {
                sbuf_add(&c.info, "(names no entity: nothing to compare; the model says only a Scan could serve it)");
                print_line(o, "SKIP", r, &c);
                skipped++;
                sbuf_free(&c.why);
                sbuf_free(&c.info);
                continue;
            } else if (read && is_read_plan(r->plan)) {
                verify_read(&v, &c, r);
            } else {
                verify_write(&v, &c, r);
            }
            if (!c.failed && !c.fatal && c.cap_checked &&
                fabs(c.measured - c.predicted) > c.tolerance + 1e-9)
                fail(&c, "DynamoDB consumed %.1f capacity units where the model's rules give %.1f for the same items",
                     c.measured, c.predicted);
            if (c.fatal) {
                *err = c.fatal_err;
                status = 2;
            } else {
                print_line(o, c.failed ? "FAIL" : "PASS", r, &c);
                if (c.failed)
                    failed++;
                else
                    passed++;
            }
            sbuf_free(&c.why);
            sbuf_free(&c.info);
            if (status == 2)
                break;
        }
    }
    if (status != 2) {
        fprintf(o->out, "verify: %zu passed, %zu failed, %zu skipped (%zu requests)\n", passed, failed, skipped,
                db.requests);
        status = failed ? 1 : 0;
    }
out:
    if (created) {
        json_t *del = json_pack("{s:s}", "TableName", v.table);
        json_t *dresp = NULL;
        char *derr = NULL;
        if (ddb_call(&db, "DeleteTable", del, &dresp, &derr) == CALL_OK)
            fprintf(o->out, "verify: table %s deleted\n", v.table);
        else
            fprintf(o->err ? o->err : stderr, "keyplan: verify: could not delete table %s: %s\n", v.table,
                    derr ? derr : "?");
        free(derr);
        json_decref(dresp);
        json_decref(del);
    }
    json_decref(collisions);
    json_decref(v.sample);
    world_free(&v.w);
    free(v.table);
    free(db.url);
    wipe_free(db.userpwd);
    free(db.sigv4);
    wipe_free(db.token_header);
    curl_easy_cleanup(db.curl);
    curl_global_cleanup();
    return status;
}
