/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tokenizer.json and tokenizer_config.json into a kvr_tokenizer_t. Every
 * field is checked: a file an operator hands over is still outside input.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "tokens/internal.h"

#define FAIL(code, ...)                                                                            \
    do {                                                                                           \
        snprintf(err, err_len, __VA_ARGS__);                                                       \
        return (code);                                                                             \
    } while (0)

static bool json_bool(const cJSON *obj, const char *name, bool dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v);
    return dflt;
}

static const char *json_type(const cJSON *obj)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(obj, "type");
    return cJSON_IsString(t) ? t->valuestring : "";
}

static bool json_id(const cJSON *v, uint32_t *id)
{
    if (!cJSON_IsNumber(v))
        return false;
    double d = v->valuedouble;
    if (!(d >= 0 && d <= KVR__TOK_MAX_ID) || d != floor(d))
        return false;
    *id = (uint32_t)d;
    return true;
}

/* A string of the document: its bytes and length (cJSON strings end at a NUL). */
static bool json_text(const cJSON *v, const char **s, size_t *len)
{
    if (!cJSON_IsString(v) || !v->valuestring)
        return false;
    *s = v->valuestring;
    *len = strlen(v->valuestring);
    return kvr__tok_utf8_valid(*s, *len);
}

static int set_symbol_id(kvr_tokenizer_t *tok, uint32_t sym, uint32_t id)
{
    if (sym >= tok->symbol_id_cap) {
        size_t cap = tok->symbol_id_cap ? tok->symbol_id_cap : 1024;
        while (cap <= sym)
            cap *= 2;
        uint32_t *a = realloc(tok->symbol_id, cap * sizeof *a);
        if (!a)
            return -ENOMEM;
        for (size_t i = tok->symbol_id_cap; i < cap; i++)
            a[i] = KVR__TOK_NO_ID;
        tok->symbol_id = a;
        tok->symbol_id_cap = cap;
    }
    if (id != KVR__TOK_NO_ID)
        tok->symbol_id[sym] = id;
    if (id != KVR__TOK_NO_ID && (size_t)id + 1 > tok->vocab_size)
        tok->vocab_size = (size_t)id + 1;
    return 0;
}

/* Interns a byte-level string as raw bytes; *sym = UINT32_MAX when it is not in the alphabet. */
static int intern_byte_level(kvr_tokenizer_t *tok, const char *s, size_t len, uint32_t *sym)
{
    char stack[256];
    char *raw = len <= sizeof stack ? stack : malloc(len);
    if (!raw)
        return -ENOMEM;
    size_t raw_len;
    int rc = kvr__tok_byte_level_decode(s, len, raw, &raw_len);
    if (rc < 0) {
        *sym = UINT32_MAX;
        rc = 0;
    } else {
        bool inserted;
        rc = kvr__tok_strmap_intern(&tok->symbols, raw, raw_len, sym, &inserted);
        if (rc == 0)
            rc = set_symbol_id(tok, *sym, KVR__TOK_NO_ID);
    }
    if (raw != stack)
        free(raw);
    return rc;
}

static int load_vocab(kvr_tokenizer_t *tok, const cJSON *vocab, char *err, size_t err_len)
{
    if (!cJSON_IsObject(vocab))
        FAIL(-EINVAL, "model.vocab is not an object");
    for (const cJSON *e = vocab->child; e; e = e->next) {
        uint32_t id, sym;
        if (!e->string || !kvr__tok_utf8_valid(e->string, strlen(e->string)))
            FAIL(-EINVAL, "model.vocab has a key that is not UTF-8");
        if (!json_id(e, &id))
            FAIL(-EINVAL, "model.vocab[\"%.40s\"] is not an id in 0..%d", e->string,
                 KVR__TOK_MAX_ID);
        int rc = intern_byte_level(tok, e->string, strlen(e->string), &sym);
        if (rc < 0)
            FAIL(rc, "model.vocab: %s", rc == -E2BIG ? "too many entries" : "out of memory");
        if (sym != UINT32_MAX)
            tok->symbol_id[sym] = id; /* a later duplicate key wins, as JSON.parse */
        if ((size_t)id + 1 > tok->vocab_size)
            tok->vocab_size = (size_t)id + 1;
    }
    return 0;
}

