/*
 * cmd_train.c — `dlperf train`: fit a GNN predictor (DIPPM's GraphSAGE
 * PMGNS, GCN / GAT / GIN / MLP, or TraPPM with a pre-trained encoder) on a
 * .dlpd dataset and write a .dlpm.
 *
 *   dlperf train --data D.dlpd --arch sage --targets latency_ms --epochs 200 --out M.dlpm
 *   dlperf train --data D.dlpd --arch trappm --encoder gae.dlpm --out T.dlpm
 *   dlperf train --data D2.dlpd --arch trappm --init T.dlpm --curve c.csv --out T2.dlpm
 *
 * The split (default DIPPM's random 70/15/15, seed 1) is stored in the
 * model so that `dlperf eval` can rebuild the same test set.  After
 * training the test part (if any) is evaluated and summarised on stdout;
 * --report / --report-json / --svg write the full evaluation.  Progress
 * (epoch, loss, validation MAPE, ETA) is a self-rewriting line on stderr
 * when stderr is a terminal, otherwise a line every few seconds
 * (cli_progress; --progress lines prints one line per epoch anywhere).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/gnn_cli.h"

int dlp_cmd_train(int argc, char **argv);

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf train --data FILE.dlpd --out FILE.dlpm [options]\n\n"
            "Train a graph neural predictor (docs/gnn.md).  Defaults are DIPPM's (thesis table 4.3):\n"
            "GraphSAGE, 3 blocks of 512, dropout 0.05, Adam lr 2.754e-5, Huber loss.\n\n"
            "model:\n"
            "  --arch A             sage (default), gcn, gat, gin, mlp (FC blocks on static features),\n"
            "                       trappm (SAGE blocks + a frozen pre-trained encoder, needs --encoder;\n"
            "                       its defaults: 2 blocks, 2 FC blocks, MSE, lr 1e-3, static features trappm)\n"
            "                       gnnlm (thesis ch. 7: a GIN's graph token in a small language model's\n"
            "                       prompt beside the sample's device description, docs/gnnlm.md; its\n"
            "                       defaults: hidden 64, 1 FC block, lr 1e-3,\n"
            "                       batch 16, 10 epochs)\n"
            "  --encoder FILE.dlpm  the pre-trained encoder (dlperf pretrain) for --arch trappm; for gnnlm a\n"
            "                       GraphMAE encoder (stage 1) whose GIN starts the model\n"
            "  --lm FILE.dlpm|DIR   gnnlm: the language model (dlperf lm pretrain, or a Hugging Face\n"
            "                       LLaMA-family folder); default builtin, the one dlperf ships\n"
            "  --stage S            gnnlm: adapt (stage 2: graph-to-text, GIN frozen) or predict (default:\n"
            "                       stage 3 and few-shot adaptation, everything trained on the targets)\n"
            "  --graph-input I      gnnlm: token (default: the GIN's graph token), text (a summary of the\n"
            "                       graph in the prompt) or json (nodes and edges in the prompt)\n"
            "  --output O           gnnlm: head (default: a regression head on the last prompt token) or\n"
            "                       tokens (the LM writes the latency's digits; greedy decoding)\n"
            "  --lora-rank N        gnnlm: LoRA rank on every LM projection (8; 0: none)\n"
            "  --soft-tokens N      gnnlm: soft-prompt vectors (8; 0: none)\n"
            "  --lm-lr X            gnnlm: learning rate of LoRA, soft prompt and graph projection (1e-3)\n"
            "  --init FILE.dlpm     start from this model's weights (transfer learning); same arch,\n"
            "                       widths, layout, static features and targets count\n"
            "  --hidden N           width of every block (512)\n"
            "  --layers N           conv blocks (3; trappm 2; trappm 0: no SAGE branch, embedding + F_s only)\n"
            "  --block-depth N      convs per block (1; DIPPM's public code: 2)\n"
            "  --fc-layers N        FC blocks before the output layer (3; 0: none)\n"
            "  --dropout P          (0.05; 0: none)\n"
            "  --readout R          sum (default), mean, max, scaled-sum (sum / mean training node count)\n"
            "  --heads N            GAT heads, concatenated (1)\n"
            "  --sage-normalize     L2-normalise SAGEConv outputs (PyG normalize=True)\n"
            "  --static-features L  comma list of static features, or dippm (default: macs, batch,\n"
            "                       n_conv, n_dense, n_relu), trappm, none\n"
            "  --targets L          comma list of dataset targets (default: the first)\n"
            "  --target-scale S     log-std (default), std, log, none\n"
            "training:\n"
            "  --epochs N (100)  --batch-size N graphs (32)  --lr X (2.754e-5)  --wd X (0)\n"
            "  --adamw              decoupled weight decay\n"
            "  --lr-schedule S      const (default) or cosine (to lr/100, per step)\n"
            "  --loss L             huber (default), mse, l1   --huber-delta X (1)\n"
            "  --clip X             gradient-norm clip (0: none)\n"
            "  --seed N (0)  --threads N (OpenBLAS threads; 1 gives bitwise reproducible runs)\n"
            "  --keep-last          keep the last epoch, not the best validation epoch\n"
            "%s"
            "output:\n"
            "  --out FILE.dlpm      the model (required)\n"
            "  --report FILE.md     evaluation of the test part (also FILE.json, FILE.svg)\n"
            "  --report-json FILE   the test metrics as JSON only\n"
            "  --curve FILE.csv     per-epoch curve: epoch,train_loss,val_mape\n"
            "  --progress P         auto (default: a rewriting line on a terminal; elsewhere a line every\n"
            "                       5 s, DLP_PROGRESS_SECONDS, none for quicker runs), lines (one per epoch), none\n",
            gnn_sel_help);
}


static void fmt_time(double s, char *b, size_t n) {
    if (!isfinite(s) || s < 0) s = 0;
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(b, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60) snprintf(b, n, "%ldm%02lds", t / 60, t % 60);
    else snprintf(b, n, "%lds", t);
}

static int on_progress(void *u, const dlp_gnn_progress *p) {
    cli_progress *pr = u;
    /* the last epoch is not forced: the summary on stdout follows at once */
    if (!cli_progress_due(pr)) return 0;
    char el[32], eta[32], val[64] = "";
    fmt_time(p->elapsed_s, el, sizeof el);
    fmt_time(p->eta_s, eta, sizeof eta);
    if (!isnan(p->val_mape))
        snprintf(val, sizeof val, "  val MAPE %.2f%% (best %.2f%% @%d)", p->val_mape, p->best_val_mape, p->best_epoch);
    cli_progress_line(pr, "epoch %d/%d  loss %.5f%s  lr %s  %s  ETA %s", p->epoch, p->epochs, p->train_loss,
                      val, dlp__hu_sig(p->lr, 3), el, eta);
    return 0;
}

