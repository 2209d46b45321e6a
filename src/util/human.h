/*
 * human.h — numbers for people (issue 25): the one place that decides how
 * the CLI's text output writes times, money, power, energy, carbon and
 * counts.  Four significant digits (three in table columns), a unit chosen
 * so the number stays readable, thousands separators from 1,000 on, and
 * never an exponent.  JSON output does not use these: it keeps every digit.
 * The web page (src/serve/web/index.html, fmt*) follows the same rules.
 *
 * Each function returns a string in a small per-thread ring of buffers, so
 * several can appear in one printf; a string stays valid for the next
 * DLP__HU_RING - 1 calls on the same thread.
 */
#ifndef DLP_HUMAN_H
#define DLP_HUMAN_H

#define DLP__HU_RING 32

/* A plain number: 4 significant digits, separators from 1,000 on
 * (1.588e4 -> "15,880"), fixed decimals below 1 (0.0001234), "0" below
 * 1e-9; non-finite -> "n/a". */
const char *dlp__hu_num(double v);
/* The same with `sig` significant digits (1..9). */
const char *dlp__hu_sig(double v, int sig);
/* An exact whole count with separators (1e12 -> "1,000,000,000,000");
 * a fractional value is rounded to 4 significant digits as dlp__hu_num. */
const char *dlp__hu_count(double v);
/* A duration given in milliseconds: ns, µs, ms, s, min, h, days
 * (0.00021 -> "210 ns", 1.668e5 -> "2.78 min", 9e9 -> "104.2 days"). */
const char *dlp__hu_ms(double ms);
/* Money: "$0", "< $0.01", "$1.67", "$123.45", "$4,009,000" (whole dollars
 * from $1,000 on). */
const char *dlp__hu_usd(double usd);
/* Power: W, kW, MW (3 digits). */
const char *dlp__hu_w(double w);
/* Energy in joules: µJ, mJ, J, kJ, MJ, then kWh from 10 kWh on. */
const char *dlp__hu_j(double j);
/* Mass of CO2 in grams: µg, mg, g, kg, t. */
const char *dlp__hu_g(double g);
/* A count with an SI prefix (3 digits) and a unit: (1.234e9, "FLOP") ->
 * "1.23 GFLOP", (512, "B") -> "512 B"; unit "" gives the compact form of
 * table columns: "1.23G", "512". */
const char *dlp__hu_si(double v, const char *unit);
/* A parameter count as ML papers write it: 109M, 3.35B, 1.04T (3 digits). */
const char *dlp__hu_params(double v);
/* Bytes beyond one per character in s (UTF-8 continuation bytes, as in
 * "µs"): add it to a printf field width so table columns line up. */
int dlp__hu_extra(const char *s);

#endif
