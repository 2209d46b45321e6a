// page.test.mjs — the dlperf serve page in a real browser (docs/serve.md).
//
// Run by tests/t_serve.sh against a running `dlperf serve` (env DLP_URL), with
// playwright-core (tests/browser/package.json; it never downloads a browser)
// driving Debian's /usr/bin/chromium in a fresh profile.  It fills both forms
// the way a user would, submits them, and checks that every number the page
// shows is the CLI's number for the same input: the exact value in the cell's
// data-value attribute, and the displayed text within its 4-significant-digit
// rounding.  It also checks the MIG bars, the roofline chart, an upload, an
// error message, the 360-px layout and that the console stays clean (a CSP
// violation or a JS error fails the test).  Screenshots are kept in
// DLP_ARTIFACTS (build/test-artifacts): serve.png (laptop, ONNX form),
// serve-llm.png, serve-plan.png and serve-plan-onnx.png (the Plan tab),
// serve-mobile.png.
//
// Prints PASS/FAIL lines for tests/run.sh; exits 1 if anything failed.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const URL_ = process.env.DLP_URL;
const BIN = process.env.DLP_BIN || "build/dlperf";
const ART = process.env.DLP_ARTIFACTS || "build/test-artifacts";
const SLOW = Number(process.env.DLP_SLOW || 1);
const MODEL = resolve("examples/resnet18.onnx");
if (!URL_) {
  console.log("FAIL browser: DLP_URL is not set (run through tests/t_serve.sh)");
  process.exit(1);
}
mkdirSync(ART, { recursive: true });

let failed = 0;
const pass = (n) => console.log(`PASS ${n}`);
const fail = (n, why) => { failed++; console.log(`FAIL ${n}: ${String(why).slice(0, 400)}`); };
async function check(name, fn) {
  try { await fn(); pass(name); } catch (e) { fail(name, e && e.stack ? e.stack.split("\n").slice(0, 3).join(" | ") : e); }
}
function assert(c, msg) { if (!c) throw new Error(msg); }
const cli = (...args) => JSON.parse(execFileSync(BIN, [...args, "--json"], { encoding: "utf8" }));

// The displayed text of a number cell, parsed back into the cell's base unit
// (ms, J, W, g, $): "15,875 samples/s" -> 15875, "559.6 µs" -> 0.5596,
// "10.22 kJ per pass" -> 10220, "$1.67" -> 1.67.  The page writes numbers as
// the CLI does (src/util/human.c): never an exponent.
const UNIT = { "ns": 1e-6, "\u00b5s": 1e-3, "ms": 1, "s": 1e3, "min": 6e4, "h": 3.6e6, "days": 8.64e7,
               "\u00b5J": 1e-6, "mJ": 1e-3, "J": 1, "kJ": 1e3, "MJ": 1e6, "kWh": 3.6e6,
               "W": 1, "kW": 1e3, "MW": 1e6, "GW": 1e9, "\u00b5g": 1e-6, "mg": 1e-3, "g": 1, "kg": 1e3, "t": 1e6 };
function shown(text) {
  const t = String(text).replace(/,/g, "");
  const m = t.match(/(-?[0-9.]+)(?:\s+(\S+))?/);
  if (!m) return NaN;
  return Number(m[1]) * (m[2] && UNIT[m[2]] !== undefined ? UNIT[m[2]] : 1);
}
// A result cell must hold the CLI's exact value and show it to 4 significant
// digits (power: 3; money: to the cent, below a cent "< $0.01"), without an
// exponent.
async function cellEquals(page, key, want) {
  const td = page.locator(`#r-table td[data-key="${key}"]`);
  const value = Number(await td.getAttribute("data-value"));
  const text = await td.locator(".v").textContent();
  assert(value === want, `${key}: page data-value ${value}, CLI ${want}`);
  assert(!/[0-9][eE][-+]?[0-9]/.test(text) && !/\u00d7 10/.test(text), `${key}: page shows '${text}' (an exponent)`);
  if (key === "cost_usd") {
    if (text.startsWith("< $0.01")) return assert(want < 0.01, `${key}: page shows '${text}', CLI ${want}`);
    const c = Number(text.replace(/[$,]/g, "").split(" ")[0]);
    return assert(Math.abs(c - want) <= (want >= 1000 ? 0.5 : 0.005) + 1e-12, `${key}: page shows '${text}', CLI ${want}`);
  }
  const s = shown(text), rel = /_w$/.test(key) ? 5e-3 : 5e-4;   // power: 3 digits ("274 W")
  assert(Math.abs(s - want) <= rel * Math.abs(want) + 1e-300, `${key}: page shows '${text}', CLI ${want}`);
}

const profile = mkdtempSync(join(tmpdir(), "dlp-chromium-"));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  viewport: { width: 1280, height: 900 },
  timeout: 60000 * SLOW,
});
ctx.setDefaultTimeout(30000 * SLOW);
const page = ctx.pages()[0] || await ctx.newPage();
const consoleErrors = [];
page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
page.on("pageerror", (e) => consoleErrors.push(String(e)));

