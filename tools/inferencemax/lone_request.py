#!/usr/bin/env python3
"""TensorRT-LLM DeepSeek-R1: what a request pays outside the queue (docs/llm.md, h232).

Usage: lone_request.py ROWS.csv [--cli PATH_TO_DLPERF]

ROWS.csv is the bench's --rows dump (bash bench/bench_llm.sh --serving silicon
--analytic-only --rows ROWS.csv).  Three parts:

1. The aggregated TensorRT-LLM DeepSeek rows at low load (at most 16 clients,
   no attention DP, InferenceMAX-style and db-dump rows): by GPU, format and
   prompt / output lengths, the median of measured - predicted TTFT (ms) and
   the same in measured TPOTs.  A cost every request pays whatever its length
   shows at both prompt lengths; one the step's growth hides shows at 1k only.
2. The TensorRT-LLM DeepSeek prefill-worker rows by GPU, format and prompt
   length: MAPE and median predicted / measured.
3. With --cli: the library's TTFT of one client against the one public
   measurement of a lone DeepSeek-R1 request through trtllm-serve found
   (NVIDIA/TensorRT-LLM issue #5929, v0.21.0rc2, LLMPerf p50 at one
   concurrent request, 1,600 or 8,192 prompt tokens, 600 out, TP 8 and EP
   none / 4 / 8; 8 x H200 with the fp8 checkpoint, 8 x B200 with the fp4 one).
   None of it is read by the bench: a check, not an input.
"""
import csv
import json
import statistics
import subprocess
import sys

# NVIDIA/TensorRT-LLM issue #5929 (2025-07-10), "DS-R1 FP4 on B200 vs DS-R1
# FP8 on H200 --- slow-down in TTFT": TTFT p50 in seconds at batch size 1,
# TP 8, for EP none / 4 / 8.  (device, dtype, prompt) -> three TTFTs.
ISSUE_5929 = {
    ("h200", "fp8", 1600): (0.16463, 0.13436, 0.12411),
    ("h200", "fp8", 8192): (0.51583, 0.37007, 0.35281),
    ("b200", "nvfp4", 1600): (0.16104, 0.16018, 0.17265),
    ("b200", "nvfp4", 8192): (0.39411, 0.39012, 0.44809),
}
ISSUE_EPS = (1, 4, 8)


def fnum(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return float("nan")


def ds_trt_rows(path):
    with open(path) as f:
        return [r for r in csv.DictReader(f)
                if r.get("backend", "").startswith("trt")
                and r.get("family") == "deepseek"
                and r.get("src_name", "") != "gap-analysis dumps"]


def low_load_excess(rows):
    """Part 1: {(system, quant, isl, osl): [(excess ms, excess in TPOTs)]}."""
    out = {}
    for r in rows:
        if r["phase"] != "0" or fnum(r["conc"]) > 16 or fnum(r["dp"]) > 1:
            continue
        y0, a0, y1 = fnum(r["y_0"]), fnum(r["a_0"]), fnum(r["y_1"])
        if not (y0 > 0 and a0 > 0):
            continue
        ex = y0 - a0
        key = (r["system"], r["quant"], int(r["isl"]), int(r["osl"]))
        out.setdefault(key, []).append((ex, ex / y1 if y1 > 0 else float("nan")))
    return out


def prefill_worker_error(rows):
    """Part 2: {(system, quant, isl): [(|a - y| / y, a / y)]}."""
    out = {}
    for r in rows:
        if r["phase"] != "1":
            continue
        y0, a0 = fnum(r["y_0"]), fnum(r["a_0"])
        if not (y0 > 0 and a0 > 0):
            continue
        key = (r["system"], r["quant"], int(r["isl"]))
        out.setdefault(key, []).append((abs(a0 - y0) / y0, a0 / y0))
    return out


def med(xs):
    xs = [x for x in xs if x == x]
    return statistics.median(xs) if xs else float("nan")


def print_parts(rows):
    print("part 1: aggregated, <= 16 clients, no attention DP: measured - predicted TTFT")
    for key, v in sorted(low_load_excess(rows).items()):
        print("  %-9s %-6s %5d / %-5d rows %3d  median %+7.1f ms  %+6.1f TPOTs"
              % (key + (len(v), med([e for e, _ in v]), med([t for _, t in v]))))
    print("part 2: prefill workers: TTFT MAPE, median predicted / measured")
    for key, v in sorted(prefill_worker_error(rows).items()):
        mape = 100.0 * sum(e for e, _ in v) / len(v)
        print("  %-9s %-6s %5d  rows %3d  MAPE %5.1f %%  median %.2f"
              % (key + (len(v), mape, med([q for _, q in v]))))


def cli_ttft(cli, device, dtype, prompt, ep):
    cmd = [cli, "llm", "--model", "deepseek-ai/DeepSeek-R1", "--dtype", dtype,
           "--device", device, "--gpus", "8", "--ep", str(ep), "--concurrency",
           "1", "--prompt", str(prompt), "--gen", "600", "--engine", "trtllm",
           "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return json.loads(out)["serving"]["ttft_ms"]


def print_issue(cli):
    print("part 3: one client, the library against NVIDIA/TensorRT-LLM #5929 (v0.21.0rc2, p50)")
    errs = []
    for (device, dtype, prompt), meas in sorted(ISSUE_5929.items()):
        for ep, y in zip(ISSUE_EPS, meas):
            a = cli_ttft(cli, device, dtype, prompt, ep)
            y_ms = 1000.0 * y
            errs.append(abs(a - y_ms) / y_ms)
            print("  %s %-5s prompt %4d EP %d: measured %6.1f ms, library %6.1f ms (%+6.1f ms, %+5.1f %%)"
                  % (device, dtype, prompt, ep, y_ms, a, a - y_ms, 100.0 * (a - y_ms) / y_ms))
    print("  MAPE over the %d: %.1f %%" % (len(errs), 100.0 * sum(errs) / len(errs)))


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    print_parts(ds_trt_rows(argv[1]))
    if "--cli" in argv:
        print_issue(argv[argv.index("--cli") + 1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