/* "a b" (split at the first two spaces' worth, as the reference) or ["a", "b"]. */
static bool merge_parts(const cJSON *m, const char **l, size_t *llen, const char **r, size_t *rlen)
{
    if (cJSON_IsString(m)) {
        const char *s;
        size_t len;
        if (!json_text(m, &s, &len))
            return false;
        const char *sp = memchr(s, ' ', len);
        if (!sp)
            return false;
        const char *end = memchr(sp + 1, ' ', len - (size_t)(sp + 1 - s));
        *l = s;
        *llen = (size_t)(sp - s);
        *r = sp + 1;
        *rlen = end ? (size_t)(end - sp - 1) : len - (size_t)(sp + 1 - s);
        return true;
    }
    if (cJSON_IsArray(m) && cJSON_GetArraySize(m) == 2) {
        return json_text(m->child, l, llen) && json_text(m->child->next, r, rlen);
    }
    return false;
}

static int load_merges(kvr_tokenizer_t *tok, const cJSON *merges, char *err, size_t err_len)
{
    if (!cJSON_IsArray(merges))
        FAIL(-EINVAL, "model.merges is not an array");
    uint32_t rank = 0;
    char stack[512];
    for (const cJSON *m = merges->child; m; m = m->next, rank++) {
        if (rank >= KVR__TOK_MAX_SYMBOLS)
            FAIL(-E2BIG, "model.merges has more than %u entries", KVR__TOK_MAX_SYMBOLS);
        const char *l, *r;
        size_t llen, rlen;
        if (!merge_parts(m, &l, &llen, &r, &rlen) || llen == 0 || rlen == 0)
            continue; /* never matches a pair in the reference either */
        uint32_t ls, rs, ms;
        int rc = intern_byte_level(tok, l, llen, &ls);
        if (rc == 0)
            rc = intern_byte_level(tok, r, rlen, &rs);
        if (rc < 0)
            FAIL(rc, "model.merges: %s", rc == -E2BIG ? "too many symbols" : "out of memory");
        if (ls == UINT32_MAX || rs == UINT32_MAX)
            continue; /* a character outside the byte alphabet is never formed */
        size_t a, b;
        const char *lk = kvr__tok_strmap_key(&tok->symbols, ls, &a);
        (void)lk;
        kvr__tok_strmap_key(&tok->symbols, rs, &b);
        char *cat = a + b <= sizeof stack ? stack : malloc(a + b);
        if (!cat)
            FAIL(-ENOMEM, "out of memory");
        /* Keys may move while interning: copy both before the next intern. */
        memcpy(cat, kvr__tok_strmap_key(&tok->symbols, ls, &a), a);
        memcpy(cat + a, kvr__tok_strmap_key(&tok->symbols, rs, &b), b);
        bool inserted;
        rc = kvr__tok_strmap_intern(&tok->symbols, cat, a + b, &ms, &inserted);
        if (cat != stack)
            free(cat);
        if (rc == 0)
            rc = set_symbol_id(tok, ms, KVR__TOK_NO_ID);
        if (rc == 0)
            rc = kvr__tok_pairmap_put(&tok->merges, ls, rs, rank, ms);
        if (rc < 0)
            FAIL(rc, "model.merges: %s", rc == -E2BIG ? "too many symbols" : "out of memory");
    }
    return 0;
}

static int trie_add(kvr_tokenizer_t *tok, const char *s, size_t len, int32_t added_index);

