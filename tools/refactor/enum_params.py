#!/usr/bin/env python3
"""enum_params.py — give the enum parameters of dlperf.h's calls their enum type
(issue 21, "enums in signatures") in include/dlperf.h and in the definitions
under src/: `int dtype` -> `dlp_dtype dtype` and so on, for the functions in
the table T.  Idempotent (an enum parameter no longer matches `int NAME`), so
it can be re-run after merging code that rewrote a definition with `int`.
A definition left with `int` fails to compile ("conflicting types"), which
is how a missed one shows.  Usage: python3 tools/refactor/enum_params.py"""
import re, subprocess, os
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# function -> {param name: enum type}
T={
 'dlp_dtype_size':('dtype','dlp_dtype'),'dlp_dtype_name':('dtype','dlp_dtype'),'dlp_dtype_short':('dtype','dlp_dtype'),
 'dlp_op_class_name':('c','dlp_op_class'),'dlp_device_kind_name':('kind','dlp_device_kind'),
 'dlp_device_peak_flops':('dtype','dlp_dtype'),'dlp_device_supports_dtype':('dtype','dlp_dtype'),
 'dlp_layout_width':('layout','dlp_layout'),'dlp_layout_name':('layout','dlp_layout'),'dlp_layout_column':('layout','dlp_layout'),
 'dlp_features_build':('layout','dlp_layout'),'dlp_dataset_new':('layout','dlp_layout'),'dlp_encoder_new':('layout','dlp_layout'),
 'dlp_quant_name':('q','dlp_quant'),'dlp_quant_act_dtype':('q','dlp_quant'),'dlp_llm_build':('quant','dlp_quant'),
 'dlp_llm_compute_dtype':('quant','dlp_quant'),'dlp_llm_phase_name':('phase','dlp_llm_phase'),
 'dlp_runtime_name':('runtime','dlp_runtime'),'dlp_memfmt_name':('memfmt','dlp_memfmt'),'dlp_kernel_class_name':('kc','dlp_kernel_class'),
 'dlp_gnn_arch_name':('arch','dlp_gnn_arch'),'dlp_gnn_readout_name':('r','dlp_gnn_readout'),'dlp_gnn_loss_name':('l','dlp_gnn_loss'),
 'dlp_gnn_scale_name':('s','dlp_gnn_scale'),'dlp_gnnlm_input_name':('v','dlp_gnnlm_input'),
 'dlp_pretrain_method_name':('method','dlp_pretrain_method'),'dlp_plan_bind_name':('b','dlp_plan_bind'),'dlp_plan_miss_name':('m','dlp_plan_miss'),
}
def param_spans(s,k):
    j=s.index('(',k)+1; depth=1; out=[]; st=j; cur=j
    while depth:
        ch=s[cur]
        if ch=='(': depth+=1
        elif ch==')': depth-=1
        if (ch==',' and depth==1) or depth==0: out.append((st,cur)); st=cur+1
        cur+=1
    return out
def fix(s, fn, idx_hint, enum, is_header):
    n=0
    for m in list(re.finditer(r'(^|\n)([a-zA-Z_][\w \*]*?\b)'+fn+r'\(', s)):
        pass
    pos=0
    while True:
        m=re.search(r'(?m)^(?:DLP_API )?(?:static )?(?:const )?[a-z_0-9]+ \**'+fn+r'\(', s[pos:])
        if not m: break
        k=pos+m.start()
        spans=param_spans(s,k)
        done=False
        for a,b in spans:
            p=s[a:b]
            mm=re.match(r'(\s*)int(\s+)(\w+)\s*$',p)
            if mm and (mm.group(3)==idx_hint or (not is_header and False)):
                s=s[:a]+mm.group(1)+enum+mm.group(2)+mm.group(3)+s[b:]; done=True; n+=1; break
        if not done:
            # definition may use another name: change the param at the header's position
            hpos=HPOS.get(fn)
            if hpos is not None and hpos < len(spans):
                a,b=spans[hpos]; p=s[a:b]; mm=re.match(r'(\s*)int(\s+)(\w+)\s*$',p)
                if mm: s=s[:a]+mm.group(1)+enum+mm.group(2)+mm.group(3)+s[b:]; n+=1
        pos=k+1
    return s,n
HPOS={}
h=open('include/dlperf.h').read()
for fn,(pn,en) in T.items():
    m=re.search(r'(?m)^(?:const )?[a-z_0-9]+ \**'+fn+r'\(', h)
    spans=param_spans(h,m.start())
    for i,(a,b) in enumerate(spans):
        if re.match(r'\s*(int|'+en+r')\s+'+pn+r'\s*$',h[a:b]): HPOS[fn]=i
    h,n=fix(h,fn,pn,en,True)
    if n==0 and not re.search(r'\b'+fn+r'\([^;]*\b'+en+r' '+pn+r'\b', h): print('header: no int %s in %s' % (pn, fn))
open('include/dlperf.h','w').write(h)
files=subprocess.check_output("grep -rlE '^[a-z].*\\b(%s)\\(' src"%'|'.join(T),shell=True,text=True).split()
for f in files:
    s=open(f).read(); tot=0
    for fn,(pn,en) in T.items():
        s,n=fix(s,fn,pn,en,False); tot+=n
    if tot: open(f,'w').write(s); print(f,tot)
