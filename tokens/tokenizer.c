/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Encoding: invalid UTF-8 becomes U+FFFD (as a TextDecoder reads it), added
 * tokens are cut out first (longest match, lstrip/rstrip), the rest is
 * normalized, split by the pre-tokenizer's regexes, mapped to bytes and
 * merged by the BPE model; the post-processor adds the special tokens.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>

#include "common/buf.h"
#include "common/xmalloc.h"
#include "tokens/internal.h"

/* Match work per regex call, far above what the shipped patterns need on any input. */
#define MATCH_LIMIT 50000000u

typedef struct span_s {
    size_t off, len;
} span_t;

typedef struct spans_s {
    span_t *v;
    size_t n, cap;
} spans_t;

typedef struct encode_ctx_s {
    const kvr_tokenizer_t *tok;
    pcre2_match_data *md;
    pcre2_match_context *mc;
    pcre2_jit_stack *js;
    kvr__tok_bpe_scratch_t bpe;
    spans_t a, b;
    kvr_buf_t prefixed;
    kvr_token_ids_t *out;
} encode_ctx_t;

static void spans_push(spans_t *s, size_t off, size_t len)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->v = kvr_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = (span_t){off, len};
}

/* The length of the well-formed sequence at p, or 0 (the WHATWG decoder's rules). */
static size_t utf8_seq(const uint8_t *p, size_t left, uint32_t *cp)
{
    uint8_t b = p[0];
    if (b < 0x80) {
        *cp = b;
        return 1;
    }
    size_t need;
    uint8_t lo = 0x80, hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
        need = 1;
        *cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
        need = 2;
        *cp = b & 0x0f;
        if (b == 0xe0)
            lo = 0xa0;
        if (b == 0xed)
            hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
        need = 3;
        *cp = b & 0x07;
        if (b == 0xf0)
            lo = 0x90;
        if (b == 0xf4)
            hi = 0x8f;
    } else {
        return 0;
    }
    for (size_t i = 1; i <= need; i++) {
        if (i >= left || p[i] < lo || p[i] > hi)
            return 0;
        *cp = *cp << 6 | (p[i] & 0x3f);
        lo = 0x80;
        hi = 0xbf;
    }
    return need + 1;
}

