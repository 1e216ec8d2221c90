/* i18n.c - the reader's language and figures (see i18n.h). */
#define _GNU_SOURCE
#include "i18n.h"

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef KEYPLAN_INSTALL_LOCALEDIR
#define KEYPLAN_INSTALL_LOCALEDIR "/usr/local/share/locale"
#endif

static char lang_now[3] = "en";
static bool translating; /* a catalog is in use: the marks ask gettext */
static bool bound;       /* the text domain is bound (a language other than English was chosen) */
static bool ctype_set;   /* LC_CTYPE was taken from the environment */
static const i18n_numfmt c_figures = {".", ",", false};
static i18n_numfmt figures = {".", ",", false};
static locale_t time_locale; /* (locale_t)0: C's */

const char *i18n_gettext(const char *msgid) { return translating ? dgettext(KP_TEXTDOMAIN, msgid) : msgid; }

const char *i18n_pgettext(const char *ctx_and_msgid, const char *msgid)
{
    if (!translating)
        return msgid;
    const char *t = dgettext(KP_TEXTDOMAIN, ctx_and_msgid);
    return t == ctx_and_msgid ? msgid : t;
}

const char *i18n_npgettext(const char *ctx_and_one, const char *one, const char *many, unsigned long n)
{
    if (!translating)
        return n == 1 ? one : many;
    const char *t = dngettext(KP_TEXTDOMAIN, ctx_and_one, many, n);
    return t == ctx_and_one ? one : t;
}

const char *i18n_lang(void) { return lang_now; }

const i18n_numfmt *i18n_numbers(void) { return &figures; }

void i18n_machine_figures(void) { figures = c_figures; }

/* The language the environment asks for, as gettext reads it: LANGUAGE's first entry, then
 * LC_ALL, LC_MESSAGES, LANG. "C"/"POSIX"/empty: English. */
static void env_lang(char out[3])
{
    static const char *const vars[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
    strcpy(out, "en");
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (!v || !*v)
            continue;
        if (v[0] >= 'a' && v[0] <= 'z' && v[1] >= 'a' && v[1] <= 'z' &&
            (v[2] == '\0' || v[2] == '_' || v[2] == '.' || v[2] == ':' || v[2] == '@')) {
            out[0] = v[0];
            out[1] = v[1];
            out[2] = '\0';
        }
        return;
    }
}

static bool has_catalog(const char *dir, const char *lang)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s/LC_MESSAGES/" KP_TEXTDOMAIN ".mo", dir, lang);
    return n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0;
}

/* Where the catalogs are: KEYPLAN_LOCALEDIR, else locale/ beside the executable (the build
 * tree), else the installed ones. Writes into dir (size bytes). */
static void catalog_dir(char *dir, size_t size, const char *lang)
{
    const char *env = getenv("KEYPLAN_LOCALEDIR");
    if (env && *env) {
        snprintf(dir, size, "%s", env);
        return;
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            if (strlen(exe) + sizeof "/locale" <= size) {
                memcpy(dir, exe, strlen(exe));
                memcpy(dir + strlen(exe), "/locale", sizeof "/locale");
                if (has_catalog(dir, lang))
                    return;
            }
        }
    }
    snprintf(dir, size, "%s", KEYPLAN_INSTALL_LOCALEDIR);
}

/* The locale whose figures and dates a language uses: the environment's when it speaks that
 * language, else the language's usual one. (locale_t)0 when the machine has neither. */
static locale_t figures_locale(const char *lang)
{
    static const struct {
        const char *lang, *locale;
    } usual[] = {{"es", "es_ES.UTF-8"}};
    const char *env = getenv("LC_ALL");
    if (!env || !*env)
        env = getenv("LC_NUMERIC");
    if (!env || !*env)
        env = getenv("LANG");
    int mask = LC_NUMERIC_MASK | LC_MONETARY_MASK | LC_TIME_MASK;
    if (env && strncmp(env, lang, 2) == 0) {
        locale_t l = newlocale(mask, "", (locale_t)0);
        if (l)
            return l;
    }
    for (size_t i = 0; i < sizeof usual / sizeof *usual; i++)
        if (strcmp(usual[i].lang, lang) == 0)
            return newlocale(mask, usual[i].locale, (locale_t)0);
    return (locale_t)0;
}

