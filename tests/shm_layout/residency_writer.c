/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The writer side of the cross-process residency torture test: creates the
 * table named by argv[1] (1 MiB, 8 engines), then stores, removes and
 * clears blocks as fast as it can for at most argv[2] seconds (or until
 * killed).
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "tests/shm_layout/residency_torture.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s SHM-NAME SECONDS\n", argv[0]);
        return 2;
    }
    kvr_residency_writer_t w;
    int rc = kvr_residency_writer_open(&w, argv[1], 1, KVR_RT_ENGINES);
    if (rc < 0) {
        fprintf(stderr, "residency_writer: create %s: %s\n", argv[1], kvr_strerror(rc));
        return 1;
    }
    kvr_rt_write(&w, NULL, 0x243f6a8885a308d3ull, (uint64_t)atoi(argv[2]) * KVR_NS_PER_SEC);
    kvr_residency_writer_close(&w);
    return 0;
}
