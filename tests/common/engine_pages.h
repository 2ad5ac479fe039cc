/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_COMMON_ENGINE_PAGES_H
#define KVR_TESTS_COMMON_ENGINE_PAGES_H

/*
 * /metrics pages shaped like the ones real engines serve (names, label sets,
 * HELP/TYPE lines, histograms, counters with _created), cut down to a few
 * families each. Values are chosen so sums and maxima are distinguishable.
 */

/* vLLM V1 with two data-parallel engines ("engine" label 0 and 1). */
static const char VLLM_PAGE_DP2[] =
    "# HELP python_gc_objects_collected_total Objects collected during gc\n"
    "# TYPE python_gc_objects_collected_total counter\n"
    "python_gc_objects_collected_total{generation=\"0\"} 12345.0\n"
    "# HELP vllm:num_requests_running Number of requests in model execution batches.\n"
    "# TYPE vllm:num_requests_running gauge\n"
    "vllm:num_requests_running{engine=\"0\",model_name=\"meta-llama/Llama-3.1-8B-Instruct\"} 7.0\n"
    "vllm:num_requests_running{engine=\"1\",model_name=\"meta-llama/Llama-3.1-8B-Instruct\"} 5.0\n"
    "# HELP vllm:num_requests_waiting Number of requests waiting to be processed.\n"
    "# TYPE vllm:num_requests_waiting gauge\n"
    "vllm:num_requests_waiting{engine=\"0\",model_name=\"meta-llama/Llama-3.1-8B-Instruct\"} 3.0\n"
    "vllm:num_requests_waiting{engine=\"1\",model_name=\"meta-llama/Llama-3.1-8B-Instruct\"} 0.0\n"
    "# HELP vllm:kv_cache_usage_perc KV-cache usage. 1 means 100 percent usage.\n"
    "# TYPE vllm:kv_cache_usage_perc gauge\n"
    "vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"meta-llama/Llama-3.1-8B-Instruct\"} 0.42\n"
    "vllm:kv_cache_usage_perc{engine=\"1\",model_name=\"meta-llama/Llama-3.1-8B-Instruct\"} 0.61\n"
    "# HELP vllm:prefix_cache_queries_total Prefix cache queries, in terms of number of queried tokens.\n"
    "# TYPE vllm:prefix_cache_queries_total counter\n"
    "vllm:prefix_cache_queries_total{engine=\"0\",model_name=\"meta-llama/Llama-3.1-8B-Instruct\"} 91234.0\n"
    "# HELP vllm:prefix_cache_queries_created Prefix cache queries, in terms of number of queried tokens.\n"
    "# TYPE vllm:prefix_cache_queries_created gauge\n"
    "vllm:prefix_cache_queries_created{engine=\"0\",model_name=\"meta-llama/Llama-3.1-8B-Instruct\"} 1.7324e+09\n"
    "# HELP vllm:cache_config_info Information of the LLMEngine CacheConfig\n"
    "# TYPE vllm:cache_config_info gauge\n"
    "vllm:cache_config_info{block_size=\"16\",cache_dtype=\"auto\",engine=\"0\",num_gpu_blocks=\"1000\","
    "prefix_caching_hash_algo=\"builtin\"} 1.0\n"
    "vllm:cache_config_info{block_size=\"16\",cache_dtype=\"auto\",engine=\"1\",num_gpu_blocks=\"1000\","
    "prefix_caching_hash_algo=\"builtin\"} 1.0\n"
    "# HELP vllm:time_to_first_token_seconds Histogram of time to first token in seconds.\n"
    "# TYPE vllm:time_to_first_token_seconds histogram\n"
    "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"0.001\",model_name=\"m\"} 0.0\n"
    "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"0.5\",model_name=\"m\"} 120.0\n"
    "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"+Inf\",model_name=\"m\"} 130.0\n"
    "vllm:time_to_first_token_seconds_count{engine=\"0\",model_name=\"m\"} 130.0\n"
    "vllm:time_to_first_token_seconds_sum{engine=\"0\",model_name=\"m\"} 21.75\n";

/* vLLM V0-era page: the older KV gauge name, no engine label. */
static const char VLLM_PAGE_OLD[] =
    "# HELP vllm:num_requests_running Number of requests currently running on GPU.\n"
    "# TYPE vllm:num_requests_running gauge\n"
    "vllm:num_requests_running{model_name=\"facebook/opt-125m\"} 4.0\n"
    "# HELP vllm:num_requests_swapped Number of requests swapped to CPU.\n"
    "# TYPE vllm:num_requests_swapped gauge\n"
    "vllm:num_requests_swapped{model_name=\"facebook/opt-125m\"} 0.0\n"
    "# HELP vllm:num_requests_waiting Number of requests waiting to be processed.\n"
    "# TYPE vllm:num_requests_waiting gauge\n"
    "vllm:num_requests_waiting{model_name=\"facebook/opt-125m\"} 9.0\n"
    "# HELP vllm:gpu_cache_usage_perc GPU KV-cache usage. 1 means 100 percent usage.\n"
    "# TYPE vllm:gpu_cache_usage_perc gauge\n"
    "vllm:gpu_cache_usage_perc{model_name=\"facebook/opt-125m\"} 0.875\n";

