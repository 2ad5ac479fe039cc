/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_ENGINE_SPEC_H
#define KVR_COMMON_ENGINE_SPEC_H

/*
 * An engine as --engine, --config, POST /engines and SIGHUP give it:
 * "URL[,key=value]...". Both programs read it here, so an engine has one id
 * everywhere: the normalised URL, which is also its key in the segment.
 *
 * The URL is http://HOST[:PORT][/] or https://HOST[:PORT][/]: HOST a DNS
 * name (letters, digits, '-', '_', '.'; lower-cased), a dotted-quad IPv4
 * address or an IPv6 address in brackets (written back in its canonical
 * form); PORT 1-65535, 80 (http) or 443 (https) when left out; no path but
 * "/", no query, fragment or user info; no byte at or below the space or at
 * or above DEL. Its normalised text always carries the port and never the
 * slash: "http://Engine-1/" is "http://engine-1:80". An https:// engine is
 * another engine than the http:// one on the same address (another id).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "shm_layout/shm_layout.h"

#define KVR_ENGINE_SPEC_HOST_MAX 254 /* a DNS name of 253 bytes at most, or an address */

/** What an engine does in a disaggregated fleet (role=): both is a colocated engine. */
typedef enum kvr_engine_role_e {
    KVR_ENGINE_ROLE_BOTH = 0, /* prefills and decodes its own requests (the default) */
    KVR_ENGINE_ROLE_PREFILL,  /* builds a prompt's KV and hands it to a decode engine */
    KVR_ENGINE_ROLE_DECODE,   /* generates from KV a prefill engine built */
} kvr_engine_role_t;

typedef struct kvr_engine_spec_s {
    char url[KVR_SHM_ENGINE_ID_MAX];     /* normalised: the engine id and its segment key */
    char host[KVR_ENGINE_SPEC_HOST_MAX]; /* what is resolved: no brackets, lower case */
    uint16_t port;
    int family;              /* AF_INET / AF_INET6 for an address literal, AF_UNSPEC for a name */
    const char *options;     /* into the parsed text, after the URL's ',' ("" when none) */
    kvr_engine_role_t role;  /* role=prefill|decode|both among the options, both when absent */
    uint16_t bootstrap_port; /* bootstrap_port=N: an SGLang prefill engine's KV server, 0: none */
    bool tls;                /* https://: reached over TLS, its certificate checked against host */
} kvr_engine_spec_t;

/** One "key=value" of a spec's options; slices of the parsed text. */
typedef struct kvr_engine_option_s {
    const char *key;
    size_t key_len;
    const char *value;
    size_t value_len;
} kvr_engine_option_t;

/**
 * Parses len bytes of "URL[,OPTIONS]" (a NUL among them is refused).
 * 0, or -EINVAL / -ENAMETOOLONG with a one-line reason in err.
 */
int kvr_engine_spec_parse(const char *text, size_t len, kvr_engine_spec_t *spec, char *err,
                          size_t err_len);
/** Like kvr_engine_spec_parse for a URL alone (a ',' is refused). */
int kvr_engine_spec_parse_url(const char *url, kvr_engine_spec_t *spec, char *err, size_t err_len);
/**
 * Takes the next "key=value" from *cursor (spec->options at first): 1 with
 * opt filled, 0 when none is left, -EINVAL with a reason in err for an empty
 * option, one without '=' or a control byte.
 */
int kvr_engine_spec_next_option(const char **cursor, kvr_engine_option_t *opt, char *err,
                                size_t err_len);
/** "prefill", "decode" or "both". */
const char *kvr_engine_role_name(kvr_engine_role_t role);
/** Reads len bytes of a role name into *role: 0, or -EINVAL. */
int kvr_engine_role_parse(const char *text, size_t len, kvr_engine_role_t *role);
/** True when opt's key is key. */
int kvr_engine_option_is(const kvr_engine_option_t *opt, const char *key);
/** The Host header value for the engine: the URL's authority ("host:port"). */
static inline const char *kvr_engine_spec_authority(const kvr_engine_spec_t *spec)
{
    return spec->url + (spec->tls ? 8 : 7); /* after "http://" or "https://" */
}
/** The socket address of an address literal (family != AF_UNSPEC); 0 or -EINVAL for a name. */
int kvr_engine_spec_literal(const kvr_engine_spec_t *spec, struct sockaddr_storage *addr,
                            socklen_t *addr_len);
/**
 * Resolves spec's host now, blocking (getaddrinfo): for start-up, before the
 * event loop runs; a running loop resolves through uv_getaddrinfo. 0 with
 * the first address, or -EHOSTUNREACH with the resolver's reason in err.
 */
int kvr_engine_spec_resolve_now(const kvr_engine_spec_t *spec, struct sockaddr_storage *addr,
                                socklen_t *addr_len, char *err, size_t err_len);

#endif