int dlp_cmd_train(int argc, char **argv) {
    const char *data = NULL, *out = NULL, *report = NULL, *report_json = NULL, *v;
    const char *encoder_path = NULL, *init_path = NULL, *curve_path = NULL;
    const char *progress = "auto";
    char targets_buf[512] = "", *targets[16];
    int n_targets = 0, static_idx[DLP_SF_COUNT], n_static = 0;
    dlp_gnn_opts o;
    memset(&o, 0, sizeof o);
    int arch_given = 0, gnnlm_flag = 0;   /* a flag only gnnlm reads was given */
    gnn_sel sel;
    gnn_sel_init(&sel);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r;
        int64_t iv;
        double dv;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if ((r = gnn_sel_flag(argc, argv, &i, &sel)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            continue;
        }
/* true when argv[i] is `name` with a value; a missing value sets exit_bad */
#define OPT(name) ((r = cli_opt(argc, argv, &i, name, &v)) > 0 || (r < 0 && (exit_bad = 1) && 0))
        int exit_bad = 0;
        if (OPT("--data")) data = v;
        else if (OPT("--out")) out = v;
        else if (OPT("--report")) report = v;
        else if (OPT("--report-json")) report_json = v;
        else if (OPT("--progress")) progress = v;
        else if (OPT("--encoder")) encoder_path = v;
        else if (OPT("--init")) init_path = v;
        else if (OPT("--lm")) {
            o.lm = v;
            gnnlm_flag = 1;
        }
        else if (OPT("--stage")) {
            if (!strcmp(v, "adapt")) o.stage = DLP_GNNLM_STAGE_ADAPT;
            else if (!strcmp(v, "predict")) o.stage = DLP_GNNLM_STAGE_PREDICT;
            else return cli_failf(DLP_EXIT_BADINPUT, "--stage '%s': expected adapt or predict", v);
            gnnlm_flag = 1;
        } else if (OPT("--graph-input")) {
            if ((o.graph_input = dlp_gnnlm_input_parse(v)) < 0)
                return cli_failf(DLP_EXIT_BADINPUT, "--graph-input '%s': expected token, text or json", v);
            gnnlm_flag = 1;
        } else if (OPT("--output")) {
            if (!strcmp(v, "head")) o.output = DLP_GNNLM_OUTPUT_HEAD;
            else if (!strcmp(v, "tokens")) o.output = DLP_GNNLM_OUTPUT_TOKENS;
            else return cli_failf(DLP_EXIT_BADINPUT, "--output '%s': expected head or tokens", v);
            gnnlm_flag = 1;
        } else if (OPT("--lora-rank")) {
            if (cli_parse_i64("--lora-rank", v, 0, 1024, &iv)) return DLP_EXIT_BADINPUT;
            o.lora_rank = iv ? (int)iv : -1;
            gnnlm_flag = 1;
        } else if (OPT("--soft-tokens")) {
            if (cli_parse_i64("--soft-tokens", v, 0, 1024, &iv)) return DLP_EXIT_BADINPUT;
            o.soft_tokens = iv ? (int)iv : -1;
            gnnlm_flag = 1;
        } else if (OPT("--lm-lr")) {
            if (cli_parse_f64("--lm-lr", v, 0, 10, &dv)) return DLP_EXIT_BADINPUT;
            o.lm_lr = dv;
            gnnlm_flag = 1;
        }
        else if (OPT("--curve")) curve_path = v;
        else if (OPT("--arch")) {
            if ((o.arch = dlp_gnn_arch_parse(v)) < 0)
                return cli_failf(DLP_EXIT_BADINPUT, "--arch '%s': expected sage, gcn, gat, gin, mlp, trappm or gnnlm", v);
            arch_given = 1;
        } else if (OPT("--readout")) {
            if ((o.readout = dlp_gnn_readout_parse(v)) < 0)
                return cli_failf(DLP_EXIT_BADINPUT, "--readout '%s': expected sum, mean, max or scaled-sum", v);
        } else if (OPT("--loss")) {
            if ((o.loss = dlp_gnn_loss_parse(v)) < 0)
                return cli_failf(DLP_EXIT_BADINPUT, "--loss '%s': expected huber, mse or l1", v);
        } else if (OPT("--target-scale")) {
            if ((o.target_scale = dlp_gnn_scale_parse(v)) < 0)
                return cli_failf(DLP_EXIT_BADINPUT, "--target-scale '%s': expected log-std, std, log or none", v);
        } else if (OPT("--lr-schedule")) {
            if (!strcmp(v, "cosine")) o.lr_schedule = DLP_GNN_LR_COSINE;
            else if (!strcmp(v, "const")) o.lr_schedule = DLP_GNN_LR_CONST;
            else return cli_failf(DLP_EXIT_BADINPUT, "--lr-schedule '%s': expected const or cosine", v);
        } else if (OPT("--targets")) {
            snprintf(targets_buf, sizeof targets_buf, "%s", v);
            n_targets = gnn_split_list(targets_buf, targets, 16);
            if (n_targets < 1) return cli_failf(DLP_EXIT_BADINPUT, "--targets: empty list");
        } else if (OPT("--static-features")) {
            if (gnn_parse_static(v, static_idx, &n_static)) return DLP_EXIT_BADINPUT;
        } else if (OPT("--hidden")) {
            if (cli_parse_i64("--hidden", v, 1, 65536, &iv)) return DLP_EXIT_BADINPUT;
            o.hidden = (int)iv;
        } else if (OPT("--layers")) {
            if (cli_parse_i64("--layers", v, 0, 64, &iv)) return DLP_EXIT_BADINPUT;
            o.layers = iv ? (int)iv : -1;   /* 0 = none (trappm only); the opts' 0 means default */
        } else if (OPT("--block-depth")) {
            if (cli_parse_i64("--block-depth", v, 1, 16, &iv)) return DLP_EXIT_BADINPUT;
            o.block_depth = (int)iv;
        } else if (OPT("--fc-layers")) {
            if (cli_parse_i64("--fc-layers", v, 0, 64, &iv)) return DLP_EXIT_BADINPUT;
            o.fc_layers = iv ? (int)iv : -1;
        } else if (OPT("--heads")) {
            if (cli_parse_i64("--heads", v, 1, 1024, &iv)) return DLP_EXIT_BADINPUT;
            o.gat_heads = (int)iv;
        } else if (OPT("--epochs")) {
            if (cli_parse_i64("--epochs", v, 1, 1000000, &iv)) return DLP_EXIT_BADINPUT;
            o.epochs = (int)iv;
        } else if (OPT("--batch-size")) {
            if (cli_parse_i64("--batch-size", v, 1, 1 << 20, &iv)) return DLP_EXIT_BADINPUT;
            o.batch_size = (int)iv;
        } else if (OPT("--seed")) {
            if (cli_parse_i64("--seed", v, 0, INT64_MAX, &iv)) return DLP_EXIT_BADINPUT;
            o.seed = (uint64_t)iv;
        } else if (OPT("--threads")) {
            if (cli_parse_i64("--threads", v, 1, 256, &iv)) return DLP_EXIT_BADINPUT;
            o.threads = (int)iv;
        } else if (OPT("--dropout")) {
            if (cli_parse_f64("--dropout", v, 0, 0.99, &dv)) return DLP_EXIT_BADINPUT;
            o.dropout = dv > 0 ? dv : -1;
        } else if (OPT("--lr")) {
            if (cli_parse_f64("--lr", v, 1e-12, 10, &o.lr)) return DLP_EXIT_BADINPUT;
        } else if (OPT("--wd")) {
            if (cli_parse_f64("--wd", v, 0, 10, &o.weight_decay)) return DLP_EXIT_BADINPUT;
        } else if (OPT("--huber-delta")) {
            if (cli_parse_f64("--huber-delta", v, 1e-9, 1e9, &o.huber_delta)) return DLP_EXIT_BADINPUT;
        } else if (OPT("--clip")) {
            if (cli_parse_f64("--clip", v, 0, 1e9, &o.clip)) return DLP_EXIT_BADINPUT;
        } else if (exit_bad) {
            return DLP_EXIT_BADINPUT;
        } else if (!strcmp(a, "--adamw")) o.adamw = 1;
        else if (!strcmp(a, "--sage-normalize")) o.sage_normalize = 1;
        else if (!strcmp(a, "--keep-last")) o.keep_last = 1;
        else return cli_usage_error("train", "unknown option '%s'", a);
        if (exit_bad) return DLP_EXIT_BADINPUT;
#undef OPT
    }
    if (!data) return cli_usage_error("train", "--data FILE.dlpd is required");
    if (!out) return cli_usage_error("train", "--out FILE.dlpm is required");
    if (sel.kind == GSPLIT_MODEL) return cli_failf(DLP_EXIT_BADINPUT, "train: --split model is for eval");
    /* every output path before the (possibly hours of) training */
    if (cli_check_out("train", "--out", out, 0) || cli_check_out("train", "--curve", curve_path, 0) ||
        gnn_check_report_outs("train", report, "--report-json", report_json, NULL))
        return DLP_EXIT_BADINPUT;
    cli_progress pr;
    if (cli_progress_init(&pr, "train", progress)) return DLP_EXIT_BADINPUT;

    if (encoder_path && o.arch != DLP_GNN_TRAPPM && o.arch != DLP_GNN_GNNLM)
        return cli_failf(DLP_EXIT_BADINPUT, "train: --encoder is for --arch trappm or gnnlm");
    static const char gnnlm_only[] =
        "train: --lm, --stage, --graph-input, --output, --lora-rank, --soft-tokens and --lm-lr are for --arch gnnlm";
    /* (without --arch, an --init gnnlm model decides, once it is loaded) */
    if (gnnlm_flag && o.arch != DLP_GNN_GNNLM && !(init_path && !arch_given))
        return cli_failf(DLP_EXIT_BADINPUT, "%s", gnnlm_only);
    if (o.arch == DLP_GNN_TRAPPM && !encoder_path && !init_path)
        return cli_failf(DLP_EXIT_BADINPUT, "train: --arch trappm needs a pre-trained encoder (--encoder FILE.dlpm)");

    dlp_error e = {0};
    dlp_encoder *enc = NULL;
    dlp_gnn *init = NULL;
    /* a missing or damaged encoder / init file is bad input (exit 2); the
     * library's messages name the file */
    if (encoder_path && dlp_encoder_load(encoder_path, &enc, &e) != DLP_OK)
        return cli_failf(DLP_EXIT_BADINPUT, "train: --encoder: %s", e.msg);
    if (init_path && dlp_gnn_load(init_path, &init, &e) != DLP_OK) {
        dlp_encoder_free(enc);
        return cli_failf(DLP_EXIT_BADINPUT, "train: --init: %s", e.msg);
    }
    o.encoder = enc;
    o.init = init;
    /* a gnnlm --init continues as gnnlm without --arch */
    if (init && !arch_given && dlp_gnn_stage(init) >= 0) o.arch = DLP_GNN_GNNLM;
    if (gnnlm_flag && o.arch != DLP_GNN_GNNLM) {
        dlp_encoder_free(enc);
        dlp_gnn_free(init);
        return cli_failf(DLP_EXIT_BADINPUT, "%s", gnnlm_only);
    }
    o.record_curve = curve_path != NULL;
    dlp_dataset *ds = NULL;
    int rc = DLP_EXIT_OK;
    if (dlp_dataset_load(data, &ds, &e) != DLP_OK) {
        rc = cli_fail(&e);
        dlp_encoder_free(enc);
        dlp_gnn_free(init);
        return rc;
    }
    gnn_parts parts;
    int64_t split_seed = sel.seed;
    if ((rc = gnn_sel_apply(ds, &sel, split_seed, &parts)) != 0) {
        dlp_dataset_free(ds);
        dlp_encoder_free(enc);
        dlp_gnn_free(init);
        return rc;
    }
    char split_desc[1024];
    gnn_sel_describe(&sel, split_seed, split_desc, sizeof split_desc);
    if (n_targets) {
        o.n_targets = n_targets;
        o.targets = (const char *const *)targets;
    }
    o.n_static = n_static;
    o.static_features = static_idx;
    o.split = split_desc;
    o.progress = on_progress;
    o.progress_user = &pr;
    if (!parts.n_train) {
        rc = cli_failf(DLP_EXIT_BADINPUT, "train: the split leaves no training sample");
        goto done;
    }
    dlp_gnn *m = NULL;
    dlp_status st = dlp_gnn_train(ds, parts.train, parts.n_train, parts.val, parts.n_val, &o, &m, &e);
    cli_progress_end(&pr);
    if (st != DLP_OK) {
        rc = cli_fail(&e);   /* an encoder or --init model that does not fit: EINVAL, exit 2 */
        goto done;
    }
    if (curve_path) {
        const double *ct, *cv;
        int cn;
        dlp_gnn_loss_curve(m, &ct, &cv, &cn);
        errno = 0;
        FILE *cf = fopen(curve_path, "w");
        if (!cf) {
            rc = cli_write_error(curve_path);
            dlp_gnn_free(m);
            goto done;
        }
        fprintf(cf, "epoch,train_loss,val_mape\n");
        for (int ep = 0; ep < cn; ep++) {
            fprintf(cf, "%d,%.9g,", ep + 1, ct[ep]);
            if (isfinite(cv[ep])) fprintf(cf, "%.9g", cv[ep]);
            fprintf(cf, "\n");
        }
        int bad = fflush(cf) != 0 || ferror(cf);
        if (fclose(cf) != 0 || bad) {
            rc = cli_write_error(curve_path);
            dlp_gnn_free(m);
            goto done;
        }
    }
    if (dlp_gnn_save(m, out, &e) != DLP_OK) {
        rc = cli_save_fail(&e);
        dlp_gnn_free(m);
        goto done;
    }
    dlp_gnn_info inf;
    dlp_gnn_info_get(m, &inf);
    printf("trained %s (%lld parameters) on %lld samples in %.1f s: epoch %d of %d kept", dlp_gnn_arch_name(inf.arch),
           (long long)inf.n_params, (long long)inf.n_train, inf.train_seconds, inf.best_epoch, inf.epochs_run);
    if (dlp_gnn_encoder_method(m))
        printf(", frozen %s encoder (%d-dim embedding)", dlp_gnn_encoder_method(m), dlp_gnn_encoder_dim(m));
    if (init_path) printf(", initialised from %s", init_path);
    if (!isnan(inf.best_val_mape)) printf(", validation MAPE %.2f%% (%lld samples)", inf.best_val_mape, (long long)inf.n_val);
    printf("\nwrote %s\n", out);
    if (dlp_gnn_stage(m) == DLP_GNNLM_STAGE_ADAPT) {
        /* stage 2 trains the graph-to-text path; its head is still untrained */
        printf("stage adapt (graph-to-text): no test evaluation; continue with --init %s --stage predict\n", out);
    } else if (parts.n_test) {
        gnn_preds p = {0};
        if ((rc = gnn_preds_add(&p, m, ds, parts.test, parts.n_test)) == 0) {
            for (int k = 0; k < p.T; k++) {
                dlp_metrics mt;
                gnn_preds_metrics(&p, k, &mt);
                printf("test %s (%lld samples): MAPE %.2f%%  RMSE %s  Kendall tau %.4f  Acc(5%%) %.1f%%  Acc(10%%) %.1f%%\n",
                       p.tnames[k], (long long)mt.n, mt.mape, dlp__hu_num(mt.rmse), mt.tau, 100 * mt.acc5, 100 * mt.acc10);
            }
            char cmd[2048], md[1100], js[1100], svg[1100];
            gnn_command_line(argc, argv, cmd, sizeof cmd);
            char title[256];
            snprintf(title, sizeof title, "Test set of %s (%s)", dlp_gnn_arch_name(inf.arch), out);
            gnn_report_paths rp = {title, cmd, NULL, NULL, report_json, NULL};
            if (report) {
                size_t L = strlen(report);
                int stem = L > 3 && !strcmp(report + L - 3, ".md") ? (int)L - 3 : (int)L;
                snprintf(md, sizeof md, "%s", report);
                snprintf(js, sizeof js, "%.*s.json", stem, report);
                snprintf(svg, sizeof svg, "%.*s.svg", stem, report);
                rp.md = md;
                if (!report_json) rp.json = js;
                rp.svg = svg;
            }
            if (rp.md || rp.json) rc = gnn_preds_write(&p, &rp);
        }
        gnn_preds_free(&p);
    } else if (report || report_json) {
        fprintf(stderr, "dlperf train: no test part in this split; nothing to report (use dlperf eval)\n");
    }
    dlp_gnn_free(m);
done:
    gnn_parts_free(&parts);
    dlp_dataset_free(ds);
    dlp_encoder_free(enc);
    dlp_gnn_free(init);
    return rc;
}
