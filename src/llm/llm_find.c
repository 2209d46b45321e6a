/*
 * llm_find.c — what `--model` names (docs/llm.md, "Models"): a catalogue
 * id, a folder holding a config.json, or a Hugging Face id whose snapshot
 * sits in the local hub cache.  Offline: nothing is downloaded.
 *
 * Why the cache: a user serving a model has its config.json on disk already
 * (vLLM and transformers keep it under models--ORG--NAME/snapshots/<rev>/),
 * so any model they serve is answerable without waiting for the catalogue.
 * The cache folders are the ones huggingface_hub uses, in its order:
 * $HF_HUB_CACHE, $HF_HOME/hub, ~/.cache/huggingface/hub.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dlperf.h"
#include "util/util.h"

static int is_dir(const char *p) {
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p) {
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* config.json of `org/name` under hub folder `hub`: the snapshot refs/main
 * points at, else the first snapshot holding one.  1 when found. */
static int hub_config(const char *hub, const char *id, char *out, size_t n) {
    char repo[1024], ref[64] = "", path[1200];
    const char *slash = strchr(id, '/');
    if (!slash || strchr(slash + 1, '/') || strstr(id, "..")) return 0;
    snprintf(repo, sizeof repo, "%s/models--%.*s--%s", hub, (int)(slash - id), id, slash + 1);
    if (!is_dir(repo)) return 0;
    snprintf(path, sizeof path, "%s/refs/main", repo);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fgets(ref, sizeof ref, f)) ref[strcspn(ref, "\r\n")] = 0;
        fclose(f);
    }
    if (ref[0] && !strchr(ref, '/')) {
        snprintf(path, sizeof path, "%s/snapshots/%s/config.json", repo, ref);
        if (is_file(path)) {
            snprintf(out, n, "%s", path);
            return 1;
        }
    }
    snprintf(path, sizeof path, "%s/snapshots/*/config.json", repo);
    glob_t g;
    int found = 0;
    if (glob(path, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
        snprintf(out, n, "%s", g.gl_pathv[0]);
        found = 1;
    }
    globfree(&g);
    return found;
}

dlp_status dlp_llm_model_find(const char *model, dlp_llm_config *out, dlp_error *err) {
    if (!model || !out) return dlp__err(err, DLP_EINVAL, "dlp_llm_model_find: NULL argument");
    dlp_error cat_err = {0};
    dlp_status st = dlp_llm_catalogue_get(model, out, &cat_err);
    if (st != DLP_ENOTFOUND) {
        if (st && err) *err = cat_err;
        return st;
    }
    char path[1400];
    /* a folder with a config.json (or the file itself) */
    if (is_dir(model)) {
        snprintf(path, sizeof path, "%s/config.json", model);
        if (!is_file(path))
            return dlp__err(err, DLP_ENOTFOUND, "%s: the folder holds no config.json", model);
    } else if (is_file(model)) {
        snprintf(path, sizeof path, "%s", model);
    } else {
        /* a Hugging Face id in the local hub cache */
        const char *e;
        char hub[1024];
        int found = 0;
        if (!found && (e = getenv("HF_HUB_CACHE")) && *e) found = hub_config(e, model, path, sizeof path);
        if (!found && (e = getenv("HF_HOME")) && *e) {
            snprintf(hub, sizeof hub, "%s/hub", e);
            found = hub_config(hub, model, path, sizeof path);
        }
        if (!found && (e = getenv("HOME")) && *e) {
            snprintf(hub, sizeof hub, "%s/.cache/huggingface/hub", e);
            found = hub_config(hub, model, path, sizeof path);
        }
        if (!found) {
            if (err) *err = cat_err;
            if (err && strchr(model, '/'))
                snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
                         "; not in the Hugging Face cache either ($HF_HUB_CACHE, $HF_HOME/hub, "
                         "~/.cache/huggingface/hub); give a folder with its config.json");
            return DLP_ENOTFOUND;
        }
    }
    st = dlp_llm_config_load(path, out, err);
    if (st) return st;
    /* named as the user named it (a folder's name, or the hub id) */
    if (!is_dir(model) && !is_file(model)) {
        snprintf(out->id, sizeof out->id, "%s", model);
        snprintf(out->hf_id, sizeof out->hf_id, "%s", model);
    }
    return DLP_OK;
}
