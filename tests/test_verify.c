/* test_verify.c - where verify takes its credentials and region from (environment, profile
 * files, option), and its refusals before any network use. The runs against DynamoDB Local are
 * in tests/e2e_verify.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "design_io.h"
#include "creds.h"
#include "ddb.h"
#include "verify.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const env_names[] = {"AWS_ACCESS_KEY_ID",
                                        "AWS_SECRET_ACCESS_KEY",
                                        "AWS_SESSION_TOKEN",
                                        "AWS_REGION",
                                        "AWS_DEFAULT_REGION",
                                        "AWS_PROFILE",
                                        "AWS_SHARED_CREDENTIALS_FILE",
                                        "AWS_CONFIG_FILE",
                                        "HOME"};

static const struct creds_case {
    const char *env[9]; /* values for env_names, NULL = unset; "@creds"/"@config"/"@home" = files */
    const char *region_opt;
    bool ok;
    const char *key, *token, *region;
} cases[] = {
    /* environment keys, default region */
    {{"AKENV", "secret", NULL, NULL, NULL, NULL, NULL, NULL, "@home"},
     NULL,
     true,
     "AKENV",
     NULL,
     "us-east-1"},
    /* AWS_REGION wins over AWS_DEFAULT_REGION; the option wins over both */
    {{"AKENV", "secret", "tok", "eu-west-1", "us-west-2", NULL, NULL, NULL, "@home"},
     NULL,
     true,
     "AKENV",
     "tok",
     "eu-west-1"},
    {{"AKENV", "secret", NULL, NULL, "us-west-2", NULL, NULL, NULL, "@home"},
     NULL,
     true,
     "AKENV",
     NULL,
     "us-west-2"},
    {{"AKENV", "secret", NULL, "eu-west-1", NULL, NULL, NULL, NULL, "@home"},
     "ap-south-1",
     true,
     "AKENV",
     NULL,
     "ap-south-1"},
    /* profile file: default profile, then a named one with its region in the config file */
    {{NULL, NULL, NULL, NULL, NULL, NULL, "@creds", "@config", "@home"},
     NULL,
     true,
     "AKDEFAULT",
     NULL,
     "us-east-1"},
    {{NULL, NULL, NULL, NULL, NULL, "work", "@creds", "@config", "@home"},
     NULL,
     true,
     "AKWORK",
     "worktoken",
     "eu-central-1"},
    /* a key without its secret in the environment falls back to the profile */
    {{"AKENV", NULL, NULL, NULL, NULL, NULL, "@creds", NULL, "@home"},
     NULL,
     true,
     "AKDEFAULT",
     NULL,
     "us-east-1"},
    /* nothing anywhere; an unknown profile */
    {{NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "@home"}, NULL, false, NULL, NULL, NULL},
    {{NULL, NULL, NULL, NULL, NULL, "nope", "@creds", "@config", "@home"}, NULL, false, NULL, NULL, NULL},
};

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_credentials(void **state)
{
    (void)state;
    char *dir = ts_temp_dir();
    assert_non_null(dir);
    char creds[600], config[600], home[600];
    snprintf(creds, sizeof creds, "%s/credentials", dir);
    snprintf(config, sizeof config, "%s/config", dir);
    snprintf(home, sizeof home, "%s/home", dir);
    write_file(creds, "[default]\naws_access_key_id = AKDEFAULT\naws_secret_access_key = s1\n\n"
                      "# a comment\n[work]\naws_access_key_id=AKWORK\naws_secret_access_key=s2\n"
                      "aws_session_token = worktoken\n");
    write_file(config, "[default]\noutput = json\n[profile work]\nregion = eu-central-1\n");
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        for (size_t i = 0; i < sizeof env_names / sizeof *env_names; i++) {
            const char *v = cases[c].env[i];
            if (!v)
                unsetenv(env_names[i]);
            else
                setenv(env_names[i],
                       strcmp(v, "@creds") == 0    ? creds
                       : strcmp(v, "@config") == 0 ? config
                       : strcmp(v, "@home") == 0   ? home
                                                   : v,
                       1);
        }
        kp_creds cr;
        char *err = NULL;
        kp_status st = creds_load(&cr, cases[c].region_opt, &err);
        bool ok = st == KP_OK;
        if (ok != cases[c].ok)
            fail_msg("case %zu: load gave %d, expected %d (%s)", c, ok, cases[c].ok, err ? err : "");
        if (!ok) {
            assert_int_equal(st, KP_NOTFOUND);
            assert_non_null(strstr(err, "no AWS credentials"));
            free(err);
            continue;
        }
        assert_string_equal(cr.access_key, cases[c].key);
        if (cases[c].token)
            assert_string_equal(cr.session_token, cases[c].token);
        else
            assert_null(cr.session_token);
        assert_string_equal(cr.region, cases[c].region);
        creds_free(&cr);
        assert_null(cr.access_key);
    }
    for (size_t i = 0; i < sizeof env_names / sizeof *env_names; i++)
        unsetenv(env_names[i]);
    remove(creds);
    remove(config);
    remove(dir);
    free(dir);
}

