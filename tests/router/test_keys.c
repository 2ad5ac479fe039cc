/* SPDX-License-Identifier: Apache-2.0 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/prefix_hash.h"
#include "router/keys.h"

/* Criterion copies parameters into the test process: strings live inside the struct. */
typedef struct key_case_s {
    char body[256];
    char header[16]; /* X-Session-ID value, "" = absent */
    char order[32];  /* --session-keys, "" = default */
    int rc;
    char session[24]; /* expected, "" = none */
    char text[32];    /* expected routing text (when rc == 0) */
    unsigned max_tokens;
    bool stream;
} key_case_t;

static key_case_t cases[] = {
    {"{\"messages\":[{\"role\":\"system\",\"content\":\"You are.\"},{\"role\":\"user\",\"content\":\"Hi\"}]}",
     "", "", 0, "", "You are.Hi", 0, false},
    {"{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}},{\"type\":\"text\",\"text\":\"b\"}]}]}",
     "", "", 0, "", "ab", 0, false},
    {"{\"messages\":[{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[]},{\"role\":\"user\",\"content\":\"q\"}]}",
     "", "", 0, "", "q", 0, false},
    {"{\"prompt\":\"once upon\",\"max_tokens\":7,\"stream\":true}", "", "", 0, "", "once upon", 7,
     true},
    {"{\"prompt\":[\"a\",\"b\"]}", "", "", 0, "", "ab", 0, false},
    {"{\"prompt\":[1,2,3]}", "", "", 0, "", "", 0, false},
    {"{\"text\":\"native\",\"sampling_params\":{\"max_new_tokens\":9}}", "", "", 0, "", "native", 9,
     false},
    {"{\"prompt\":\"p\",\"max_completion_tokens\":5,\"max_tokens\":3}", "", "", 0, "", "p", 5,
     false},
    /* session sources and their order */
    {"{\"prompt\":\"p\",\"session_id\":\"s-body\",\"user\":\"u\"}", "s-hdr", "", 0, "s-hdr", "p", 0,
     false},
    {"{\"prompt\":\"p\",\"session_id\":\"s-body\",\"user\":\"u\"}", "", "", 0, "s-body", "p", 0,
     false},
    {"{\"prompt\":\"p\",\"user\":\"u\"}", "", "", 0, "u", "p", 0, false},
    {"{\"prompt\":\"p\",\"session_id\":42}", "", "", 0, "42", "p", 0, false},
    {"{\"prompt\":\"p\",\"session_id\":\"\",\"user\":\"u\"}", "", "", 0, "u", "p", 0, false},
    {"{\"prompt\":\"p\",\"session_id\":\"s\",\"user\":\"u\"}", "h", "user,header", 0, "u", "p", 0,
     false},
    {"{\"prompt\":\"p\",\"session_id\":\"s\"}", "h", "user", 0, "", "p", 0, false},
    /* numeric ids: whole numbers a double holds exactly; anything else is a clear 400 */
    {"{\"prompt\":\"p\",\"session_id\":-7}", "", "", 0, "-7", "p", 0, false},
    {"{\"prompt\":\"p\",\"user\":3e3}", "", "", 0, "3000", "p", 0, false},
    {"{\"prompt\":\"p\",\"session_id\":9007199254740991}", "", "", 0, "9007199254740991", "p", 0,
     false},
    {"{\"prompt\":\"p\",\"session_id\":1e19}", "", "", -EINVAL, "", "", 0, false},
    {"{\"prompt\":\"p\",\"session_id\":-1e19}", "", "", -EINVAL, "", "", 0, false},
    {"{\"prompt\":\"p\",\"session_id\":9223372036854775808}", "", "", -EINVAL, "", "", 0, false},
    {"{\"prompt\":\"p\",\"session_id\":9007199254740993}", "", "", -EINVAL, "", "", 0, false},
    {"{\"prompt\":\"p\",\"session_id\":1e400}", "", "", -EINVAL, "", "", 0, false},
    {"{\"prompt\":\"p\",\"session_id\":1.5}", "", "", -EINVAL, "", "", 0, false},
    {"{\"prompt\":\"p\",\"user\":1e19}", "", "", -EINVAL, "", "", 0, false},
    {"{\"prompt\":\"p\",\"session_id\":1e19}", "h", "", 0, "h", "p", 0,
     false}, /* the header wins first */
    /* max_tokens beyond 32 bits, or not a usable count, never wraps */
    {"{\"prompt\":\"p\",\"max_tokens\":1e19}", "", "", 0, "", "p", 4294967295u, false},
    {"{\"prompt\":\"p\",\"max_tokens\":1e400}", "", "", 0, "", "p", 4294967295u, false},
    {"{\"prompt\":\"p\",\"max_tokens\":-5}", "", "", 0, "", "p", 0, false},
    {"{\"prompt\":\"p\",\"max_tokens\":0.5}", "", "", 0, "", "p", 0, false},
    /* malformed */
    {"{\"messages\":[", "", "", -EINVAL, "", "", 0, false},
    {"[1,2]", "", "", -EINVAL, "", "", 0, false},
    {"", "", "", -EINVAL, "", "", 0, false},
    {"{\"messages\":\"hi\"}", "", "", -EINVAL, "", "", 0, false},
    {"{\"messages\":[{\"content\":5}]}", "", "", -EINVAL, "", "", 0, false},
    {"{\"prompt\":{}}", "", "", -EINVAL, "", "", 0, false},
    {"{\"messages\":[{\"content\":\"x\"}]} trailing", "", "", -EINVAL, "", "", 0, false},
    {"{\"messages\":[{\"content\":\"x\"}]}", "", "", 0, "", "x", 0, false},
};

