/* SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "common/buf.h"
#include "tests/tokens/tiny_tokenizer.h"
#include "tokens/tokenizer.h"
#include "tokens/turn_cache.h"

static kvr_tokenizer_t *tiny(void)
{
    kvr_tokenizer_t *tok;
    char err[200];
    int rc = kvr_tokenizer_create_from_json(k_tiny_tokenizer_json, strlen(k_tiny_tokenizer_json),
                                            NULL, 0, &tok, err, sizeof err);
    cr_assert_eq(rc, 0, "%s", err);
    return tok;
}

/* The cache's ids for text are the whole text's, id for id. */
static void same_ids(kvr_turn_cache_t *c, const kvr_tokenizer_t *tok, const char *text, size_t len)
{
    kvr_token_ids_t want, got;
    kvr_token_ids_init(&want);
    kvr_token_ids_init(&got);
    cr_assert_eq(kvr_tokenizer_encode(tok, text, len, false, &want), 0);
    cr_assert_eq(kvr_turn_cache_encode(c, tok, text, len, &got), 0);
    cr_assert_eq(got.len, want.len, "'%.*s': %zu ids, want %zu", (int)len, text, got.len, want.len);
    for (size_t i = 0; i < want.len; i++)
        cr_assert_eq(got.ids[i], want.ids[i], "'%.*s' id %zu: %u, want %u", (int)len, text, i,
                     got.ids[i], want.ids[i]);
    kvr_token_ids_close(&want);
    kvr_token_ids_close(&got);
}

/* Turns in the tiny model's alphabet (a, b, 1, space; invalid bytes read as U+FFFD):
 * <s> strips to its left, <e> to its right. A text with invalid UTF-8 is not cut. */
static const char *const k_turns[] = {
    "<s>ab a<e>  ", "<s> a ab<e> ",     "<s><s>ab<e><e> b", "a  <s> ab<e>",
    "<s>1 ab <e>",  "<s>ab<s> <e>a<e>", "<s>1 1 ab<e>   ",  "<s>b<e>",
};

Test(turn_cache, a_conversation_gives_the_whole_texts_ids_and_reuses_its_turns, .timeout = 10.)
{
    kvr_tokenizer_t *tok = tiny();
    kvr_turn_cache_t *c;
    cr_assert_eq(kvr_turn_cache_create(1 << 20, &c), 0);
    kvr_buf_t text = KVR_BUF_INIT;
    kvr_turn_cache_stats_t st, before;
    kvr_turn_cache_stats(c, &before);
    for (size_t round = 0; round < 3; round++) {
        kvr_buf_reset(&text);
        for (size_t t = 0; t < sizeof k_turns / sizeof k_turns[0]; t++) {
            kvr_buf_append_str(&text, k_turns[(t + round) % (sizeof k_turns / sizeof k_turns[0])]);
            size_t len = text.len;
            kvr_buf_append_str(&text, "<s>a"); /* the turn's open end, not kept next turn */
            same_ids(c, tok, text.base, text.len);
            text.len = len;
            kvr_turn_cache_stats(c, &st);
            if (t > 0) /* the earlier turns came from the cache */
                cr_assert_gt(st.hits, before.hits, "round %zu turn %zu", round, t);
            before = st;
        }
    }
    kvr_turn_cache_stats(c, &st);
    cr_assert_gt(st.hit_text_bytes, st.miss_text_bytes);
    cr_assert_gt(st.entries, 0);
    kvr_buf_close(&text);
    kvr_turn_cache_destroy(c);
    kvr_tokenizer_destroy(tok);
}

Test(turn_cache, cuts_never_split_a_strip_and_odd_texts_still_match, .timeout = 10.)
{
    kvr_tokenizer_t *tok = tiny();
    kvr_turn_cache_t *c;
    cr_assert_eq(kvr_turn_cache_create(1 << 20, &c), 0);
    static const char *const texts[] = {
        "ab<e> ab",
        "ab<e>   <s> ab",
        "<s> <s>  a",
        "<s>",
        "<e>",
        "",
        " ",
        "<s>ab <s>",
        "ab<s>\xff\xfe<e> a",
        "<s>a\xe2\x80<e>b",
        "<s>a<e><s>  <e>",
    };
    for (size_t twice = 0; twice < 2; twice++)
        for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
            same_ids(c, tok, texts[i], strlen(texts[i]));
    kvr_turn_cache_destroy(c);
    kvr_tokenizer_destroy(tok);
}

Test(turn_cache, memory_stays_within_its_bound, .timeout = 10.)
{
    kvr_tokenizer_t *tok = tiny();
    kvr_turn_cache_t *c;
    cr_assert_eq(kvr_turn_cache_create(2048, &c), 0);
    char text[128];
    for (int i = 0; i < 500; i++) {
        size_t n = (size_t)snprintf(text, sizeof text, "<s>ab ");
        for (int bit = 0; bit < 10; bit++) /* a text per i, in the tiny model's alphabet */
            text[n++] = (i >> bit) & 1 ? 'a' : 'b';
        n += (size_t)snprintf(text + n, sizeof text - n, " a<e><s>b 1<e>");
        same_ids(c, tok, text, n);
        kvr_turn_cache_stats_t st;
        kvr_turn_cache_stats(c, &st);
        cr_assert_leq(st.bytes, 2048);
    }
    kvr_turn_cache_stats_t st;
    kvr_turn_cache_stats(c, &st);
    cr_assert_gt(st.evictions, 0);
    kvr_turn_cache_destroy(c);
    kvr_tokenizer_destroy(tok);
}

Test(turn_cache, no_cache_is_the_plain_encode, .timeout = 5.)
{
    kvr_tokenizer_t *tok = tiny();
    kvr_token_ids_t ids;
    kvr_token_ids_init(&ids);
    cr_assert_eq(kvr_turn_cache_encode(NULL, tok, "<s>ab", 5, &ids), 0);
    cr_assert_eq(ids.len, 2);
    kvr_token_ids_close(&ids);
    kvr_tokenizer_destroy(tok);
}
