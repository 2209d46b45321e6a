# Sourced by the bench's shell tests (not a test itself: tests/run.sh runs
# tests/t_*.sh).  The prologue they share: the repository root as the working
# folder, a scratch folder removed on exit, check NAME CMD..., and on request
# the bench built against this tree's library and an empty aiconfigurator
# silicon tree with the header of its dumps.
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # name, then a command that must succeed
  local name=$1; shift
  if "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi
}
build_bench_serving() { # into $tmp/bench_serving, or the test stops
  cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc bench/bench_serving.c "$BUILD/libdlperf.a" \
    $(pkg-config --libs libcjson sqlite3) -ldl -lm -lpthread -o "$tmp/bench_serving" || { echo "FAIL build bench_serving"; exit 1; }
}
silicon_fixture() { # sets S (the systems folder, made) and h (the dumps' header)
  S="$tmp/data/aiconfigurator/aic-core/src/aiconfigurator_core/systems"
  mkdir -p "$S"
  h='id,silicon_data_source,backend,backend_version,model_path,system,precision,mode,isl,osl,gemm_quant_mode,moe_quant_mode,batch_size,tp_size,pp_size,attention_dp_size,moe_tp_size,moe_ep_size,prefill_batch_size,prefill_num_workers,prefill_tp_size,prefill_pp_size,prefill_attention_dp_size,prefill_moe_tp_size,prefill_moe_ep_size,decode_batch_size,decode_num_workers,decode_tp_size,decode_pp_size,decode_attention_dp_size,decode_moe_tp_size,decode_moe_ep_size,silicon_ttft_ms,silicon_tpot_ms'
}
