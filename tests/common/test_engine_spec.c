/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one engine spec both programs read: which URLs are engines, the id
 * each becomes (the segment key), and a reason for every refusal. The rows
 * marked "was:" are ones where kvroute and kvroute-statefeed used to read
 * the same text differently.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "common/engine_spec.h"

typedef struct {
    const char *text;
    int rc;
    const char *url; /* the normalised id */
    const char *host;
    unsigned port;
    int family;
    const char *options;
} spec_case_t;

/* Criterion re-executes the binary per test, so parameters are indexes into this table. */
static const spec_case_t cases[] = {
    {"http://10.0.0.5:8000", 0, "http://10.0.0.5:8000", "10.0.0.5", 8000, AF_INET, ""},
    {"http://engine-1:8000", 0, "http://engine-1:8000", "engine-1", 8000, AF_UNSPEC, ""},
    {"http://Engine-1.Pool.svc:8000", 0, "http://engine-1.pool.svc:8000", "engine-1.pool.svc", 8000,
     AF_UNSPEC, ""},
    {"HTTP://h:1", 0, "http://h:1", "h", 1, AF_UNSPEC, ""},
    {"http://h", 0, "http://h:80", "h", 80, AF_UNSPEC, ""}, /* the port defaults to 80 */
    {"http://h/", 0, "http://h:80", "h", 80, AF_UNSPEC, ""},
    {"http://h:65535", 0, "http://h:65535", "h", 65535, AF_UNSPEC, ""},
    {"http://h:00080", 0, "http://h:80", "h", 80, AF_UNSPEC, ""},
    {"http://pod_1:1", 0, "http://pod_1:1", "pod_1", 1, AF_UNSPEC, ""},
    {"http://[::1]:8000", 0, "http://[::1]:8000", "::1", 8000, AF_INET6, ""},
    {"http://[::0001]:8000", 0, "http://[::1]:8000", "::1", 8000, AF_INET6, ""},
    {"http://[FD00::5]", 0, "http://[fd00::5]:80", "fd00::5", 80, AF_INET6, ""},
    {"http://h:1,model=llama", 0, "http://h:1", "h", 1, AF_UNSPEC, "model=llama"},
    {"http://h:1,kind=sglang,x=y=z", 0, "http://h:1", "h", 1, AF_UNSPEC, "kind=sglang,x=y=z"},
    /* was: the router kept the slash in the id, so "http://h:1/" and "http://h:1" were two engines */
    {"http://h:1/", 0, "http://h:1", "h", 1, AF_UNSPEC, ""},
    /* was: statefeed accepted a base path, the router refused it */
    {"http://h:1/v1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:1//", -EINVAL, NULL, NULL, 0, 0, NULL},
    /* was: statefeed took any port text and failed only when resolving */
    {"http://h:0", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:65536", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:99999999999999999999", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:8a", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:-1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:", -EINVAL, NULL, NULL, 0, 0, NULL},
    /* was: statefeed read "[::1]x" as host "::1" and port 80 */
    {"http://[::1]x", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://[::1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://[]:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://[10.0.0.1]:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://[fe80::1%eth0]:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://::1:8000", -EINVAL, NULL, NULL, 0, 0, NULL},
    /* two spellings of one address would be two engines */
    {"http://127.1:80", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://010.0.0.1:80", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://256.0.0.1:80", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:1?x=1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:1#top", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://user@h:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h :1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:1 ", -EINVAL, NULL, NULL, 0, 0, NULL},
    {" http://h:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h\t:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h\r\nX: y:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h\x7f:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h\xc3\xa9:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://a..b:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://.a:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://a.:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://a%2eb:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://:80", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http:/h:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"https://h:1", 0, "https://h:1", "h", 1, AF_UNSPEC, ""},
    {"HTTPS://Engine-1/", 0, "https://engine-1:443", "engine-1", 443, AF_UNSPEC, ""},
    {"https://[::1]:8443", 0, "https://[::1]:8443", "::1", 8443, AF_INET6, ""},
    {"https://", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"https:/h:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"httpss://h:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"ftp://h:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"h:1", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"", -EINVAL, NULL, NULL, 0, 0, NULL},
    {",model=a", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:1,", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:1,,model=a", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:1,model=a,", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:1,model", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:1,=a", -EINVAL, NULL, NULL, 0, 0, NULL},
    {"http://h:1,model=a\nb", -EINVAL, NULL, NULL, 0, 0, NULL},
};
#define N_CASES (sizeof cases / sizeof cases[0])

ParameterizedTestParameters(engine_spec, table)
{
    static size_t index[N_CASES];
    for (size_t i = 0; i < N_CASES; i++)
        index[i] = i;
    return cr_make_param_array(size_t, index, N_CASES);
}

ParameterizedTest(size_t *i, engine_spec, table, .timeout = 5.)
{
    const spec_case_t *c = &cases[*i];
    kvr_engine_spec_t spec;
    char err[200] = "";
    int rc = kvr_engine_spec_parse(c->text, strlen(c->text), &spec, err, sizeof err);
    cr_assert_eq(rc, c->rc, "'%s': %d (%s)", c->text, rc, err);
    if (rc < 0) {
        cr_expect_gt(strlen(err), 0, "'%s' refused without a reason", c->text);
        cr_expect_null(strchr(err, '\n'), "the reason is one line");
        return;
    }
    cr_expect_str_eq(spec.url, c->url);
    cr_expect_str_eq(spec.host, c->host);
    cr_expect_eq(spec.port, c->port);
    cr_expect_eq(spec.family, c->family);
    cr_expect_str_eq(spec.options, c->options);
    /* The id reads back as itself: every program that meets it agrees. */
    kvr_engine_spec_t again;
    cr_assert_eq(kvr_engine_spec_parse_url(spec.url, &again, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(again.url, spec.url);
}

Test(engine_spec, a_nul_inside_the_text_is_refused, .timeout = 5.)
{
    static const char url[] = "http://h\0.evil:1";
    static const char opts[] = "http://h:1,model=a\0b";
    kvr_engine_spec_t spec;
    char err[200] = "";
    cr_expect_eq(kvr_engine_spec_parse(url, sizeof url - 1, &spec, err, sizeof err), -EINVAL);
    cr_expect(strstr(err, "NUL"), "%s", err);
    cr_expect_eq(kvr_engine_spec_parse(opts, sizeof opts - 1, &spec, err, sizeof err), -EINVAL);
}

/* http://HOST:1 with HOST in labels of at most 63 bytes, n bytes in all. */
static void long_url(char *out, size_t n)
{
    char *p = out + sprintf(out, "http://");
    for (size_t i = 0; i < n; i++)
        *p++ = (i % 64 == 63) ? '.' : 'a';
    sprintf(p, ":1");
}

Test(engine_spec, the_id_fits_the_segment, .timeout = 5.)
{
    char url[512], err[200];
    kvr_engine_spec_t spec;
    size_t fits = KVR_SHM_ENGINE_ID_MAX - 1 - strlen("http://:1");
    long_url(url, fits);
    cr_assert_eq(kvr_engine_spec_parse_url(url, &spec, err, sizeof err), 0, "%s", err);
    cr_expect_eq(strlen(spec.url), KVR_SHM_ENGINE_ID_MAX - 1);
    long_url(url, fits + 1);
    cr_expect_eq(kvr_engine_spec_parse_url(url, &spec, err, sizeof err), -ENAMETOOLONG);
    cr_expect(strstr(err, "longer than"), "%s", err);
    long_url(url, 300);
    cr_expect_eq(kvr_engine_spec_parse_url(url, &spec, err, sizeof err), -ENAMETOOLONG);
}

Test(engine_spec, options_split_in_order, .timeout = 5.)
{
    kvr_engine_spec_t spec;
    char err[200];
    const char *text = "http://h:1,model=a,kind=push,model=org/x:v=2";
    cr_assert_eq(kvr_engine_spec_parse(text, strlen(text), &spec, err, sizeof err), 0, "%s", err);
    const char *want[][2] = {{"model", "a"}, {"kind", "push"}, {"model", "org/x:v=2"}};
    const char *cursor = spec.options;
    kvr_engine_option_t opt;
    for (size_t i = 0; i < 3; i++) {
        cr_assert_eq(kvr_engine_spec_next_option(&cursor, &opt, err, sizeof err), 1);
        cr_expect(kvr_engine_option_is(&opt, want[i][0]));
        cr_expect_eq(opt.value_len, strlen(want[i][1]));
        cr_expect_eq(memcmp(opt.value, want[i][1], opt.value_len), 0);
    }
    cr_expect_eq(kvr_engine_spec_next_option(&cursor, &opt, err, sizeof err), 0);
}

Test(engine_spec, a_literal_is_an_address_without_a_resolver, .timeout = 5.)
{
    kvr_engine_spec_t spec;
    struct sockaddr_storage addr;
    socklen_t len;
    char err[200];
    cr_assert_eq(kvr_engine_spec_parse_url("http://[::1]:8000", &spec, err, sizeof err), 0);
    cr_assert_eq(kvr_engine_spec_literal(&spec, &addr, &len), 0);
    cr_expect_eq(addr.ss_family, AF_INET6);
    cr_expect_eq(ntohs(((struct sockaddr_in6 *)&addr)->sin6_port), 8000);
    cr_assert_eq(kvr_engine_spec_parse_url("http://engine:1", &spec, err, sizeof err), 0);
    cr_expect_eq(kvr_engine_spec_literal(&spec, &addr, &len), -EINVAL, "a name needs the resolver");
}

Test(engine_spec, role_is_read_among_the_options, .timeout = 5.)
{
    static const struct {
        const char *text;
        int rc;
        kvr_engine_role_t role;
    } role_cases[] = {
        {"http://h:1", 0, KVR_ENGINE_ROLE_BOTH},
        {"http://h:1,role=prefill", 0, KVR_ENGINE_ROLE_PREFILL},
        {"http://h:1,model=m,role=decode", 0, KVR_ENGINE_ROLE_DECODE},
        {"http://h:1,role=both,model=m", 0, KVR_ENGINE_ROLE_BOTH},
        {"http://h:1,role=Prefill", -EINVAL, KVR_ENGINE_ROLE_BOTH},
        {"http://h:1,role=", -EINVAL, KVR_ENGINE_ROLE_BOTH},
        {"http://h:1,role=prefill,role=decode", -EINVAL, KVR_ENGINE_ROLE_BOTH},
        {"http://h:1,role=prefillx", -EINVAL, KVR_ENGINE_ROLE_BOTH},
    };
    for (size_t i = 0; i < sizeof role_cases / sizeof role_cases[0]; i++) {
        kvr_engine_spec_t spec;
        char err[160] = "";
        int rc = kvr_engine_spec_parse(role_cases[i].text, strlen(role_cases[i].text), &spec, err,
                                       sizeof err);
        cr_expect_eq(rc, role_cases[i].rc, "%s: %d (%s)", role_cases[i].text, rc, err);
        if (rc == 0)
            cr_expect_eq(spec.role, role_cases[i].role, "%s", role_cases[i].text);
        else
            cr_expect_not_null(strstr(err, "role="), "%s: %s", role_cases[i].text, err);
    }
    cr_expect_str_eq(kvr_engine_role_name(KVR_ENGINE_ROLE_DECODE), "decode");
}

Test(engine_spec, bootstrap_port_is_read_among_the_options, .timeout = 5.)
{
    static const struct {
        const char *text;
        int rc;
        uint16_t port;
    } port_cases[] = {
        {"http://h:1", 0, 0},
        {"http://h:1,role=prefill,bootstrap_port=8998", 0, 8998},
        {"http://h:1,bootstrap_port=1,model=m", 0, 1},
        {"http://h:1,bootstrap_port=65535", 0, 65535},
        {"http://h:1,bootstrap_port=0", -EINVAL, 0},
        {"http://h:1,bootstrap_port=65536", -EINVAL, 0},
        {"http://h:1,bootstrap_port=", -EINVAL, 0},
        {"http://h:1,bootstrap_port=-1", -EINVAL, 0},
        {"http://h:1,bootstrap_port=89x", -EINVAL, 0},
        {"http://h:1,bootstrap_port=000000008998", -EINVAL, 0},
        {"http://h:1,bootstrap_port=1,bootstrap_port=2", -EINVAL, 0},
    };
    for (size_t i = 0; i < sizeof port_cases / sizeof port_cases[0]; i++) {
        kvr_engine_spec_t spec;
        char err[160] = "";
        int rc = kvr_engine_spec_parse(port_cases[i].text, strlen(port_cases[i].text), &spec, err,
                                       sizeof err);
        cr_expect_eq(rc, port_cases[i].rc, "%s: %d (%s)", port_cases[i].text, rc, err);
        if (rc == 0)
            cr_expect_eq(spec.bootstrap_port, port_cases[i].port, "%s", port_cases[i].text);
        else
            cr_expect_not_null(strstr(err, "bootstrap_port="), "%s: %s", port_cases[i].text, err);
    }
}

Test(engine_spec, https_is_tls_and_its_authority_is_the_host_header, .timeout = 5.)
{
    kvr_engine_spec_t spec;
    char err[200] = "";
    cr_assert_eq(kvr_engine_spec_parse_url("https://engine-1:8443", &spec, err, sizeof err), 0,
                 "%s", err);
    cr_expect(spec.tls);
    cr_expect_str_eq(kvr_engine_spec_authority(&spec), "engine-1:8443");
    cr_assert_eq(kvr_engine_spec_parse_url("http://engine-1:8443", &spec, err, sizeof err), 0);
    cr_expect_not(spec.tls);
    cr_expect_str_eq(kvr_engine_spec_authority(&spec), "engine-1:8443");
}
