/* SPDX-License-Identifier: Apache-2.0 */
/*
 * TLS sessions on OpenSSL memory BIOs: ciphertext in through rbio, out
 * through wbio, the stream's owner moving the bytes (see tls.h).
 */
#include "common/tls.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/prom_writer.h"
#include "common/xmalloc.h"

/* The largest plaintext of one record: SSL_read hands back at most this much. */
#define KVR_TLS_RECORD_MAX 16384

static const unsigned char alpn_http11[] = "\x08http/1.1";

struct kvr_tls_ctx_s {
    SSL_CTX *ssl; /* the configuration in force; open sessions hold their own reference */
    bool server;
    unsigned refs; /* the creator's and one per session */
    char cert_file[PATH_MAX];
    char key_file[PATH_MAX];
    kvr_tls_stats_t stats;
};

struct kvr_tls_s {
    kvr_tls_ctx_t *ctx;
    SSL *ssl;
    BIO *rbio, *wbio; /* owned by ssl */
    bool server;
    bool saw_input;
    bool established;
    bool failed;
    bool closed; /* the peer's close_notify arrived */
    bool shut;   /* ours was queued */
    bool plain_http;
    kvr_buf_t pending; /* client: plaintext written before the handshake completed */
    char why[192];
};

/* The reason of OpenSSL's latest error, for one-line messages. */
static const char *ssl_reason(unsigned long code, const char *fallback)
{
    const char *r = code ? ERR_reason_error_string(code) : NULL;
    return r ? r : fallback;
}

static void set_err(char *err, size_t err_len, const char *what, const char *file)
{
    unsigned long code = ERR_peek_last_error();
    if (err_len)
        snprintf(err, err_len, "%s %s: %s", what, file, ssl_reason(code, "unreadable"));
    ERR_clear_error();
}

static void ctx_common(SSL_CTX *c)
{
    SSL_CTX_set_min_proto_version(c, TLS1_2_VERSION);
    /* Renegotiation only ever served attacks on HTTP/1.1 proxies; compression is CRIME. */
    SSL_CTX_set_options(c, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
    /* An idle keep-alive connection keeps no record buffers. */
    SSL_CTX_set_mode(c, SSL_MODE_RELEASE_BUFFERS);
}

static int alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                       const unsigned char *in, unsigned int inlen, void *arg)
{
    (void)ssl;
    kvr_tls_ctx_t *ctx = arg;
    unsigned char *sel = NULL;
    if (SSL_select_next_proto(&sel, outlen, alpn_http11, sizeof alpn_http11 - 1, in, inlen) !=
        OPENSSL_NPN_NEGOTIATED) {
        ctx->stats.alpn_refused++;
        return SSL_TLSEXT_ERR_ALERT_FATAL; /* no_application_protocol (RFC 7301) */
    }
    *out = sel;
    return SSL_TLSEXT_ERR_OK;
}

