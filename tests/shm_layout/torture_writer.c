/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The writer side of the cross-process seqlock torture test: creates the
 * segment named by argv[1], then stores random values into slot 0 as fast
 * as it can for at most argv[2] seconds (or until killed).
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/clock.h"
#include "common/error.h"
#include "shm_layout/shm_layout.h"
#include "tests/shm_layout/torture.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s SHM-NAME SECONDS\n", argv[0]);
        return 2;
    }
    kvr_shm_t shm;
    int rc = kvr_shm_create(&shm, argv[1], 4);
    if (rc < 0) {
        fprintf(stderr, "torture_writer: create %s: %s\n", argv[1], kvr_strerror(rc));
        return 1;
    }
    kvr_shm_add_engine(&shm, "http://127.0.0.1:1");
    kvr_torture_write(&shm, NULL, 0x243f6a8885a308d3ull, (uint64_t)atoi(argv[2]) * KVR_NS_PER_SEC);
    kvr_shm_close(&shm);
    return 0;
}
