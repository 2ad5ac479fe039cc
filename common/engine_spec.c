/* SPDX-License-Identifier: Apache-2.0 */
#include "common/engine_spec.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/options.h"

static int fail(char *err, size_t err_len, int rc, const char *why)
{
    if (err_len)
        snprintf(err, err_len, "%s", why);
    return rc;
}

static bool is_name_byte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
}

/* A DNS name, lower-cased into out; labels of 1-63 bytes; all digits and dots is an IPv4 address. */
static int parse_name(const char *h, size_t n, kvr_engine_spec_t *spec, char *err, size_t err_len)
{
    if (n > 253)
        return fail(err, err_len, -ENAMETOOLONG, "host name longer than 253 bytes");
    bool numeric = true;
    size_t label = 0;
    for (size_t i = 0; i < n; i++) {
        char c = h[i];
        if (!is_name_byte(c))
            return fail(err, err_len, -EINVAL,
                        c == '@' ? "user info (user@host) is not allowed in an engine URL"
                                 : "host may hold only letters, digits, '-', '_' and '.'");
        if (c == '.') {
            if (label == 0)
                return fail(err, err_len, -EINVAL,
                            "host has an empty label (a leading, "
                            "trailing or doubled '.')");
            label = 0;
        } else if (++label > 63) {
            return fail(err, err_len, -EINVAL, "host has a label longer than 63 bytes");
        }
        numeric = numeric && (c == '.' || (c >= '0' && c <= '9'));
        spec->host[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    if (label == 0)
        return fail(err, err_len, -EINVAL,
                    "host has an empty label (a leading, trailing or "
                    "doubled '.')");
    spec->host[n] = '\0';
    spec->family = AF_UNSPEC;
    if (numeric) {
        /* 127.1 or 010.0.0.1 would be a second id for an address: only the dotted quad. */
        struct in_addr a;
        char canon[INET_ADDRSTRLEN];
        if (inet_pton(AF_INET, spec->host, &a) != 1 ||
            !inet_ntop(AF_INET, &a, canon, sizeof canon) || strcmp(canon, spec->host) != 0)
            return fail(err, err_len, -EINVAL,
                        "an IPv4 address must be four decimal numbers 0-255 without leading zeros");
        spec->family = AF_INET;
    }
    return 0;
}

static int parse_ipv6(const char *h, size_t n, kvr_engine_spec_t *spec, char *err, size_t err_len)
{
    char text[INET6_ADDRSTRLEN + 1];
    struct in6_addr a;
    if (memchr(h, '%', n))
        return fail(err, err_len, -EINVAL, "an IPv6 zone (%...) is not allowed in an engine URL");
    if (n == 0 || n >= sizeof text)
        return fail(err, err_len, -EINVAL, "not an IPv6 address between the brackets");
    memcpy(text, h, n);
    text[n] = '\0';
    if (inet_pton(AF_INET6, text, &a) != 1 ||
        !inet_ntop(AF_INET6, &a, spec->host, sizeof spec->host))
        return fail(err, err_len, -EINVAL, "not an IPv6 address between the brackets");
    spec->family = AF_INET6;
    return 0;
}

static int parse_port(const char *p, size_t n, uint16_t *port, char *err, size_t err_len)
{
    unsigned long v = 0;
    if (n == 0)
        return fail(err, err_len, -EINVAL, "empty port after ':'");
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return fail(err, err_len, -EINVAL, "port must be a number 1-65535");
        v = v * 10 + (unsigned long)(p[i] - '0');
        if (v > 65535)
            return fail(err, err_len, -EINVAL, "port must be a number 1-65535");
    }
    if (v == 0)
        return fail(err, err_len, -EINVAL, "port must be a number 1-65535");
    *port = (uint16_t)v;
    return 0;
}

static int parse_url(const char *url, size_t len, kvr_engine_spec_t *spec, char *err,
                     size_t err_len)
{
    static const char scheme[] = "http://", tls_scheme[] = "https://";
    size_t scheme_len = sizeof scheme - 1;
    if (len == 0)
        return fail(err, err_len, -EINVAL, "empty engine URL");
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)url[i] <= ' ' || (unsigned char)url[i] >= 0x7f)
            return fail(err, err_len, -EINVAL,
                        url[i] == '\0' ? "NUL byte in the engine URL"
                                       : "whitespace, control or non-ASCII byte in the engine URL");
    if (len >= sizeof tls_scheme - 1 && strncasecmp(url, tls_scheme, sizeof tls_scheme - 1) == 0) {
        spec->tls = true;
        scheme_len = sizeof tls_scheme - 1;
    } else if (len < scheme_len || strncasecmp(url, scheme, scheme_len) != 0) {
        return fail(err, err_len, -EINVAL, "engine URL must start with http:// or https://");
    }
    const char *auth = url + scheme_len, *end = url + len;
    const char *auth_end = auth;
    while (auth_end < end && *auth_end != '/' && *auth_end != '?' && *auth_end != '#')
        auth_end++;
    if (auth_end < end) {
        if (*auth_end != '/')
            return fail(err, err_len, -EINVAL,
                        "a query or fragment is not allowed in an engine URL");
        if (auth_end + 1 != end)
            return fail(
                err, err_len, -EINVAL,
                "a path is not allowed in an engine URL: engines are addressed at their root");
    }
    if (auth_end == auth)
        return fail(err, err_len, -EINVAL, "engine URL has no host");
    if (memchr(auth, '@', (size_t)(auth_end - auth)))
        return fail(err, err_len, -EINVAL, "user info (user@host) is not allowed in an engine URL");

    const char *port_text = NULL;
    int rc;
    if (auth[0] == '[') {
        const char *close = memchr(auth, ']', (size_t)(auth_end - auth));
        if (!close)
            return fail(err, err_len, -EINVAL, "'[' without ']' around an IPv6 address");
        if (close + 1 < auth_end && close[1] != ':')
            return fail(err, err_len, -EINVAL, "only ':PORT' may follow an IPv6 address's ']'");
        rc = parse_ipv6(auth + 1, (size_t)(close - auth - 1), spec, err, err_len);
        port_text = close + 1 < auth_end ? close + 2 : NULL;
    } else {
        const char *colon = memchr(auth, ':', (size_t)(auth_end - auth));
        if (colon && memchr(colon + 1, ':', (size_t)(auth_end - colon - 1)))
            return fail(err, err_len, -EINVAL,
                        "an IPv6 address needs brackets: http://[ADDR]:PORT");
        if (colon == auth)
            return fail(err, err_len, -EINVAL, "engine URL has no host");
        rc = parse_name(auth, (size_t)((colon ? colon : auth_end) - auth), spec, err, err_len);
        port_text = colon ? colon + 1 : NULL;
    }
    if (rc < 0)
        return rc;
    spec->port = spec->tls ? 443 : 80;
    if (port_text) {
        rc = parse_port(port_text, (size_t)(auth_end - port_text), &spec->port, err, err_len);
        if (rc < 0)
            return rc;
    }
    int n = snprintf(spec->url, sizeof spec->url,
                     spec->family == AF_INET6 ? "%s[%s]:%u" : "%s%s:%u",
                     spec->tls ? tls_scheme : scheme, spec->host, (unsigned)spec->port);
    if (n < 0 || (size_t)n >= sizeof spec->url) {
        if (err_len)
            snprintf(err, err_len, "engine URL longer than %d bytes once normalised",
                     KVR_SHM_ENGINE_ID_MAX - 1);
        return -ENAMETOOLONG;
    }
    return 0;
}

