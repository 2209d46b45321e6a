/*
 * test_serve.c — the HTTP server's request handling without the network
 * (dlp_server_handle), and one real round trip over a socket.
 *
 * The numbers of /api/predict are checked against dlp_predict called
 * directly on the same embedded example; the comparison with the CLI's JSON
 * is tests/t_serve.sh's job.  The concurrent-parse cap is tested here
 * deterministically: the test holds every parse slot itself (through the
 * internal dlp__serve_parse_begin) and checks the 503 with Retry-After,
 * which a test over sockets could only provoke by racing.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cJSON.h>

#include "dlperf.h"
#include "serve/serve.h"
#include "tap.h"

static dlp_server *srv;

/* status of one request; the parsed JSON body in *j when asked */
static int call(const char *method, const char *url, const char *ct, const char *body, cJSON **j,
                dlp_server_response *keep) {
    dlp_server_response r;
    if (dlp_server_handle(srv, method, url, ct, body, body ? strlen(body) : 0, &r) != DLP_OK) return -1;
    int st = r.status;
    if (j) *j = r.body && !strncmp(r.content_type, "application/json", 16) ? cJSON_Parse(r.body) : NULL;
    if (keep) *keep = r;
    else dlp_server_response_clear(&r);
    return st;
}

/* The request fails with `status` and {"error": "...sub..."}. */
static void expect_error(const char *method, const char *url, const char *ct, const char *body, int status,
                         const char *sub) {
    cJSON *j = NULL;
    int st = call(method, url, ct, body, &j, NULL);
    CHECK_I64(st, status);
    const cJSON *e = j ? cJSON_GetObjectItemCaseSensitive(j, "error") : NULL;
    CHECK(cJSON_IsString(e) && cJSON_GetArraySize(j) == 1);
    if (cJSON_IsString(e) && !strstr(e->valuestring, sub)) {
        fprintf(stderr, "  error '%s' does not mention '%s'\n", e->valuestring, sub);
        CHECK(0);
    }
    cJSON_Delete(j);
}

static double num(const cJSON *o, const char *k) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void t_health_devices_models(void) {
    cJSON *j;
    CHECK_I64(call("GET", "/api/health", NULL, NULL, &j, NULL), 200);
    CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "status")), "ok");
    cJSON_Delete(j);
    CHECK_I64(call("GET", "/api/devices", NULL, NULL, &j, NULL), 200);
    const cJSON *devs = cJSON_GetObjectItemCaseSensitive(j, "devices");
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    CHECK_I64(cJSON_GetArraySize(devs), dlp_devdb_count(db));
    dlp_devdb_free(db);
    cJSON_Delete(j);
    CHECK_I64(call("GET", "/api/models", NULL, NULL, &j, NULL), 200);
    CHECK_I64(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "llm")), dlp_llm_catalogue_count());
    CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
                  cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "examples"), 0), "id")),
              "resnet18");
    cJSON_Delete(j);
    dlp_server_response r;
    CHECK_I64(call("HEAD", "/", NULL, NULL, NULL, &r), 200);
    CHECK(r.content_type && !strncmp(r.content_type, "text/html", 9) && strstr(r.body, "form-onnx"));
    dlp_server_response_clear(&r);
}

/* /api/predict on the embedded example = dlp_predict on the same bytes. */
static void t_predict_matches_library(void) {
    cJSON *j;
    CHECK_I64(call("POST", "/api/predict", "application/json",
                   "{\"example\":\"resnet18\",\"batch\":32,\"device\":\"a100-40gb\",\"dtype\":\"fp16\",\"runs\":1e6}", &j,
                   NULL),
              200);
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    dlp_graph *g = NULL;
    dlp_prediction p;
    dlp_load_opts lo = {0};
    lo.batch = 32;
    dlp_predict_opts o = {0};
    o.batch = 32;
    o.dtype = DLP_DT_FLOAT16;
    o.runs = 1e6;
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    CHECK(dlp_graph_load("examples/resnet18.onnx", &lo, &g, &e) == DLP_OK);
    CHECK(dlp_predict(g, dlp_devdb_find(db, "a100-40gb"), db, &o, &p, &e) == DLP_OK);
    /* the API prints %.10g, as the CLI does */
    CHECK_NEAR(num(j, "latency_ms"), p.latency_ms, 1e-9 * p.latency_ms);
    CHECK_NEAR(num(j, "memory_mb"), p.memory_mb, 1e-9 * p.memory_mb);
    CHECK_NEAR(num(j, "energy_j"), p.energy_j, 1e-9 * p.energy_j);
    CHECK_NEAR(num(j, "cost_usd"), p.cost_usd, 1e-9 * p.cost_usd);
    CHECK_NEAR(num(j, "co2_g"), p.co2_g, 1e-9 * p.co2_g);
    CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "method")), p.method);
    CHECK_I64(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "mig"), "profiles")),
              p.mig.n_fit);
    dlp_prediction_clear(&p);
    dlp_graph_free(g);
    dlp_devdb_free(db);
    cJSON_Delete(j);
    /* the same by form and by query (GET roofline) */
    CHECK_I64(call("POST", "/api/predict", "application/x-www-form-urlencoded",
                   "example=resnet18&batch=32&device=a100-40gb&dtype=fp16&runs=1e6", NULL, NULL),
              200);
    dlp_server_response r;
    CHECK_I64(call("GET", "/api/roofline.svg?example=resnet18&batch=8&device=t4", NULL, NULL, NULL, &r), 200);
    CHECK(r.content_type && !strcmp(r.content_type, "image/svg+xml") && strstr(r.body, "<svg"));
    dlp_server_response_clear(&r);
}