static int load_added(kvr_tokenizer_t *tok, const cJSON *added, char *err, size_t err_len)
{
    if (!added || cJSON_IsNull(added))
        return 0;
    if (!cJSON_IsArray(added))
        FAIL(-EINVAL, "added_tokens is not an array");
    size_t n = (size_t)cJSON_GetArraySize(added);
    if (n > KVR__TOK_MAX_SYMBOLS)
        FAIL(-E2BIG, "too many added_tokens");
    tok->added = calloc(n ? n : 1, sizeof *tok->added);
    tok->content_last = calloc(n ? n : 1, sizeof *tok->content_last);
    if (!tok->added || !tok->content_last)
        FAIL(-ENOMEM, "out of memory");
    size_t i = 0;
    for (const cJSON *a = added->child; a; a = a->next, i++) {
        const char *content;
        size_t len;
        uint32_t id, sym, idx;
        bool inserted;
        if (!cJSON_IsObject(a) || !json_id(cJSON_GetObjectItemCaseSensitive(a, "id"), &id))
            FAIL(-EINVAL, "added_tokens[%zu] has no id in 0..%d", i, KVR__TOK_MAX_ID);
        if (!json_text(cJSON_GetObjectItemCaseSensitive(a, "content"), &content, &len))
            FAIL(-EINVAL, "added_tokens[%zu] has no UTF-8 content", i);
        tok->added[i].id = id;
        tok->added[i].lstrip = json_bool(a, "lstrip", false);
        tok->added[i].rstrip = json_bool(a, "rstrip", false);
        tok->n_added = i + 1;
        if ((size_t)id + 1 > tok->vocab_size)
            tok->vocab_size = (size_t)id + 1;
        int rc = kvr__tok_strmap_intern(&tok->added_contents, content, len, &idx, &inserted);
        if (rc < 0)
            FAIL(rc, "added_tokens: out of memory");
        /* The same content twice: the later entry wins, as the reference's maps. */
        tok->content_last[idx] = (uint32_t)i;
        rc = trie_add(tok, content, len, (int32_t)i);
        if (rc == 0)
            rc = intern_byte_level(tok, content, len, &sym);
        if (rc < 0)
            FAIL(rc, "added_tokens: out of memory");
        if (sym != UINT32_MAX)
            tok->symbol_id[sym] = id; /* the reference's one token->id map: added wins */
    }
    return 0;
}

/* The byte trie of added contents: edges in one open-addressed table. */
static kvr__tok_trie_edge_t *trie_slot(kvr__tok_trie_edge_t *e, size_t cap, uint64_t key)
{
    size_t mask = cap - 1;
    uint64_t h = key * 0x9e3779b97f4a7c15ULL;
    for (size_t i = (size_t)(h >> 17) & mask;; i = (i + 1) & mask) {
        if (e[i].key == key || e[i].key == UINT64_MAX)
            return &e[i];
    }
}

static int trie_add(kvr_tokenizer_t *tok, const char *s, size_t len, int32_t added_index)
{
    if (tok->trie_nodes == 0) {
        tok->trie_match = malloc(sizeof *tok->trie_match);
        if (!tok->trie_match)
            return -ENOMEM;
        tok->trie_match[0] = -1;
        tok->trie_nodes = 1;
    }
    if (len == 0)
        return 0; /* the reference's trie never matches an empty content */
    tok->added_first[(uint8_t)s[0]] = true;
    uint32_t node = 0;
    for (size_t i = 0; i < len; i++) {
        if ((tok->trie_nodes + 1) * 2 > tok->trie_cap) {
            size_t cap = tok->trie_cap ? tok->trie_cap * 2 : 256;
            kvr__tok_trie_edge_t *e = malloc(cap * sizeof *e);
            int32_t *m = realloc(tok->trie_match, cap * sizeof *m);
            if (!e || !m) {
                free(e);
                if (m)
                    tok->trie_match = m;
                return -ENOMEM;
            }
            tok->trie_match = m;
            for (size_t k = 0; k < cap; k++)
                e[k].key = UINT64_MAX;
            for (size_t k = 0; k < tok->trie_cap; k++) {
                if (tok->trie_edges[k].key != UINT64_MAX)
                    *trie_slot(e, cap, tok->trie_edges[k].key) = tok->trie_edges[k];
            }
            free(tok->trie_edges);
            tok->trie_edges = e;
            tok->trie_cap = cap;
        }
        uint64_t key = (uint64_t)node << 8 | (uint8_t)s[i];
        kvr__tok_trie_edge_t *slot = trie_slot(tok->trie_edges, tok->trie_cap, key);
        if (slot->key == UINT64_MAX) {
            slot->key = key;
            slot->child = (uint32_t)tok->trie_nodes;
            tok->trie_match[tok->trie_nodes++] = -1;
        }
        node = slot->child;
    }
    tok->trie_match[node] = added_index;
    return 0;
}

