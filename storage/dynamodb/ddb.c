/* ddb.c - the DynamoDB HTTP client (see ddb.h). */
#include "ddb.h"
#include "i18n.h"

#include "util.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The libcurl functions the client calls, found when it opens (dlopen): only verify talks to
 * DynamoDB, so every other command starts without loading libcurl and its TLS, Kerberos, LDAP...
 * libraries. Each client holds its own table (no global state). Once loaded, libcurl stays to the
 * end of the process: it and the TLS libraries it pulls are not made to be unloaded (their exit
 * handlers and thread-local storage would point into unmapped code), so nothing here calls
 * dlclose; the loader hands the same library to the next dlopen. */
typedef struct curl_api {
    curl_version_info_data *(*version_info)(CURLversion);
    CURLcode (*global_init)(long);
    void (*global_cleanup)(void);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl_api;

/* CURLOPT_AWS_SIGV4 came with libcurl 7.75.0. */
#define DDB_CURL_MIN 0x074b00

/* Loads libcurl from `file` into *api. false with *err (caller frees) saying what is missing. */
static bool curl_load(const char *file, curl_api *api, char **err)
{
    memset(api, 0, sizeof *api);
    void *lib = dlopen(file, RTLD_NOW | RTLD_LOCAL); /* never closed (above) */
    if (!lib) {
        const char *why = dlerror();
        *err = xasprintf(_("verify needs libcurl (%s), which does not load: %s; install it (Debian: apt "
                           "install libcurl4)"),
                         file, why ? why : _("not found"));
        return false;
    }
    /* POSIX's way of taking a function from dlsym: through a void * lvalue */
    struct {
        const char *name;
        void **slot;
    } syms[] = {
        {"curl_version_info", (void **)&api->version_info},
        {"curl_global_init", (void **)&api->global_init},
        {"curl_global_cleanup", (void **)&api->global_cleanup},
        {"curl_easy_init", (void **)&api->easy_init},
        {"curl_easy_cleanup", (void **)&api->easy_cleanup},
        {"curl_easy_reset", (void **)&api->easy_reset},
        {"curl_easy_setopt", (void **)&api->easy_setopt},
        {"curl_easy_perform", (void **)&api->easy_perform},
        {"curl_easy_getinfo", (void **)&api->easy_getinfo},
        {"curl_easy_strerror", (void **)&api->easy_strerror},
        {"curl_slist_append", (void **)&api->slist_append},
        {"curl_slist_free_all", (void **)&api->slist_free_all},
    };
    for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
        *syms[i].slot = dlsym(lib, syms[i].name);
        if (!*syms[i].slot) {
            *err = xasprintf(_("verify needs libcurl, but %s has no %s"), file, syms[i].name);
            return false;
        }
    }
    const curl_version_info_data *v = api->version_info(CURLVERSION_NOW);
    if (!v || v->version_num < DDB_CURL_MIN) {
        *err = xasprintf(_("verify needs libcurl 7.75.0 or later (AWS SigV4 signing); %s is %s"), file,
                         v && v->version ? v->version : "older");
        return false;
    }
    return true;
}

bool ddb_curl_check(const char *file, char **err)
{
    curl_api api;
    return curl_load(file ? file : DDB_LIBCURL, &api, err); /* stays loaded (see curl_api) */
}

struct ddb {
    curl_api api;
    CURL *curl;
    char *url;
    char *userpwd;
    char *sigv4;
    char *token_header;
    size_t requests; /* sent */
    volatile sig_atomic_t *stop;
};

/* What a transfer's callbacks see. */
typedef struct xfer {
    sbuf body;
    bool too_long;
    volatile sig_atomic_t *stop;
} xfer;

ddb *ddb_open(const char *endpoint, const kp_creds *c, char **err)
{
    curl_api api;
    if (!curl_load(DDB_LIBCURL, &api, err))
        return NULL;
    if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        *err = xstrdup(_("cannot initialise libcurl"));
        return NULL;
    }
    CURL *curl = api.easy_init();
    if (!curl) {
        *err = xstrdup(_("cannot initialise libcurl"));
        api.global_cleanup();
        return NULL;
    }
    ddb *db = xcalloc(1, sizeof *db);
    db->api = api;
    db->curl = curl;
    db->url = xstrdup(endpoint);
    db->userpwd = xasprintf("%s:%s", c->access_key, c->secret_key);
    db->sigv4 = xasprintf("aws:amz:%s:dynamodb", c->region);
    if (c->session_token)
        db->token_header = xasprintf("X-Amz-Security-Token: %s", c->session_token);
    return db;
}

void ddb_close(ddb *db)
{
    if (!db)
        return;
    free(db->url);
    creds_wipe_free(db->userpwd);
    free(db->sigv4);
    creds_wipe_free(db->token_header);
    curl_api api = db->api;
    api.easy_cleanup(db->curl);
    free(db);
    api.global_cleanup(); /* the library stays loaded (see curl_api) */
}

size_t ddb_requests(const ddb *db) { return db->requests; }

void ddb_set_stop(ddb *db, volatile sig_atomic_t *stop) { db->stop = stop; }

static size_t on_body(char *data, size_t size, size_t nmemb, void *ctx)
{
    xfer *x = ctx;
    size_t n = size * nmemb;
    if (x->body.len + n > DDB_MAX_RESPONSE) {
        x->too_long = true;
        return 0; /* libcurl stops the transfer */
    }
    sbuf_addn(&x->body, data, n);
    return n;
}

