/* SPDX-License-Identifier: Apache-2.0 */
/* A tiny synthetic tokenizer.json: byte-level BPE with a Qwen-style split regex. */
#ifndef KVR_TESTS_TOKENS_TINY_TOKENIZER_H
#define KVR_TESTS_TOKENS_TINY_TOKENIZER_H

static const char k_tiny_tokenizer_json[] =
    "{\"version\":\"1.0\",\"added_tokens\":["
    "{\"id\":7,\"content\":\"<s>\",\"single_word\":false,\"lstrip\":true,\"rstrip\":false,"
    "\"normalized\":false,\"special\":true},"
    "{\"id\":8,\"content\":\"<e>\",\"single_word\":false,\"lstrip\":false,\"rstrip\":true,"
    "\"normalized\":false,\"special\":true}],"
    "\"normalizer\":{\"type\":\"NFC\"},"
    "\"pre_tokenizer\":{\"type\":\"Sequence\",\"pretokenizers\":["
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\\\r\\\\n\\\\p{L}"
    "\\\\p{N}]?\\\\p{L}+|\\\\p{N}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n]*|\\\\s*[\\\\r\\\\n]+|"
    "\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},"
    "{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":false,"
    "\"use_regex\":false}]},"
    "\"post_processor\":{\"type\":\"TemplateProcessing\",\"single\":["
    "{\"SpecialToken\":{\"id\":\"<s>\",\"type_id\":0}},{\"Sequence\":{\"id\":\"A\",\"type_id\":0}}]},"
    "\"model\":{\"type\":\"BPE\",\"ignore_merges\":false,"
    "\"vocab\":{\"a\":0,\"b\":1,\"ab\":2,\"\\u0120\":3,\"\\u00ef\":4,\"\\u00bf\":5,\"\\u00bd\":6,"
    "\"\\u0120a\":9,\"1\":10},"
    "\"merges\":[\"a b\",[\"\\u0120\",\"a\"]]}}";

#endif