int kvr_engine_spec_parse(const char *text, size_t len, kvr_engine_spec_t *spec, char *err,
                          size_t err_len)
{
    memset(spec, 0, sizeof *spec);
    spec->options = "";
    const char *comma = memchr(text, ',', len);
    size_t url_len = comma ? (size_t)(comma - text) : len;
    int rc = parse_url(text, url_len, spec, err, err_len);
    if (rc < 0)
        return rc;
    if (comma) {
        for (const char *p = comma + 1; p < text + len; p++)
            if (*p == '\0')
                return fail(err, err_len, -EINVAL, "NUL byte in the engine options");
        spec->options = comma + 1;
        if (spec->options[0] == '\0')
            return fail(err, err_len, -EINVAL, "empty engine option after ','");
    }
    const char *cursor = spec->options;
    kvr_engine_option_t opt;
    bool role_seen = false, port_seen = false;
    while ((rc = kvr_engine_spec_next_option(&cursor, &opt, err, err_len)) > 0) {
        if (kvr_engine_option_is(&opt, "bootstrap_port")) {
            if (port_seen)
                return fail(err, err_len, -EINVAL, "bootstrap_port= given twice for one engine");
            port_seen = true;
            char digits[8];
            uint64_t v = 0;
            if (opt.value_len >= sizeof digits)
                return fail(err, err_len, -EINVAL, "bootstrap_port= must be a port, 1-65535");
            memcpy(digits, opt.value, opt.value_len);
            digits[opt.value_len] = '\0';
            if (kvr_opt_parse_u64(digits, 1, 65535, &v) < 0)
                return fail(err, err_len, -EINVAL, "bootstrap_port= must be a port, 1-65535");
            spec->bootstrap_port = (uint16_t)v;
            continue;
        }
        if (!kvr_engine_option_is(&opt, "role"))
            continue;
        if (role_seen)
            return fail(err, err_len, -EINVAL, "role= given twice for one engine");
        role_seen = true;
        if (kvr_engine_role_parse(opt.value, opt.value_len, &spec->role) < 0)
            return fail(err, err_len, -EINVAL, "role= must be prefill, decode or both");
    }
    return rc;
}