/* Called by libcurl at least once a second while a transfer runs: non-zero abandons it. */
static int on_progress(void *ctx, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
    (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
    const xfer *x = ctx;
    return x->stop && *x->stop ? 1 : 0;
}

static bool stopped(const ddb *c) { return c->stop && *c->stop; }

ddb_status ddb_call(ddb *c, const char *op, const json_t *in, json_t **out, char **err)
{
    *out = NULL;
    char *body = in ? json_dumps(in, JSON_COMPACT) : NULL;
    if (!body) {
        *err = xasprintf(_("cannot write the %s request as JSON"), op);
        return DDB_TRANSPORT;
    }
    char *target = xasprintf("X-Amz-Target: DynamoDB_20120810.%s", op);
    ddb_status rc = DDB_TRANSPORT;
    for (int attempt = 0; attempt < 5; attempt++) {
        struct curl_slist *h = NULL;
        h = c->api.slist_append(h, "Content-Type: application/x-amz-json-1.0");
        h = c->api.slist_append(h, target);
        if (c->token_header)
            h = c->api.slist_append(h, c->token_header);
        xfer x = {.stop = c->stop};
        sbuf_init(&x.body);
        sbuf_add(&x.body, "");
        c->api.easy_reset(c->curl);
        c->api.easy_setopt(c->curl, CURLOPT_URL, c->url);
        c->api.easy_setopt(c->curl, CURLOPT_POST, 1L);
        c->api.easy_setopt(c->curl, CURLOPT_POSTFIELDS, body);
        c->api.easy_setopt(c->curl, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
        c->api.easy_setopt(c->curl, CURLOPT_HTTPHEADER, h);
        c->api.easy_setopt(c->curl, CURLOPT_USERPWD, c->userpwd);
        c->api.easy_setopt(c->curl, CURLOPT_AWS_SIGV4, c->sigv4);
        c->api.easy_setopt(c->curl, CURLOPT_WRITEFUNCTION, on_body);
        c->api.easy_setopt(c->curl, CURLOPT_WRITEDATA, &x);
        c->api.easy_setopt(c->curl, CURLOPT_XFERINFOFUNCTION, on_progress);
        c->api.easy_setopt(c->curl, CURLOPT_XFERINFODATA, &x);
        c->api.easy_setopt(c->curl, CURLOPT_NOPROGRESS, 0L);
        c->api.easy_setopt(c->curl, CURLOPT_CONNECTTIMEOUT, 5L);
        c->api.easy_setopt(c->curl, CURLOPT_TIMEOUT, 60L);
        c->api.easy_setopt(c->curl, CURLOPT_NOSIGNAL, 1L);
        CURLcode cc = c->api.easy_perform(c->curl);
        c->api.slist_free_all(h);
        c->requests++;
        if (cc != CURLE_OK) {
            if (x.too_long)
                *err = xasprintf(
                    _("%s answered %s with more than %zu MiB; DynamoDB's answers hold at most 16 MB"), c->url,
                    op, DDB_MAX_RESPONSE >> 20);
            else if (cc == CURLE_ABORTED_BY_CALLBACK)
                *err = xstrdup(_("interrupted"));
            else
                *err = xasprintf(_("cannot reach %s: %s"), c->url, c->api.easy_strerror(cc));
            sbuf_free(&x.body);
            rc = DDB_TRANSPORT;
            break;
        }
        long status = 0;
        c->api.easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &status);
        json_error_t je;
        json_t *j = json_loadb(x.body.s, x.body.len, 0, &je);
        if (status == 200 && json_is_object(j)) {
            *out = j;
            rc = DDB_OK;
            sbuf_free(&x.body);
            break;
        }
        const char *type = json_string_value(json_object_get(j, "__type"));
        const char *msg = json_string_value(json_object_get(j, "Message"));
        if (!msg)
            msg = json_string_value(json_object_get(j, "message"));
        bool retry =
            status >= 500 || (type && (strstr(type, "Throttling") || strstr(type, "ProvisionedThroughput") ||
                                       strstr(type, "RequestLimitExceeded")));
        if (retry && attempt < 4 && !stopped(c)) {
            json_decref(j);
            sbuf_free(&x.body);
            for (unsigned ms = 0; ms < (100u << attempt) && !stopped(c); ms += 10)
                usleep(10000);
            continue;
        }
        if (type) {
            const char *hash = strrchr(type, '#');
            *err = xasprintf("%s: %s", hash ? hash + 1 : type, msg ? msg : _("(no message)"));
            rc = DDB_API;
        } else {
            /* TRANSLATORS: %1$s the endpoint, %2$ld the HTTP status, %3$s the operation (Query), %4$s
               the start of the answer's body */
            *err = x.body.len ? xasprintf(_("%1$s answered HTTP %2$ld to %3$s: %4$.200s"), c->url, status, op,
                                          x.body.s)
                              : xasprintf(_("%1$s answered HTTP %2$ld to %3$s"), c->url, status, op);
            rc = DDB_TRANSPORT;
        }
        json_decref(j);
        sbuf_free(&x.body);
        break;
    }
    free(target);
    free(body);
    return rc;
}