static int load_normalizer(kvr_tokenizer_t *tok, const cJSON *n, int depth, char *err,
                           size_t err_len)
{
    if (!n || cJSON_IsNull(n))
        return 0;
    if (!cJSON_IsObject(n) || depth > KVR__TOK_MAX_DEPTH)
        FAIL(-EINVAL, "normalizer is not an object");
    const char *type = json_type(n);
    if (strcmp(type, "Sequence") == 0) {
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(n, "normalizers");
        if (!cJSON_IsArray(list))
            FAIL(-EINVAL, "normalizer Sequence has no normalizers array");
        for (const cJSON *c = list->child; c; c = c->next) {
            int rc = load_normalizer(tok, c, depth + 1, err, err_len);
            if (rc < 0)
                return rc;
        }
        return 0;
    }
    static const struct {
        const char *name;
        kvr__tok_norm_t norm;
    } forms[] = {{"NFC", KVR__TOK_NORM_NFC},
                 {"NFD", KVR__TOK_NORM_NFD},
                 {"NFKC", KVR__TOK_NORM_NFKC},
                 {"NFKD", KVR__TOK_NORM_NFKD}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        if (strcmp(type, forms[i].name) == 0) {
            if (tok->n_norms == KVR__TOK_MAX_STEPS)
                FAIL(-E2BIG, "more than %d normalizers", KVR__TOK_MAX_STEPS);
            tok->norms[tok->n_norms++] = forms[i].norm;
            return 0;
        }
    }
    FAIL(-ENOTSUP, "normalizer type \"%.40s\" is not supported", type);
}

static int load_pretokenizer(kvr_tokenizer_t *tok, const cJSON *p, int depth, bool *byte_level,
                             char *err, size_t err_len)
{
    if (!cJSON_IsObject(p) || depth > KVR__TOK_MAX_DEPTH)
        FAIL(-EINVAL, "pre_tokenizer is not an object");
    const char *type = json_type(p);
    if (*byte_level)
        FAIL(-ENOTSUP, "pre_tokenizer steps after ByteLevel are not supported");
    if (strcmp(type, "Sequence") == 0) {
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(p, "pretokenizers");
        if (!cJSON_IsArray(list))
            FAIL(-EINVAL, "pre_tokenizer Sequence has no pretokenizers array");
        for (const cJSON *c = list->child; c; c = c->next) {
            int rc = load_pretokenizer(tok, c, depth + 1, byte_level, err, err_len);
            if (rc < 0)
                return rc;
        }
        return 0;
    }
    if (strcmp(type, "ByteLevel") == 0) {
        *byte_level = true;
        tok->byte_level_prefix_space = json_bool(p, "add_prefix_space", false);
        if (json_bool(p, "use_regex", true)) {
            static const char gpt2[] =
                "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
            return kvr__tok_regex_compile(gpt2, sizeof gpt2 - 1, false, &tok->byte_level_re, err,
                                          err_len);
        }
        return 0;
    }
    if (strcmp(type, "Split") == 0) {
        if (tok->n_splits == KVR__TOK_MAX_STEPS)
            FAIL(-E2BIG, "more than %d Split pre-tokenizers", KVR__TOK_MAX_STEPS);
        const cJSON *pat = cJSON_GetObjectItemCaseSensitive(p, "pattern");
        const cJSON *re = cJSON_GetObjectItemCaseSensitive(pat, "Regex");
        const cJSON *str = cJSON_GetObjectItemCaseSensitive(pat, "String");
        const char *s;
        size_t len;
        bool literal = !re;
        if (!json_text(re ? re : str, &s, &len))
            FAIL(-EINVAL, "Split pre_tokenizer has no Regex or String pattern");
        bool invert = json_bool(p, "invert", false);
        const cJSON *beh = cJSON_GetObjectItemCaseSensitive(p, "behavior");
        const char *behavior = cJSON_IsString(beh) ? beh->valuestring : "";
        kvr__tok_split_t *sp = &tok->splits[tok->n_splits];
        if (invert)
            sp->mode = KVR__TOK_SPLIT_MATCHES;
        else if (strcasecmp(behavior, "Isolated") == 0)
            sp->mode = KVR__TOK_SPLIT_ISOLATED;
        else if (strcasecmp(behavior, "Removed") == 0)
            /* The reference splits a String pattern through a capture: it keeps the delimiters. */
            sp->mode = literal ? KVR__TOK_SPLIT_ISOLATED : KVR__TOK_SPLIT_REMOVED;
        else
            FAIL(-ENOTSUP, "Split behavior \"%.40s\" is not supported", behavior);
        int rc = kvr__tok_regex_compile(s, len, literal, &sp->re, err, err_len);
        if (rc < 0)
            return rc;
        tok->n_splits++;
        uint32_t captures = 0;
        pcre2_pattern_info(sp->re, PCRE2_INFO_CAPTURECOUNT, &captures);
        if (sp->mode == KVR__TOK_SPLIT_REMOVED && captures > 0)
            FAIL(-ENOTSUP, "Split behavior Removed with capturing groups is not supported");
        return 0;
    }
    FAIL(-ENOTSUP, "pre_tokenizer type \"%.40s\" is not supported", type);
}