const char *kvr_engine_role_name(kvr_engine_role_t role)
{
    switch (role) {
    case KVR_ENGINE_ROLE_PREFILL: return "prefill";
    case KVR_ENGINE_ROLE_DECODE: return "decode";
    default: return "both";
    }
}

int kvr_engine_role_parse(const char *text, size_t len, kvr_engine_role_t *role)
{
    static const kvr_engine_role_t roles[] = {KVR_ENGINE_ROLE_BOTH, KVR_ENGINE_ROLE_PREFILL,
                                              KVR_ENGINE_ROLE_DECODE};
    for (size_t i = 0; i < sizeof roles / sizeof roles[0]; i++) {
        const char *name = kvr_engine_role_name(roles[i]);
        if (strlen(name) == len && memcmp(name, text, len) == 0) {
            *role = roles[i];
            return 0;
        }
    }
    return -EINVAL;
}

int kvr_engine_spec_parse_url(const char *url, kvr_engine_spec_t *spec, char *err, size_t err_len)
{
    size_t len = strlen(url);
    if (memchr(url, ',', len))
        return fail(err, err_len, -EINVAL, "',' in an engine URL");
    return kvr_engine_spec_parse(url, len, spec, err, err_len);
}

int kvr_engine_spec_next_option(const char **cursor, kvr_engine_option_t *opt, char *err,
                                size_t err_len)
{
    const char *p = *cursor;
    if (*p == '\0')
        return 0;
    size_t n = strcspn(p, ",");
    const char *eq = memchr(p, '=', n);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)p[i] < ' ' || p[i] == 0x7f)
            return fail(err, err_len, -EINVAL, "control byte in an engine option");
    if (n == 0 || !eq || eq == p) {
        if (err_len)
            snprintf(err, err_len, "engine option '%.*s' is not key=value", (int)(n > 64 ? 64 : n),
                     p);
        return -EINVAL;
    }
    *opt = (kvr_engine_option_t){.key = p,
                                 .key_len = (size_t)(eq - p),
                                 .value = eq + 1,
                                 .value_len = n - (size_t)(eq + 1 - p)};
    p += n;
    if (*p == ',') {
        p++;
        if (*p == '\0')
            return fail(err, err_len, -EINVAL, "empty engine option after ','");
    }
    *cursor = p;
    return 1;
}

int kvr_engine_option_is(const kvr_engine_option_t *opt, const char *key)
{
    return strlen(key) == opt->key_len && memcmp(opt->key, key, opt->key_len) == 0;
}

int kvr_engine_spec_literal(const kvr_engine_spec_t *spec, struct sockaddr_storage *addr,
                            socklen_t *addr_len)
{
    memset(addr, 0, sizeof *addr);
    if (spec->family == AF_INET) {
        struct sockaddr_in *in = (struct sockaddr_in *)addr;
        in->sin_family = AF_INET;
        in->sin_port = htons(spec->port);
        if (inet_pton(AF_INET, spec->host, &in->sin_addr) != 1)
            return -EINVAL;
        *addr_len = sizeof *in;
        return 0;
    }
    if (spec->family == AF_INET6) {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)addr;
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(spec->port);
        if (inet_pton(AF_INET6, spec->host, &in6->sin6_addr) != 1)
            return -EINVAL;
        *addr_len = sizeof *in6;
        return 0;
    }
    return -EINVAL;
}

int kvr_engine_spec_resolve_now(const kvr_engine_spec_t *spec, struct sockaddr_storage *addr,
                                socklen_t *addr_len, char *err, size_t err_len)
{
    if (kvr_engine_spec_literal(spec, addr, addr_len) == 0)
        return 0;
    char port[8];
    snprintf(port, sizeof port, "%u", (unsigned)spec->port);
    struct addrinfo hints = {
        .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
    struct addrinfo *res = NULL;
    int rc = getaddrinfo(spec->host, port, &hints, &res);
    if (rc != 0 || !res || res->ai_addrlen > sizeof *addr) {
        if (err_len)
            snprintf(err, err_len, "host %s does not resolve: %s", spec->host,
                     rc != 0 ? gai_strerror(rc) : "no address");
        if (res)
            freeaddrinfo(res);
        return -EHOSTUNREACH;
    }
    memcpy(addr, res->ai_addr, res->ai_addrlen);
    *addr_len = res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}
