/* SPDX-License-Identifier: Apache-2.0 */
/*
 * router/pd.c's bodies: what the client sent goes on to the engines as written, only the
 * protocol's members changed. Engines read JSON with Python, whose integers are exact, so a
 * number printed back from cJSON's double would change what the client asked for.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "router/pd.h"

static const char client[] = "{\"model\":\"m\",\"seed\":18446744073709551615,\"temperature\":1.0,"
                             "\"logit_bias\":{\"50256\":-100},\"top_p\":0.95,\"max_tokens\":64,"
                             "\"messages\":[{\"role\":\"user\",\"content\":\"2 + 2 = 4e0\"}]}";

static void expect_client_numbers(const kvr_buf_t *out)
{
    cr_assert_not_null(out->base);
    char *text = strndup(out->base, out->len);
    cr_expect_not_null(strstr(text, "\"seed\":18446744073709551615"), "%s", text);
    cr_expect_not_null(strstr(text, "\"temperature\":1.0"), "%s", text);
    cr_expect_not_null(strstr(text, "\"logit_bias\":{\"50256\":-100}"), "%s", text);
    cr_expect_not_null(strstr(text, "\"top_p\":0.95"), "%s", text);
    cr_expect_not_null(strstr(text, "\"content\":\"2 + 2 = 4e0\""), "%s", text);
    free(text);
}

Test(pd_body, the_vllm_prefill_keeps_the_clients_numbers)
{
    kvr_buf_t out = KVR_BUF_INIT;
    cr_assert_null(kvr_pd_vllm_prefill_body(client, strlen(client), &out));
    expect_client_numbers(&out);
    char *text = strndup(out.base, out.len);
    cr_expect_not_null(strstr(text, "\"max_tokens\":1"), "the protocol's own members: %s", text);
    cr_expect_null(strstr(text, "\"max_tokens\":64"), "%s", text);
    free(text);
    kvr_buf_close(&out);
}

Test(pd_body, the_vllm_decode_keeps_the_clients_numbers_and_the_engines_params)
{
    static const char answer[] = "{\"id\":\"x\",\"kv_transfer_params\":{\"remote_engine_id\":\"e\","
                                 "\"remote_block_ids\":[9007199254740993,2],\"remote_host\":\"h\","
                                 "\"remote_port\":5600}}";
    kvr_buf_t out = KVR_BUF_INIT;
    cr_assert_null(kvr_pd_vllm_decode_body(client, strlen(client), answer, strlen(answer), &out));
    expect_client_numbers(&out);
    char *text = strndup(out.base, out.len);
    cr_expect_not_null(strstr(text, "\"remote_block_ids\":[9007199254740993,2]"), "%s", text);
    free(text);
    kvr_buf_close(&out);
}

Test(pd_body, the_sglang_body_keeps_the_clients_numbers)
{
    kvr_pd_bootstrap_t b = {.host = "10.0.0.1", .port = 8998, .room = 42};
    kvr_buf_t out = KVR_BUF_INIT;
    cr_assert_null(kvr_pd_sglang_body(client, strlen(client), &b, &out));
    expect_client_numbers(&out);
    char *text = strndup(out.base, out.len);
    cr_expect_not_null(strstr(text, "\"bootstrap_room\":42"), "%s", text);
    free(text);
    kvr_buf_close(&out);
}
