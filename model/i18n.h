/* i18n.h - messages in the reader's language (GNU gettext), figures in the reader's locale.
 *
 * Every message a person reads goes through one of these marks; xgettext finds them (the
 * keywords are listed in scripts/po.sh) and po/LANG.po holds the translations:
 *   _("text")            translated now
 *   N_("text")           only marked: a table of strings, translated where it is used (_(s))
 *   P_("ctx", "text")    translated within a context, for short words that mean two things
 *   ngettext(one, many, n), NP_("ctx", one, many, n)
 * Machine formats (YAML and JSON keys, CloudFormation, CSV headers, request JSON, the
 * `FILE:LINE:COL: error:` prefix) are never marked.
 *
 * Without i18n_init() (the libraries' tests) every mark returns its English text. */
#ifndef KP_I18N_H
#define KP_I18N_H

#include <libintl.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define KP_TEXTDOMAIN "keyplan"

#define _(s)                   i18n_gettext(s)
#define N_(s)                  s
#define P_(ctx, s)             i18n_pgettext(ctx "\004" s, s)
#define NP_(ctx, one, many, n) i18n_npgettext(ctx "\004" one, one, many, n)

/* The translation of msgid, or msgid itself while the language is English: then no catalog is
 * looked up at all (a command in English asks gettext nothing). */
const char *i18n_gettext(const char *msgid) __attribute__((format_arg(1)));
const char *i18n_pgettext(const char *ctx_and_msgid, const char *msgid) __attribute__((format_arg(2)));
const char *i18n_npgettext(const char *ctx_and_one, const char *one, const char *many, unsigned long n)
    __attribute__((format_arg(2))) __attribute__((format_arg(3)));

/* Chooses the language: `lang` ("es", "en", or NULL for the environment's LANGUAGE/LC_ALL/
 * LC_MESSAGES/LANG). English needs nothing more: no catalog is looked for and no locale is
 * loaded (English figures and dates do not depend on one; LC_CTYPE waits for i18n_utf8).
 * Another language takes the environment's locale with a UTF-8 LC_CTYPE, finds the catalogs
 * (KEYPLAN_LOCALEDIR, else beside the executable, else the installed ones) and sets the figures'
 * locale for human output; LC_NUMERIC stays "C" so that every machine format keeps its '.'.
 * Returns false (and keeps English) for a language keyplan has no catalog for; `err` then says
 * which languages there are. Callable again: the workbench's `:set lang`. */
bool i18n_init(const char *lang, const char **err);

/* Sets LC_CTYPE from the environment, UTF-8 whatever it says (C.UTF-8 when it names another
 * encoding), once: what mbrtowc, wcwidth and ncurses need. The display widths call it before
 * their first non-ASCII character, the workbench before it starts; nothing else needs it, so a
 * command that prints ASCII never loads a locale (about 0.2 ms). */
void i18n_utf8(void);

/* The language in use: "en" or "es" (two letters). */
const char *i18n_lang(void);

/* Human figures: the locale's decimal mark and thousands separator ('.' and ',' in English), and
 * whether a currency symbol follows the amount ("1.244,00 €") or precedes it ("$1,244.00"). */
typedef struct i18n_numfmt {
    char decimal[8], thousands[8];
    bool symbol_after;
} i18n_numfmt;
const i18n_numfmt *i18n_numbers(void);

/* Machine output (JSON, CSV, CloudFormation, YAML): figures as in C, whatever the language. On
 * from here to the end of the process; commands that write a machine format call it first. */
void i18n_machine_figures(void);

/* A date and time for people, in the language's format (strftime in the language's locale). */
size_t i18n_datetime(char *buf, size_t size, time_t t);

#endif
