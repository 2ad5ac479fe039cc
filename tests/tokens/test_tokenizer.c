/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "tests/tokens/tiny_tokenizer.h"
#include "tokens/tokenizer.h"

static kvr_tokenizer_t *tiny(void)
{
    kvr_tokenizer_t *tok;
    char err[200];
    int rc = kvr_tokenizer_create_from_json(k_tiny_tokenizer_json, strlen(k_tiny_tokenizer_json),
                                            NULL, 0, &tok, err, sizeof err);
    cr_assert_eq(rc, 0, "%s", err);
    return tok;
}

static void expect(kvr_tokenizer_t *tok, const char *text, size_t len, bool special,
                   const uint32_t *want, size_t n)
{
    kvr_token_ids_t ids;
    kvr_token_ids_init(&ids);
    cr_assert_eq(kvr_tokenizer_encode(tok, text, len, special, &ids), 0);
    cr_assert_eq(ids.len, n, "'%.*s': %zu ids, want %zu", (int)len, text, ids.len, n);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(ids.ids[i], want[i], "'%.*s' id %zu: %u, want %u", (int)len, text, i,
                     ids.ids[i], want[i]);
    kvr_token_ids_close(&ids);
}

Test(tokenizer, merges_by_rank, .timeout = 5.)
{
    kvr_tokenizer_t *tok = tiny();
    expect(tok, "ab", 2, false, (uint32_t[]){2}, 1);
    expect(tok, "aab", 3, false, (uint32_t[]){0, 2}, 2);
    expect(tok, "ba", 2, false, (uint32_t[]){1, 0}, 2);
    expect(tok, "a a", 3, false, (uint32_t[]){0, 9}, 2);
    expect(tok, "", 0, false, NULL, 0);
    kvr_tokenizer_destroy(tok);
}

Test(tokenizer, invalid_utf8_reads_as_replacement_character, .timeout = 5.)
{
    kvr_tokenizer_t *tok = tiny();
    /* U+FFFD is EF BF BD: three byte symbols. A truncated sequence is one U+FFFD. */
    expect(tok, "\xff", 1, false, (uint32_t[]){4, 5, 6}, 3);
    expect(tok, "\xe2\x82", 2, false, (uint32_t[]){4, 5, 6}, 3);
    expect(tok, "\xed\xa0\x80", 3, false, (uint32_t[]){4, 5, 6, 4, 5, 6, 4, 5, 6}, 9);
    kvr_tokenizer_destroy(tok);
}

Test(tokenizer, added_tokens_strip_and_special_template, .timeout = 5.)
{
    kvr_tokenizer_t *tok = tiny();
    /* <s> strips the spaces on its left, <e> those on its right. */
    expect(tok, "a  <s>b", 7, false, (uint32_t[]){0, 7, 1}, 3);
    expect(tok, "a<e>  b", 7, false, (uint32_t[]){0, 8, 1}, 3);
    expect(tok, "ab", 2, true, (uint32_t[]){7, 2}, 2);
    size_t n;
    cr_assert_eq(kvr_tokenizer_count(tok, "a<s>", 4, true, &n), 0);
    cr_assert_eq(n, 3);
    kvr_tokenizer_destroy(tok);
}

static int load(const char *json, char *err, size_t err_len)
{
    kvr_tokenizer_t *tok = NULL;
    int rc = kvr_tokenizer_create_from_json(json, strlen(json), NULL, 0, &tok, err, err_len);
    kvr_tokenizer_destroy(tok);
    return rc;
}

#define PRE "\"pre_tokenizer\":{\"type\":\"ByteLevel\",\"use_regex\":false},"

Test(tokenizer, hostile_files_are_errors, .timeout = 5.)
{
    char err[200];
    cr_assert_eq(load("{", err, sizeof err), -EINVAL);
    cr_assert_eq(load("[]", err, sizeof err), -EINVAL);
    cr_assert_eq(load("{" PRE "\"model\":{\"type\":\"Unigram\"}}", err, sizeof err), -ENOTSUP);
    cr_assert_eq(load("{" PRE "\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":-1},\"merges\":[]}}",
                      err, sizeof err),
                 -EINVAL);
    cr_assert(strstr(err, "model.vocab") != NULL, "%s", err);
    cr_assert_eq(load("{" PRE "\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":1e12},\"merges\":[]}}",
                      err, sizeof err),
                 -EINVAL);
    cr_assert_eq(load("{" PRE "\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0.5},\"merges\":[]}}",
                      err, sizeof err),
                 -EINVAL);
    cr_assert_eq(
        load("{" PRE "\"model\":{\"type\":\"BPE\",\"vocab\":[],\"merges\":[]}}", err, sizeof err),
        -EINVAL);
    cr_assert_eq(load("{\"model\":{\"type\":\"BPE\",\"vocab\":{},\"merges\":[]}}", err, sizeof err),
                 -ENOTSUP);
    cr_assert_eq(load("{\"pre_tokenizer\":{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(\"},"
                      "\"behavior\":\"Isolated\"},\"model\":{\"type\":\"BPE\",\"vocab\":{},"
                      "\"merges\":[]}}",
                      err, sizeof err),
                 -EINVAL);
    cr_assert_eq(load("{" PRE "\"added_tokens\":[{\"id\":\"x\",\"content\":\"a\"}],"
                      "\"model\":{\"type\":\"BPE\",\"vocab\":{},\"merges\":[]}}",
                      err, sizeof err),
                 -EINVAL);
    cr_assert_eq(load("{" PRE "\"post_processor\":{\"type\":\"TemplateProcessing\",\"single\":["
                      "{\"SpecialToken\":{\"id\":\"<none>\"}},{\"Sequence\":{\"id\":\"A\"}}]},"
                      "\"model\":{\"type\":\"BPE\",\"vocab\":{},\"merges\":[]}}",
                      err, sizeof err),
                 -EINVAL);
    /* Merges naming strings outside the byte alphabet, or missing parts, are skipped. */
    cr_assert_eq(load("{" PRE "\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0},"
                      "\"merges\":[\"\\u4e00 a\",\"a\",[\"a\"],[1,2],\"a  \"]}}",
                      err, sizeof err),
                 0, "%s", err);
}

