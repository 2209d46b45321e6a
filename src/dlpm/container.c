/*
 * container.c — pack and validate the .dlpm container (container.h): a
 * magic, a version, a JSON header, a binary payload and a CRC-32.
 *
 * Why a JSON header: model files must be self-describing (architecture,
 * hyper-parameters, scalings, what data trained them) and readable with
 * `head -c`; the bulky part (weights) stays binary in the payload.
 */
#include <cJSON.h>

#include "dlpm/container.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error ".dlpm files are little-endian; this code memcpy's host words"
#endif

dlp_status dlp__dlpm_pack(const char *header, size_t header_len, const void *payload,
                          uint64_t payload_len, void **buf, size_t *len, dlp_error *err) {
    *buf = NULL;
    *len = 0;
    if (header_len > UINT32_MAX || payload_len > SIZE_MAX / 2)
        return dlp__err(err, DLP_EINVAL, "model file: header or payload too large");
    size_t total = DLP__DLPM_FIXED + header_len + (size_t)payload_len + 4;
    uint8_t *b = malloc(total);
    if (!b) return dlp__err(err, DLP_ENOMEM, "model file: out of memory (%zu bytes)", total);
    uint32_t v = DLP__DLPM_VERSION, h = (uint32_t)header_len;
    memcpy(b, DLP__DLPM_MAGIC, 4);
    memcpy(b + 4, &v, 4);
    memcpy(b + 8, &h, 4);
    memcpy(b + 12, &payload_len, 8);
    memcpy(b + DLP__DLPM_FIXED, header, header_len);
    if (payload_len) memcpy(b + DLP__DLPM_FIXED + header_len, payload, (size_t)payload_len);
    uint32_t crc = dlp__crc32(0, b, total - 4);
    memcpy(b + total - 4, &crc, 4);
    *buf = b;
    *len = total;
    return DLP_OK;
}

dlp_status dlp__dlpm_unpack(const void *buf, size_t len, const char *name, const char **header,
                            size_t *header_len, const uint8_t **payload, uint64_t *payload_len,
                            dlp_error *err) {
    const uint8_t *b = buf;
    if (len < 8 || memcmp(b, DLP__DLPM_MAGIC, 4) != 0) {
        if (len >= 4 && memcmp(b, DLP__DLPM_MAGIC, 4) == 0)
            return dlp__err(err, DLP_EFORMAT, "%s: truncated model file (%zu bytes)", name, len);
        return dlp__err(err, DLP_EFORMAT, "%s: not a dlperf model file (no DLPM header)", name);
    }
    uint32_t v, h;
    uint64_t n;
    memcpy(&v, b + 4, 4);
    if (v != DLP__DLPM_VERSION)
        return dlp__err(err, DLP_EVERSION, "%s: model file version %u, this dlperf reads version %u",
                        name, v, DLP__DLPM_VERSION);
    if (len < DLP__DLPM_FIXED + 4)
        return dlp__err(err, DLP_EFORMAT, "%s: truncated model file (%zu bytes)", name, len);
    memcpy(&h, b + 8, 4);
    memcpy(&n, b + 12, 8);
    uint64_t want = (uint64_t)DLP__DLPM_FIXED + h + 4;
    if (n > UINT64_MAX - want || want + n != len) {
        if (n <= UINT64_MAX - want && want + n > len)
            return dlp__err(err, DLP_EFORMAT, "%s: truncated model file (%zu bytes, sections need %llu)",
                            name, len, (unsigned long long)(want + n));
        return dlp__err(err, DLP_EFORMAT, "%s: model file sizes do not match its length (%zu bytes)",
                        name, len);
    }
    uint32_t crc;
    memcpy(&crc, b + len - 4, 4);
    if (crc != dlp__crc32(0, b, len - 4))
        return dlp__err(err, DLP_ECHECKSUM, "%s: model file corrupted (CRC-32 mismatch)", name);
    *header = (const char *)b + DLP__DLPM_FIXED;
    *header_len = h;
    *payload = b + DLP__DLPM_FIXED + h;
    *payload_len = n;
    return DLP_OK;
}

dlp_status dlp__dlpm_open(const void *buf, size_t len, const char *name, cJSON **root, const uint8_t **payload,
                          uint64_t *payload_len, dlp_error *err) {
    *root = NULL;
    const char *hdr;
    size_t hl;
    dlp_status st = dlp__dlpm_unpack(buf, len, name, &hdr, &hl, payload, payload_len, err);
    if (st != DLP_OK) return st;
    if (!(*root = cJSON_ParseWithLength(hdr, hl))) return dlp__err(err, DLP_EFORMAT, "%s: header is not valid JSON", name);
    return DLP_OK;
}

const char *dlp__dlpm_kind(const cJSON *root) {
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(root, "kind");
    return cJSON_IsString(k) ? k->valuestring : "";
}

size_t dlp__dlpm_image_len(const void *p, size_t left) {
    const uint8_t *b = p;
    if (left < DLP__DLPM_FIXED + 4 || memcmp(b, DLP__DLPM_MAGIC, 4) != 0) return 0;
    uint32_t h;
    uint64_t n;
    memcpy(&h, b + 8, 4);
    memcpy(&n, b + 12, 8);
    uint64_t want = (uint64_t)DLP__DLPM_FIXED + h + 4;
    if (n > left || want > left || want + n > left) return 0;
    return (size_t)(want + n);
}