static SSL_CTX *server_ssl_ctx(kvr_tls_ctx_t *ctx, char *err, size_t err_len)
{
    ERR_clear_error();
    SSL_CTX *c = SSL_CTX_new(TLS_server_method());
    if (!c) {
        set_err(err, err_len, "TLS context", "(server)");
        return NULL;
    }
    ctx_common(c);
    /* No resumption: a ticket key would be one more secret to rotate. */
    SSL_CTX_set_num_tickets(c, 0);
    SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_options(c, SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_alpn_select_cb(c, alpn_select, ctx);
    if (SSL_CTX_use_certificate_chain_file(c, ctx->cert_file) != 1) {
        set_err(err, err_len, "certificate", ctx->cert_file);
        goto fail;
    }
    if (SSL_CTX_use_PrivateKey_file(c, ctx->key_file, SSL_FILETYPE_PEM) != 1) {
        set_err(err, err_len, "key", ctx->key_file);
        goto fail;
    }
    if (SSL_CTX_check_private_key(c) != 1) {
        ERR_clear_error();
        if (err_len)
            snprintf(err, err_len, "key %s does not match certificate %s", ctx->key_file,
                     ctx->cert_file);
        goto fail;
    }
    return c;
fail:
    SSL_CTX_free(c);
    return NULL;
}

int kvr_tls_server_ctx_create(const char *cert_file, const char *key_file, kvr_tls_ctx_t **out,
                              char *err, size_t err_len)
{
    if (!cert_file || !key_file || !cert_file[0] || !key_file[0]) {
        if (err_len)
            snprintf(err, err_len, "a TLS listener needs both a certificate and a key");
        return -EINVAL;
    }
    kvr_tls_ctx_t *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return -ENOMEM;
    ctx->server = true;
    ctx->refs = 1;
    if (snprintf(ctx->cert_file, sizeof ctx->cert_file, "%s", cert_file) >=
            (int)sizeof ctx->cert_file ||
        snprintf(ctx->key_file, sizeof ctx->key_file, "%s", key_file) >=
            (int)sizeof ctx->key_file) {
        free(ctx);
        if (err_len)
            snprintf(err, err_len, "certificate or key path too long");
        return -ENAMETOOLONG;
    }
    ctx->ssl = server_ssl_ctx(ctx, err, err_len);
    if (!ctx->ssl) {
        free(ctx);
        return -EINVAL;
    }
    *out = ctx;
    return 0;
}

int kvr_tls_client_ctx_create(const char *ca_file, bool insecure, kvr_tls_ctx_t **out, char *err,
                              size_t err_len)
{
    kvr_tls_ctx_t *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return -ENOMEM;
    ctx->refs = 1;
    ERR_clear_error();
    SSL_CTX *c = SSL_CTX_new(TLS_client_method());
    if (!c) {
        set_err(err, err_len, "TLS context", "(client)");
        free(ctx);
        return -ENOMEM;
    }
    ctx_common(c);
    SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_alpn_protos(c, alpn_http11, sizeof alpn_http11 - 1);
    if (insecure) {
        SSL_CTX_set_verify(c, SSL_VERIFY_NONE, NULL);
    } else {
        SSL_CTX_set_verify(c, SSL_VERIFY_PEER, NULL);
        int ok = ca_file && ca_file[0] ? SSL_CTX_load_verify_locations(c, ca_file, NULL)
                                       : SSL_CTX_set_default_verify_paths(c);
        if (ok != 1) {
            set_err(err, err_len, "CA file", ca_file && ca_file[0] ? ca_file : "(system store)");
            SSL_CTX_free(c);
            free(ctx);
            return -EINVAL;
        }
    }
    ctx->ssl = c;
    *out = ctx;
    return 0;
}

int kvr_tls_ctx_reload(kvr_tls_ctx_t *ctx, char *err, size_t err_len)
{
    if (!ctx->server) {
        if (err_len)
            snprintf(err, err_len, "only a server context has files to reload");
        return -EINVAL;
    }
    SSL_CTX *fresh = server_ssl_ctx(ctx, err, err_len);
    if (!fresh) {
        ctx->stats.reload_failures++;
        return -EINVAL;
    }
    SSL_CTX_free(ctx->ssl);
    ctx->ssl = fresh;
    ctx->stats.reloads++;
    return 0;
}

static void ctx_unref(kvr_tls_ctx_t *ctx)
{
    if (--ctx->refs > 0)
        return;
    SSL_CTX_free(ctx->ssl);
    free(ctx);
}

void kvr_tls_ctx_destroy(kvr_tls_ctx_t *ctx)
{
    if (ctx)
        ctx_unref(ctx);
}

void kvr_tls_ctx_stats(const kvr_tls_ctx_t *ctx, kvr_tls_stats_t *out)
{
    *out = ctx->stats;
}

void kvr_tls_ctx_describe(const kvr_tls_ctx_t *ctx, char *out, size_t cap)
{
    X509 *x = ctx->server ? SSL_CTX_get0_certificate(ctx->ssl) : NULL;
    if (!cap)
        return;
    out[0] = '\0';
    if (!x)
        return;
    BIO *b = BIO_new(BIO_s_mem());
    if (!b)
        return;
    X509_NAME_print_ex(b, X509_get_subject_name(x), 0, XN_FLAG_ONELINE & ~ASN1_STRFLGS_ESC_MSB);
    BIO_puts(b, " until ");
    ASN1_TIME_print(b, X509_get0_notAfter(x));
    char *data;
    long n = BIO_get_mem_data(b, &data);
    snprintf(out, cap, "%.*s", n > 0 ? (int)(n < (long)cap ? n : (long)cap - 1) : 0, data);
    BIO_free(b);
    ERR_clear_error();
}

/* ---- sessions ---- */

int kvr_tls_create(kvr_tls_ctx_t *ctx, const char *server_name, kvr_tls_t **out)
{
    kvr_tls_t *t = calloc(1, sizeof *t);
    if (!t)
        return -ENOMEM;
    ERR_clear_error();
    t->ssl = SSL_new(ctx->ssl);
    t->rbio = BIO_new(BIO_s_mem());
    t->wbio = BIO_new(BIO_s_mem());
    if (!t->ssl || !t->rbio || !t->wbio) {
        SSL_free(t->ssl);
        BIO_free(t->rbio);
        BIO_free(t->wbio);
        free(t);
        ERR_clear_error();
        return -ENOMEM;
    }
    /* An empty rbio means "more to come", not the end of the stream. */
    BIO_set_mem_eof_return(t->rbio, -1);
    SSL_set_bio(t->ssl, t->rbio, t->wbio);
    t->ctx = ctx;
    ctx->refs++;
    ctx->stats.sessions++;
    t->server = server_name == NULL;
    if (t->server) {
        SSL_set_accept_state(t->ssl);
    } else {
        unsigned char addr[16];
        bool literal = inet_pton(AF_INET, server_name, addr) == 1 ||
                       inet_pton(AF_INET6, server_name, addr) == 1;
        int ok = literal ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(t->ssl), server_name)
                         : SSL_set_tlsext_host_name(t->ssl, server_name) == 1 &&
                               SSL_set1_host(t->ssl, server_name) == 1;
        if (!ok) {
            ERR_clear_error();
            kvr_tls_destroy(t);
            return -EINVAL;
        }
        SSL_set_connect_state(t->ssl);
        SSL_do_handshake(t->ssl); /* the ClientHello goes to wbio; WANT_READ follows */
        ERR_clear_error();
    }
    *out = t;
    return 0;
}