Test(tokenizer, missing_byte_without_unknown_token_is_an_error, .timeout = 5.)
{
    const char *json = "{" PRE "\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0},\"merges\":[]}}";
    kvr_tokenizer_t *tok;
    char err[200];
    cr_assert_eq(kvr_tokenizer_create_from_json(json, strlen(json), NULL, 0, &tok, err, sizeof err),
                 0, "%s", err);
    kvr_token_ids_t ids;
    kvr_token_ids_init(&ids);
    cr_assert_eq(kvr_tokenizer_encode(tok, "ab", 2, false, &ids), -ENOENT);
    cr_assert_eq(ids.len, 0);
    kvr_token_ids_close(&ids);
    kvr_tokenizer_destroy(tok);
}

Test(tokenizer, missing_directory_is_an_error, .timeout = 5.)
{
    kvr_tokenizer_t *tok;
    char err[200];
    cr_assert_eq(kvr_tokenizer_create("/nonexistent-kvr-dir", &tok, err, sizeof err), -ENOENT);
    cr_assert(strstr(err, "tokenizer.json") != NULL);
}

/* Split behaviours; the expected ids are the reference's for the same file. */
static kvr_tokenizer_t *split_tokenizer(const char *split)
{
    char json[1024];
    snprintf(json, sizeof json,
             "{\"pre_tokenizer\":{\"type\":\"Sequence\",\"pretokenizers\":[%s,"
             "{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"use_regex\":false}]},"
             "\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0,\"b\":1,\"c\":2,\"d\":3,\"1\":4,"
             "\"2\":5,\" \":6,\"\\u0120\":7},\"merges\":[]}}",
             split);
    kvr_tokenizer_t *tok;
    char err[200];
    cr_assert_eq(kvr_tokenizer_create_from_json(json, strlen(json), NULL, 0, &tok, err, sizeof err),
                 0, "%s", err);
    return tok;
}

Test(tokenizer, split_modes_as_the_reference, .timeout = 5.)
{
    kvr_tokenizer_t *removed = split_tokenizer(
        "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\d\"},\"behavior\":\"Removed\"}");
    expect(removed, "ab12cd", 6, false, (uint32_t[]){0, 1, 2, 3}, 4);
    expect(removed, "a b1", 4, false, (uint32_t[]){0, 7, 1}, 3);
    kvr_tokenizer_destroy(removed);
    kvr_tokenizer_t *invert = split_tokenizer(
        "{\"type\":\"Split\",\"pattern\":{\"Regex\":"
        "\"[a-z]+\"},\"behavior\":\"Isolated\",\"invert\":true}");
    expect(invert, "a b1", 4, false, (uint32_t[]){0, 1}, 2);
    kvr_tokenizer_destroy(invert);
    /* A String pattern with Removed keeps its delimiters in the reference. */
    kvr_tokenizer_t *string = split_tokenizer(
        "{\"type\":\"Split\",\"pattern\":{\"String\":\"1\"},\"behavior\":\"Removed\"}");
    expect(string, "1a1", 3, false, (uint32_t[]){4, 0, 4}, 3);
    kvr_tokenizer_destroy(string);
    kvr_tokenizer_t *merged = NULL;
    const char *json = "{\"pre_tokenizer\":{\"type\":\"Split\",\"pattern\":{\"Regex\":\"a\"},"
                       "\"behavior\":\"MergedWithPrevious\"},\"model\":{\"type\":\"BPE\","
                       "\"vocab\":{},\"merges\":[]}}";
    cr_assert_eq(kvr_tokenizer_create_from_json(json, strlen(json), NULL, 0, &merged, NULL, 0),
                 -ENOTSUP);
}