try {
  await check("browser_page_loads", async () => {
    const r = await page.goto(URL_ + "/");
    assert(r.status() === 200, `status ${r.status()}`);
    await page.waitForSelector("body[data-ready='1']");
    const n = await page.locator("#o-device option").count();
    const db = cli("devices");
    assert(n === db.devices.length, `device select has ${n} options, database ${db.devices.length}`);
    assert(await page.locator("#l-models option").count() > 10, "LLM catalogue not loaded");
  });

  // ---- ONNX form: the shipped example ----
  const want = cli("predict", MODEL, "--batch", "32", "--device", "h100-sxm", "--dtype", "fp16",
                   "--runs", "1000", "--region", "eu");
  await check("browser_predict_equals_cli", async () => {
    await page.fill("#o-batch", "32");
    await page.selectOption("#o-device", "h100-sxm");
    await page.selectOption("#o-dtype", "fp16");
    await page.fill("#o-runs", "1000");
    await page.selectOption("#o-region", "eu");
    await page.click("#o-submit");
    await page.waitForSelector("#summary[data-kind='predict']:not([hidden])");
    await page.waitForSelector("#roofline-chart svg");
    for (const k of ["latency_ms", "throughput_sps", "memory_mb", "energy_j", "power_w", "cost_usd", "co2_g"])
      await cellEquals(page, k, want[k]);
    const method = await page.locator('#r-table td[data-key="method"] .v').textContent();
    assert(method === want.method, `method '${method}' vs '${want.method}'`);
    assert((await page.locator("#r-method").textContent()) === want.method, "method badge");
  });

  await check("browser_mig_bars", async () => {
    const bars = page.locator("#mig-bars li");
    const n = await bars.count();
    assert(n === want.mig.profiles.length && n > 0, `${n} bars, CLI ${want.mig.profiles.length} profiles`);
    for (let i = 0; i < n; i++) {
      const p = want.mig.profiles[i];
      assert((await bars.nth(i).getAttribute("data-profile")) === p.name, `bar ${i} name`);
      assert(Number(await bars.nth(i).getAttribute("data-value")) === p.used_share, `bar ${i} share`);
      const w = await bars.nth(i).locator(".fill").evaluate((e) => parseFloat(e.style.width));
      assert(Math.abs(w - Math.min(100, 100 * p.used_share)) < 0.01, `bar ${i} width ${w}`);
    }
    const rec = await page.locator("#mig-bars li.rec .name").textContent();
    assert(rec === want.mig.recommended, `recommended ${rec} vs ${want.mig.recommended}`);
  });

  await check("browser_roofline_chart", async () => {
    const circles = await page.locator("#roofline-chart svg circle").count();
    assert(circles > 10, `${circles} points`);
    const text = await page.locator("#roofline-chart svg").textContent();
    assert(text.includes("FP32 vector") && text.includes("DRAM"), "ceilings missing");
    assert(await page.locator("#roofline-chart svg script").count() === 0, "script in SVG");
  });

  await page.screenshot({ path: join(ART, "serve.png"), fullPage: true });

  // ---- the CPU device (issue 16 #11): learned time and memory, no power data ----
  await check("browser_cpu_device", async () => {
    const db = cli("devices");
    const nCpu = db.devices.filter((d) => d.kind === "cpu").length, nGpu = db.devices.length - nCpu;
    const status = await page.locator("#status").textContent();
    assert(status.includes(`${nGpu} GPUs`) && (!nCpu || status.includes(`${nCpu} CPU`)), `header '${status}'`);
    const cpu = db.devices.find((d) => d.kind === "cpu");
    if (!cpu) return;
    const w = cli("predict", MODEL, "--batch", "8", "--device", cpu.id);
    await page.fill("#o-batch", "8");
    await page.selectOption("#o-device", cpu.id);
    await page.selectOption("#o-dtype", "");
    await page.fill("#o-runs", "1");
    await page.selectOption("#o-region", "");
    await page.click("#o-submit");
    await page.waitForFunction((name) => document.querySelector("#r-title").textContent.includes(name), w.device_name);
    for (const k of ["latency_ms", "throughput_sps", "memory_mb"]) await cellEquals(page, k, w[k]);
    const table = await page.locator("#r-table").textContent();
    assert(!/null|undefined|NaN/.test(table), `table shows null: ${table.slice(0, 200)}`);
    for (const k of ["energy_j", "power_w", "co2_g"]) {
      const t = await page.locator(`#r-table td[data-key="${k}"] .v`).textContent();
      assert(t === "not predicted", `${k} shows '${t}'`);
    }
    const badge = await page.locator("#r-method").textContent();
    const learned = Object.values(w.sources).some((s) => s.source === "learned");
    assert(!learned || (badge.includes("learned") && badge !== w.method), `badge '${badge}' while sources are learned`);
    // the memory parts add up to the total they are given for (4-digit rounding per part)
    const sub = await page.locator('#r-table td[data-key="memory_mb"] .sub').textContent();
    const m = sub.match(/(?:analytic ([0-9.,]+) MiB = )?(weights .*)$/);
    assert(m, `memory parts '${sub}'`);
    const parts = m[2].split("+").map(shown), sum = parts.reduce((a, b) => a + b, 0);
    const total = m[1] ? shown(m[1]) : w.memory_mb;
    assert(Math.abs(sum - total) <= 1e-3 * total + 0.05 * parts.length, `parts ${sum} vs ${total} ('${sub}')`);
    if (w.sources.memory_mb && w.sources.memory_mb.source === "learned")
      assert(m[1] && /learned/.test(sub), `learned peak without its analytic split: '${sub}'`);
  });

  // ---- ONNX form: an upload, training mode ----
  await check("browser_upload_train_equals_cli", async () => {
    const w = cli("predict", MODEL, "--batch", "8", "--device", "a100-40gb", "--mode", "train", "--steps", "500");
    await page.check('input[name="src"][value="upload"]');
    await page.setInputFiles("#o-file", MODEL);
    await page.fill("#o-batch", "8");
    await page.selectOption("#o-device", "a100-40gb");
    await page.selectOption("#o-mode", "train");
    await page.selectOption("#o-dtype", "");
    await page.fill("#o-runs", "500");
    await page.selectOption("#o-region", "");
    await page.click("#o-submit");
    await page.waitForFunction(() => document.querySelector('#r-table td[data-key="step_ms"]'));
    for (const k of ["step_ms", "throughput_sps", "memory_mb", "energy_j", "power_w", "cost_usd", "co2_g"])
      await cellEquals(page, k, w[k]);
  });

  await check("browser_error_message", async () => {
    await page.fill("#o-batch", "-5");
    await page.click("#o-submit");
    await page.waitForSelector("#error:not([hidden])");
    const msg = await page.locator("#error").textContent();
    assert(/batch/.test(msg), `error says '${msg}'`);
    await page.fill("#o-batch", "8");
  });

  // ---- LLM form ----
  const wl = cli("llm", "--model", "bert-base-uncased", "--batch", "64", "--seq", "128", "--dtype", "fp16",
                 "--device", "a100-40gb", "--samples", "1000", "--region", "fr");
  await check("browser_llm_equals_cli", async () => {
    await page.click("#tab-llm");
    await page.fill("#l-model", "bert-base-uncased");
    await page.fill("#l-batch", "64");
    await page.fill("#l-seq", "128");
    await page.selectOption("#l-dtype", "fp16");
    await page.selectOption("#l-device", "a100-40gb");
    await page.fill("#l-samples", "1000");
    await page.selectOption("#l-region", "fr");
    await page.click("#l-submit");
    await page.waitForSelector("#summary[data-kind='llm']:not([hidden])");
    await page.waitForFunction(() => document.querySelectorAll("#mig-bars li").length > 0);
    assert(await page.locator("#error").isHidden(), "error shown");
    for (const k of ["latency_ms", "throughput_sps", "memory_mb", "energy_j", "power_w", "co2_g"])
      await cellEquals(page, k, wl[k]);
    const method = await page.locator('#r-table td[data-key="method"] .v').textContent();
    assert(method === wl.method, `method '${method}' vs '${wl.method}'`);
  });

  await check("browser_llm_mig_equals_cli", async () => {
    const m = cli("mig", "--device", "a100-40gb", "--memory-mb", String(wl.memory_mb));
    const bars = page.locator("#mig-bars li");
    assert(await bars.count() === m.profiles.length, "bar count");
    for (let i = 0; i < m.profiles.length; i++)
      assert(Number(await bars.nth(i).getAttribute("data-value")) === m.profiles[i].used_share, `bar ${i}`);
  });

  // every `dlperf llm` flag is a control of the LLM form, named as its /api/llm field (issue 22,
  // scope 8); --prompt is the form's sequence length (sent as 'seq', the same number); --json,
  // --list (the model suggestions), --help are not request fields, --carbon is the help's
  // pointer to 'dlperf devices --carbon'
  await check("browser_llm_form_has_every_cli_flag", async () => {
    const help = execFileSync(BIN, ["llm", "--help"], { encoding: "utf8" });
    const flags = [...new Set(help.match(/--[a-z][a-z-]*/g))].map((f) => f.slice(2).replace(/-/g, "_"))
      .filter((f) => !["json", "list", "help", "carbon"].includes(f));
    assert(flags.length >= 28, `read ${flags.length} flags from --help`);
    const missing = [];
    for (const f of flags) {
      const name = f === "prompt" ? "seq" : f;
      if (await page.locator(`#form-llm [name="${name}"]`).count() === 0) missing.push(f);
    }
    assert(missing.length === 0, `flags without a page control: ${missing.join(", ")}`);
    // no --dtype on the CLI is the checkpoint's format: the form's default sends no dtype
    assert(await page.locator("#l-dtype option").first().getAttribute("value") === "", "dtype default");
  });

  // ---- the serving model through the same form (docs/llm.md, "Serving") ----
  const sv = cli("llm", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--device", "h100-sxm", "--dtype", "bf16",
                 "--concurrency", "64", "--prompt", "1024", "--gen", "256");
  await check("browser_llm_serving_equals_cli", async () => {
    await page.fill("#l-model", "meta-llama/Llama-3.1-8B-Instruct");
    await page.fill("#l-seq", "1024");
    await page.selectOption("#l-dtype", "bf16");
    await page.selectOption("#l-device", "h100-sxm");
    await page.fill("#l-samples", "");
    await page.selectOption("#l-region", "world");
    await page.fill("#l-gen", "256");
    await page.fill("#l-conc", "64");
    await page.click("#l-submit");
    await page.waitForSelector('#r-table td[data-key="ttft_ms"]');
    assert(await page.locator("#error").isHidden(), "error shown");
    for (const k of ["ttft_ms", "tpot_ms", "output_tokens_per_s", "energy_per_request_j", "kv_capacity_tokens"])
      await cellEquals(page, k, sv.serving[k]);
    await page.fill("#l-conc", "");
    await page.fill("#l-gen", "");
  });

  // the engine's scheduler and MTP reach the answer as --engine/--mtp do on the CLI
  const sm = cli("llm", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--device", "h100-sxm", "--dtype", "bf16",
                 "--concurrency", "64", "--prompt", "1024", "--gen", "256", "--engine", "sglang",
                 "--mtp", "1", "--mtp-accepted", "0.8");
  await check("browser_llm_engine_mtp_equals_cli", async () => {
    await page.fill("#l-gen", "256");
    await page.fill("#l-conc", "64");
    await page.selectOption("#l-engine", "sglang");
    await page.fill("#l-mtp", "1");
    await page.fill("#l-mtpacc", "0.8");
    await page.click("#l-submit");
    // the table still holds the previous answer: wait for this one's TPOT
    await page.waitForFunction((want) => {
      const c = document.querySelector('#r-table td[data-key="tpot_ms"]');
      return c && Number(c.getAttribute("data-value")) === want;
    }, sm.serving.tpot_ms);
    assert(await page.locator("#error").isHidden(), "error shown");
    assert(sm.serving.tpot_ms !== sv.serving.tpot_ms && sm.serving.ttft_ms !== sv.serving.ttft_ms, "CLI answers differ");
    for (const k of ["ttft_ms", "tpot_ms", "output_tokens_per_s"]) await cellEquals(page, k, sm.serving[k]);
    await page.selectOption("#l-engine", "");
    await page.fill("#l-mtp", "");
    await page.fill("#l-mtpacc", "");
    await page.fill("#l-conc", "");
    await page.fill("#l-gen", "");
  });

  // the other serving fields: a MoE split over two GPUs under a running limit, then
  // Poisson clients of a VLM with an image each (docs/llm.md): the CLI's numbers
  const sx = cli("llm", "--model", "Qwen/Qwen3-30B-A3B", "--device", "h100-sxm", "--dtype", "bf16", "--gpus", "2",
                 "--ep", "2", "--attention-dp", "2", "--concurrency", "64", "--max-seqs", "32", "--prompt", "1024",
                 "--gen", "256");
  const sr = cli("llm", "--model", "Qwen/Qwen3-VL-8B-Instruct", "--device", "h100-sxm", "--dtype", "bf16",
                 "--rate", "2", "--images", "1", "--image-size", "640x480", "--prompt", "1024", "--gen", "256");
  await check("browser_llm_parallel_rate_images_equals_cli", async () => {
    await page.fill("#l-model", "Qwen/Qwen3-30B-A3B");
    await page.fill("#l-gen", "256");
    await page.fill("#l-gpus", "2");
    await page.fill("#l-conc", "64");
    await page.fill("#l-maxseqs", "32");
    await page.fill("#l-ep", "2");
    await page.fill("#l-adp", "2");
    await page.click("#l-submit");
    await page.waitForFunction((want) => {
      const c = document.querySelector('#r-table td[data-key="tpot_ms"]');
      return c && Number(c.getAttribute("data-value")) === want;
    }, sx.serving.tpot_ms);
    assert(await page.locator("#error").isHidden(), "error shown");
    for (const k of ["ttft_ms", "tpot_ms", "output_tokens_per_s"]) await cellEquals(page, k, sx.serving[k]);
    for (const id of ["#l-conc", "#l-maxseqs", "#l-ep", "#l-adp"]) await page.fill(id, "");
    await page.fill("#l-gpus", "1");
    await page.fill("#l-model", "Qwen/Qwen3-VL-8B-Instruct");
    await page.fill("#l-rate", "2");
    await page.fill("#l-images", "1");
    await page.fill("#l-imgsize", "640x480");
    await page.click("#l-submit");
    await page.waitForFunction((want) => {
      const c = document.querySelector('#r-table td[data-key="ttft_ms"]');
      return c && Number(c.getAttribute("data-value")) === want;
    }, sr.serving.ttft_ms);
    assert(await page.locator("#error").isHidden(), "error shown");
    assert(sr.image_tokens > 0, "CLI counted no image tokens");
    for (const k of ["ttft_ms", "tpot_ms", "output_tokens_per_s"]) await cellEquals(page, k, sr.serving[k]);
    for (const id of ["#l-rate", "#l-images", "#l-imgsize", "#l-gen"]) await page.fill(id, "");
    await page.fill("#l-model", "meta-llama/Llama-3.1-8B-Instruct");
  });

  // the rest of `dlperf llm`'s flags (issue 22, scope 8): a disaggregated prefill worker and a
  // decode worker with an fp8 KV cache at memory fraction 0.8, --max-fit on a VLM's video,
  // the raw --image-tokens, and --analytic; each answer is the CLI's for the same flags, and a
  // worker shows only what it does (prefill: no TPOT; decode: no TTFT), as the CLI's text
  const L8 = ["--model", "meta-llama/Llama-3.1-8B-Instruct", "--device", "h100-sxm", "--dtype", "bf16"];
  const worker = (ph) => cli("llm", ...L8, "--concurrency", "16", "--prompt", "1024", "--gen", "256",
                             "--phase", ph, "--kv-dtype", "fp8", "--mem-fraction", "0.8");
  const wp = worker("prefill"), wd = worker("decode");
  const mf = cli("llm", "--model", "Qwen/Qwen3-VL-8B-Instruct", "--device", "h100-sxm", "--dtype", "bf16", "--max-fit",
                 "--images", "1", "--image-size", "640x480", "--video-frames", "8", "--prompt", "256", "--gen", "256");
  const it = cli("llm", "--model", "Qwen/Qwen3-VL-8B-Instruct", "--device", "h100-sxm", "--dtype", "bf16",
                 "--concurrency", "8", "--image-tokens", "300", "--prompt", "256", "--gen", "64");
  const an = cli("llm", ...L8, "--batch", "8", "--seq", "512", "--gen", "128", "--analytic");
  const learned = cli("llm", ...L8, "--batch", "8", "--seq", "512", "--gen", "128");
  const waitCell = (key, want) => page.waitForFunction(([k, v]) => {
    const c = document.querySelector(`#r-table td[data-key="${k}"]`);
    return c && Number(c.getAttribute("data-value")) === v;
  }, [key, want]);
  const hasCell = async (key) => await page.locator(`#r-table td[data-key="${key}"]`).count() > 0;
  await check("browser_llm_worker_kv_maxfit_video_analytic_equals_cli", async () => {
    // the flags reach the model: fp8 KV at 0.8 holds more tokens than bf16 at 0.9 would, by hand
    // (fp8 halves the bytes per token, 0.8 / 0.9 of the memory: > 1.5x the tokens), and the
    // phases differ
    assert(wp.kv_dtype === "fp8" && wp.serving.kv_capacity_tokens > 1.5 * sv.serving.kv_capacity_tokens,
           `CLI: kv ${wp.kv_dtype}, ${wp.serving.kv_capacity_tokens} vs ${sv.serving.kv_capacity_tokens} tokens`);
    assert(wp.serving.phase === "prefill" && wd.serving.phase === "decode", "CLI phases");
    await page.fill("#l-model", "meta-llama/Llama-3.1-8B-Instruct");
    await page.fill("#l-seq", "1024");
    await page.fill("#l-gen", "256");
    await page.fill("#l-conc", "16");
    await page.selectOption("#l-phase", "prefill");
    await page.selectOption("#l-kvdtype", "fp8");
    await page.fill("#l-memfrac", "0.8");
    await page.click("#l-submit");
    await waitCell("tokens_per_s", wp.tokens_per_s);
    assert(await page.locator("#error").isHidden(), "error shown");
    for (const k of ["ttft_ms", "energy_per_request_j", "kv_capacity_tokens"]) await cellEquals(page, k, wp.serving[k]);
    await cellEquals(page, "tokens_per_s", wp.tokens_per_s);
    assert(!(await hasCell("tpot_ms")) && !(await hasCell("output_tokens_per_s")), "a prefill worker shows a TPOT");
    await page.selectOption("#l-phase", "decode");
    await page.click("#l-submit");
    await waitCell("tpot_ms", wd.serving.tpot_ms);
    assert(await page.locator("#error").isHidden(), "error shown");
    for (const k of ["tpot_ms", "output_tokens_per_s", "energy_per_request_j", "kv_capacity_tokens"])
      await cellEquals(page, k, wd.serving[k]);
    assert(!(await hasCell("ttft_ms")), "a decode worker shows a TTFT");
    for (const id of ["#l-phase", "#l-kvdtype"]) await page.selectOption(id, "");
    for (const id of ["#l-memfrac", "#l-conc"]) await page.fill(id, "");

    // Qwen3-VL: 32-px tokens (16-px patches merged 2 x 2), 640 x 480 -> 20 x 15 = 300 per
    // frame pair; 8 frames at temporal patch 2 -> 4 x 300 = 1,200 image tokens
    assert(mf.image_tokens === 1200, `CLI counted ${mf.image_tokens} video tokens`);
    await page.fill("#l-model", "Qwen/Qwen3-VL-8B-Instruct");
    await page.fill("#l-seq", "256");
    await page.check("#l-maxfit");
    await page.fill("#l-images", "1");
    await page.fill("#l-imgsize", "640x480");
    await page.fill("#l-frames", "8");
    await page.click("#l-submit");
    await waitCell("ttft_ms", mf.serving.ttft_ms);
    assert(await page.locator("#error").isHidden(), "error shown");
    for (const k of ["ttft_ms", "tpot_ms", "output_tokens_per_s", "kv_capacity_tokens"]) await cellEquals(page, k, mf.serving[k]);
    // --max-fit runs what the KV cache holds, at most max_seqs (256)
    assert(mf.serving.concurrency === Math.min(mf.serving.max_concurrency, mf.serving.max_seqs),
           `CLI max-fit: ${mf.serving.concurrency} of ${mf.serving.max_concurrency}`);
    const badge = await page.locator("#r-fit").textContent();
    assert(badge.startsWith(mf.serving.concurrency + " of " + mf.serving.max_concurrency + " "), `fit badge '${badge}'`);
    await page.uncheck("#l-maxfit");
    for (const id of ["#l-images", "#l-imgsize", "#l-frames"]) await page.fill(id, "");

    // the raw image-token count instead of images
    await page.fill("#l-conc", "8");
    await page.fill("#l-gen", "64");
    await page.fill("#l-imgtok", "300");
    await page.click("#l-submit");
    await waitCell("ttft_ms", it.serving.ttft_ms);
    assert(await page.locator("#error").isHidden(), "error shown");
    assert(it.image_tokens === 300, `CLI image tokens ${it.image_tokens}`);
    for (const k of ["ttft_ms", "tpot_ms", "output_tokens_per_s"]) await cellEquals(page, k, it.serving[k]);
    for (const id of ["#l-imgtok", "#l-conc"]) await page.fill(id, "");

    // --analytic: the analytic estimate where a trained model covers the setting
    assert(an.method === "analytic" && learned.method !== "analytic" && an.latency_ms !== learned.latency_ms,
           `CLI methods ${an.method} / ${learned.method}`);
    await page.fill("#l-model", "meta-llama/Llama-3.1-8B-Instruct");
    await page.fill("#l-batch", "8");
    await page.fill("#l-seq", "512");
    await page.fill("#l-gen", "128");
    await page.check("#l-analytic");
    await page.click("#l-submit");
    await waitCell("latency_ms", an.latency_ms);
    assert(await page.locator("#error").isHidden(), "error shown");
    for (const k of ["latency_ms", "throughput_sps", "energy_j", "memory_mb"]) await cellEquals(page, k, an[k]);
    const method = await page.locator('#r-table td[data-key="method"] .v').textContent();
    assert(method === "analytic", `method '${method}'`);
    await page.uncheck("#l-analytic");
    await page.fill("#l-gen", "");
  });

  // no dtype: the checkpoint's format where the GPU runs it, as the CLI without --dtype
  // (gpt-oss ships mxfp4 experts; an H100 runs them weight-only)
  const dd = cli("llm", "--model", "openai/gpt-oss-20b", "--device", "h100-sxm", "--batch", "8", "--seq", "512");
  await check("browser_llm_default_dtype_equals_cli", async () => {
    assert(dd.dtype === "mxfp4", `CLI default dtype ${dd.dtype}`);
    await page.fill("#l-model", "openai/gpt-oss-20b");
    await page.selectOption("#l-dtype", "");
    await page.click("#l-submit");
    await waitCell("latency_ms", dd.latency_ms);
    assert(await page.locator("#error").isHidden(), "error shown");
    for (const k of ["latency_ms", "memory_mb", "energy_j"]) await cellEquals(page, k, dd[k]);
    await page.selectOption("#l-dtype", "bf16");
    await page.fill("#l-model", "meta-llama/Llama-3.1-8B-Instruct");
  });

  await page.screenshot({ path: join(ART, "serve-llm.png"), fullPage: true });

  // ---- the Plan tab (docs/plan.md; docs/serve.md, "The page") ----
  // A small plan: Qwen3-1.7B on three GPUs, bf16 only, up to 4 GPUs a replica.
  // The page must show what /api/plan answers for the same request (fetched
  // here directly, as JSON), which must be what `dlperf plan --json` prints;
  // and every row must read as the CLI's text table reads it.
  const planReq = { model: "Qwen/Qwen3-1.7B", prompt: 512, gen: 128, ttft_ms: 300, tpot_ms: 20,
                    devices: ["h100-sxm", "a100-80gb", "l40s"], dtypes: ["bf16"], max_gpus: 4, region: "eu" };
  const planArgs = (q) => ["plan", "--model", q.model, "--prompt", String(q.prompt), "--gen", String(q.gen),
    "--ttft", String(q.ttft_ms), "--tpot", String(q.tpot_ms), "--devices", q.devices.join(","),
    "--dtypes", q.dtypes.join(","), "--max-gpus", String(q.max_gpus), "--region", q.region,
    ...(q.rate ? ["--rate", String(q.rate)] : [])];
  async function apiPlan(q) {
    const r = await fetch(URL_ + "/api/plan", { method: "POST", headers: { "Content-Type": "application/json" },
                                                 body: JSON.stringify(q) });
    assert(r.ok, `/api/plan: HTTP ${r.status}`);
    return r.json();
  }
  // the CLI's table rows, whitespace collapsed: "1 h100-sxm 1 bf16 TP1 227 90.97 ms ... tpot"
  function cliRows(q) {
    const out = execFileSync(BIN, [...planArgs(q), "--top", "0"], { encoding: "utf8" });
    return out.split("\n").filter((l) => /^\s+\d+ \S/.test(l)).map((l) => l.trim().split(/\s+/).join(" "));
  }
  async function submitPlan(q) {
    await page.click("#tab-plan");
    await page.check('input[name="pkind"][value="llm"]');
    await page.check('input[name="psrc"][value="id"]');
    await page.fill("#p-model", q.model);
    await page.fill("#p-prompt", String(q.prompt));
    await page.fill("#p-gen", String(q.gen));
    await page.fill("#p-ttft", String(q.ttft_ms));
    await page.fill("#p-tpot", String(q.tpot_ms));
    await page.fill("#p-rate", q.rate ? String(q.rate) : "");
    await page.fill("#p-maxgpus", String(q.max_gpus));
    await page.selectOption("#p-devices", q.devices);
    for (const c of await page.locator("#p-dtypes input").all())
      await c.setChecked(q.dtypes.includes(await c.getAttribute("value")));
    await page.selectOption("#p-region", q.region);
    await page.evaluate(() => { document.getElementById("p-title").textContent = ""; });
    await page.click("#p-submit");
    await page.waitForFunction(() => document.getElementById("p-title").textContent !== "" ||
                                     !document.getElementById("error").hidden);
    assert(await page.locator("#error").isHidden(), `error shown: ${await page.locator("#error").textContent()}`);
  }
  async function pageRows() {
    return page.$$eval("#p-table tbody tr", (trs) => trs.map((tr) =>
      [...tr.cells].map((c) => c.textContent).join(" ").split(/\s+/).join(" ")));
  }
  const wantPlan = await apiPlan(planReq);
  await check("browser_plan_equals_api", async () => {
    const cliPlan = cli(...planArgs(planReq));
    assert(JSON.stringify(cliPlan.plans) === JSON.stringify(wantPlan.plans), "/api/plan's plans differ from the CLI's");
    assert(wantPlan.plans.length >= 4, `only ${wantPlan.plans.length} plans: too few to test the ranking`);
    await submitPlan(planReq);
    assert(await page.locator("#plan").isVisible() && await page.locator("#summary").isHidden(), "plan card not shown");
    const rows = page.locator("#p-table tbody tr");
    assert(await rows.count() === wantPlan.plans.length, `${await rows.count()} rows, API ${wantPlan.plans.length} plans`);
    // the first row: exact values, and the text the CLI prints
    const first = wantPlan.plans[0];
    for (const k of ["gpus", "concurrency", "ttft_ms", "tpot_ms", "tokens_per_s", "replicas", "usd_per_mtok",
                     "j_per_token", "co2_g_per_mtok"]) {
      const td = rows.first().locator(`td[data-key="${k}"]`);
      const v = Number(await td.getAttribute("data-value")), t = await td.textContent();
      assert(v === first[k], `${k}: page data-value ${v}, API ${first[k]}`);
      const s = k === "usd_per_mtok" ? Number(t.replace("$", "")) : shown(t);
      assert(Math.abs(s - first[k]) <= 5e-4 * Math.abs(first[k]), `${k}: page shows '${t}', API ${first[k]}`);
    }
    for (const k of ["device", "dtype", "binding"])
      assert(await rows.first().locator(`td[data-key="${k}"]`).textContent() === first[k], `${k} differs`);
    const want = cliRows(planReq), got = await pageRows();
    assert(want.length === got.length, `CLI table ${want.length} rows, page ${got.length}`);
    for (let i = 0; i < want.length; i++) assert(got[i] === want[i], `row ${i + 1}: page '${got[i]}', CLI '${want[i]}'`);
    // sorted by cost, best first
    const usd = await page.$$eval('#p-table td[data-key="usd_per_mtok"]', (t) => t.map((e) => Number(e.dataset.value)));
    for (let i = 1; i < usd.length; i++) assert(usd[i - 1] <= usd[i], `rows ${i} and ${i + 1} not sorted by $/M tok`);
    const summary = await page.locator("#p-lines").textContent();
    assert(summary.includes(`searched ${wantPlan.considered} configurations on 3 GPU kinds`), `summary '${summary}'`);
  });

  await check("browser_plan_pareto_svg", async () => {
    const pts = await page.$$eval("#pareto-chart svg circle", (cs) => cs.map((c) => ({
      device: c.dataset.device, x: Number(c.dataset.x), y: Number(c.dataset.y), front: c.dataset.pareto === "1",
      cx: Number(c.getAttribute("cx")), cy: Number(c.getAttribute("cy")),
      title: c.querySelector("title") ? c.querySelector("title").textContent : "" })));
    assert(pts.length === wantPlan.plans.length, `${pts.length} circles, ${wantPlan.plans.length} plans`);
    const key = (p) => `${p.device}/${p.x}/${p.y}`;
    const byKey = new Set(wantPlan.plans.map((r) => `${r.device}/${r.tpot_ms}/${r.usd_per_mtok}`));
    for (const p of pts) assert(byKey.has(key(p)) && p.title.includes(p.device), `circle ${key(p)} is no plan`);
    // the front by a sweep (cheapest so far, fastest first), not the page's pairwise test
    const sorted = wantPlan.plans.map((r) => ({ x: r.tpot_ms, y: r.usd_per_mtok, device: r.device }))
      .sort((a, b) => a.x - b.x || a.y - b.y);
    const front = new Set();
    let best = Infinity;
    for (const p of sorted) if (p.y < best) { best = p.y; front.add(key(p)); }
    const marked = new Set(pts.filter((p) => p.front).map(key));
    assert(front.size >= 2 && [...front].every((k) => marked.has(k)) && marked.size === front.size,
           `front ${[...front]} vs marked ${[...marked]}`);
    const line = page.locator("#pareto-chart svg polyline.pareto");
    assert(await line.count() === 1, "no Pareto line");
    const n = (await line.getAttribute("points")).trim().split(/\s+/).length;
    assert(n === front.size, `Pareto line through ${n} points, front has ${front.size}`);
    // axes the right way round: slower to the right, dearer higher up
    for (const a of pts) for (const b of pts) {
      if (a.x < b.x) assert(a.cx <= b.cx, `x axis: ${key(a)} right of ${key(b)}`);
      if (a.y < b.y) assert(a.cy >= b.cy, `y axis: ${key(a)} above ${key(b)}`);
    }
    const text = await page.locator("#pareto-chart svg").textContent();
    assert(text.includes("TPOT") && text.includes("(ms)") && text.includes("$ per million output tokens"), "axis titles");
    assert(await page.locator("#pareto-chart svg line.gridline").count() >= 4, "no ticks");
    const legend = await page.$$eval("#pareto-legend li", (l) => l.map((e) => e.textContent));
    assert(legend.sort().join() === [...new Set(wantPlan.plans.map((r) => r.device))].sort().join(), `legend ${legend}`);
  });

  await page.screenshot({ path: join(ART, "serve-plan.png"), fullPage: true });

  // with a rate, the fleet's $/h joins the table and ranks it (docs/plan.md)
  await check("browser_plan_rate_equals_cli", async () => {
    const q = { ...planReq, rate: 150 };
    const want = await apiPlan(q);
    await submitPlan(q);
    const want_rows = cliRows(q), got = await pageRows();
    assert(want_rows.length === got.length && want_rows.length === want.plans.length, "row count");
    for (let i = 0; i < got.length; i++) assert(got[i] === want_rows[i], `row ${i + 1}: page '${got[i]}', CLI '${want_rows[i]}'`);
    const fleet = await page.$$eval('#p-table td[data-key="usd_per_hour"]', (t) => t.map((e) => Number(e.dataset.value)));
    assert(fleet.length === want.plans.length, "no fleet $/h column");
    for (let i = 1; i < fleet.length; i++) assert(fleet[i - 1] <= fleet[i], `rows ${i}, ${i + 1} not sorted by fleet $/h`);
  });

  await check("browser_plan_no_plan_closest_miss", async () => {
    const q = { ...planReq, ttft_ms: 1 };
    const want = await apiPlan(q);
    assert(want.plans.length === 0 && want.closest_miss, "a 1 ms TTFT was met");
    await submitPlan(q);
    await page.waitForSelector("#p-none:not([hidden])");
    const msg = (await page.locator("#p-none").textContent()).replace(/ \u00d7 /g, " x ").replace(/\.$/, "");
    const m = want.closest_miss;
    const line = execFileSync(BIN, planArgs(q), { encoding: "utf8" }).split("\n")
      .find((l) => l.startsWith("no configuration meets the SLO"));
    assert(line && msg.toLowerCase() === line.toLowerCase(), `page '${msg}', CLI '${line}'`);
    assert(msg.includes(`${m.gpus} x ${m.device}, ${m.dtype}`), `closest miss not named: '${msg}'`);
    assert(await page.locator("#p-scroll").isHidden() && await page.locator("#pareto").isHidden(), "empty table shown");
    assert((await page.locator("#p-missed").textContent()).includes(`${want.missed.ttft} TTFT over the limit`), "missed");
  });

  // the mode switch: an ONNX model's inference plans (dlperf plan MODEL.onnx)
  await check("browser_plan_onnx_equals_cli", async () => {
    const q = { example: "resnet18", devices: ["t4", "l4", "a10"], latency_ms: 10, throughput: 5000 };
    const want = await apiPlan(q);
    assert(want.kind === "infer" && want.plans.length >= 3, `kind ${want.kind}, ${want.plans.length} plans`);
    await page.check('input[name="pkind"][value="onnx"]');
    await page.check('input[name="posrc"][value="example"]');
    await page.selectOption("#p-example", "resnet18");
    await page.fill("#p-bmin", "1");
    await page.fill("#p-bmax", "256");
    await page.fill("#p-latency", "10");
    await page.fill("#p-throughput", "5000");
    await page.selectOption("#p-runtime", "eager");
    await page.fill("#p-seq", "");
    for (const c of await page.locator("#p-odtypes input").all()) await c.setChecked(false);
    await page.selectOption("#p-devices", q.devices);
    await page.selectOption("#p-region", "");   // the database's default region, as the CLI without --region
    await page.evaluate(() => { document.getElementById("p-title").textContent = ""; });
    await page.click("#p-submit");
    await page.waitForSelector("#plan[data-kind='infer'] #p-title:not(:empty)");
    assert(await page.locator("#error").isHidden(), "error shown");
    const out = execFileSync(BIN, ["plan", MODEL, "--devices", q.devices.join(","), "--latency", "10",
                                   "--throughput", "5000", "--top", "0"], { encoding: "utf8" });
    const cliR = out.split("\n").filter((l) => /^\s+\d+ \S/.test(l)).map((l) => l.trim().split(/\s+/).join(" "));
    const got = await pageRows();
    assert(cliR.length === want.plans.length && got.length === cliR.length, `rows: page ${got.length}, CLI ${cliR.length}`);
    for (let i = 0; i < got.length; i++) assert(got[i] === cliR[i], `row ${i + 1}: page '${got[i]}', CLI '${cliR[i]}'`);
    const v = Number(await page.locator('#p-table tbody tr:first-child td[data-key="usd_per_msample"]').getAttribute("data-value"));
    assert(v === want.plans[0].usd_per_msample, `$/M samp ${v} vs API ${want.plans[0].usd_per_msample}`);
    assert(await page.locator("#pareto-chart svg circle").count() === want.plans.length, "one circle per plan");
    assert((await page.locator("#pareto-chart svg").textContent()).includes("latency of one batch (ms)"), "x axis");
    assert(await page.locator("#p-odtypes").isVisible() && await page.locator("#p-dtypes").isHidden(), "mode switch");
    await page.screenshot({ path: join(ART, "serve-plan-onnx.png"), fullPage: true });
    await page.check('input[name="pkind"][value="llm"]');
  });

  await check("browser_plan_error_message", async () => {
    await page.check('input[name="pkind"][value="llm"]');
    await page.fill("#p-prompt", "");
    await page.click("#p-submit");
    await page.waitForSelector("#error:not([hidden])");
    const msg = await page.locator("#error").textContent();
    assert(/prompt/.test(msg) && /api\/plan/.test(msg), `error says '${msg}'`);
    await page.fill("#p-prompt", String(planReq.prompt));
    // plan again, so that the phone check below lays out the wide table
    await submitPlan(planReq);
    assert(await page.locator("#p-table tbody tr").count() === wantPlan.plans.length, "table not back");
  });

  // ---- a phone: 360 px wide, nothing wider than the screen ----
  await check("browser_mobile_360px", async () => {
    await page.setViewportSize({ width: 360, height: 760 });
    await page.waitForTimeout(100);
    const sw = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(sw <= 360, `page is ${sw}px wide at 360px (the plan's table must scroll inside its card)`);
    const pbox = await page.locator("#p-submit").boundingBox();
    assert(pbox && pbox.width > 200 && pbox.x >= 0 && pbox.x + pbox.width <= 360, "plan button off screen");
    await page.click("#tab-llm");
    const box = await page.locator("#l-submit").boundingBox();
    assert(box && box.width > 200 && box.x >= 0 && box.x + box.width <= 360, "submit button off screen");
    await page.click("#tab-onnx");
    await page.screenshot({ path: join(ART, "serve-mobile.png"), fullPage: true });
  });

  await check("browser_accessible_labels", async () => {
    const missing = await page.evaluate(() =>
      [...document.querySelectorAll("input:not([type=radio]), select")]
        .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute("aria-label")).map((e) => e.id));
    assert(missing.length === 0, `inputs without a label: ${missing.join(", ")}`);
  });

  await check("browser_console_clean", async () => {
    // the deliberate bad batch above logs a failed request (HTTP 400); nothing else may
    const real = consoleErrors.filter((t) => !/status of 400/.test(t));
    assert(real.length === 0, real.join(" | "));
  });
} finally {
  await ctx.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
