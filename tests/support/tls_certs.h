/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_SUPPORT_TLS_CERTS_H
#define KVR_TESTS_SUPPORT_TLS_CERTS_H

/*
 * Throwaway certificates made with the OpenSSL API in a test's scratch
 * directory (P-256 keys, valid for a day), and a blocking TLS client for
 * one HTTP/1.1 request against a program under test.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** A self-signed CA named cn: PEM certificate and key written to the paths. */
bool kvr_test_tls_ca(const char *cert_path, const char *key_path, const char *cn);

/**
 * A server certificate named cn, for DNS:localhost and IP:127.0.0.1, signed by
 * the CA at ca_cert/ca_key; PEM certificate and key written to the paths.
 */
bool kvr_test_tls_leaf(const char *ca_cert, const char *ca_key, const char *cert_path,
                       const char *key_path, const char *cn);

/** How kvr_test_tls_http connects. */
typedef struct kvr_test_tls_opts_s {
    const char *ca_file;     /* the CA to trust; NULL: none checked */
    const char *server_name; /* SNI and the name checked; NULL: "localhost" */
    const char *alpn;        /* one protocol offered; NULL: "http/1.1" */
    unsigned timeout_ms;     /* for connect, handshake and the whole answer; 0: 5000 */
} kvr_test_tls_opts_t;

/**
 * One request over TLS to 127.0.0.1:port (Connection: close), the answer
 * read to EOF. Returns the status and fills *response (caller frees), and
 * peer_cn with the CN of the certificate the server presented; -1 with err
 * saying why when the connection or the handshake failed.
 */
int kvr_test_tls_http(uint16_t port, const kvr_test_tls_opts_t *opts, const char *method,
                      const char *path, const char *body, char **response, char *peer_cn,
                      size_t peer_cn_cap, char *err, size_t err_cap);

#endif
