/*
 * test_util.c — util: CRC-32 against the standard check value, the string
 * map under growth and overwrite, arena alignment, atomic writes.
 */
#include "util/util.h"
#include "tap.h"
#include <unistd.h>

static void t_crc32_check_value(void) {
    /* the CRC-32/ISO-HDLC check value of "123456789" is 0xCBF43926 */
    CHECK_I64(dlp__crc32(0, "123456789", 9), 0xCBF43926u);
    /* split updates equal one pass, for every split point and length */
    unsigned char buf[100];
    for (int i = 0; i < 100; i++) buf[i] = (unsigned char)(i * 37 + 11);
    uint32_t whole = dlp__crc32(0, buf, 100);
    for (int k = 0; k <= 100; k++) CHECK_I64(dlp__crc32(dlp__crc32(0, buf, (size_t)k), buf + k, (size_t)(100 - k)), whole);
    CHECK_I64(dlp__crc32(0, "", 0), 0);
}

static void t_strmap(void) {
    dlp__strmap m;
    CHECK(dlp__strmap_init(&m, 4) == 0);
    static char keys[3000][16];
    for (int i = 0; i < 3000; i++) {
        snprintf(keys[i], sizeof keys[i], "k%d", i);
        CHECK(dlp__strmap_put(&m, keys[i], i) == 0);
    }
    int bad = 0;
    for (int i = 0; i < 3000; i++) bad += dlp__strmap_get(&m, keys[i]) != i;
    CHECK_I64(bad, 0);
    CHECK_I64(dlp__strmap_get(&m, "absent"), -1);
    dlp__strmap_put(&m, keys[5], 99);
    CHECK_I64(dlp__strmap_get(&m, "k5"), 99);
    CHECK_I64(m.count, 3000);
    dlp__strmap_free(&m);
}

static void t_arena(void) {
    dlp__arena a = {0};
    for (int i = 1; i < 5000; i++) {
        void *p = dlp__arena_alloc(&a, (size_t)(i % 97 + 1));
        CHECK(p != NULL && ((uintptr_t)p % 16) == 0);
    }
    char *s = dlp__arena_strndup(&a, "hello world", 5);
    CHECK_STR(s, "hello");
    dlp__arena_free(&a);
    dlp__arena_free(&a); /* freeing twice is harmless */
}

static void t_atomic_write(void) {
    char path[] = "/tmp/dlp_atomic_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    dlp_error e = {0};
    CHECK_I64(dlp__write_file_atomic(path, "abc", 3, &e), DLP_OK);
    dlp__mapped m;
    CHECK_I64(dlp__map_file(path, &m, &e), DLP_OK);
    CHECK(m.len == 3 && !memcmp(m.data, "abc", 3));
    dlp__unmap_file(&m);
    unlink(path);
    CHECK_I64(dlp__write_file_atomic("/nonexistent-dir/x", "abc", 3, &e), DLP_EIO);
    CHECK(strstr(e.msg, "/nonexistent-dir/x") != NULL);
}

int main(void) {
    RUN(t_crc32_check_value);
    RUN(t_strmap);
    RUN(t_arena);
    RUN(t_atomic_write);
    return TAP_DONE();
}