void kvr_tls_destroy(kvr_tls_t *t)
{
    if (!t)
        return;
    SSL_free(t->ssl);
    kvr_buf_close(&t->pending);
    t->ctx->stats.sessions--;
    ctx_unref(t->ctx);
    free(t);
}

static int fail(kvr_tls_t *t, int ssl_error)
{
    kvr_tls_stats_t *st = &t->ctx->stats;
    unsigned long code = ERR_peek_error();
    t->failed = true;
    if (!t->established) {
        st->handshake_failures++;
        long v = t->server ? X509_V_OK : SSL_get_verify_result(t->ssl);
        if (v != X509_V_OK) {
            st->verify_failures++;
            snprintf(t->why, sizeof t->why, "certificate verify failed: %s",
                     X509_verify_cert_error_string(v));
        } else if (t->server && code && ERR_GET_REASON(code) == SSL_R_HTTP_REQUEST) {
            t->plain_http = true;
            st->plain_http++;
        }
    } else {
        st->errors++;
    }
    if (!t->why[0])
        snprintf(t->why, sizeof t->why, "%s%s", t->established ? "" : "handshake: ",
                 ssl_reason(code, ssl_error == SSL_ERROR_SYSCALL ? "unexpected end of stream"
                                                                 : "protocol error"));
    ERR_clear_error();
    return -EPROTO;
}