static void t_llm_and_mig(void) {
    cJSON *j;
    CHECK_I64(call("POST", "/api/llm", "application/x-www-form-urlencoded",
                   "{\"model\":\"bert-base-uncased\",\"batch\":64,\"seq\":128,\"dtype\":\"fp16\",\"device\":\"a100-40gb\"}",
                   &j, NULL),
              200);
    CHECK(num(j, "throughput_sps") > 0 && num(j, "memory_mb") > 0);
    CHECK_I64((int64_t)num(j, "samples"), 64);
    cJSON_Delete(j);
    CHECK_I64(call("POST", "/api/mig", "application/json", "{\"device\":\"a100-40gb\",\"memory_mb\":7300}", &j, NULL),
              200);
    CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "recommendation")), "2g.10gb");
    cJSON_Delete(j);
}

static void t_bad_requests(void) {
    const char *J = "application/json";
    expect_error("GET", "/nope", NULL, NULL, 404, "no such endpoint");
    expect_error("GET", "/api/predict", NULL, NULL, 405, "POST");
    dlp_server_response r;
    CHECK_I64(call("PUT", "/api/health", J, "{}", NULL, &r), 405);
    CHECK(r.allow && !strcmp(r.allow, "GET, HEAD"));
    dlp_server_response_clear(&r);
    expect_error("POST", "/api/predict", J, "{\"example\":", 400, "malformed JSON");
    expect_error("POST", "/api/predict", J, "[1]", 400, "object");
    expect_error("POST", "/api/predict", "multipart/form-data; boundary=x", "--x--", 415, "multipart");
    expect_error("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"batch\":2147483649,\"device\":\"t4\"}", 400,
                 "batch");
    expect_error("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"batch\":1e999,\"device\":\"t4\"}", 400,
                 "finite");
    expect_error("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"batch\":-1,\"device\":\"t4\"}", 400, "batch");
    expect_error("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"batch\":\"nan\",\"device\":\"t4\"}", 400,
                 "batch");
    expect_error("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"batch\":\"0x10\",\"device\":\"t4\"}", 400,
                 "batch");
    expect_error("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"batch\":1,\"device\":\"h10\"}", 400,
                 "unknown device 'h10'");
    expect_error("POST", "/api/predict", J, "{\"example\":\"/etc/passwd\",\"batch\":1,\"device\":\"t4\"}", 400,
                 "unknown example");
    expect_error("POST", "/api/predict", J, "{\"model\":\"/etc/passwd\",\"batch\":1,\"device\":\"t4\"}", 400,
                 "file upload");
    expect_error("POST", "/api/predict", J,
                 "{\"example\":\"resnet18\",\"batch\":1,\"device\":\"t4\",\"dims\":{\"batch_size\":0}}", 400, "dims");
    expect_error("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"batch\":1,\"device\":\"t4\",\"dtype\":\"fp64\"}",
                 400, "dtype");
    expect_error("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"batch\":1,\"device\":\"t4\",\"region\":\"x\"}",
                 400, "unknown region");
    expect_error("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"batch\":1,\"device\":\"t4\",\"x\":1}", 400,
                 "unknown field 'x'");
    /* issue 25: an escaped NUL would cut the string (cJSON ends it there) */
    expect_error("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"batch\":1,\"device\":\"h100-sxm\\u0000x\"}",
                 400, "field 'device': the string contains a NUL character");
    expect_error("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"batch\":1,\"dev\\u0000\":\"t4\"}", 400,
                 "a key contains a NUL");
    /* an escaped backslash before u0000 is text, not a NUL: an unknown device */
    expect_error("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"batch\":1,\"device\":\"t4\\\\u0000\"}",
                 400, "unknown device");
    expect_error("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"batch\":1,\"device\":\"t4\",\"runs\":1.5}", 400,
                 "field 'runs': 1.5 is not a whole number");
    /* issue 25: JSON booleans are typed; forms keep their spellings */
    expect_error("POST", "/api/llm", J, "{\"model\":\"gpt2\",\"device\":\"h100-sxm\",\"max_fit\":\"yes\"}", 400,
                 "field 'max_fit' must be true or false (a JSON boolean, not a string)");
    expect_error("POST", "/api/llm", J, "{\"model\":\"gpt2\",\"device\":\"h100-sxm\",\"max_fit\":1}", 400,
                 "field 'max_fit' must be true or false (a JSON boolean, not a number)");
    {
        dlp_server_response fr;
        CHECK_I64(call("POST", "/api/llm", "application/x-www-form-urlencoded", "model=gpt2&device=h100-sxm&max_fit=on",
                       NULL, &fr), 200);
        dlp_server_response_clear(&fr);
        CHECK_I64(call("POST", "/api/llm", J, "{\"model\":\"gpt2\",\"device\":\"h100-sxm\",\"max_fit\":true}",
                       NULL, &fr), 200);
        dlp_server_response_clear(&fr);
    }
    expect_error("POST", "/api/predict", "application/x-www-form-urlencoded", "batch=1&batch=2", 400, "twice");
    expect_error("POST", "/api/predict", "application/x-www-form-urlencoded", "batch=%zz", 400, "escape");
    expect_error("POST", "/api/llm", J, "{\"model\":\"nope\",\"device\":\"t4\"}", 400, "nope");
    expect_error("POST", "/api/llm", J, "{\"model\":\"gpt2\",\"config\":{},\"device\":\"t4\"}", 400, "exactly one");
    expect_error("POST", "/api/llm", J, "{\"config\":{\"model_type\":\"llama\"},\"device\":\"t4\"}", 400, "config");
    expect_error("POST", "/api/llm", J, "{\"model\":\"gpt2\",\"device\":\"t4\",\"dtype\":\"fp4\"}", 400, "dtype");
    expect_error("POST", "/api/llm", J, "{\"model\":\"gpt2\",\"device\":\"t4\",\"seq\":0}", 400, "seq");
    expect_error("POST", "/api/mig", J, "{\"device\":\"a100-40gb\"}", 400, "memory_mb");
    /* and still serving */
    CHECK_I64(call("GET", "/api/health", NULL, NULL, NULL, NULL), 200);
}