/* A special token's name to its id through the same token->id map the reference uses. */
static int resolve_token(const kvr_tokenizer_t *tok, const cJSON *name, uint32_t *id)
{
    const char *s;
    size_t len;
    if (!json_text(name, &s, &len))
        return -EINVAL;
    int64_t a = kvr__tok_strmap_find(&tok->added_contents, s, len);
    if (a >= 0) {
        *id = tok->added[tok->content_last[a]].id;
        return 0;
    }
    char stack[256];
    size_t raw_len;
    if (len <= sizeof stack && kvr__tok_byte_level_decode(s, len, stack, &raw_len) == 0) {
        int64_t sym = kvr__tok_strmap_find(&tok->symbols, stack, raw_len);
        if (sym >= 0 && tok->symbol_id[sym] != KVR__TOK_NO_ID) {
            *id = tok->symbol_id[sym];
            return 0;
        }
    }
    if (tok->unk_id != KVR__TOK_NO_ID) {
        *id = tok->unk_id;
        return 0;
    }
    return -ENOENT;
}

static int wrap_push(kvr__tok_wrap_t *w, bool before, uint32_t id)
{
    size_t *n = before ? &w->n_before : &w->n_after;
    if (*n == KVR__TOK_MAX_TEMPLATE)
        return -E2BIG;
    (before ? w->before : w->after)[(*n)++] = id;
    return 0;
}

static int load_postprocessor(kvr_tokenizer_t *tok, const cJSON *p, int depth, char *err,
                              size_t err_len)
{
    if (!p || cJSON_IsNull(p))
        return 0;
    if (!cJSON_IsObject(p) || depth > KVR__TOK_MAX_DEPTH)
        FAIL(-EINVAL, "post_processor is not an object");
    const char *type = json_type(p);
    if (strcmp(type, "ByteLevel") == 0)
        return 0;
    if (strcmp(type, "Sequence") == 0) {
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(p, "processors");
        if (!cJSON_IsArray(list))
            FAIL(-EINVAL, "post_processor Sequence has no processors array");
        for (const cJSON *c = list->child; c; c = c->next) {
            int rc = load_postprocessor(tok, c, depth + 1, err, err_len);
            if (rc < 0)
                return rc;
        }
        return 0;
    }
    if (tok->n_wraps == KVR__TOK_MAX_STEPS)
        FAIL(-E2BIG, "more than %d post-processors", KVR__TOK_MAX_STEPS);
    kvr__tok_wrap_t *w = &tok->wraps[tok->n_wraps];
    memset(w, 0, sizeof *w);
    if (strcmp(type, "TemplateProcessing") == 0) {
        const cJSON *single = cJSON_GetObjectItemCaseSensitive(p, "single");
        if (!cJSON_IsArray(single))
            FAIL(-EINVAL, "TemplateProcessing has no single template");
        bool seen_a = false;
        for (const cJSON *it = single->child; it; it = it->next) {
            const cJSON *sp = cJSON_GetObjectItemCaseSensitive(it, "SpecialToken");
            const cJSON *seq = cJSON_GetObjectItemCaseSensitive(it, "Sequence");
            if (sp) {
                uint32_t id;
                if (resolve_token(tok, cJSON_GetObjectItemCaseSensitive(sp, "id"), &id) < 0)
                    FAIL(-EINVAL, "TemplateProcessing names a token with no id");
                if (wrap_push(w, !seen_a, id) < 0)
                    FAIL(-E2BIG, "TemplateProcessing has more than %d special tokens",
                         KVR__TOK_MAX_TEMPLATE);
            } else if (seq) {
                const cJSON *sid = cJSON_GetObjectItemCaseSensitive(seq, "id");
                if (cJSON_IsString(sid) && strcmp(sid->valuestring, "A") == 0) {
                    if (seen_a)
                        FAIL(-ENOTSUP, "TemplateProcessing repeats sequence A");
                    seen_a = true;
                }
            } else {
                FAIL(-EINVAL, "TemplateProcessing item is neither SpecialToken nor Sequence");
            }
        }
        if (!seen_a)
            FAIL(-ENOTSUP, "TemplateProcessing single template without sequence A");
    } else if (strcmp(type, "BertProcessing") == 0 || strcmp(type, "RobertaProcessing") == 0) {
        const cJSON *cls = cJSON_GetObjectItemCaseSensitive(p, "cls");
        const cJSON *sep = cJSON_GetObjectItemCaseSensitive(p, "sep");
        uint32_t a, b;
        if (!cJSON_IsArray(cls) || !cJSON_IsArray(sep) || resolve_token(tok, cls->child, &a) < 0 ||
            resolve_token(tok, sep->child, &b) < 0)
            FAIL(-EINVAL, "%s needs cls and sep tokens with ids", type);
        wrap_push(w, true, a);
        wrap_push(w, false, b);
    } else {
        FAIL(-ENOTSUP, "post_processor type \"%.40s\" is not supported", type);
    }
    tok->n_wraps++;
    return 0;
}