static int write_all(kvr_tls_t *t, const char *data, size_t len)
{
    while (len) {
        int n = len > INT_MAX ? INT_MAX : (int)len;
        ERR_clear_error();
        int w = SSL_write(t->ssl, data, n);
        if (w <= 0)
            return fail(t, SSL_get_error(t->ssl, w));
        data += w;
        len -= (size_t)w;
    }
    return 0;
}

static int on_established(kvr_tls_t *t)
{
    t->established = true;
    t->ctx->stats.handshakes++;
    if (!t->pending.len)
        return 0;
    int rc = write_all(t, t->pending.base, t->pending.len);
    kvr_buf_close(&t->pending);
    return rc;
}

/* A TLS record starts with 0x14-0x17 (0x80 for an SSLv2 hello); a request with its method. */
static bool looks_like_http(const char *data, size_t len)
{
    return len > 0 && data[0] >= 'A' && data[0] <= 'Z';
}

int kvr_tls_input(kvr_tls_t *t, const char *data, size_t len, kvr_tls_plain_cb cb, void *arg)
{
    if (t->failed)
        return -EPROTO;
    if (t->closed)
        return KVR_TLS_CLOSED;
    if (t->server && !t->saw_input && len > 0) {
        t->saw_input = true;
        if (looks_like_http(data, len)) {
            t->failed = true;
            t->plain_http = true;
            t->ctx->stats.handshake_failures++;
            t->ctx->stats.plain_http++;
            snprintf(t->why, sizeof t->why, "plain HTTP request on the TLS port");
            return -EPROTO;
        }
    }
    while (len) {
        int n = len > INT_MAX ? INT_MAX : (int)len;
        int w = BIO_write(t->rbio, data, n);
        if (w <= 0)
            return fail(t, SSL_ERROR_SSL);
        data += w;
        len -= (size_t)w;
    }
    char plain[KVR_TLS_RECORD_MAX];
    for (;;) {
        ERR_clear_error();
        int n = SSL_read(t->ssl, plain, sizeof plain);
        /* Before anything else calls into the session: it reads the last call's state. */
        int e = n > 0 ? SSL_ERROR_NONE : SSL_get_error(t->ssl, n);
        if (!t->established && SSL_is_init_finished(t->ssl) && on_established(t) < 0)
            return -EPROTO;
        if (n > 0) {
            if (cb(arg, plain, (size_t)n))
                return 0;
            continue;
        }
        if (e == SSL_ERROR_WANT_READ)
            return 0;
        if (e == SSL_ERROR_ZERO_RETURN) {
            t->closed = true;
            t->ctx->stats.close_notify++;
            return KVR_TLS_CLOSED;
        }
        return fail(t, e);
    }
}

int kvr_tls_write(kvr_tls_t *t, const uv_buf_t *bufs, unsigned nbufs)
{
    if (t->failed || t->closed || t->shut)
        return -EPIPE;
    for (unsigned i = 0; i < nbufs; i++) {
        if (!bufs[i].len)
            continue;
        if (!t->established) {
            kvr_buf_append(&t->pending, bufs[i].base, bufs[i].len);
            continue;
        }
        if (write_all(t, bufs[i].base, bufs[i].len) < 0)
            return -EPIPE;
    }
    return 0;
}

void kvr_tls_close_notify(kvr_tls_t *t)
{
    if (t->shut || t->failed || !t->established)
        return;
    t->shut = true;
    ERR_clear_error();
    SSL_shutdown(t->ssl);
    ERR_clear_error();
}

size_t kvr_tls_take_output(kvr_tls_t *t, char **out)
{
    size_t n = BIO_ctrl_pending(t->wbio);
    if (!n)
        return 0;
    char *p = kvr_xmalloc(n);
    int got = BIO_read(t->wbio, p, n > INT_MAX ? INT_MAX : (int)n);
    if (got <= 0) {
        free(p);
        return 0;
    }
    *out = p;
    return (size_t)got;
}

