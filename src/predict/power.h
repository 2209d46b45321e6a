/* power.h — the physical pieces of the board power model used by predict
 * (clocks under a power cap: roofline.c, waves.c, calib.c) and by the
 * serving bench's physical power fit (bench/bench_serving.c; llm_serve.c
 * does not ship it): the energy a byte costs to move to or from the GPU's
 * DRAM, which runs at a fixed memory clock and so does not fall when a
 * power cap lowers the core clock.  docs/predict.md "Clocks under a power
 * cap" and docs/llm.md describe each use. */
#ifndef DLP_PREDICT_POWER_H
#define DLP_PREDICT_POWER_H

#include "dlperf.h"

/* DRAM access energy, pJ per bit moved, by the device's memory_type
 * (device energy at the pins; sources in power.c); 0 when the type is
 * unknown (no memory power is then separated out). */
double dlp__mem_pj_per_bit(const dlp_device *d);

/* Watts the DRAM draws moving bytes_per_s (B/s) at its fixed clock:
 * pJ/bit x 8 x bytes/s; 0 for bytes_per_s <= 0 or an unknown type. */
double dlp__mem_power_w(const dlp_device *d, double bytes_per_s);

/* The lowest core clock a capped GPU runs at, as a share of boost: NVIDIA
 * boards list minimum graphics clocks of about 200-300 MHz against
 * 1.4-2.5 GHz boosts (nvidia-smi -q -d SUPPORTED_CLOCKS), ~0.1 of boost. */
#define DLP__DVFS_MIN_CLOCK 0.1

/* The share of its boost clock a kernel sustains when, at boost, the board
 * would draw idle + (boost - idle) x share W against the limit tdp W: 1 when
 * within it, else the DVFS clock (the time model of predict, roofline.c, and
 * of the wave fit, waves.c).  The DRAM's share p_mem (W, at the fixed memory
 * clock, part of the kernel's draw at boost) is held out of the scaling:
 * idle + p_mem + (P_boost - idle - p_mem) g(s) = limit, g(s) = s^3 above the
 * voltage floor kv (DLP__DVFS_VMIN_SHARE, roofline.h) and s kv^2 below it;
 * never under DLP__DVFS_MIN_CLOCK.  p_mem 0: no memory power held out. */
double dlp__dvfs_clock_mem(double p_idle, double p_mem, double p_boost, double p_tdp, double share);

#endif