/* SGLang with the "sglang:" prefix and two DP ranks. */
static const char SGLANG_PAGE_COLON[] =
    "# HELP sglang:num_running_reqs The number of running requests.\n"
    "# TYPE sglang:num_running_reqs gauge\n"
    "sglang:num_running_reqs{dp_rank=\"0\",engine_type=\"unified\",model_name=\"qwen/qwen2.5-7b\",tp_rank=\"0\"} 10.0\n"
    "sglang:num_running_reqs{dp_rank=\"1\",engine_type=\"unified\",model_name=\"qwen/qwen2.5-7b\",tp_rank=\"0\"} 6.0\n"
    "# HELP sglang:num_queue_reqs The number of requests in the waiting queue.\n"
    "# TYPE sglang:num_queue_reqs gauge\n"
    "sglang:num_queue_reqs{dp_rank=\"0\",engine_type=\"unified\",model_name=\"qwen/qwen2.5-7b\",tp_rank=\"0\"} 2.0\n"
    "sglang:num_queue_reqs{dp_rank=\"1\",engine_type=\"unified\",model_name=\"qwen/qwen2.5-7b\",tp_rank=\"0\"} 1.0\n"
    "# HELP sglang:num_used_tokens The number of used tokens.\n"
    "# TYPE sglang:num_used_tokens gauge\n"
    "sglang:num_used_tokens{dp_rank=\"0\",engine_type=\"unified\",model_name=\"qwen/qwen2.5-7b\",tp_rank=\"0\"} 30000.0\n"
    "sglang:num_used_tokens{dp_rank=\"1\",engine_type=\"unified\",model_name=\"qwen/qwen2.5-7b\",tp_rank=\"0\"} 10000.0\n"
    "# HELP sglang:token_usage The token usage.\n"
    "# TYPE sglang:token_usage gauge\n"
    "sglang:token_usage{dp_rank=\"0\",engine_type=\"unified\",model_name=\"qwen/qwen2.5-7b\",tp_rank=\"0\"} 0.3\n"
    "sglang:token_usage{dp_rank=\"1\",engine_type=\"unified\",model_name=\"qwen/qwen2.5-7b\",tp_rank=\"0\"} 0.1\n"
    "# HELP sglang:utilization The utilization.\n"
    "# TYPE sglang:utilization gauge\n"
    "sglang:utilization{dp_rank=\"0\",engine_type=\"unified\",model_name=\"qwen/qwen2.5-7b\",tp_rank=\"0\"} 0.55\n"
    "sglang:utilization{dp_rank=\"1\",engine_type=\"unified\",model_name=\"qwen/qwen2.5-7b\",tp_rank=\"0\"} 0.25\n"
    "# HELP sglang:max_total_num_tokens Maximum total number of tokens.\n"
    "# TYPE sglang:max_total_num_tokens gauge\n"
    "sglang:max_total_num_tokens{dp_rank=\"0\",engine_type=\"unified\",model_name=\"qwen/qwen2.5-7b\",tp_rank=\"0\"} 100000.0\n"
    "sglang:max_total_num_tokens{dp_rank=\"1\",engine_type=\"unified\",model_name=\"qwen/qwen2.5-7b\",tp_rank=\"0\"} 100000.0\n"
    "# HELP sglang:gen_throughput The generation throughput (token/s).\n"
    "# TYPE sglang:gen_throughput gauge\n"
    "sglang:gen_throughput{dp_rank=\"0\",engine_type=\"unified\",model_name=\"qwen/qwen2.5-7b\",tp_rank=\"0\"} 812.4\n"
    "# HELP sglang:time_to_first_token_seconds Histogram of time to first token in seconds.\n"
    "# TYPE sglang:time_to_first_token_seconds histogram\n"
    "sglang:time_to_first_token_seconds_bucket{le=\"0.1\",model_name=\"qwen/qwen2.5-7b\"} 3.0\n"
    "sglang:time_to_first_token_seconds_bucket{le=\"+Inf\",model_name=\"qwen/qwen2.5-7b\"} 9.0\n"
    "sglang:time_to_first_token_seconds_sum{model_name=\"qwen/qwen2.5-7b\"} 2.5\n"
    "sglang:time_to_first_token_seconds_count{model_name=\"qwen/qwen2.5-7b\"} 9.0\n";

/* SGLang with the "sglang_" prefix (older releases), one rank, no utilization. */
static const char SGLANG_PAGE_UNDERSCORE[] =
    "# HELP sglang_num_running_reqs The number of running requests.\n"
    "# TYPE sglang_num_running_reqs gauge\n"
    "sglang_num_running_reqs{name=\"meta-llama/Llama-3.1-8B-Instruct\"} 3.0\n"
    "# HELP sglang_num_queue_reqs The number of requests in the waiting queue.\n"
    "# TYPE sglang_num_queue_reqs gauge\n"
    "sglang_num_queue_reqs{name=\"meta-llama/Llama-3.1-8B-Instruct\"} 12.0\n"
    "# HELP sglang_token_usage The token usage.\n"
    "# TYPE sglang_token_usage gauge\n"
    "sglang_token_usage{name=\"meta-llama/Llama-3.1-8B-Instruct\"} 0.93\n";

#endif
