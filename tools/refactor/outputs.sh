#!/usr/bin/env bash
# outputs.sh DIR — write what dlperf answers (predict/inspect/llm/mig/devices
# --json and text, on the shipped and ../shared models, a trained model file,
# a few bench tables) into DIR, one file per case, so that two builds can be
# compared byte for byte:
#
#   tools/refactor/outputs.sh /tmp/before      # on the old build
#   ... refactor, make ...
#   tools/refactor/outputs.sh /tmp/after
#   tools/refactor/compare.sh /tmp/before /tmp/after
#
# Fields that hold wall-clock time (predict_ms, elapsed, timings) are dropped
# with jq before writing; everything else must be identical.  Uses the build in
# $BUILD (default build/).  Run from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: outputs.sh DIR}
D=${BUILD:-build}/dlperf
mkdir -p "$OUT"
SH=../shared/models/torchvision
strip='del(.. | .predict_ms?, .elapsed_ms?, .wall_ms?, .time_ms?, .seconds?)'
# a scratch folder: model files and reports name the paths they came from
# (its own per run, so that two runs at once do not collide; its path is
# replaced by T/ in every output)
T=$(mktemp -d /tmp/dlperf-outputs.XXXXXX)
n=0
run() {   # run NAME CMD...   -> NAME.out (stdout, timing fields stripped if JSON), NAME.rc
  local name=$1; shift
  "$@" >"$OUT/$name.raw" 2>"$OUT/$name.err"; echo $? >"$OUT/$name.rc"
  if jq -e . "$OUT/$name.raw" >/dev/null 2>&1; then jq -S "$strip" "$OUT/$name.raw" | sed -e "s#$T/#T/#g" >"$OUT/$name.out"
  else sed -E -e "s#$OUT/#OUT/#g" -e "s#$T/#T/#g" -e 's/ in [0-9.]+ s:/ in X s:/' "$OUT/$name.raw" >"$OUT/$name.out"; fi
  rm -f "$OUT/$name.raw"; n=$((n+1))
}
models="examples/resnet18.onnx examples/bert.onnx"
for m in $SH/*.onnx data/models/torchvision/*.onnx; do [ -f "$m" ] && models="$models $m"; done
for m in $models; do
  b=$(basename "$m" .onnx); seq=""; [ "$b" = bert ] && seq="--seq 128"
  case $m in data/models/*) b="own_$b"; seq="--dim height=224 --dim width=224";; esac
  run "inspect_$b" "$D" inspect "$m" --batch 8 $seq --json
  run "predict_${b}_a100" "$D" predict "$m" --device a100-40gb --batch 32 $seq --json
  run "predict_${b}_h100_fp16" "$D" predict "$m" --device h100-sxm --batch 64 $seq --dtype fp16 --json
  run "predict_${b}_l4_train" "$D" predict "$m" --device l4 --batch 16 $seq --dtype fp16 --mode train --json
done
for m in examples/resnet18.onnx $SH/vit_b_16.onnx $SH/vgg16.onnx $SH/resnet50.onnx; do
  [ -f "$m" ] || continue; b=$(basename "$m" .onnx)
  run "kernels_${b}_compile" "$D" predict "$m" --device h100-sxm --batch 64 --dtype fp16 --runtime compile --kernels
  run "kernels_${b}_trt" "$D" predict "$m" --device h100-sxm --batch 1 --dtype fp16 --runtime tensorrt --json
  run "text_${b}_rtx4090" "$D" predict "$m" --device rtx4090 --batch 256 --dtype fp16 --kernels
  run "text_${b}_cpu" "$D" predict "$m" --device cpu-amd-epyc-2c --batch 8 --mode train
  run "roofline_${b}" "$D" roofline "$m" --device a100-40gb --batch 32 --out "$OUT/roofline_$b.svg"
done
run predict_text_main "$D" predict examples/resnet18.onnx --device h100-sxm --batch 32
run predict_text_bert "$D" predict examples/bert.onnx --device a100-40gb --batch 8 --seq 128 --mode train
run predict_runs "$D" predict examples/resnet18.onnx --device a100-80gb --batch 16 --runs 1e6 --region eu --json
for dev in h100-sxm a100-40gb h200; do
  for mem in 3000 7300 20000 70000; do run "mig_${dev}_$mem" "$D" mig --device $dev --memory-mb $mem --json; done
done
run devices "$D" devices --json
run llm_list "$D" llm --list
while read -r name args; do
  [ -z "$name" ] && continue
  run "llm_$name" "$D" llm $args --json
  run "llmtext_$name" "$D" llm $args
done <<'LIST'
bert --model bert-base-uncased --device h100-sxm --batch 64 --seq 128 --dtype fp16
qwen3moe --model Qwen/Qwen3-30B-A3B --device h100-sxm --gpus 2 --dtype fp8 --kv-dtype fp8 --seq 1024 --gen 256
gptoss --model openai/gpt-oss-120b --device h100-sxm --dtype mxfp4 --seq 2048 --gen 256
qwen35 --model Qwen/Qwen3.5-397B-A17B --device b200 --gpus 8 --dtype fp8 --seq 8192 --gen 1024
serve_qwen --model Qwen/Qwen3-30B-A3B-Instruct-2507 --device h100-sxm --gpus 2 --dtype bf16 --concurrency 256 --prompt 1024 --gen 400
maxfit_gptoss --model openai/gpt-oss-120b --device h100-sxm --dtype mxfp4 --max-fit
llama8 --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --dtype bf16 --concurrency 64 --prompt 1024 --gen 256
llama8_l4 --model meta-llama/Llama-3.1-8B-Instruct --device l4 --dtype fp16 --batch 4 --seq 512 --gen 128
gemma_img --model google/gemma-3-12b-it --device h100-sxm --dtype bf16 --concurrency 16 --prompt 512 --gen 256 --image-tokens 16
LIST
# every model of the LLM catalogue (data/llm_configs.json), read from the data
# file rather than from the code under test: a forward pass on one GPU, generation
# over 8 (tensor parallel), serving over 8 and on one small GPU, and a text run;
# models whose heads do not split over the GPUs or that do not fit answer an
# error, which is compared too
i=0
for id in $(jq -r '.models[].id' data/llm_configs.json); do
  i=$((i+1)); k=$(printf 'llmcat_%03d' $i)
  run "${k}_fwd" "$D" llm --model "$id" --device h200 --batch 2 --seq 256 --json
  run "${k}_gen" "$D" llm --model "$id" --device b200 --gpus 8 --seq 512 --gen 64 --json
  run "${k}_serve" "$D" llm --model "$id" --device h200 --gpus 8 --concurrency 32 --prompt 1024 --gen 128 --json
  run "${k}_serve_l4" "$D" llm --model "$id" --device l4 --dtype int4 --max-fit --prompt 512 --gen 64 --json
  run "${k}_text" "$D" llm --model "$id" --device h100-sxm --gpus 4 --dtype fp8 --kv-dtype fp8 --seq 128 --gen 32
done
run llm_list_json "$D" llm --list --json
run llm_config_llama "$D" llm --config tests/golden/llama/config.json --device a100-40gb --batch 8 --seq 512 --dtype fp32 --json
# config.json variants through the library in one process (ctypes on
# libdlperf.so): per family one catalogue config and a few tiny ones from the
# tests, each key deleted or given a wrong value, each key the parser knows (any
# family) added with several values, and model_type swapped for every type it
# accepts.  Each answer: the error message, or a hash of the parsed
# dlp_llm_config's bytes, the builder's weight counts, KV bytes, and a hash of
# the built graph's node list (`inspect --json --nodes` of a (1, 64) forward)
if [ -f "${BUILD:-build}/libdlperf.so" ]; then
LIB="${BUILD:-build}/libdlperf.so" /usr/bin/python3 - "$OUT" <<'PY'
import copy, ctypes, hashlib, json, os, sys
out = sys.argv[1]
lib = ctypes.CDLL(os.path.abspath(os.environ["LIB"]))
P, I64 = ctypes.c_void_p, ctypes.c_int64
lib.dlp_llm_config_parse.argtypes = [ctypes.c_char_p, ctypes.c_char_p, P, P]
lib.dlp_llm_build.argtypes = [P, I64, I64, ctypes.c_int, ctypes.POINTER(P), P, P]
lib.dlp_llm_kv_bytes.argtypes = [P, I64, ctypes.c_double]
lib.dlp_llm_kv_bytes.restype = ctypes.c_double
lib.dlp_inspect_nodes_json.argtypes = [P, ctypes.POINTER(P), ctypes.POINTER(ctypes.c_size_t), P]
lib.dlp_graph_free.argtypes = [P]
lib.dlp_free.argtypes = [P]
class Err(ctypes.Structure):  # dlp_error
    _fields_ = [("code", ctypes.c_int), ("msg", ctypes.c_char * 512)]
CFG = 1 << 16  # bytes: more than sizeof(dlp_llm_config); the rest stays zero
cat = json.load(open("data/llm_configs.json"))["models"]
reps, seen = [], set()
for m in cat:
    c = m["config"]
    key = (c.get("model_type"), (c.get("text_config") or {}).get("model_type"))
    if key not in seen:
        seen.add(key); reps.append((m["id"], c))
T = '{"hidden_size":64,"num_attention_heads":4,"intermediate_size":64,"vocab_size":10,'
for name, js in [
    ("tiny_nemotron_h", T + '"model_type":"nemotron_h","num_hidden_layers":4,"hybrid_override_pattern":"M*-E",'
     '"mamba_num_heads":8,"mamba_head_dim":8,"ssm_state_size":16,"n_routed_experts":4,"num_experts_per_tok":2}'),
    ("tiny_glm_moe_dsa", T + '"model_type":"glm_moe_dsa","num_hidden_layers":3,"kv_lora_rank":16,"q_lora_rank":16,'
     '"qk_nope_head_dim":8,"qk_rope_head_dim":8,"v_head_dim":8,"indexer_types":["full","shared","full"],'
     '"mlp_layer_types":["dense","sparse","sparse"]}'),
    ("tiny_qwen3_5_text", T + '"model_type":"qwen3_5_text","num_hidden_layers":2,"head_dim":16,'
     '"layer_types":["linear_attention","full_attention"],"linear_num_key_heads":2,"linear_num_value_heads":4,'
     '"linear_key_head_dim":8,"linear_value_head_dim":8,"linear_conv_kernel_dim":4}'),
    ("tiny_qwen3_moe", T + '"model_type":"qwen3_moe","num_hidden_layers":2,"num_key_value_heads":2,"head_dim":16,'
     '"moe_intermediate_size":32,"num_experts":8,"num_experts_per_tok":2,"mlp_only_layers":[1]}'),
    ("tiny_falcon", T + '"model_type":"falcon","num_hidden_layers":2,"new_decoder_architecture":true,"num_kv_heads":2}'),
    ("tiny_llama4", T + '"model_type":"llama4_text","num_hidden_layers":4,"num_local_experts":4,'
     '"interleave_moe_layer_step":2,"no_rope_layers":[1,1,0,1],"intermediate_size_mlp":128}'),
]:
    reps.append((name, json.loads(js)))
for path in ["tests/golden/llama/config.json"]:
    reps.append((path, json.load(open(path))))
types = ["bert", "roberta", "xlm-roberta", "camembert", "distilbert", "deberta-v2", "deberta", "gpt2", "opt",
         "gpt_neox", "gptj", "llama", "mistral", "aquila", "qwen2", "mixtral", "phi", "phi3", "phi3small", "falcon",
         "RefinedWeb", "RefinedWebModel", "bloom", "gemma", "gemma2", "starcoder2", "qwen3", "qwen3_vl",
         "qwen3_vl_text", "qwen3_moe", "qwen3_vl_moe", "qwen3_vl_moe_text", "qwen2_vl", "qwen2_5_vl",
         "qwen2_5_vl_text", "qwen2_vl_text", "gemma3", "gemma3_text", "llama4", "llama4_text", "gpt_oss",
         "deepseek_v3", "kimi_k2", "kimi_k25", "deepseek_v32", "glm_moe_dsa", "nemotron_h", "qwen3_next",
         "qwen3_5_moe", "qwen3_5_moe_text", "qwen3_5", "qwen3_5_text", "minimax_m2", "t5", "Llama"]
probe = """_remove_final_layer_norm activation activation_function alibi attention_bias attention_chunk_size
attention_head_dim attn_logit_softcapping attn_output_gate bias chunk_size conv_kernel d_model decoder_sparse_step
dim do_layer_norm_before embedding_size enable_bias experts_per_token ff_intermediate_size ffn_dim
ffn_hidden_size first_k_dense_replace full_attention_interval head_dim hidden_act hidden_activation hidden_dim
index_head_dim index_n_heads index_topk index_topk_pattern indexer_types interleave_moe_layer_step
intermediate_size_mlp kv_lora_rank layer_norm_eps layer_norm_epsilon layer_types linear_conv_kernel_dim
linear_key_head_dim linear_num_key_heads linear_num_value_heads linear_value_head_dim mamba_head_dim
mamba_num_heads max_position_embeddings max_relative_positions max_sequence_length max_window_layers mlp_bias
mlp_hidden_act mlp_layer_types mlp_only_layers moe_intermediate_size moe_layer_freq
moe_shared_expert_intermediate_size multi_query n_ctx n_embd n_embed n_groups n_head n_head_kv n_heads n_inner
n_layer n_layers n_positions n_routed_experts n_shared_experts new_decoder_architecture no_rope_layers norm_eps
norm_epsilon num_experts num_experts_per_tok num_heads num_key_value_heads num_kv_heads num_layers
num_ln_in_parallel_attn num_local_experts pad_token_id parallel_attn partial_rotary_factor position_biased_input
position_buckets q_lora_rank qk_layernorm qk_nope_head_dim qk_norm_type qk_rope_head_dim relative_attention
rms_norm_eps rope_embedding_base rope_theta rotary_dim rotary_emb_base rotary_pct seq_length
shared_expert_intermediate_size shared_intermediate_size sinusoidal_pos_embds sliding_window
sliding_window_pattern ssm_state_size tie_word_embeddings type_vocab_size use_bias use_conv_bias
use_parallel_residual use_qk_norm use_sliding_window v_head_dim vocab_size word_embed_proj_dim
hybrid_override_pattern attn_type_list architectures quantization_config torch_dtype dtype rope_parameters
vision_config mm_tokens_per_image""".split()
generic = [True, False, 0, 2, 64, -1, "x"]
special = {
    "hidden_act": ["gelu", "gelu_new", "gegelu", "relu", "silu", "relu2", "bogus"],
    "mlp_hidden_act": ["relu2", "silu", "bogus"], "qk_norm_type": ["per_head", "per_layer"],
    "torch_dtype": ["bfloat16", "float16"], "dtype": ["bfloat16"],
    "architectures": [["BertForMaskedLM"], ["XForPreTraining"], ["LlamaForCausalLM"], [3]],
    "quantization_config": [{"quant_method": "fp8"}, {"quant_algo": "NVFP4"}, {"quant_algo": "FP8"},
                            {"quant_method": "awq"}, {"quant_method": "gptq"}, {"quant_method": "mxfp4"}],
    "rope_parameters": [{"rope_theta": 500000, "partial_rotary_factor": 0.5}, {"partial_rotary_factor": 2}],
    "vision_config": [{"depth": 2, "hidden_size": 64, "patch_size": 14, "spatial_merge_size": 2},
                      {"num_hidden_layers": 2, "hidden_size": 64, "image_size": 224},
                      {"vt_num_hidden_layers": 2, "vt_hidden_size": 64}, {"hidden_size": 64}],
    "attn_type_list": [[1, 1], [0, 1]], "index_topk_pattern": ["FSFS", "SF"],
    "mlp_only_layers": [[0], [0, 1, 99]], "no_rope_layers": [[1, 0], []],
}
def nlayers(c):
    for k in ("num_hidden_layers", "n_layer", "n_layers", "num_layers"):
        if isinstance(c.get(k), int): return c[k]
    return 2
def lists(c):
    L = nlayers(c)
    return {"layer_types": [["sliding_attention" if i % 2 else "full_attention" for i in range(L)],
                            ["linear_attention" if i % 4 != 3 else "full_attention" for i in range(L)],
                            ["chunked_attention"] * L, ["full_attention"]],
            "mlp_layer_types": [["dense" if i < 2 else "sparse" for i in range(L)], ["dense"]],
            "indexer_types": [["full" if i % 2 == 0 else "shared" for i in range(L)], ["shared"] * L],
            "hybrid_override_pattern": [("M*-E" * L)[:L], ("M-" * L)[:L], "M*X"]}
def answer(cfg):
    c, e = ctypes.create_string_buffer(CFG), Err()
    st = lib.dlp_llm_config_parse(json.dumps(cfg).encode(), b"cfg.json", c, ctypes.byref(e))
    if st: return "parse %d: %s" % (st, e.msg.decode())
    hc = hashlib.sha1(c.raw).hexdigest()[:16]
    if hc not in built: built[hc] = build(c, hc)  # the same config builds the same graph
    return built[hc]
built = {}
def build(c, hc):
    e = Err()
    kv = lib.dlp_llm_kv_bytes(c, 1000, 2.0)
    g, w = P(), (I64 * 32)()  # dlp_llm_weights: 4 + DLP_QT_COUNT_ int64s, zero past them
    st = lib.dlp_llm_build(c, 1, 64, 2, ctypes.byref(g), w, ctypes.byref(e))  # 2: DLP_QT_BF16
    if st: return "config %s kv=%r build %d: %s" % (hc, kv, st, e.msg.decode())
    buf, n = P(), ctypes.c_size_t()
    st = lib.dlp_inspect_nodes_json(g, ctypes.byref(buf), ctypes.byref(n), ctypes.byref(e))
    lib.dlp_graph_free(g)
    if st: return "config %s kv=%r inspect %d: %s" % (hc, kv, st, e.msg.decode())
    hg = hashlib.sha1(ctypes.string_at(buf.value, n.value)).hexdigest()[:16]
    lib.dlp_free(buf)
    return "config %s kv=%r params=%d active=%d weights %s graph %s" % (
        hc, kv, w[0], w[1], hashlib.sha1(bytes(w)).hexdigest()[:12], hg)
for ri, (rid, base) in enumerate(reps):
    inner = "text_config" if isinstance(base.get("text_config"), dict) else None
    def put(k, v, delete=False):
        c = copy.deepcopy(base); d = c[inner] if inner and k != "vision_config" else c
        if delete: d.pop(k, None)
        else: d[k] = v
        return c
    cases = [("base", base)]
    tgt = base[inner] if inner else base
    for k in sorted(tgt):
        if k in ("text_config", "vision_config"): continue
        cases.append(("del %s" % k, put(k, None, True)))
        for v in ("x", -1, 0, True, [1], 1.5): cases.append(("%s=%s" % (k, json.dumps(v)), put(k, v)))
    ls = lists(tgt)
    for k in probe:
        for v in special.get(k, []) + ls.get(k, []) + generic:
            cases.append(("%s:=%s" % (k, json.dumps(v)), put(k, v)))
    for t in types: cases.append(("model_type=%s" % t, put("model_type", t)))
    fn = "%s/llmsweep_%02d_%s.out" % (out, ri, rid.replace("/", "_"))
    with open(fn, "w") as f:
        f.write("%s cases=%d\n" % (rid, len(cases)))
        for name, c in cases: f.write("%s\t%s\n" % (name, answer(c)))
PY
fi
# a trained model file (fixed seed, one thread): its bytes, and eval on it
SMALL="--hidden 16 --layers 2 --fc-layers 2 --lr 3e-3 --batch-size 16 --threads 1 --seed 3"
if "$D" dataset build --from help-nb201 --device titanxp_32 --limit 300 --layout dippm --out "$T/d.dlpd" >/dev/null 2>&1; then
  run train "$D" train --data "$T/d.dlpd" --arch sage --targets latency_ms --epochs 3 $SMALL --out "$T/m.dlpm" --report "$T/train.md"
  # the file without what changes from run to run: the training time in its
  # header (and so the header length and the CRC); every other byte compared
  /usr/bin/python3 -c 'import re,sys; d=open(sys.argv[1],"rb").read(); d=d[:8]+d[12:-4]
d=re.sub(rb"\"seconds\":[0-9.eE+-]+", b"\"seconds\":X", d, count=1); open(sys.argv[2],"wb").write(d)' \
    "$T/m.dlpm" "$OUT/train_model.dlpm.norm"
  jq -S 'del(.elapsed_s?)' "$T/train.json" 2>/dev/null | sed -e "s#$T/#T/#g" >"$OUT/train_targets.json"
  run eval "$D" eval --model "$T/m.dlpm" --data "$T/d.dlpd" --report "$T/e.md"
  jq -S .targets "$T/e.json" >"$OUT/eval_targets.json" 2>/dev/null
  run predict_graph "$D" predict-graph --model "$T/m.dlpm" examples/resnet18.onnx --batch 8 --json
fi
rm -rf "$T"
# bench tables (kernel-level roofline MAPE, MLPerf/Zeus rows; they print no timings)
BUILD=${BUILD:-build} bench/bench_roofline.sh >"$OUT/bench_roofline.out" 2>&1
# ---- h64 (issue 21, scope 4): the paths of the split functions --------------
# dlp__predict_analytic (power cap, training steps and optimizers, fp8/fp4/int8,
# the dtype and option refusals), dlp__lower (every runtime's pass table,
# --fuse/--no-sdpa/--no-amp, nhwc), write_svg (training, int8 "OP" ceiling, no
# tensor ceiling, CPU), dlp_cmd_llm and dlp__llm_serve (phases, EP/attention DP,
# queueing and preemption, max-seqs, mem-fraction, images, every refusal).
E=examples; R18=$E/resnet18.onnx; BERT="$E/bert.onnx --seq 128"
while read -r name args; do
  [ -z "$name" ] && continue
  run "h64_$name" "$D" $args
done <<LIST
plimit_vit_l4 predict $SH/vit_b_16.onnx --device l4 --batch 64 --dtype fp16 --power-limit 50 --json
plimit_r18_text predict $R18 --device h100-sxm --batch 32 --power-limit 300 --kernels
plimit_low predict $R18 --device h100-sxm --batch 32 --power-limit 10
train_vit_inductor predict $SH/vit_b_16.onnx --device h100-sxm --batch 64 --dtype bf16 --runtime inductor --mode train --kernels
train_vit_inductor_json predict $SH/vit_b_16.onnx --device h100-sxm --batch 64 --dtype bf16 --runtime compile --mode train --json
train_convnext_nhwc predict $SH/convnext_tiny.onnx --device l4 --batch 64 --dtype fp16 --layout nhwc --mode train --optimizer sgd-momentum --kernels
train_r18_sgd predict $R18 --device a100-40gb --batch 8 --tf32 --mode train --optimizer sgd --no-learned --json
train_bert_fp16 predict $BERT --device a100-40gb --batch 8 --dtype fp16 --mode train --kernels
train_bert_noamp predict $BERT --device h100-sxm --batch 8 --dtype bf16 --no-amp --mode train --json
fp8_r18_trt predict $R18 --device h100-sxm --batch 8 --dtype fp8 --runtime tensorrt --json
fp8_bert_eager predict $BERT --device h100-sxm --batch 8 --dtype fp8 --kernels
fp4_bert_b200 predict $BERT --device b200 --batch 8 --dtype fp4 --json
int8_r18_trt predict $R18 --device a100-40gb --batch 8 --dtype int8 --runtime tensorrt --kernels
fp8_r50_b200 predict $SH/resnet50.onnx --device b200 --batch 256 --dtype fp8 --runtime tensorrt --nodes
ort_bert predict $BERT --device a100-40gb --batch 8 --runtime onnxruntime --kernels
eager1x_bert predict $BERT --device a100-40gb --batch 8 --runtime eager-1.x --no-amp --dtype fp16 --kernels
fuse_bert_pure predict $BERT --device rtx4090 --batch 8 --no-sdpa --fuse --pure --launch-us 0 --kernels
fuse_r18_json predict $R18 --device l4 --batch 16 --dtype fp16 --fuse --no-tf32 --json
compile_swin predict $SH/swin_t.onnx --device h100-sxm --batch 32 --dtype fp16 --runtime compile --json
trt_convnext predict $SH/convnext_tiny.onnx --device l40s --batch 1 --dtype fp16 --runtime tensorrt --kernels
mi300_r50 predict $SH/resnet50.onnx --device mi300x --batch 64 --kernels
bad_fp8_a100 predict $R18 --device a100-40gb --batch 8 --dtype fp8 --runtime tensorrt
bad_bf16_t4 predict $R18 --device t4 --batch 8 --dtype bf16
bad_fp8_train predict $BERT --device h100-sxm --batch 8 --dtype fp8 --mode train
bad_int8_eager predict $R18 --device a100-40gb --batch 8 --dtype int8 --mode train
bad_trt_train predict $R18 --device h100-sxm --batch 2 --runtime tensorrt --mode train
roof_bert_train roofline $BERT --device a100-40gb --batch 8 --mode train --dtype bf16 --out $OUT/h64_roof_bert_train.svg
roof_r18_int8 roofline $R18 --device a100-40gb --batch 8 --dtype int8 --runtime tensorrt --out $OUT/h64_roof_r18_int8.svg
roof_r18_v100 roofline $R18 --device v100-16gb --batch 8 --no-tf32 --out $OUT/h64_roof_r18_v100.svg
roof_r18_p100 roofline $R18 --device p100 --batch 8 --out $OUT/h64_roof_r18_p100.svg
roof_r18_cpu roofline $R18 --device cpu-amd-epyc-2c --batch 8 --out $OUT/h64_roof_r18_cpu.svg
roof_r18_mi100 roofline $R18 --device mi100 --batch 8 --out $OUT/h64_roof_r18_mi100.svg
roof_vit_fp16 roofline $SH/vit_b_16.onnx --device h100-sxm --batch 64 --dtype fp16 --runtime compile --fuse --out $OUT/h64_roof_vit_fp16.svg
LIST
Q3=Qwen/Qwen3-30B-A3B; L8=meta-llama/Llama-3.1-8B-Instruct; L70=meta-llama/Meta-Llama-3.1-70B-Instruct
VL=Qwen/Qwen3-VL-8B-Instruct
while read -r name args; do
  [ -z "$name" ] && continue
  run "h64_llm_$name" "$D" llm $args --json
  run "h64_llmtext_$name" "$D" llm $args
done <<LIST
ep_adp --model $Q3 --device h100-sxm --gpus 4 --ep 4 --attention-dp 2 --dtype bf16 --concurrency 128 --prompt 2048 --gen 512
prefill --model $Q3 --device h100-sxm --gpus 2 --dtype bf16 --concurrency 64 --prompt 4096 --phase prefill
prefill_queue --model $Q3 --device h100-sxm --gpus 2 --dtype bf16 --concurrency 400 --prompt 4096 --phase prefill --max-seqs 64
decode --model $Q3 --device h100-sxm --gpus 2 --dtype bf16 --concurrency 512 --prompt 1024 --gen 1024 --phase decode --max-seqs 128
memfrac_l4 --model $L8 --device l4 --dtype bf16 --concurrency 400 --prompt 2048 --gen 1024 --mem-fraction 0.8
preempt --model $L8 --device l40s --dtype fp8 --concurrency 256 --prompt 4096 --gen 4096
one_client --model $L8 --device h100-sxm --dtype bf16 --concurrency 1 --prompt 512 --gen 64
images --model $VL --device h100-sxm --concurrency 64 --prompt 256 --images 2 --image-size 640x480
video --model $VL --device h100-sxm --batch 4 --seq 256 --gen 64 --images 1 --video-frames 8
img_tokens_gen --model $VL --device h100-sxm --batch 2 --seq 128 --image-tokens 64
int8_ep --model $Q3 --device h100-sxm --gpus 4 --ep 4 --concurrency 8 --dtype int8
mla_16 --model deepseek-ai/DeepSeek-V3 --device h200 --gpus 16 --ep 16 --concurrency 256 --prompt 2048 --gen 512
hybrid_maxfit --model Qwen/Qwen3.5-397B-A17B --device gb200 --gpus 8 --dtype fp8 --max-fit --prompt 8192 --gen 1024
pcie_nf4 --model $L8 --device a100-pcie-40gb --gpus 4 --dtype nf4 --concurrency 32 --kv-dtype fp8
amd_ep --model mistralai/Mixtral-8x7B-v0.1 --device mi300x --gpus 8 --ep 8 --concurrency 1 --prompt 128 --gen 16
gen_int4 --model $L8 --device h100-sxm --batch 8 --seq 512 --dtype int4 --kv-dtype fp8 --samples 1000 --region eu --analytic
gen_nf4 --model $L8 --device h100-sxm --dtype nf4 --batch 2 --seq 128 --gen 32
gen_tp --model $L70 --device h100-sxm --gpus 4 --dtype bf16 --batch 16 --seq 1024 --gen 128
bad_ep_dense --model $L8 --device h100-sxm --gpus 2 --ep 2 --concurrency 8
bad_adp_dense --model $L8 --device h100-sxm --gpus 2 --attention-dp 2 --concurrency 8
bad_ep_divide --model $Q3 --device h100-sxm --gpus 4 --ep 3 --concurrency 8
bad_ep_experts --model mistralai/Mixtral-8x7B-v0.1 --device h100-sxm --gpus 16 --ep 16 --concurrency 8
bad_nofit --model $L70 --device l4 --concurrency 8
bad_nokv --model $L70 --device h100-sxm --gpus 2 --concurrency 8 --mem-fraction 0.5
bad_maxfit_conc --model $L8 --device h100-sxm --max-fit --concurrency 8
bad_gen0 --model $L8 --device h100-sxm --concurrency 8 --gen 0
bad_phase --model $L8 --device h100-sxm --phase middle --concurrency 8
bad_memfrac --model $L8 --device h100-sxm --mem-fraction 1.5 --concurrency 8
bad_maxseqs --model $L8 --device h100-sxm --max-seqs 8
bad_serveopt --model $L8 --device h100-sxm --ep 2
bad_kvdtype --model $L8 --device h100-sxm --kv-dtype int8
bad_dtype --model $L8 --device h100-sxm --dtype fp3
bad_imgsize --model $VL --device h100-sxm --images 1 --image-size 10xq
bad_imgboth --model $VL --device h100-sxm --images 1 --image-tokens 5
bad_config --config /nonexistent/config.json --device h100-sxm
bad_device --model $L8 --device nosuchgpu
bad_nomodel --device h100-sxm
bad_both --model $L8 --config x.json --device h100-sxm
bad_nodevice --model $L8
bad_option --model $L8 --device h100-sxm --bogus
bad_batch --model $L8 --device h100-sxm --batch 0
LIST
run h64_llm_list_json "$D" llm --list --json
run h64_llm_help "$D" llm --help
# ---- end h64 ------------------------------------------------------------------
echo "outputs.sh: $n cases in $OUT"