/* Refusals that need no endpoint: bad URL, no credentials. Nothing is printed to `out`. */
static void test_refusals(void **state)
{
    (void)state;
    char *path = ts_source_path("samples/cloudshop/design.yaml");
    kp_diags dg;
    diags_init(&dg, NULL);
    kp_design *d = designio_load_file(path, &dg);
    free(path);
    diags_free(&dg);
    assert_non_null(d);
    kp_analysis *a = analysis_run(d);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    static const struct {
        const char *endpoint;
        bool creds;
        kp_status status;
        const char *msg;
    } refusals[] = {
        {"ftp://127.0.0.1:1", true, KP_INVALID, "not an http"},
        {"", true, KP_INVALID, "not an http"},
        {"127.0.0.1:8000", true, KP_INVALID, "not an http"},
        {"http://127.0.0.1:1", false, KP_NOTFOUND, "no AWS credentials"},
    };
    for (size_t c = 0; c < sizeof refusals / sizeof *refusals; c++) {
        unsetenv("AWS_PROFILE");
        setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/keyplan-credentials", 1);
        if (refusals[c].creds) {
            setenv("AWS_ACCESS_KEY_ID", "test", 1);
            setenv("AWS_SECRET_ACCESS_KEY", "test", 1);
        } else {
            unsetenv("AWS_ACCESS_KEY_ID");
            unsetenv("AWS_SECRET_ACCESS_KEY");
        }
        verify_opts o = {.endpoint = refusals[c].endpoint, .out = out, .err = out};
        char *err = NULL;
        verify_summary sum;
        assert_int_equal(verify_run(d, a, &o, &sum, &err), refusals[c].status);
        assert_non_null(err);
        if (!strstr(err, refusals[c].msg))
            fail_msg("case %zu: '%s' lacks '%s'", c, err, refusals[c].msg);
        free(err);
    }
    fclose(out);
    assert_int_equal(len, 0);
    free(buf);
    unsetenv("AWS_SHARED_CREDENTIALS_FILE");
    analysis_free(a);
    design_free(d);
}

/* libcurl is loaded by the DynamoDB client, not linked: a missing or foreign library is a
 * message naming it, and a command that never calls DynamoDB does not load it at all. */
static void test_libcurl_loading(void **state)
{
    (void)state;
    static const struct {
        const char *file; /* NULL = DDB_LIBCURL */
        bool ok;
        const char *msg;
    } loads[] = {
        {NULL, true, NULL},
        {"libkeyplan-no-such-curl.so.4", false, "verify needs libcurl (libkeyplan-no-such-curl.so.4)"},
        {"libm.so.6", false, "libm.so.6 has no curl_version_info"},
    };
    for (size_t c = 0; c < sizeof loads / sizeof *loads; c++) {
        char *err = NULL;
        bool ok = ddb_curl_check(loads[c].file, &err);
        if (ok != loads[c].ok)
            fail_msg("case %zu: %s", c, err ? err : "loaded");
        if (loads[c].msg && (!err || !strstr(err, loads[c].msg)))
            fail_msg("case %zu: '%s' lacks '%s'", c, err ? err : "(none)", loads[c].msg);
        free(err);
    }
    /* the libraries the dynamic loader opens for check and --version: no libcurl among them */
    const char *const commands[][4] = {{"--version", NULL}, {"check", "samples/cloudshop/design.yaml", NULL}};
    for (size_t c = 0; c < sizeof commands / sizeof *commands; c++) {
        setenv("LD_DEBUG", "libs", 1);
        char *path = ts_source_path("samples/cloudshop/design.yaml");
        const char *args[4] = {commands[c][0], commands[c][1] ? path : NULL, NULL};
        char *out = NULL, *err = NULL;
        int st = ts_run_keyplan(args, NULL, &out, &err);
        unsetenv("LD_DEBUG");
        assert_true(st == 0 || st == 1);
        assert_non_null(strstr(err, "libc.so.6")); /* the loader did report */
        if (strstr(err, "libcurl"))
            fail_msg("keyplan %s loads libcurl", commands[c][0]);
        free(out);
        free(err);
        free(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_credentials),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_libcurl_loading),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
