/*
 * test_util.c — util: CRC-32 against the standard check value, the string
 * map under growth and overwrite, arena alignment, atomic writes.
 */
#include "util/util.h"
#include "util/human.h"
#include "tap.h"
#include <ctype.h>
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

/* issue 25: numbers for people, never an exponent */
static void t_human(void) {
    CHECK_STR(dlp__hu_num(15880.4), "15,880");
    CHECK_STR(dlp__hu_num(0.5), "0.5");
    CHECK_STR(dlp__hu_num(0.0001234), "0.0001234");
    CHECK_STR(dlp__hu_num(999.96), "1,000");
    CHECK_STR(dlp__hu_num(1e-12), "0");
    CHECK_STR(dlp__hu_num(2.5e21), "2,500,000,000,000,000,000,000");
    CHECK_STR(dlp__hu_count(1e12), "1,000,000,000,000");
    CHECK_STR(dlp__hu_count(1), "1");
    CHECK_STR(dlp__hu_ms(1.668e5), "2.78 min");
    CHECK_STR(dlp__hu_ms(0.00021), "210 ns");
    CHECK_STR(dlp__hu_ms(0.0123), "12.3 µs");
    CHECK_STR(dlp__hu_ms(12.345), "12.35 ms");
    CHECK_STR(dlp__hu_ms(999.99), "1 s");
    CHECK_STR(dlp__hu_ms(1.293e-6 * 3.6e6), "4.655 ms");
    CHECK_STR(dlp__hu_ms(2.24e6 * 3.6e6), "93,330 days");
    CHECK_STR(dlp__hu_ms(36 * 3600e3), "36 h");
    CHECK_STR(dlp__hu_ms(0), "0 ms");
    CHECK_STR(dlp__hu_usd(1.668e-6), "< $0.01");
    CHECK_STR(dlp__hu_usd(0), "$0");
    CHECK_STR(dlp__hu_usd(1.6684), "$1.67");
    CHECK_STR(dlp__hu_usd(4.009e6), "$4,009,000");
    CHECK_STR(dlp__hu_w(712.4), "712 W");
    CHECK_STR(dlp__hu_w(5600), "5.6 kW");
    CHECK_STR(dlp__hu_j(1.022e4), "10.22 kJ");
    CHECK_STR(dlp__hu_j(0.5), "500 mJ");
    CHECK_STR(dlp__hu_g(6.174e-6), "6.174 µg");
    CHECK_STR(dlp__hu_j(7.2e9), "2,000 kWh");
    CHECK_STR(dlp__hu_g(1234), "1.234 kg");
    CHECK_STR(dlp__hu_si(1.234e9, ""), "1.23G");
    CHECK_STR(dlp__hu_si(512, ""), "512");
    CHECK_STR(dlp__hu_si(0, ""), "0");
    CHECK_STR(dlp__hu_si(1.4596e10, "FLOP"), "14.6 GFLOP");
    CHECK_STR(dlp__hu_si(12, "B"), "12 B");
    CHECK_STR(dlp__hu_params(3.35e9), "3.35B");
    CHECK_STR(dlp__hu_params(109.5e6), "110M");
    /* a sweep over 60 decades: no exponent anywhere */
    int exps = 0;
    for (double v = 1e-30; v < 1e30; v *= 7.3) {
        const char *s[] = {dlp__hu_num(v), dlp__hu_ms(v), dlp__hu_usd(v), dlp__hu_w(v), dlp__hu_j(v),
                           dlp__hu_g(v), dlp__hu_si(v, "FLOP"), dlp__hu_count(v), dlp__hu_num(-v)};
        for (int k = 0; k < 9; k++)
            for (const char *c = s[k]; *c; c++) exps += (*c == 'e' || *c == 'E') && c > s[k] && isdigit((unsigned char)c[-1]) &&
                                                        (isdigit((unsigned char)c[1]) || c[1] == '+' || c[1] == '-');
    }
    CHECK_I64(exps, 0);
}

int main(void) {
    RUN(t_crc32_check_value);
    RUN(t_strmap);
    RUN(t_arena);
    RUN(t_atomic_write);
    RUN(t_human);
    return TAP_DONE();
}
