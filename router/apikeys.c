/* SPDX-License-Identifier: Apache-2.0 */
#include "router/apikeys.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hex.h"

#define DIGEST_LEN 32
#define FILE_MAX (4u << 20) /* a keys file larger than this is a mistake, not a list of keys */

typedef struct apikey_s {
    char name[KVR_APIKEYS_NAME_MAX + 1];
    unsigned char digest[DIGEST_LEN];
    uint64_t requests;
} apikey_t;

struct kvr_apikeys_s {
    apikey_t *keys;
    size_t n;
};

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* One line without its '\n': NULL and *has_key false for a blank or comment line. */
static const char *parse_line(const char *p, size_t len, apikey_t *out, bool *has_key)
{
    *has_key = false;
    size_t i = 0;
    while (i < len && blank(p[i]))
        i++;
    if (i == len || p[i] == '#')
        return NULL;
    size_t n = 0;
    while (i + n < len && name_char(p[i + n]))
        n++;
    if (n == 0)
        return "a name of letters, digits, '_', '.' or '-' must start the line";
    if (n > KVR_APIKEYS_NAME_MAX)
        return "the name is longer than 64 bytes";
    memcpy(out->name, p + i, n);
    out->name[n] = '\0';
    i += n;
    if (i == len || !blank(p[i]))
        return i == len ? "expected NAME sha256:HEX"
                        : "a name of letters, digits, '_', '.' or '-' must start the line";
    while (i < len && blank(p[i]))
        i++;
    if (len - i < 7 || strncmp(p + i, "sha256:", 7) != 0)
        return "expected sha256:HEX after the name";
    i += 7;
    for (size_t k = 0; k < DIGEST_LEN; k++, i += 2) {
        int hi = i + 1 < len ? kvr_hex_digit(p[i]) : -1,
            lo = hi >= 0 ? kvr_hex_digit(p[i + 1]) : -1;
        if (hi < 0 || lo < 0)
            return "the digest must be 64 hex digits";
        out->digest[k] = (unsigned char)(hi * 16 + lo);
    }
    while (i < len && blank(p[i]))
        i++;
    if (i != len)
        return kvr_hex_digit(p[i]) >= 0 ? "the digest must be 64 hex digits"
                                        : "unexpected text after the digest";
    *has_key = true;
    return NULL;
}

int kvr_apikeys_parse(const char *text, size_t len, kvr_apikeys_t **out, char *err, size_t err_len)
{
    *out = NULL;
    kvr_apikeys_t *k = calloc(1, sizeof *k);
    if (!k)
        return -ENOMEM;
    size_t cap = 0, line = 0;
    for (size_t start = 0; start < len; line++) {
        const char *nl = memchr(text + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - text) : len;
        apikey_t key = {0};
        bool has_key;
        const char *why = memchr(text + start, '\0', end - start)
                              ? "the line holds a NUL byte"
                              : parse_line(text + start, end - start, &key, &has_key);
        for (size_t j = 0; !why && has_key && j < k->n; j++) {
            if (strcmp(k->keys[j].name, key.name) == 0)
                why = "the name is already used by an earlier line";
            else if (CRYPTO_memcmp(k->keys[j].digest, key.digest, DIGEST_LEN) == 0)
                why = "the digest is already used by an earlier line";
        }
        if (!why && has_key && k->n == KVR_APIKEYS_MAX)
            why = "more than 4096 keys";
        if (why) {
            snprintf(err, err_len, "line %zu: %s", line + 1, why);
            kvr_apikeys_destroy(k);
            return -EINVAL;
        }
        if (has_key) {
            if (k->n == cap) {
                size_t ncap = cap ? cap * 2 : 16;
                apikey_t *grown = realloc(k->keys, ncap * sizeof *grown);
                if (!grown) {
                    kvr_apikeys_destroy(k);
                    return -ENOMEM;
                }
                k->keys = grown;
                cap = ncap;
            }
            k->keys[k->n++] = key;
        }
        start = end + 1;
    }
    if (k->n == 0) {
        snprintf(err, err_len, "no keys (each line is NAME sha256:HEX)");
        kvr_apikeys_destroy(k);
        return -EINVAL;
    }
    *out = k;
    return 0;
}

