/* creds.c - AWS credentials and region from the environment and the shared files (creds.h). */
#include "creds.h"
#include "i18n.h"

#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

kp_status creds_load(kp_creds *c, const char *region_opt, char **err)
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
        creds_free(c);
        return kp_fail(
            err, KP_NOTFOUND,
            _("no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give profile "
              "'%s' in ~/.aws/credentials (DynamoDB Local accepts any values)"),
            profile);
    }
    return KP_OK;
}

void creds_wipe_free(char *s)
{
    if (!s)
        return;
    volatile char *v = s;
    while (*v)
        *v++ = '\0';
    free(s);
}

void creds_free(kp_creds *c)
{
    creds_wipe_free(c->access_key);
    creds_wipe_free(c->secret_key);
    creds_wipe_free(c->session_token);
    free(c->region);
    memset(c, 0, sizeof *c);
}