static int load_config(kvr_tokenizer_t *tok, const cJSON *cfg, char *err, size_t err_len)
{
    if (!cfg)
        return 0;
    if (!cJSON_IsObject(cfg))
        FAIL(-EINVAL, "tokenizer_config.json is not an object");
    tok->remove_space = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cfg, "remove_space"));
    if (json_bool(cfg, "do_lowercase_and_remove_accent", false))
        FAIL(-ENOTSUP, "do_lowercase_and_remove_accent is not supported");
    const cJSON *cls = cJSON_GetObjectItemCaseSensitive(cfg, "tokenizer_class");
    if (cJSON_IsString(cls) &&
        (strcmp(cls->valuestring, "LlamaTokenizer") == 0 ||
         strcmp(cls->valuestring, "LlamaTokenizerFast") == 0) &&
        !json_bool(cfg, "legacy", true))
        FAIL(-ENOTSUP, "LlamaTokenizer with legacy=false (SentencePiece) is not supported");
    if (cJSON_IsString(cls) && strncmp(cls->valuestring, "MarianTokenizer", 15) == 0)
        FAIL(-ENOTSUP, "MarianTokenizer is not supported");
    return 0;
}

static int load_model(kvr_tokenizer_t *tok, const cJSON *model, char *err, size_t err_len)
{
    if (!cJSON_IsObject(model))
        FAIL(-EINVAL, "tokenizer.json has no model object");
    if (strcmp(json_type(model), "BPE") != 0)
        FAIL(-ENOTSUP, "model type \"%.40s\" is not supported (byte-level BPE only)",
             json_type(model));
    const cJSON *suffix = cJSON_GetObjectItemCaseSensitive(model, "end_of_word_suffix");
    if (cJSON_IsString(suffix) && suffix->valuestring[0])
        FAIL(-ENOTSUP, "BPE end_of_word_suffix is not supported");
    const cJSON *csuffix = cJSON_GetObjectItemCaseSensitive(model, "continuing_subword_suffix");
    if (cJSON_IsString(csuffix) && csuffix->valuestring[0])
        FAIL(-ENOTSUP, "BPE continuing_subword_suffix is not supported");
    /* Sized once from the counts: growing tables of a million entries dominates loading. */
    const cJSON *vocab = cJSON_GetObjectItemCaseSensitive(model, "vocab");
    const cJSON *merges = cJSON_GetObjectItemCaseSensitive(model, "merges");
    size_t n_vocab = cJSON_IsObject(vocab) ? (size_t)cJSON_GetArraySize(vocab) : 0;
    size_t n_merges = cJSON_IsArray(merges) ? (size_t)cJSON_GetArraySize(merges) : 0;
    if (kvr__tok_strmap_reserve(&tok->symbols, n_vocab + n_merges + 512) < 0 ||
        kvr__tok_pairmap_reserve(&tok->merges, n_merges) < 0)
        FAIL(-ENOMEM, "out of memory");
    tok->ignore_merges = json_bool(model, "ignore_merges", false);
    tok->byte_fallback = json_bool(model, "byte_fallback", false);
    int rc = load_vocab(tok, cJSON_GetObjectItemCaseSensitive(model, "vocab"), err, err_len);
    if (rc < 0)
        return rc;
    return load_merges(tok, cJSON_GetObjectItemCaseSensitive(model, "merges"), err, err_len);
}

