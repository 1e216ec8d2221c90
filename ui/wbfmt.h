/* wbfmt.h - the figures the workbench prints, as people read them. Kept apart so that they can
 * give way to one shared formatter for people's numbers; no curses. Every result is allocated
 * (caller frees) and never NULL. */
#ifndef KP_UI_WBFMT_H
#define KP_UI_WBFMT_H

char *wb_fmt_num(double v);                          /* "1,234" / "2.5" / "-" (NaN) / "inf" */
char *wb_fmt_short(double v);                        /* at most 6 columns: "17.6M", "2.4G", "1,234" */
char *wb_fmt_money(double v, const char *currency);  /* "$1,234.56", "€3.10", "12.00 GBP"; "-" for NaN */
char *wb_fmt_ms(double ms);                          /* milliseconds: "12", "42s" from 10 s on, "-" */

#endif
