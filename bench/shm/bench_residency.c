/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-bench-residency: what a router's residency lookup costs for an
 * 8k-token request (512 blocks of 16 tokens) and what a store costs the
 * writer, over a real shm object. Fleets of --engines engines (default
 * 1024); the table is --mb MiB (default 64). Scenarios:
 *   miss       no engine holds the first block;
 *   one_full   one engine holds all 512 blocks, the rest nothing;
 *   spread     every engine holds its own 512-block chain, the request
 *              matches 8 of them for 64..512 blocks;
 *   replicated every engine holds the first 32 blocks (a system prompt on
 *              the whole fleet), 8 of them the whole chain.
 * Prints figures, asserts nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/options.h"
#include "common/rng.h"
#include "shm_layout/residency.h"

#define BLOCKS 512

static void chain(uint64_t *h, uint64_t seed)
{
    for (int i = 0; i < BLOCKS; i++)
        h[i] = kvr_splitmix64(&seed) | 1;
}

static void run(const char *scenario, uint32_t engines, uint32_t mb)
{
    char name[64];
    snprintf(name, sizeof name, "/kvr-bench-residency-%d", (int)getpid());
    kvr_residency_writer_t w;
    int rc = kvr_residency_writer_open(&w, name, mb, engines);
    if (rc < 0) {
        fprintf(stderr, "bench_residency: %s\n", kvr_strerror(rc));
        exit(1);
    }
    static uint64_t req[BLOCKS], other[BLOCKS];
    chain(req, 1);
    uint64_t stores = 0, refused = 0;
    uint64_t t0 = kvr_clock_now_ns();
    for (uint32_t s = 0; s < engines; s++) {
        kvr_residency_trust(&w, s, true);
        int n = 0;
        const uint64_t *h = req;
        if (strcmp(scenario, "one_full") == 0) {
            n = s == 0 ? BLOCKS : 0;
        } else if (strcmp(scenario, "spread") == 0) {
            n = BLOCKS;
            if (s >= 8) {
                chain(other, 1000 + s);
                h = other;
            } else {
                n = 64 * (int)(s + 1);
            }
        } else if (strcmp(scenario, "replicated") == 0) {
            n = s < 8 ? BLOCKS : 32;
        }
        for (int i = 0; i < n; i++) {
            stores++;
            refused += kvr_residency_stored(&w, s, h[i], KVR_RES_TIER_GPU) == -ENOSPC;
        }
    }
    uint64_t store_ns = kvr_clock_now_ns() - t0;
    kvr_residency_reader_t r;
    if (kvr_residency_reader_open(&r, name, geteuid()) != 0)
        exit(1);
    kvr_res_match_t *m = calloc(engines, sizeof *m);
    size_t found = 0;
    unsigned lookups = 0;
    t0 = kvr_clock_now_ns();
    uint64_t spent = 0;
    while (spent < 300 * KVR_NS_PER_MS || lookups < 10) {
        found = kvr_residency_lookup(&r, req, BLOCKS, m, engines);
        lookups++;
        spent = kvr_clock_now_ns() - t0;
    }
    uint32_t deepest = 0;
    for (size_t i = 0; i < found; i++)
        deepest = m[i].blocks[0] > deepest ? m[i].blocks[0] : deepest;
    printf("%-10s engines=%-5u mb=%-4u entries=%-8llu refused=%-6llu store_ns=%-6.0f "
           "lookup_us=%-9.2f matched_engines=%zu deepest=%u\n",
           scenario, engines, mb, (unsigned long long)w.stats.entries, (unsigned long long)refused,
           stores ? (double)store_ns / (double)stores : 0.0, (double)spent / lookups / 1e3, found,
           deepest);
    free(m);
    kvr_residency_reader_close(&r);
    kvr_residency_writer_destroy(&w);
}

typedef struct {
    uint64_t engines, mb;
} bench_options_t;

#define T bench_options_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_U64(T, engines, "engines", "N", "1024", 8, KVR_RES_MAX_ENGINES,
                    "engine slots of the table, each scenario's fleet"),
    KVR_OPT_ROW_U64(T, mb, "mb", "MB", "64", KVR_RES_MIN_MB, 4096,
                    "size of the table in MiB (the writer keeps a copy of the same size)"),
    KVR_OPT_ROW_HELP,
};
#undef T

int main(int argc, char **argv)
{
    bench_options_t o;
    kvr_opt_set_t set = {.opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &o};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {
        .name = "kvroute-bench-residency",
        .head = "usage: kvroute-bench-residency [--engines N] [--mb MB]\n"
                "Times residency-table lookups of a 512-block request and the writer's stores.\n"};
    int rc = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (rc != 0)
        return rc > 0 ? 0 : 2;
    const char *scenarios[] = {"miss", "one_full", "spread", "replicated"};
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        run(scenarios[i], (uint32_t)o.engines, (uint32_t)o.mb);
    return 0;
}
