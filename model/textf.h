/* textf.h - the analysis' sentences with their arguments, without printf.
 *
 * The warnings, findings and checklist reasons are rebuilt on every keystroke, and each is one
 * translatable format string (_("...")) with its arguments. These write it as printf would, but
 * the common conversions without printf: %s, %%, %d, %zu, %.0f, %.1f and %g, each also in the
 * positional form a translation may need to reorder its arguments ("%2$s ... %1$s"). Any other
 * conversion goes to vsnprintf, which gives the same text. A NULL %s writes "(null)", as
 * glibc's printf.
 *
 * Figures: in English exactly printf's. In a language whose figures differ (i18n_init), the
 * figures of %d, %zu, %.0f, %.1f and %g take the reader's decimal mark and, from four digits,
 * thousands separator (99,8 %  50.041.200), as humanfmt's figures do; a machine format
 * (i18n_machine_figures) gets printf's again. A figure formatted beforehand and passed as %s is
 * written as it is: textf_figure formats one the same way. Conversions left to vsnprintf keep
 * C's figures. */
#ifndef KP_TEXTF_H
#define KP_TEXTF_H

#include "humanfmt.h"
#include "util.h"

#include <stdarg.h>

/* Appends the text to b. Never fails (allocation failure aborts, as sbuf). */
void textf_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void textf_addv(sbuf *b, const char *fmt, va_list ap);

/* The text on the heap; the caller frees it. */
char *textf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The text in arena a (released with the arena). */
char *textf_arena(arena *a, const char *fmt, va_list ap);

/* v in style st (an HF_PRINTF style) in the reader's figures, as textf writes it, into buf
 * (size bytes, cut to fit); returns buf. */
const char *textf_figure(char *buf, size_t size, double v, humanfmt_style st);

#endif