bool kvr__tok_utf8_valid(const char *s, size_t len)
{
    const uint8_t *p = (const uint8_t *)s;
    for (size_t i = 0; i < len;) {
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        uint32_t cp;
        size_t n = utf8_seq(p + i, len - i, &cp);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

/* Each maximal ill-formed subsequence becomes one U+FFFD, as TextDecoder does. */
static void sanitize(const char *s, size_t len, kvr_buf_t *out)
{
    const uint8_t *p = (const uint8_t *)s;
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_seq(p + i, len - i, &cp);
        if (n) {
            kvr_buf_append(out, p + i, n);
            i += n;
            continue;
        }
        kvr_buf_append(out, "\xef\xbf\xbd", 3);
        /* Skip the lead and the continuation bytes that were still acceptable. */
        uint8_t b = p[i];
        size_t need = b >= 0xc2 && b <= 0xdf   ? 1
                      : b >= 0xe0 && b <= 0xef ? 2
                      : b >= 0xf0 && b <= 0xf4 ? 3
                                               : 0;
        uint8_t lo = b == 0xe0 ? 0xa0 : b == 0xf0 ? 0x90 : 0x80;
        uint8_t hi = b == 0xed ? 0x9f : b == 0xf4 ? 0x8f : 0xbf;
        i++;
        for (size_t k = 0; k < need && i < len && p[i] >= lo && p[i] <= hi; k++) {
            i++;
            lo = 0x80;
            hi = 0xbf;
        }
    }
}

static size_t cp_at(const char *s, size_t len, size_t i, uint32_t *cp)
{
    size_t n = utf8_seq((const uint8_t *)s + i, len - i, cp);
    return n ? n : 1;
}

static size_t cp_before(const char *s, size_t i, uint32_t *cp)
{
    size_t k = i - 1;
    while (k > 0 && ((uint8_t)s[k] & 0xc0) == 0x80)
        k--;
    utf8_seq((const uint8_t *)s + k, i - k, cp);
    return i - k;
}

static void trim_end(const char *s, span_t *sp)
{
    while (sp->len) {
        uint32_t cp;
        size_t n = cp_before(s + sp->off, sp->len, &cp);
        if (!kvr__tok_is_js_space(cp))
            break;
        sp->len -= n;
    }
}

static void trim_start(const char *s, span_t *sp)
{
    while (sp->len) {
        uint32_t cp;
        size_t n = cp_at(s + sp->off, sp->len, 0, &cp);
        if (!kvr__tok_is_js_space(cp))
            break;
        sp->off += n;
        sp->len -= n;
    }
}

/* The added token (its last entry) whose content is exactly this text, or -1. */
static int64_t added_lookup(const kvr_tokenizer_t *tok, const char *s, size_t len)
{
    int64_t c = kvr__tok_strmap_find(&tok->added_contents, s, len);
    return c < 0 ? -1 : (int64_t)tok->content_last[c];
}

static size_t trie_longest(const kvr_tokenizer_t *tok, const char *s, size_t len, size_t i)
{
    size_t best = 0;
    uint32_t node = 0;
    size_t mask = tok->trie_cap - 1;
    for (size_t j = i; j < len; j++) {
        uint64_t key = (uint64_t)node << 8 | (uint8_t)s[j];
        uint64_t h = key * 0x9e3779b97f4a7c15ULL;
        size_t k = (size_t)(h >> 17) & mask;
        while (tok->trie_edges[k].key != key && tok->trie_edges[k].key != UINT64_MAX)
            k = (k + 1) & mask;
        if (tok->trie_edges[k].key == UINT64_MAX)
            break;
        node = tok->trie_edges[k].child;
        if (tok->trie_match[node] >= 0)
            best = j + 1 - i;
    }
    return best;
}

/* Runs RE over s[0, len) as JavaScript's matchAll does, calling back for each match. */
typedef int (*match_fn)(encode_ctx_t *c, const char *s, size_t len, size_t ms, size_t me,
                        void *arg);

static int regex_each(encode_ctx_t *c, const pcre2_code *re, const char *s, size_t len, match_fn fn,
                      void *arg)
{
    /* The JIT's own entry skips pcre2_match's per-call checks (the text is valid UTF-8 here). */
    size_t jit_size = 0;
    bool jit = pcre2_pattern_info(re, PCRE2_INFO_JITSIZE, &jit_size) == 0 && jit_size > 0;
    size_t start = 0;
    while (start <= len) {
        int rc = jit ? pcre2_jit_match(re, (PCRE2_SPTR)s, len, start, 0, c->md, c->mc)
                     : pcre2_match(re, (PCRE2_SPTR)s, len, start, PCRE2_NO_UTF_CHECK, c->md, c->mc);
        if (rc == PCRE2_ERROR_NOMATCH)
            return 0;
        if (rc < 0)
            return rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT ||
                           rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT
                       ? -ERANGE
                       : -EINVAL;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(c->md);
        size_t ms = ov[0], me = ov[1];
        if (me < ms || me > len)
            return -EINVAL; /* \K can do this; the reference's engine cannot */
        int frc = fn(c, s, len, ms, me, arg);
        if (frc < 0)
            return frc;
        if (me == ms) {
            if (ms >= len)
                return 0;
            uint32_t cp;
            start = ms + cp_at(s, len, ms, &cp);
        } else {
            start = me;
        }
    }
    return 0;
}

typedef struct split_arg_s {
    spans_t *out;
    size_t base, prev;
    kvr__tok_split_mode_t mode;
} split_arg_t;

static int on_split(encode_ctx_t *c, const char *s, size_t len, size_t ms, size_t me, void *arg)
{
    (void)c;
    (void)s;
    (void)len;
    split_arg_t *a = arg;
    if (a->mode == KVR__TOK_SPLIT_MATCHES) {
        spans_push(a->out, a->base + ms, me - ms);
        return 0;
    }
    if (me == ms && a->mode == KVR__TOK_SPLIT_REMOVED)
        return 0;
    if (a->prev < ms)
        spans_push(a->out, a->base + a->prev, ms - a->prev);
    if (me > ms && a->mode == KVR__TOK_SPLIT_ISOLATED)
        spans_push(a->out, a->base + ms, me - ms);
    a->prev = me;
    return 0;
}

static int on_byte_level(encode_ctx_t *c, const char *s, size_t len, size_t ms, size_t me,
                         void *arg)
{
    (void)len;
    (void)arg;
    return kvr__tok_bpe_piece(c->tok, &c->bpe, s + ms, me - ms, c->out);
}

static int byte_level(encode_ctx_t *c, const char *s, size_t len)
{
    const kvr_tokenizer_t *tok = c->tok;
    if (tok->byte_level_prefix_space && (len == 0 || s[0] != ' ')) {
        kvr_buf_reset(&c->prefixed);
        kvr_buf_append(&c->prefixed, " ", 1);
        kvr_buf_append(&c->prefixed, s, len);
        s = c->prefixed.base;
        len = c->prefixed.len;
    }
    if (tok->byte_level_re)
        return regex_each(c, tok->byte_level_re, s, len, on_byte_level, NULL);
    return kvr__tok_bpe_piece(tok, &c->bpe, s, len, c->out);
}

static int pre_tokenize(encode_ctx_t *c, const char *s, size_t len)
{
    const kvr_tokenizer_t *tok = c->tok;
    spans_t *cur = &c->a, *next = &c->b;
    cur->n = 0;
    spans_push(cur, 0, len);
    for (size_t k = 0; k < tok->n_splits; k++) {
        next->n = 0;
        for (size_t i = 0; i < cur->n; i++) {
            span_t p = cur->v[i];
            split_arg_t a = {next, p.off, 0, tok->splits[k].mode};
            int rc = regex_each(c, tok->splits[k].re, s + p.off, p.len, on_split, &a);
            if (rc < 0)
                return rc;
            if (a.mode != KVR__TOK_SPLIT_MATCHES && a.prev < p.len)
                spans_push(next, p.off + a.prev, p.len - a.prev);
        }
        spans_t *t = cur;
        cur = next;
        next = t;
    }
    for (size_t i = 0; i < cur->n; i++) {
        int rc = byte_level(c, s + cur->v[i].off, cur->v[i].len);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static void remove_space(const char *s, size_t len, kvr_buf_t *out)
{
    span_t sp = {0, len};
    trim_start(s, &sp);
    trim_end(s, &sp);
    bool in_space = false;
    for (size_t i = sp.off; i < sp.off + sp.len;) {
        uint32_t cp;
        size_t n = cp_at(s, sp.off + sp.len, i, &cp);
        if (kvr__tok_is_js_space(cp)) {
            if (!in_space)
                kvr_buf_append(out, " ", 1);
            in_space = true;
        } else {
            kvr_buf_append(out, s + i, n);
            in_space = false;
        }
        i += n;
    }
}

static int encode_text(encode_ctx_t *c, const char *s, size_t len)
{
    const kvr_tokenizer_t *tok = c->tok;
    kvr_buf_t spaced = KVR_BUF_INIT;
    char *norm = NULL;
    if (tok->remove_space) {
        remove_space(s, len, &spaced);
        s = spaced.base ? spaced.base : "";
        len = spaced.len;
    }
    int rc = 0;
    for (size_t k = 0; k < tok->n_norms && len > 0; k++) {
        char *dst;
        size_t n;
        rc = kvr__tok_normalize(tok->norms[k], s, len, &dst, &n);
        if (rc < 0)
            goto done;
        if (!dst)
            continue;
        free(norm);
        norm = dst;
        s = norm;
        len = n;
    }
    if (len > 0)
        rc = pre_tokenize(c, s, len);
done:
    free(norm);
    kvr_buf_close(&spaced);
    return rc;
}

static int encode_sections(encode_ctx_t *c, const char *s, size_t len)
{
    const kvr_tokenizer_t *tok = c->tok;
    spans_t secs = {0};
    bool *is_added = NULL;
    size_t n_added_secs = 0, start = 0;
    int rc = 0;
    if (tok->trie_cap) {
        for (size_t i = 0; i < len;) {
            if (!tok->added_first[(uint8_t)s[i]]) {
                i++;
                continue;
            }
            size_t m = trie_longest(tok, s, len, i);
            if (m == 0) {
                i++;
                continue;
            }
            if (i > start)
                spans_push(&secs, start, i - start);
            spans_push(&secs, i, m);
            n_added_secs++;
            i += m;
            start = i;
        }
    }
    if (start < len || secs.n == 0)
        spans_push(&secs, start, len - start);
    is_added = kvr_xcalloc(secs.n, sizeof *is_added);
    if (n_added_secs) {
        for (size_t k = 0; k < secs.n; k++)
            is_added[k] = added_lookup(tok, s + secs.v[k].off, secs.v[k].len) >= 0;
        /* Stripping reads each section as it stands after the previous strips. */
        for (size_t k = 0; k < secs.n; k++) {
            if (!is_added[k])
                continue;
            int64_t a = added_lookup(tok, s + secs.v[k].off, secs.v[k].len);
            if (a < 0)
                continue;
            if (tok->added[a].lstrip && k > 0)
                trim_end(s, &secs.v[k - 1]);
            if (tok->added[a].rstrip && k + 1 < secs.n)
                trim_start(s, &secs.v[k + 1]);
        }
    }
    for (size_t k = 0; k < secs.n && rc == 0; k++) {
        span_t sp = secs.v[k];
        if (sp.len == 0)
            continue;
        int64_t a = is_added[k] ? added_lookup(tok, s + sp.off, sp.len) : -1;
        if (a >= 0)
            kvr__tok_ids_push(c->out, tok->added[a].id);
        else
            rc = encode_text(c, s + sp.off, sp.len);
    }
    free(is_added);
    free(secs.v);
    return rc;
}

static int ctx_open(encode_ctx_t *c, const kvr_tokenizer_t *tok, kvr_token_ids_t *ids,
                    size_t text_len)
{
    *c = (encode_ctx_t){.tok = tok, .out = ids};
    c->bpe.recent_cap = text_len / 8; /* a bound asked for, rounded by the BPE */
    kvr_buf_init(&c->prefixed);
    c->md = pcre2_match_data_create(1, NULL);
    c->mc = pcre2_match_context_create(NULL);
    c->js = pcre2_jit_stack_create(32 << 10, 8 << 20, NULL);
    if (!c->md || !c->mc || !c->js)
        return -ENOMEM;
    pcre2_jit_stack_assign(c->mc, NULL, c->js);
    pcre2_set_match_limit(c->mc, MATCH_LIMIT);
    return 0;
}

static void ctx_close(encode_ctx_t *c)
{
    kvr_buf_close(&c->prefixed);
    kvr__tok_bpe_scratch_close(&c->bpe);
    free(c->a.v);
    free(c->b.v);
    pcre2_jit_stack_free(c->js);
    pcre2_match_context_free(c->mc);
    pcre2_match_data_free(c->md);
}

void kvr_tokenizer_add_special_tokens(const kvr_tokenizer_t *tok, kvr_token_ids_t *ids, size_t base)
{
    assert(base <= ids->len);
    if (!tok->n_wraps)
        return;
    size_t n_before = 0;
    for (size_t w = 0; w < tok->n_wraps; w++)
        n_before += tok->wraps[w].n_before;
    size_t body = ids->len - base;
    for (size_t k = 0; k < n_before; k++)
        kvr__tok_ids_push(ids, 0);
    memmove(ids->ids + base + n_before, ids->ids + base, body * sizeof *ids->ids);
    size_t at = base;
    for (size_t w = tok->n_wraps; w-- > 0;) {
        memcpy(ids->ids + at, tok->wraps[w].before, tok->wraps[w].n_before * sizeof *ids->ids);
        at += tok->wraps[w].n_before;
    }
    for (size_t w = 0; w < tok->n_wraps; w++) {
        for (size_t k = 0; k < tok->wraps[w].n_after; k++)
            kvr__tok_ids_push(ids, tok->wraps[w].after[k]);
    }
}

int kvr_tokenizer_encode(const kvr_tokenizer_t *tok, const char *text, size_t text_len,
                         bool add_special_tokens, kvr_token_ids_t *ids)
{
    if (!tok || !ids || (!text && text_len))
        return -EINVAL;
    size_t base = ids->len;
    encode_ctx_t c;
    kvr_buf_t clean = KVR_BUF_INIT;
    int rc = ctx_open(&c, tok, ids, text_len);
    if (rc < 0)
        goto done;
    const char *s = text ? text : "";
    size_t len = text_len;
    if (!kvr__tok_utf8_valid(s, len)) {
        sanitize(s, len, &clean);
        s = clean.base ? clean.base : "";
        len = clean.len;
    }
    rc = encode_sections(&c, s, len);
    if (rc == 0 && add_special_tokens)
        kvr_tokenizer_add_special_tokens(tok, ids, base);
done:
    if (rc < 0)
        ids->len = base;
    kvr_buf_close(&clean);
    ctx_close(&c);
    return rc;
}

/*
 * Where a text may be cut and its halves encoded apart with the same ids as
 * the whole: right after an added token. Added tokens are cut out first, by
 * a left-to-right longest match, so the scan of the text after such a point
 * starts afresh there, and everything after it (normalizers, pre-tokenizer,
 * BPE) works on one section at a time. Only the strips reach across: a cut
 * is refused after a token that strips what follows it, and before one that
 * strips what precedes it.
 */
size_t kvr__tok_cut_points(const kvr_tokenizer_t *tok, const char *s, size_t len, size_t *cuts,
                           size_t cap)
{
    size_t n = 0;
    if (!tok->trie_cap)
        return 0;
    for (size_t i = 0; i < len && n < cap;) {
        size_t m = tok->added_first[(uint8_t)s[i]] ? trie_longest(tok, s, len, i) : 0;
        if (m == 0) {
            i++;
            continue;
        }
        int64_t a = added_lookup(tok, s + i, m);
        i += m;
        if (a < 0 || tok->added[a].rstrip || i >= len)
            continue;
        size_t next = tok->added_first[(uint8_t)s[i]] ? trie_longest(tok, s, len, i) : 0;
        int64_t b = next ? added_lookup(tok, s + i, next) : -1;
        if (b >= 0 && tok->added[b].lstrip)
            continue;
        cuts[n++] = i;
    }
    return n;
}

int kvr__tok_encode_ranges(const kvr_tokenizer_t *tok, const char *s, const size_t *bounds,
                           size_t n_ranges, kvr_token_ids_t *ids, size_t *ends)
{
    size_t base = ids->len;
    encode_ctx_t c;
    int rc = ctx_open(&c, tok, ids, bounds[n_ranges] - bounds[0]);
    for (size_t i = 0; i < n_ranges && rc == 0; i++) {
        rc = encode_sections(&c, s + bounds[i], bounds[i + 1] - bounds[i]);
        ends[i] = ids->len;
    }
    if (rc < 0)
        ids->len = base;
    ctx_close(&c);
    return rc;
}

int kvr_tokenizer_count(const kvr_tokenizer_t *tok, const char *text, size_t text_len,
                        bool add_special_tokens, size_t *count)
{
    kvr_token_ids_t ids;
    kvr_token_ids_init(&ids);
    int rc = kvr_tokenizer_encode(tok, text, text_len, add_special_tokens, &ids);
    *count = rc == 0 ? ids.len : 0;
    kvr_token_ids_close(&ids);
    return rc;
}

size_t kvr_tokenizer_vocab_size(const kvr_tokenizer_t *tok)
{
    return tok->vocab_size;
}

void kvr_token_ids_init(kvr_token_ids_t *ids)
{
    memset(ids, 0, sizeof *ids);
}

void kvr_token_ids_close(kvr_token_ids_t *ids)
{
    free(ids->ids);
    memset(ids, 0, sizeof *ids);
}

void kvr_tokenizer_destroy(kvr_tokenizer_t *tok)
{
    if (!tok)
        return;
    kvr__tok_strmap_close(&tok->symbols);
    kvr__tok_strmap_close(&tok->added_contents);
    kvr__tok_pairmap_close(&tok->merges);
    free(tok->symbol_id);
    free(tok->added);
    free(tok->content_last);
    free(tok->trie_edges);
    free(tok->trie_match);
    for (size_t i = 0; i < tok->n_splits; i++)
        pcre2_code_free(tok->splits[i].re);
    pcre2_code_free(tok->byte_level_re);
    free(tok);
}

int kvr_tokenizer_create_from_json(const char *tokenizer_json, size_t tokenizer_json_len,
                                   const char *config_json, size_t config_json_len,
                                   kvr_tokenizer_t **out, char *err, size_t err_len)
{
    char scratch[8];
    if (!err || err_len == 0) {
        err = scratch;
        err_len = sizeof scratch;
    }
    err[0] = '\0';
    *out = NULL;
    kvr_tokenizer_t *tok = calloc(1, sizeof *tok);
    if (!tok) {
        snprintf(err, err_len, "out of memory");
        return -ENOMEM;
    }
    kvr__tok_strmap_init(&tok->symbols);
    kvr__tok_strmap_init(&tok->added_contents);
    kvr__tok_pairmap_init(&tok->merges);
    int rc = kvr__tok_load(tok, tokenizer_json, tokenizer_json_len, config_json, config_json_len,
                           err, err_len);
    if (rc < 0) {
        kvr_tokenizer_destroy(tok);
        return rc;
    }
    tok->fingerprint = XXH3_64bits_withSeed(config_json ? config_json : "", config_json_len,
                                            XXH3_64bits(tokenizer_json, tokenizer_json_len));
    *out = tok;
    return 0;
}

/* A whole regular file of at most MAX bytes. */
static int read_file(const char *path, size_t max, char **data, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) < 0) {
        rc = -errno;
        goto done;
    }
    if (!S_ISREG(st.st_mode)) {
        rc = -EINVAL;
        goto done;
    }
    if ((uint64_t)st.st_size > max) {
        rc = -EFBIG;
        goto done;
    }
    size_t size = (size_t)st.st_size, got = 0;
    char *buf = malloc(size + 1);
    if (!buf) {
        rc = -ENOMEM;
        goto done;
    }
    while (got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = n < 0 ? -errno : -EIO; /* shrank while read */
            free(buf);
            goto done;
        }
        got += (size_t)n;
    }
    buf[size] = '\0';
    *data = buf;
    *len = size;
done:
    close(fd);
    return rc;
}