/* Answers that echo what the client sent stay valid JSON and speak the
 * API's language (issue 16). */
static void t_hostile_input(void) {
    const char *J = "application/json";
    /* duplicate keys: refused, naming the key (cJSON alone keeps the first) */
    expect_error("POST", "/api/mig", J, "{\"device\":\"t4\",\"memory_mb\":1,\"device\":\"a100-40gb\"}", 400,
                 "key 'device' given twice");
    expect_error("POST", "/api/predict", J,
                 "{\"example\":\"resnet18\",\"device\":\"t4\",\"dims\":{\"n\":1,\"n\":2}}", 400,
                 "key 'n' given twice");
    expect_error("POST", "/api/llm", "application/x-www-form-urlencoded",
                 "device=t4&config=%7B%22model_type%22%3A%22gpt2%22%2C%22model_type%22%3A%22llama%22%7D", 400,
                 "key 'model_type' given twice");
    /* invalid UTF-8 in the path (and a 3-byte character cut by the
     * message's truncation) is replaced, so the body is valid JSON */
    const char *paths[] = {"/api/\xff\xfe\xc3", "/api/\xed\xa0\x80", "/api/\xc0\xaf",
                           "/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                           "xxx\xe2\x82\xac\xe2\x82\xac"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        dlp_server_response r;
        CHECK_I64(call("GET", paths[i], NULL, NULL, NULL, &r), 404);
        int valid = 1;
        const unsigned char *p = (const unsigned char *)r.body;
        while (p && *p && valid) {   /* strict UTF-8: no overlongs, no surrogates */
            int n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 && *p >= 0xC2 ? 2 : (*p & 0xF0) == 0xE0 ? 3
                  : (*p & 0xF8) == 0xF0 && *p <= 0xF4 ? 4 : 0;
            valid = n > 0;
            for (int k = 1; valid && k < n; k++) valid = (p[k] & 0xC0) == 0x80;
            if (valid && n == 3 && *p == 0xED) valid = p[1] < 0xA0;
            if (valid && n == 3 && *p == 0xE0) valid = p[1] >= 0xA0;
            p += valid ? n : 0;
        }
        CHECK(valid);
        cJSON *j = r.body ? cJSON_Parse(r.body) : NULL;
        CHECK(j && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "error")));
        cJSON_Delete(j);
        dlp_server_response_clear(&r);
    }
    /* the library says "give --batch"; the API says which field */
    dlp_server_response r;
    CHECK_I64(call("POST", "/api/predict", J, "{\"example\":\"resnet18\",\"device\":\"t4\"}", NULL, &r), 400);
    CHECK(r.body && strstr(r.body, "give the field 'batch'") && !strstr(r.body, "--batch") && !strstr(r.body, "--dim"));
    dlp_server_response_clear(&r);
    /* health reports the connection counters */
    cJSON *j;
    CHECK_I64(call("GET", "/api/health", NULL, NULL, NULL, NULL), 200);
    CHECK_I64(call("GET", "/api/health", NULL, NULL, &j, NULL), 200);
    CHECK(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(j, "max_connections")) &&
          cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(j, "shed_total")));
    cJSON_Delete(j);
}