ParameterizedTestParameters(keys, extract)
{
    return cr_make_param_array(key_case_t, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(key_case_t *c, keys, extract, .timeout = 5.)
{
    kvr_keys_config_t cfg;
    kvr_keys_config_defaults(&cfg);
    if (c->order[0])
        cr_assert_eq(kvr_keys_config_parse(&cfg, c->order), 0);
    kvr_route_keys_t k;
    char err[256] = "";
    int rc = kvr_keys_extract(&cfg, c->body, strlen(c->body), c->header[0] ? c->header : NULL, &k,
                              err, sizeof err);
    cr_assert_eq(rc, c->rc, "body %s: rc %d (%s)", c->body, rc, err);
    if (rc < 0) {
        cr_assert_neq(err[0], '\0', "a 400 needs a reason");
        return;
    }
    if (c->session[0])
        cr_assert_str_eq(k.session_id, c->session);
    else
        cr_assert_null(k.session_id, "unexpected session %s", k.session_id);
    cr_assert_eq(k.text_len, strlen(c->text));
    cr_assert_str_eq(k.text, c->text);
    cr_assert_eq(k.max_tokens, c->max_tokens);
    cr_assert_eq(k.stream, c->stream);
    cr_assert_geq(k.prompt_tokens, 1);
    kvr_keys_free(&k);
    kvr_keys_free(&k); /* twice is harmless */
}

Test(keys, block_hashes_match_prefix_hash_and_tokens, .timeout = 5.)
{
    char text[1000];
    memset(text, 'x', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    char body[1200];
    snprintf(body, sizeof body, "{\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}]}", text);
    kvr_keys_config_t cfg;
    kvr_keys_config_defaults(&cfg);
    kvr_route_keys_t k;
    char err[128];
    cr_assert_eq(kvr_keys_extract(&cfg, body, strlen(body), NULL, &k, err, sizeof err), 0);
    cr_assert_eq(k.n_blocks, 999 / KVR_PREFIX_BLOCK_BYTES);
    uint64_t want[32];
    size_t n = kvr_prefix_hash_blocks(text, 999, want, 32);
    cr_assert_eq(n, k.n_blocks);
    cr_assert_arr_eq(k.block_hashes, want, n * sizeof(uint64_t));
    cr_assert_eq(k.prompt_tokens, 999 / KVR_BYTES_PER_TOKEN);
    kvr_keys_free(&k);
}

Test(keys, same_prefix_same_leading_hashes, .timeout = 5.)
{
    const char *a =
        "{\"messages\":[{\"role\":\"system\",\"content\":\"" /* 128 bytes shared */
        "0123456789012345678901234567890123456789012345678901234567890123"
        "0123456789012345678901234567890123456789012345678901234567890123\"},"
        "{\"role\":\"user\",\"content\":\"first question goes here and is long enough to fill a block!! and more\"}]}";
    const char *b =
        "{\"messages\":[{\"role\":\"system\",\"content\":\""
        "0123456789012345678901234567890123456789012345678901234567890123"
        "0123456789012345678901234567890123456789012345678901234567890123\"},"
        "{\"role\":\"user\",\"content\":\"another question, different text, also long enough for one more block\"}]}";
    kvr_keys_config_t cfg;
    kvr_keys_config_defaults(&cfg);
    kvr_route_keys_t ka, kb;
    char err[128];
    cr_assert_eq(kvr_keys_extract(&cfg, a, strlen(a), NULL, &ka, err, sizeof err), 0);
    cr_assert_eq(kvr_keys_extract(&cfg, b, strlen(b), NULL, &kb, err, sizeof err), 0);
    cr_assert_geq(ka.n_blocks, 3);
    cr_assert_geq(kb.n_blocks, 3);
    cr_assert_eq(ka.block_hashes[0], kb.block_hashes[0]);
    cr_assert_eq(ka.block_hashes[1], kb.block_hashes[1]);
    cr_assert_neq(ka.block_hashes[2], kb.block_hashes[2]);
    kvr_keys_free(&ka);
    kvr_keys_free(&kb);
}

Test(keys, config_parse_rejects_unknown_sources, .timeout = 5.)
{
    kvr_keys_config_t cfg;
    cr_assert_eq(kvr_keys_config_parse(&cfg, "header,cookie"), -EINVAL);
    cr_assert_eq(kvr_keys_config_parse(&cfg, "session_id"), 0);
    cr_assert_eq(cfg.n_order, 1);
    cr_assert_eq(cfg.order[0], KVR_SESSION_SRC_SESSION_ID);
    cr_assert_eq(kvr_keys_config_parse(&cfg, ""), 0);
    cr_assert_eq(cfg.n_order, 0);
}

Test(keys, overlong_session_id_is_rejected, .timeout = 5.)
{
    char id[400];
    memset(id, 's', sizeof id - 1);
    id[sizeof id - 1] = '\0';
    kvr_keys_config_t cfg;
    kvr_keys_config_defaults(&cfg);
    kvr_route_keys_t k;
    char err[128];
    const char *body = "{\"prompt\":\"p\"}";
    cr_assert_eq(kvr_keys_extract(&cfg, body, strlen(body), id, &k, err, sizeof err), -EINVAL);
}

/* The parse arena serves only kvr_keys_extract: a document parsed or built elsewhere survives the next body. */
Test(keys, other_cjson_documents_outlive_the_next_body, .timeout = 5.)
{
    kvr_keys_config_t cfg;
    kvr_keys_config_defaults(&cfg);
    kvr_route_keys_t k;
    char err[128];
    static const char body[] =
        "{\"prompt\":\"first body, long enough to fill some of the arena\",\"user\":\"u1\"}";
    cr_assert_eq(kvr_keys_extract(&cfg, body, sizeof body - 1, NULL, &k, err, sizeof err), 0, "%s",
                 err);
    kvr_keys_free(&k);

    cJSON *kept = cJSON_Parse("{\"data\":[{\"id\":\"model-a\"},{\"id\":\"model-b\"}]}");
    cJSON *built = cJSON_CreateObject();
    cJSON_AddStringToObject(built, "id", "engine-1");
    cr_assert_not_null(kept);

    static const char other[] =
        "{\"prompt\":\"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\","
        "\"session_id\":\"YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYY\"}";
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(kvr_keys_extract(&cfg, other, sizeof other - 1, NULL, &k, err, sizeof err), 0,
                     "%s", err);
        kvr_keys_free(&k);
    }
    char *text = cJSON_PrintUnformatted(kept);
    cr_expect_str_eq(text, "{\"data\":[{\"id\":\"model-a\"},{\"id\":\"model-b\"}]}");
    cJSON_free(text);
    cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(built, "id")->valuestring, "engine-1");
    cJSON_Delete(kept);
    cJSON_Delete(built);
}

/*
 * Keys the engine reads as well: a body the router and a Python engine could
 * read two ways (cJSON keeps the first duplicate, json.loads the last;
 * cJSON's strings end at \u0000) is a 400 naming what is ambiguous. What the
 * router does not route on stays the engine's business.
 */
typedef struct ambiguous_case_s {
    char body[160];
    char order[24]; /* --session-keys, "" = default */
    int rc;
    char expect[64]; /* rc < 0: part of the reason; rc == 0: the model ("" = none) */
} ambiguous_case_t;

static ambiguous_case_t ambiguous_cases[] = {
    {"{\"model\":\"a\",\"model\":\"b\",\"prompt\":\"p\"}", "", -EINVAL, "'model' appears twice"},
    {"{\"model\":\"m\\u0000x\",\"prompt\":\"p\"}", "", -EINVAL, "'model' holds \\u0000"},
    {"{\"model\\u0000x\":\"a\",\"prompt\":\"p\"}", "", -EINVAL, "'model' is a key holding \\u0000"},
    {"{\"model\\u0000\":\"a\",\"model\":\"b\",\"prompt\":\"p\"}", "", -EINVAL, "'model'"},
    {"{\"model\":\"m\xff\",\"prompt\":\"p\"}", "", -EINVAL, "'model' is not valid UTF-8"},
    {"{\"model\":\"\xc0\xaf\",\"prompt\":\"p\"}", "", -EINVAL, "'model' is not valid UTF-8"},
    {"{\"model\":\"\\ud800\",\"prompt\":\"p\"}", "", -EINVAL,
     "malformed JSON"}, /* lone surrogate */
    {"{\"model\":\"\\udc00x\",\"prompt\":\"p\"}", "", -EINVAL, "malformed JSON"},
    {"{\"prompt\":\"p\",\"session_id\":\"a\",\"session_id\":\"b\"}", "", -EINVAL,
     "'session_id' appears twice"},
    {"{\"prompt\":\"p\",\"session_id\":\"a\\u0000b\"}", "", -EINVAL, "'session_id' holds"},
    {"{\"prompt\":\"p\",\"user\":\"u1\",\"user\":\"u2\"}", "", -EINVAL, "'user' appears twice"},
    {"{\"prompt\":\"p\",\"user\":\"u\\u0000\"}", "", -EINVAL, "'user' holds"},
    {"{\"prompt\":\"p\",\"user\":\"\xfe\"}", "", -EINVAL, "'user' is not valid UTF-8"},
    {"{\"prompt\":\"a\",\"prompt\":\"b\"}", "", -EINVAL, "'prompt' appears twice"},
    {"{\"prompt\":\"a\\u0000b\"}", "", -EINVAL, "'prompt' holds"},
    {"{\"prompt\":[\"a\",\"b\\u0000\"]}", "", -EINVAL, "'prompt[1]' holds"},
    {"{\"text\":\"a\",\"text\":\"b\"}", "", -EINVAL, "'text' appears twice"},
    {"{\"messages\":[],\"messages\":[{\"content\":\"x\"}]}", "", -EINVAL,
     "'messages' appears twice"},
    {"{\"messages\":[{\"content\":\"a\",\"content\":\"b\"}]}", "", -EINVAL,
     "'messages[0].content' appears twice"},
    {"{\"messages\":[{\"content\":\"q\"},{\"content\":\"a\\u0000\"}]}", "", -EINVAL,
     "'messages[1].content' holds"},
    {"{\"messages\":[{\"content\":[{\"text\":\"a\",\"text\":\"b\"}]}]}", "", -EINVAL,
     "'messages[0].content[0].text' appears"},
    {"{\"messages\":[{\"content\":[{\"text\":\"x\"},{\"text\":\"\\u0000\"}]}]}", "", -EINVAL,
     "'messages[0].content[1].text' holds"},
    {"{\"prompt\":\"p\",\"stream\":false,\"stream\":true}", "", -EINVAL, "'stream' appears twice"},
    {"{\"prompt\":\"p\",\"max_tokens\":1,\"max_tokens\":9}", "", -EINVAL, "'max_tokens' appears"},
    {"{\"text\":\"p\",\"sampling_params\":{\"max_new_tokens\":1,\"max_new_tokens\":2}}", "",
     -EINVAL, "'sampling_params.max_new_tokens'"},
    /* Nothing to disagree on: an escaped backslash, and what is not routed on. */
    {"{\"model\":\"m\\\\u0000x\",\"prompt\":\"p\"}", "", 0, "m\\u0000x"},
    {"{\"x\":\"\\u0000\",\"y\":[\"\\u0000\",{\"k\\u0000\":1}],\"model\":\"m\",\"prompt\":\"p\"}",
     "", 0, "m"},
    {"{\"tools\":1,\"tools\":2,\"model\":\"m\",\"messages\":[{\"role\":\"u\",\"role\":\"v\",\"content\":\"x\"}]}",
     "", 0, "m"},
    {"{\"model\":\"caf\xc3\xa9\",\"prompt\":\"p\",\"temperature\":\"\\u0000\"}", "", 0,
     "caf\xc3\xa9"},
    {"{\"prompt\":\"p\",\"user\":\"a\",\"user\":\"b\"}", "header", 0, ""}, /* user is not read */
};

ParameterizedTestParameters(keys, ambiguous_routing_keys_are_a_400)
{
    return cr_make_param_array(ambiguous_case_t, ambiguous_cases,
                               sizeof ambiguous_cases / sizeof ambiguous_cases[0]);
}

ParameterizedTest(ambiguous_case_t *c, keys, ambiguous_routing_keys_are_a_400, .timeout = 5.)
{
    kvr_keys_config_t cfg;
    kvr_keys_config_defaults(&cfg);
    if (c->order[0])
        cr_assert_eq(kvr_keys_config_parse(&cfg, c->order), 0);
    kvr_route_keys_t k;
    char err[256] = "";
    int rc = kvr_keys_extract(&cfg, c->body, strlen(c->body), NULL, &k, err, sizeof err);
    cr_assert_eq(rc, c->rc, "body %s: rc %d (%s)", c->body, rc, err);
    if (rc < 0) {
        cr_assert(strstr(err, c->expect), "body %s: reason '%s', expected '%s'", c->body, err,
                  c->expect);
        return;
    }
    if (c->expect[0])
        cr_assert_str_eq(k.model, c->expect);
    else
        cr_assert_null(k.model);
    kvr_keys_free(&k);
}

/* A raw NUL byte inside a string: cJSON copies it, and its C string ends there. */
Test(keys, a_raw_nul_inside_a_routed_string_is_a_400, .timeout = 5.)
{
    static const char body[] = "{\"model\":\"m\0x\",\"prompt\":\"p\"}";
    static const char elsewhere[] = "{\"model\":\"m\",\"note\":\"a\0b\",\"prompt\":\"p\"}";
    kvr_keys_config_t cfg;
    kvr_keys_config_defaults(&cfg);
    kvr_route_keys_t k;
    char err[256] = "";
    cr_assert_eq(kvr_keys_extract(&cfg, body, sizeof body - 1, NULL, &k, err, sizeof err), -EINVAL);
    cr_expect(strstr(err, "'model' holds"), "%s", err);
    int rc = kvr_keys_extract(&cfg, elsewhere, sizeof elsewhere - 1, NULL, &k, err, sizeof err);
    if (rc ==
        0) { /* cJSON takes raw control bytes; what is not routed on is the engine's to judge */
        cr_expect_str_eq(k.model, "m");
        kvr_keys_free(&k);
    }
}

/* Many \u0000 strings the router does not read: each read key still maps to its own string. */
Test(keys, many_nul_strings_elsewhere_leave_the_routed_keys_alone, .timeout = 5.)
{
    char *body = malloc(64 * 1024);
    for (int bad_model = 0; bad_model < 2; bad_model++) {
        size_t n = (size_t)sprintf(body, "{\"a\":[");
        for (int i = 0; i < 500; i++)
            n += (size_t)sprintf(body + n, "%s\"\\u0000\"", i ? "," : "");
        n += (size_t)sprintf(body + n, "],\"messages\":[");
        for (int i = 0; i < 200; i++)
            n += (size_t)sprintf(body + n,
                                 "%s{\"n\\u0000\":\"\\u0000\",\"content\":\"x\",\"k\":\"\\u0000\"}",
                                 i ? "," : "");
        n += (size_t)sprintf(body + n, "],\"model\":\"%s\"}", bad_model ? "m\\u0000" : "m");
        kvr_keys_config_t cfg;
        kvr_keys_config_defaults(&cfg);
        kvr_route_keys_t k;
        char err[256] = "";
        int rc = kvr_keys_extract(&cfg, body, n, NULL, &k, err, sizeof err);
        if (bad_model) {
            cr_expect_eq(rc, -EINVAL);
            cr_expect(strstr(err, "'model' holds"), "%s", err);
            continue;
        }
        cr_assert_eq(rc, 0, "%s", err);
        cr_expect_str_eq(k.model, "m");
        cr_expect_eq(k.text_len, 200);
        kvr_keys_free(&k);
    }
    free(body);
}