int kvr_apikeys_load(const char *path, kvr_apikeys_t **out, char *err, size_t err_len)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int rc = -errno;
        snprintf(err, err_len, "cannot open %s: %s", path, strerror(errno));
        return rc;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)FILE_MAX) {
        snprintf(err, err_len, "%s is not a regular file of at most 4 MiB", path);
        close(fd);
        return -EINVAL;
    }
    char *text = malloc((size_t)st.st_size + 1);
    if (!text) {
        close(fd);
        return -ENOMEM;
    }
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, text + got, (size_t)st.st_size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    char why[200];
    int rc = kvr_apikeys_parse(text, got, out, why, sizeof why);
    if (rc < 0)
        snprintf(err, err_len, "%s: %s", path, rc == -ENOMEM ? "out of memory" : why);
    free(text);
    return rc;
}

void kvr_apikeys_destroy(kvr_apikeys_t *k)
{
    if (!k)
        return;
    OPENSSL_cleanse(k->keys, k->n * sizeof *k->keys);
    free(k->keys);
    free(k);
}

/*
 * The presented key is hashed, and its digest compared with every line's
 * with CRYPTO_memcmp and no early exit: the time taken depends on the
 * number of keys, not on which one matched or how much of one did.
 */
int kvr_apikeys_check(const kvr_apikeys_t *k, const char *authorization)
{
    if (!k || !authorization || strncasecmp(authorization, "Bearer ", 7) != 0)
        return -1;
    const char *key = authorization + 7;
    while (*key == ' ')
        key++;
    size_t len = strlen(key);
    while (len > 0 && (key[len - 1] == ' ' || key[len - 1] == '\t'))
        len--;
    if (len == 0)
        return -1;
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int dlen = 0;
    if (!EVP_Digest(key, len, digest, &dlen, EVP_sha256(), NULL) || dlen != DIGEST_LEN)
        return -1;
    int found = -1;
    for (size_t i = 0; i < k->n; i++) {
        int same = CRYPTO_memcmp(k->keys[i].digest, digest, DIGEST_LEN) == 0;
        /* Digests are unique (the parser refuses repeats): at most one line matches. */
        found = same ? (int)i : found;
    }
    OPENSSL_cleanse(digest, sizeof digest);
    return found;
}

size_t kvr_apikeys_count(const kvr_apikeys_t *k)
{
    return k ? k->n : 0;
}

const char *kvr_apikeys_name(const kvr_apikeys_t *k, size_t i)
{
    return k->keys[i].name;
}

void kvr_apikeys_count_request(kvr_apikeys_t *k, size_t i)
{
    k->keys[i].requests++;
}

uint64_t kvr_apikeys_requests(const kvr_apikeys_t *k, size_t i)
{
    return k->keys[i].requests;
}

void kvr_apikeys_carry_counts(kvr_apikeys_t *fresh, const kvr_apikeys_t *old)
{
    for (size_t i = 0; old && i < fresh->n; i++)
        for (size_t j = 0; j < old->n; j++)
            if (strcmp(fresh->keys[i].name, old->keys[j].name) == 0)
                fresh->keys[i].requests = old->keys[j].requests;
}

void kvr_apikeys_metrics(const kvr_apikeys_t *k, kvr_prom_writer_t *w)
{
    if (!k)
        return;
    kvr_prom_family(w, "kvroute_api_key_requests_total", KVR_PROM_COUNTER,
                    "client requests authenticated with each key of --api-keys-file, by its name");
    for (size_t i = 0; i < k->n; i++) {
        kvr_prom_label_t label = {"key", k->keys[i].name};
        kvr_prom_sample_u64(w, "kvroute_api_key_requests_total", &label, 1, k->keys[i].requests);
    }
}