/* Every parse slot taken: 503 with Retry-After; cheap endpoints still answer. */
static void t_parse_cap_503(void) {
    int held = 0;
    while (dlp__serve_parse_begin(srv)) held++;
    CHECK_I64(held, 2);   /* max_parses of the test server */
    dlp_server_response r;
    CHECK_I64(call("POST", "/api/predict", "application/json",
                   "{\"example\":\"resnet18\",\"batch\":1,\"device\":\"t4\"}", NULL, &r),
              503);
    CHECK(r.retry_after_s > 0 && strstr(r.body, "busy"));
    dlp_server_response_clear(&r);
    CHECK_I64(call("POST", "/api/llm", "application/json", "{\"model\":\"gpt2\",\"device\":\"t4\"}", NULL, NULL), 503);
    CHECK_I64(call("GET", "/api/health", NULL, NULL, NULL, NULL), 200);
    CHECK_I64(call("POST", "/api/mig", "application/json", "{\"device\":\"t4\",\"memory_mb\":1}", NULL, NULL), 200);
    while (held--) dlp__serve_parse_end(srv);
    CHECK_I64(call("POST", "/api/llm", "application/json", "{\"model\":\"gpt2\",\"device\":\"t4\"}", NULL, NULL), 200);
}

/* One request over a real socket, on a port the kernel picks. */
static void t_socket_round_trip(void) {
    dlp_server_opts o = {0};
    o.port = 0;
    o.threads = 2;
    dlp_server *s = NULL;
    dlp_error e = {0};
    CHECK(dlp_server_new(&o, &s, &e) == DLP_OK);
    if (!s) {
        fprintf(stderr, "  %s\n", e.msg);
        return;
    }
    int port = dlp_server_port(s);
    CHECK(port > 0);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    CHECK(connect(fd, (struct sockaddr *)&a, sizeof a) == 0);
    const char *rq = "GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    CHECK(write(fd, rq, strlen(rq)) == (ssize_t)strlen(rq));
    char buf[4096];
    size_t n = 0;
    ssize_t k;
    while (n < sizeof buf - 1 && (k = read(fd, buf + n, sizeof buf - 1 - n)) > 0) n += (size_t)k;
    buf[n] = 0;
    close(fd);
    CHECK(!strncmp(buf, "HTTP/1.1 200", 12) && strstr(buf, "\"status\":\"ok\""));
    dlp_server_free(s);
    /* a taken port is a clean error naming it */
    dlp_server *s2 = NULL;
    o.port = port;
    int fd2 = socket(AF_INET, SOCK_STREAM, 0);
    a.sin_port = htons((uint16_t)port);
    int one = 1;
    setsockopt(fd2, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd2, (struct sockaddr *)&a, sizeof a) == 0 && listen(fd2, 1) == 0) {
        CHECK(dlp_server_new(&o, &s2, &e) == DLP_EIO && s2 == NULL && strstr(e.msg, "cannot listen"));
    }
    close(fd2);
    dlp_server_free(NULL);
    o.bind = "not an address";
    CHECK(dlp_server_new(&o, &s2, &e) != DLP_OK && s2 == NULL);
    /* the new limits are checked */
    o.bind = NULL;
    o.port = 0;
    o.max_per_ip = -2;
    CHECK(dlp_server_new(&o, &s2, &e) == DLP_EINVAL && s2 == NULL && strstr(e.msg, "per address"));
    o.max_per_ip = 0;
    o.header_timeout_s = -1;
    CHECK(dlp_server_new(&o, &s2, &e) == DLP_EINVAL && s2 == NULL && strstr(e.msg, "header timeout"));
}

int main(void) {
    dlp_server_opts o = {0};
    o.no_listen = 1;
    o.max_parses = 2;
    dlp_error e = {0};
    if (dlp_server_new(&o, &srv, &e) != DLP_OK) {
        printf("FAIL serve_start: %s\n", e.msg);
        return 1;
    }
    RUN(t_health_devices_models);
    RUN(t_predict_matches_library);
    RUN(t_llm_and_mig);
    RUN(t_bad_requests);
    RUN(t_hostile_input);
    RUN(t_parse_cap_503);
    RUN(t_socket_round_trip);
    dlp_server_free(srv);
    return TAP_DONE();
}