static void copy_mark(char *dst, size_t size, const char *src, const char *fallback)
{
    snprintf(dst, size, "%s", src && *src ? src : fallback);
}

/* LC_CTYPE from the environment, and UTF-8 when the environment's is not. */
static void utf8_ctype(void)
{
    ctype_set = true;
    setlocale(LC_CTYPE, "");
    const char *cs = nl_langinfo(CODESET);
    if (!cs || (strcmp(cs, "UTF-8") != 0 && strcmp(cs, "utf8") != 0))
        if (!setlocale(LC_CTYPE, "C.UTF-8"))
            setlocale(LC_CTYPE, "en_US.UTF-8");
}

void i18n_utf8(void)
{
    if (!ctype_set)
        utf8_ctype();
}

/* English: the marks return their text, figures and dates are C's. Nothing is looked up. */
static void speak_english(void)
{
    translating = false;
    if (bound) {
        /* a plain ngettext() asks the domain an earlier language bound: English from it now
           (textdomain() also drops gettext's cache of the earlier language's answers) */
        setenv("LANGUAGE", "en", 1);
        textdomain(KP_TEXTDOMAIN);
    }
    memcpy(lang_now, "en", sizeof lang_now);
    if (time_locale)
        freelocale(time_locale);
    time_locale = (locale_t)0;
    figures = c_figures;
}

bool i18n_init(const char *lang, const char **err)
{
    if (err)
        *err = NULL;
    char want[3];
    if (lang && *lang) {
        if (strcmp(lang, "en") != 0 && strcmp(lang, "es") != 0) {
            if (err)
                *err = "languages: en, es";
            return false;
        }
        snprintf(want, sizeof want, "%s", lang);
    } else {
        env_lang(want);
        if (strcmp(want, "es") != 0)
            strcpy(want, "en");
    }
    if (strcmp(want, "en") == 0) {
        speak_english();
        return true;
    }

    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* printf's '.' in every machine format */
    utf8_ctype();

    char dir[4096];
    catalog_dir(dir, sizeof dir, "es");
    bindtextdomain(KP_TEXTDOMAIN, dir);
    bind_textdomain_codeset(KP_TEXTDOMAIN, "UTF-8");
    bound = true;
    if (!has_catalog(dir, want)) {
        if (err)
            *err = "no catalog for that language was built or installed (see KEYPLAN_LOCALEDIR)";
        speak_english();
        return false;
    }

    /* gettext reads LANGUAGE only when LC_MESSAGES is not "C": a UTF-8 locale for messages that
     * always exists, then LANGUAGE names the catalog */
    setenv("LANGUAGE", want, 1);
    const char *msgs = setlocale(LC_MESSAGES, NULL);
    if (!msgs || strcmp(msgs, "C") == 0 || strcmp(msgs, "POSIX") == 0)
        if (!setlocale(LC_MESSAGES, "C.UTF-8"))
            setlocale(LC_MESSAGES, "es_ES.UTF-8");
    textdomain(KP_TEXTDOMAIN);
    memcpy(lang_now, want, sizeof lang_now);
    translating = true;

    if (time_locale)
        freelocale(time_locale);
    figures = c_figures;
    time_locale = figures_locale(want);
    if (time_locale) {
        copy_mark(figures.decimal, sizeof figures.decimal, nl_langinfo_l(RADIXCHAR, time_locale), ".");
        copy_mark(figures.thousands, sizeof figures.thousands, nl_langinfo_l(THOUSEP, time_locale), "");
        const char *pre = nl_langinfo_l(__P_CS_PRECEDES, time_locale);
        figures.symbol_after = pre && *pre == 0;
    }
    return true;
}

size_t i18n_datetime(char *buf, size_t size, time_t t)
{
    struct tm tm;
    if (!size)
        return 0;
    buf[0] = '\0';
    if (!localtime_r(&t, &tm))
        return 0;
    /* TRANSLATORS: a date and time as strftime writes it; use your language's usual order */
    const char *fmt = _("%Y-%m-%d %H:%M");
    return time_locale ? strftime_l(buf, size, fmt, &tm, time_locale) : strftime(buf, size, fmt, &tm);
}