bool kvr_tls_established(const kvr_tls_t *t)
{
    return t->established;
}

bool kvr_tls_plain_http(const kvr_tls_t *t)
{
    return t->plain_http;
}

const char *kvr_tls_why(const kvr_tls_t *t)
{
    return t->why;
}

/* ---- metrics ---- */

void kvr_tls_write_metrics(kvr_prom_writer_t *w, const char *prefix,
                           const kvr_tls_ctx_t *const *ctxs, const char *const *sides, size_t n)
{
    char name[128];
    snprintf(name, sizeof name, "%s_tls_handshakes_total", prefix);
    kvr_prom_family(w, name, KVR_PROM_COUNTER,
                    "TLS handshakes by side and result: ok, verify_failed (the engine's "
                    "certificate), plain_http (a plain HTTP request on a TLS port), alpn_refused, "
                    "failed (any other)");
    for (size_t i = 0; i < n; i++) {
        if (!ctxs[i])
            continue;
        const kvr_tls_stats_t *st = &ctxs[i]->stats;
        uint64_t other = st->handshake_failures - st->verify_failures - st->plain_http -
                         st->alpn_refused;
        const char *results[] = {"ok", "verify_failed", "plain_http", "alpn_refused", "failed"};
        uint64_t values[] = {st->handshakes, st->verify_failures, st->plain_http, st->alpn_refused,
                             other};
        for (size_t j = 0; j < sizeof values / sizeof values[0]; j++) {
            kvr_prom_label_t l[2] = {{"side", sides[i]}, {"result", results[j]}};
            kvr_prom_sample_u64(w, name, l, 2, values[j]);
        }
    }
    snprintf(name, sizeof name, "%s_tls_errors_total", prefix);
    kvr_prom_family(w, name, KVR_PROM_COUNTER,
                    "TLS connections that failed after their handshake (a bad record or alert)");
    for (size_t i = 0; i < n; i++)
        if (ctxs[i]) {
            kvr_prom_label_t l = {"side", sides[i]};
            kvr_prom_sample_u64(w, name, &l, 1, ctxs[i]->stats.errors);
        }
    snprintf(name, sizeof name, "%s_tls_close_notify_total", prefix);
    kvr_prom_family(w, name, KVR_PROM_COUNTER, "TLS peers that ended with close_notify");
    for (size_t i = 0; i < n; i++)
        if (ctxs[i]) {
            kvr_prom_label_t l = {"side", sides[i]};
            kvr_prom_sample_u64(w, name, &l, 1, ctxs[i]->stats.close_notify);
        }
    snprintf(name, sizeof name, "%s_tls_sessions", prefix);
    kvr_prom_family(w, name, KVR_PROM_GAUGE, "TLS sessions open");
    for (size_t i = 0; i < n; i++)
        if (ctxs[i]) {
            kvr_prom_label_t l = {"side", sides[i]};
            kvr_prom_sample_u64(w, name, &l, 1, ctxs[i]->stats.sessions);
        }
    snprintf(name, sizeof name, "%s_tls_reloads_total", prefix);
    kvr_prom_family(w, name, KVR_PROM_COUNTER,
                    "certificate and key reloads (SIGHUP): ok, or failed (the old pair stays)");
    for (size_t i = 0; i < n; i++)
        if (ctxs[i] && ctxs[i]->server) {
            kvr_prom_label_t ok[2] = {{"side", sides[i]}, {"result", "ok"}};
            kvr_prom_label_t bad[2] = {{"side", sides[i]}, {"result", "failed"}};
            kvr_prom_sample_u64(w, name, ok, 2, ctxs[i]->stats.reloads);
            kvr_prom_sample_u64(w, name, bad, 2, ctxs[i]->stats.reload_failures);
        }
}