int kvr__tok_load(kvr_tokenizer_t *tok, const char *json, size_t json_len, const char *config,
                  size_t config_len, char *err, size_t err_len)
{
    int rc;
    cJSON *cfg = NULL;
    cJSON *root = cJSON_ParseWithLength(json, json_len);
    if (!cJSON_IsObject(root)) {
        snprintf(err, err_len, "tokenizer.json is not a JSON object");
        rc = -EINVAL;
        goto done;
    }
    if (config) {
        cfg = cJSON_ParseWithLength(config, config_len);
        if (!cfg) {
            snprintf(err, err_len, "tokenizer_config.json is not JSON");
            rc = -EINVAL;
            goto done;
        }
    }
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "model");
    if ((rc = load_model(tok, model, err, err_len)) < 0)
        goto done;
    /* The reference takes the unknown token's id before the added tokens land. */
    tok->unk_id = KVR__TOK_NO_ID;
    const cJSON *unk = cJSON_GetObjectItemCaseSensitive(model, "unk_token");
    const char *us;
    size_t ulen;
    char raw[256];
    size_t raw_len;
    if (json_text(unk, &us, &ulen) && ulen <= sizeof raw &&
        kvr__tok_byte_level_decode(us, ulen, raw, &raw_len) == 0) {
        int64_t sym = kvr__tok_strmap_find(&tok->symbols, raw, raw_len);
        if (sym >= 0)
            tok->unk_id = tok->symbol_id[sym];
    }
    for (int b = 0; b < 256; b++) {
        char fb[8];
        snprintf(fb, sizeof fb, "<0x%02X>", b);
        int64_t sym = kvr__tok_strmap_find(&tok->symbols, fb, 6);
        tok->byte_fallback_id[b] = sym >= 0 ? tok->symbol_id[sym] : KVR__TOK_NO_ID;
    }
    if ((rc = load_added(tok, cJSON_GetObjectItemCaseSensitive(root, "added_tokens"), err,
                         err_len)) < 0)
        goto done;
    for (int b = 0; b < 256; b++) {
        char c = (char)b;
        bool inserted;
        if ((rc = kvr__tok_strmap_intern(&tok->symbols, &c, 1, &tok->byte_symbol[b], &inserted)) <
                0 ||
            (rc = set_symbol_id(tok, tok->byte_symbol[b], KVR__TOK_NO_ID)) < 0) {
            snprintf(err, err_len, "out of memory");
            goto done;
        }
    }
    if ((rc = load_normalizer(tok, cJSON_GetObjectItemCaseSensitive(root, "normalizer"), 0, err,
                              err_len)) < 0)
        goto done;
    bool byte_level = false;
    const cJSON *pre = cJSON_GetObjectItemCaseSensitive(root, "pre_tokenizer");
    if (pre && !cJSON_IsNull(pre) &&
        (rc = load_pretokenizer(tok, pre, 0, &byte_level, err, err_len)) < 0)
        goto done;
    if (!byte_level) {
        snprintf(err, err_len, "pre_tokenizer has no ByteLevel step (byte-level BPE only)");
        rc = -ENOTSUP;
        goto done;
    }
    if ((rc = load_postprocessor(tok, cJSON_GetObjectItemCaseSensitive(root, "post_processor"), 0,
                                 err, err_len)) < 0)
        goto done;
    rc = load_config(tok, cfg, err, err_len);
done:
    cJSON_Delete(root);
    cJSON_Delete(cfg);
    return rc;
}
