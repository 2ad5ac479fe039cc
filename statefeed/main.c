/* SPDX-License-Identifier: Apache-2.0 */
/* kvroute-statefeed: real engine state into the shared segment, every period. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/http_server.h"
#include "common/log.h"
#include "statefeed/feed.h"

int main(int argc, char **argv)
{
    static kvr__feed_t feed;
    kvr__feed_config_init(&feed.cfg);
    int rc = kvr__feed_config_parse_args(&feed.cfg, argc, argv);
    if (rc != 0) {
        kvr__feed_config_free(&feed.cfg);
        return rc > 0 ? 0 : 2;
    }
    kvr_log_init("kvroute-statefeed", feed.cfg.log_level);
    kvr_http_raise_fd_limit(feed.cfg.listen_addr[0] ? feed.cfg.listen_max_connections : 0, NULL);
    if (kvr__feed_open(&feed) < 0) {
        kvr__feed_config_free(&feed.cfg);
        return 1;
    }
    rc = kvr__feed_run(&feed);
    kvr__feed_close(&feed);
    kvr__feed_config_free(&feed.cfg);
    return rc < 0 ? 1 : 0;
}