int kvr_tokenizer_create(const char *dir, kvr_tokenizer_t **out, char *err, size_t err_len)
{
    char scratch[8];
    if (!err || err_len == 0) {
        err = scratch;
        err_len = sizeof scratch;
    }
    *out = NULL;
    char path[4096];
    char *json = NULL, *config = NULL;
    size_t json_len = 0, config_len = 0;
    if ((size_t)snprintf(path, sizeof path, "%s/tokenizer.json", dir) >= sizeof path) {
        snprintf(err, err_len, "tokenizer directory path too long");
        return -ENAMETOOLONG;
    }
    int rc = read_file(path, KVR_TOKENIZER_JSON_MAX_BYTES, &json, &json_len);
    if (rc < 0) {
        snprintf(err, err_len, "%s: %s", path, strerror(-rc));
        return rc;
    }
    snprintf(path, sizeof path, "%s/tokenizer_config.json", dir);
    rc = read_file(path, KVR_TOKENIZER_JSON_MAX_BYTES, &config, &config_len);
    if (rc < 0 && rc != -ENOENT) {
        snprintf(err, err_len, "%s: %s", path, strerror(-rc));
        free(json);
        return rc;
    }
    rc = kvr_tokenizer_create_from_json(json, json_len, config, config_len, out, err, err_len);
    free(json);
    free(config);
    return rc;
}
