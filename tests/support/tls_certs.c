/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/support/tls_certs.h"

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "tests/support/proc.h"

static X509 *new_cert(const char *cn, EVP_PKEY *key)
{
    X509 *x = X509_new();
    BIGNUM *serial = BN_new();
    if (!x || !serial || !BN_rand(serial, 63, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) ||
        !BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(x))) {
        BN_free(serial);
        X509_free(x);
        return NULL;
    }
    BN_free(serial);
    X509_set_version(x, 2);
    X509_gmtime_adj(X509_getm_notBefore(x), -60);
    X509_gmtime_adj(X509_getm_notAfter(x), 86400);
    X509_set_pubkey(x, key);
    X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC,
                               (const unsigned char *)cn, -1, -1, 0);
    return x;
}

static bool add_ext(X509 *x, X509 *issuer, int nid, const char *value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, x, NULL, NULL, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
    if (!ext)
        return false;
    bool ok = X509_add_ext(x, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

static bool write_pair(const char *cert_path, const char *key_path, X509 *x, EVP_PKEY *key)
{
    FILE *c = fopen(cert_path, "w");
    FILE *k = fopen(key_path, "w");
    bool ok = c && k && PEM_write_X509(c, x) == 1 &&
              PEM_write_PrivateKey(k, key, NULL, NULL, 0, NULL, NULL) == 1;
    if (c)
        ok = fclose(c) == 0 && ok;
    if (k)
        ok = fclose(k) == 0 && ok;
    return ok;
}

bool kvr_test_tls_ca(const char *cert_path, const char *key_path, const char *cn)
{
    EVP_PKEY *key = EVP_EC_gen("P-256");
    X509 *x = key ? new_cert(cn, key) : NULL;
    bool ok = x && X509_set_issuer_name(x, X509_get_subject_name(x)) == 1 &&
              add_ext(x, x, NID_basic_constraints, "critical,CA:TRUE") &&
              add_ext(x, x, NID_key_usage, "critical,keyCertSign,cRLSign") &&
              add_ext(x, x, NID_subject_key_identifier, "hash") &&
              X509_sign(x, key, EVP_sha256()) > 0 && write_pair(cert_path, key_path, x, key);
    X509_free(x);
    EVP_PKEY_free(key);
    ERR_clear_error();
    return ok;
}

bool kvr_test_tls_leaf(const char *ca_cert, const char *ca_key, const char *cert_path,
                       const char *key_path, const char *cn)
{
    FILE *f = fopen(ca_cert, "r");
    X509 *ca = f ? PEM_read_X509(f, NULL, NULL, NULL) : NULL;
    if (f)
        fclose(f);
    f = fopen(ca_key, "r");
    EVP_PKEY *cakey = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
    if (f)
        fclose(f);
    EVP_PKEY *key = ca && cakey ? EVP_EC_gen("P-256") : NULL;
    X509 *x = key ? new_cert(cn, key) : NULL;
    bool ok = x && X509_set_issuer_name(x, X509_get_subject_name(ca)) == 1 &&
              add_ext(x, ca, NID_basic_constraints, "critical,CA:FALSE") &&
              add_ext(x, ca, NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1") &&
              add_ext(x, ca, NID_ext_key_usage, "serverAuth") &&
              add_ext(x, ca, NID_authority_key_identifier, "keyid") &&
              X509_sign(x, cakey, EVP_sha256()) > 0 && write_pair(cert_path, key_path, x, key);
    X509_free(x);
    EVP_PKEY_free(key);
    EVP_PKEY_free(cakey);
    X509_free(ca);
    ERR_clear_error();
    return ok;
}

static int fail(char *err, size_t cap, const char *what, SSL *s)
{
    long v = s ? SSL_get_verify_result(s) : X509_V_OK;
    unsigned long code = ERR_peek_last_error();
    const char *reason = code ? ERR_reason_error_string(code) : NULL;
    if (cap) {
        if (v != X509_V_OK)
            snprintf(err, cap, "%s: certificate verify failed: %s", what,
                     X509_verify_cert_error_string(v));
        else
            snprintf(err, cap, "%s: %s", what, reason ? reason : "connection closed");
    }
    ERR_clear_error();
    return -1;
}

int kvr_test_tls_http(uint16_t port, const kvr_test_tls_opts_t *opts, const char *method,
                      const char *path, const char *body, char **response, char *peer_cn,
                      size_t peer_cn_cap, char *err, size_t err_cap)
{
    const char *name = opts && opts->server_name ? opts->server_name : "localhost";
    const char *alpn = opts && opts->alpn ? opts->alpn : "http/1.1";
    unsigned timeout_ms = opts && opts->timeout_ms ? opts->timeout_ms : 5000;
    *response = NULL;
    if (peer_cn_cap)
        peer_cn[0] = '\0';
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx)
        return fail(err, err_cap, "context", NULL);
    if (opts && opts->ca_file) {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
        if (SSL_CTX_load_verify_locations(ctx, opts->ca_file, NULL) != 1) {
            SSL_CTX_free(ctx);
            return fail(err, err_cap, "CA file", NULL);
        }
    }
    unsigned char wire[64];
    size_t alen = strlen(alpn);
    if (alen == 0 || alen >= sizeof wire - 1) {
        SSL_CTX_free(ctx);
        return fail(err, err_cap, "alpn", NULL);
    }
    wire[0] = (unsigned char)alen;
    memcpy(wire + 1, alpn, alen);
    SSL_CTX_set_alpn_protos(ctx, wire, (unsigned)alen + 1);
    int fd = kvr_test_connect(port);
    if (fd < 0) {
        SSL_CTX_free(ctx);
        if (err_cap)
            snprintf(err, err_cap, "connect: refused");
        return -1;
    }
    struct timeval tv = {.tv_sec = timeout_ms / 1000, .tv_usec = (timeout_ms % 1000) * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    SSL *s = SSL_new(ctx);
    SSL_set_fd(s, fd);
    SSL_set_tlsext_host_name(s, name);
    SSL_set1_host(s, name);
    int status = -1;
    if (SSL_connect(s) != 1) {
        fail(err, err_cap, "handshake", s);
        goto out;
    }
    X509 *peer = SSL_get1_peer_certificate(s);
    if (peer && peer_cn_cap)
        X509_NAME_get_text_by_NID(X509_get_subject_name(peer), NID_commonName, peer_cn,
                                  (int)peer_cn_cap);
    X509_free(peer);
    size_t blen = body ? strlen(body) : 0;
    char head[512];
    int hn = snprintf(head, sizeof head,
                      "%s %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                      "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                      method, path, blen);
    if (SSL_write(s, head, hn) != hn || (blen && SSL_write(s, body, (int)blen) != (int)blen)) {
        fail(err, err_cap, "write", s);
        goto out;
    }
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    for (;;) {
        if (cap - len < 2048) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        int n = SSL_read(s, buf + len, (int)(cap - len - 1));
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    ERR_clear_error();
    buf[len] = '\0';
    *response = buf;
    if (len < 12 || strncmp(buf, "HTTP/1.", 7) != 0 || sscanf(buf + 9, "%3d", &status) != 1) {
        status = -1;
        if (err_cap)
            snprintf(err, err_cap, "no HTTP answer (%zu bytes)", len);
    }
out:
    SSL_free(s);
    close(fd);
    SSL_CTX_free(ctx);
    return status;
}
