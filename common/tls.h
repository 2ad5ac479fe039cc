/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_TLS_H
#define KVR_COMMON_TLS_H

/*
 * TLS over libuv streams with OpenSSL memory BIOs. A session (kvr_tls_t)
 * touches no socket: the stream's owner feeds it the bytes it read
 * (kvr_tls_input, which hands back the plaintext), gives it the plaintext to
 * send (kvr_tls_write) and writes out whatever ciphertext it produced
 * (kvr_tls_take_output) after each of those calls. That keeps the owner's
 * read buffers, write queue, timers and backpressure as they are without
 * TLS.
 *
 * A context (kvr_tls_ctx_t) is one side's configuration and its counters:
 * a server's certificate and key (re-read by kvr_tls_ctx_reload, a bad new
 * pair keeping the old one), or a client's trust (the system CA store, one
 * CA file, or none at all with insecure). Sessions hold a reference to
 * their context, so a reload never changes a connection already open.
 *
 * Both sides: TLS 1.2 or 1.3, renegotiation refused, ALPN "http/1.1" (a
 * client offering only other protocols is refused), no session tickets
 * issued. A client session checks the certificate against the host name (or
 * the IP address for a literal) and sends the name as SNI.
 *
 * Everything runs on one loop thread; a context may be shared by the
 * sessions of several streams on that thread.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

typedef struct kvr_tls_ctx_s kvr_tls_ctx_t;
typedef struct kvr_tls_s kvr_tls_t;

/** kvr_tls_input's return when the peer closed its side with close_notify. */
#define KVR_TLS_CLOSED 1

/** A context's counters since it was created. */
typedef struct kvr_tls_stats_s {
    uint64_t handshakes;         /* completed */
    uint64_t handshake_failures; /* all failed handshakes, the three below included */
    uint64_t verify_failures;    /* client: the peer's certificate did not verify */
    uint64_t plain_http;         /* server: a plain HTTP request came to the TLS port */
    uint64_t alpn_refused;       /* server: the client offered no protocol but http/1.1 */
    uint64_t errors;             /* protocol errors after the handshake */
    uint64_t close_notify;       /* peers that ended with close_notify */
    uint64_t reloads;            /* server: certificate and key pairs loaded by a reload */
    uint64_t reload_failures;    /* server: reloads that kept the old pair */
    uint64_t sessions;           /* sessions open now */
} kvr_tls_stats_t;

/** Server side from a PEM certificate chain and key: 0, or a negative errno with err set. */
int kvr_tls_server_ctx_create(const char *cert_file, const char *key_file, kvr_tls_ctx_t **out,
                              char *err, size_t err_len);
/**
 * Client side: ca_file (PEM) is the only trust when given, else the system
 * CA store; insecure skips verification altogether. 0, or a negative errno.
 */
int kvr_tls_client_ctx_create(const char *ca_file, bool insecure, kvr_tls_ctx_t **out, char *err,
                              size_t err_len);
/** Re-reads a server context's files; on failure the pair in force stays (0 or -errno, err set). */
int kvr_tls_ctx_reload(kvr_tls_ctx_t *ctx, char *err, size_t err_len);
/** Drops the creator's reference; the context goes with the last session. */
void kvr_tls_ctx_destroy(kvr_tls_ctx_t *ctx);
/** Counters and the number of open sessions. */
void kvr_tls_ctx_stats(const kvr_tls_ctx_t *ctx, kvr_tls_stats_t *out);
/** Subject and expiry of the certificate in force (server), for logs: "CN=... until ...". */
void kvr_tls_ctx_describe(const kvr_tls_ctx_t *ctx, char *out, size_t cap);

struct kvr_prom_writer_s;
/**
 * <prefix>_tls_handshakes_total{side,result}, _tls_errors_total{side},
 * _tls_close_notify_total{side}, _tls_sessions{side} and, for server sides,
 * _tls_reloads_total{side,result}: one series per context (NULL ones skipped),
 * side naming it ("client", "admin", "engine").
 */
void kvr_tls_write_metrics(struct kvr_prom_writer_s *w, const char *prefix,
                           const kvr_tls_ctx_t *const *ctxs, const char *const *sides, size_t n);

/**
 * A session. server_name NULL: the server side. Otherwise the client side,
 * verifying the peer against server_name (a DNS name or an IP literal) and
 * sending it as SNI when it is a name; its ClientHello is output at once.
 * 0 or -ENOMEM.
 */
int kvr_tls_create(kvr_tls_ctx_t *ctx, const char *server_name, kvr_tls_t **out);
void kvr_tls_destroy(kvr_tls_t *t);

/** Plaintext handed back by kvr_tls_input; return nonzero to stop (the stream closed). */
typedef int (*kvr_tls_plain_cb)(void *arg, const char *data, size_t len);

/**
 * Feeds len bytes read from the stream and hands every whole record's
 * plaintext to cb. 0: more input wanted; KVR_TLS_CLOSED: the peer sent
 * close_notify; -EPROTO: the handshake or a record failed (kvr_tls_why
 * says why, the counters have it; an alert may wait in the output). Then
 * take the output.
 */
int kvr_tls_input(kvr_tls_t *t, const char *data, size_t len, kvr_tls_plain_cb cb, void *arg);
/**
 * Encrypts the buffers (a client still in its handshake keeps them and
 * sends them once it completes). 0, or -EPIPE after a failure or close.
 */
int kvr_tls_write(kvr_tls_t *t, const uv_buf_t *bufs, unsigned nbufs);
/** Queues close_notify (nothing before the handshake completed). */
void kvr_tls_close_notify(kvr_tls_t *t);
/** Ciphertext waiting to be written: a malloc'd buffer in *out (caller frees) and its length. */
size_t kvr_tls_take_output(kvr_tls_t *t, char **out);
/** True once the handshake completed. */
bool kvr_tls_established(const kvr_tls_t *t);
/** True when the failure was a plain HTTP request on the TLS port (server). */
bool kvr_tls_plain_http(const kvr_tls_t *t);
/** Why the session failed, "" when it has not. */
const char *kvr_tls_why(const kvr_tls_t *t);

#endif
