/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_HTTP_INTERNAL_H
#define KVR_COMMON_HTTP_INTERNAL_H

/*
 * Shared between common/http_server.c (connections, parsing) and
 * common/http_response.c (response framing and writes). Not a public header.
 */
#include <llhttp.h>
#include <stdint.h>
#include <sys/socket.h>
#include <uv.h>

#include "common/buf.h"
#include "common/http_server.h"
#include "common/recycle.h"

typedef enum {
    KVR__HTTP_IDLE = 0,   /* keep-alive, waiting for the next request's first byte */
    KVR__HTTP_READING,    /* request started, not complete */
    KVR__HTTP_DISPATCHED, /* handed to the handler, response not finished */
    KVR__HTTP_CLOSING,    /* shutting down: input is discarded */
} kvr__http_conn_state_t;

typedef enum {
    KVR__HTTP_RESP_NONE = 0,
    KVR__HTTP_RESP_STREAMING,
} kvr__http_resp_state_t;

typedef struct kvr__http_conn_s kvr__http_conn_t;

#define KVR__HTTP_PEER_SLOTS_MIN 16

/* A peer address (IPv4 or IPv6, no port) and how many connections it has open. */
typedef struct {
    uint8_t family; /* 0: free slot */
    uint8_t addr[16];
    uint32_t count;
} kvr__http_peer_slot_t;

struct kvr_http_server_s {
    uv_loop_t *loop;
    uv_tcp_t listener;
    kvr_http_server_config_t cfg;
    char host[64];
    int port;
    int destroying;
    int listener_open;
    size_t nconns;
    size_t owned_reqs; /* dispatched requests not yet finished by their handler */
    kvr__http_conn_t *conns;
    kvr_http_closed_cb closed;
    void *closed_arg;
    llhttp_settings_t settings;
    kvr_recycle_t free_reqs;      /* finished requests kept with their buffers for the next ones */
    kvr__http_peer_slot_t *peers; /* open connections per peer address, open addressing */
    size_t peers_mask;            /* slots - 1: a power of two, at least twice npeers */
    size_t npeers;                /* addresses with a connection open */
    uv_timer_t refuse_timer;      /* writes the refusals counted since the last line */
    int refuse_timer_open;
    uint64_t refuse_logged_ns; /* when the last refusal line was written */
    uint64_t refused_unlogged; /* refusals since that line */
    kvr_http_server_stats_t stats;
    char read_slab[64 * 1024]; /* every connection's reads land here and are parsed at once */
};

struct kvr__http_conn_s {
    union { /* TCP from the listener; a Unix socket from kvr_http_server_adopt_fd */
        uv_handle_t handle;
        uv_stream_t stream;
        uv_tcp_t tcp;
        uv_pipe_t pipe;
    } io;
    uv_timer_t timer;
    uv_shutdown_t shutdown;
    kvr_http_server_t *srv;
    kvr__http_conn_t *prev, *next;
    llhttp_t parser;
    kvr__http_conn_state_t state;
    int handles_open;
    int in_process;    /* inside the parse loop: finishing must not re-enter it */
    int read_stopped;  /* too much pipelined input buffered, or output_paused */
    int output_paused; /* more response bytes queued than KVR_HTTP_MAX_QUEUED_OUTPUT: input waits */
    int req_complete;  /* on_message_complete paused the parser on conn->req */
    int err_status;    /* status for a request the server refuses (413, 431, 405) */
    const char *err_reason; /* why, when the server refused a request llhttp accepted */
    const char *exec_base;  /* start of the bytes llhttp_execute is parsing */
    int exec_tail_lf;       /* the bytes parsed so far end in a line break (and blanks) */
    int exec_tail_bare_lf;  /* ... and their last byte is the line break itself */
    kvr_http_req_t *req;
    kvr_buf_t in; /* received bytes not yet parsed */
    size_t queued_bytes;
    char peer[64];
    uint8_t peer_family; /* AF_INET or AF_INET6 when counted in srv->peers, else 0 */
    uint8_t peer_addr[16];
    struct kvr_tls_s *tls; /* the server's TLS: every byte in and out passes it; NULL = plain */
};

struct kvr_http_req_s {
    kvr__http_conn_t *conn; /* NULL once the client is gone */
    kvr_http_server_t *srv;
    char method[16];
    kvr_buf_t target; /* raw request target */
    kvr_buf_t path;   /* copy of target up to '?' */
    const char *query;
    kvr_buf_t hbuf; /* "name\0value\0" pairs */
    size_t *hoffs;  /* name and value offsets into hbuf, two per header */
    size_t nheaders, hoffs_cap;
    int in_value;
    size_t field_len;           /* bytes of the header or trailer name being read */
    kvr_http_header_t *headers; /* built when the headers are complete */
    size_t headers_cap;
    int headers_done; /* later header callbacks are trailers */
    kvr_buf_t body;
    size_t header_bytes;
    uint64_t start_ns;
    int http_minor;
    int keep_alive;
    int head;
    int aborted;
    int dispatched;
    kvr__http_resp_state_t resp;
    int chunked;
    int raw_until_close; /* HTTP/1.0 client: unframed body ended by closing */
    int64_t content_length;
    int64_t written;
    kvr_http_abort_cb on_abort;
    void *abort_arg;
    kvr_http_drain_cb on_drain;
    void *drain_arg;
    void *data;
};

/** Queues bufs on the connection; wreq-owned memory is freed by the write callback. */
int kvr__http_conn_write(kvr__http_conn_t *conn, const uv_buf_t *bufs, unsigned nbufs, void *owned,
                         kvr_http_write_cb done, void *arg);
/** A request object for srv: a recycled one, emptied, or a new one (http_server.c). */
kvr_http_req_t *kvr__http_req_alloc(kvr_http_server_t *srv);
/** llhttp's settings with the callbacks that fill a connection's request (http_parse.c). */
void kvr__http_parser_settings(llhttp_settings_t *settings);
/** The handler finished req: free it and let the connection serve its next request. */
void kvr__http_req_finished(kvr_http_req_t *req, int close_conn);
/** Closes the connection now (idempotent); a dispatched request gets on_abort. */
void kvr__http_conn_close(kvr__http_conn_t *conn);
/** Called by the write queue after a write completed: resumes a connection paused on its output. */
void kvr__http_conn_written(kvr__http_conn_t *conn);
/** The peer address of a TCP connection as a table key; 0 when it has none (Unix sockets). */
int kvr__http_peer_key(const struct sockaddr_storage *ss, uint8_t *family, uint8_t addr[16]);
/** Connections the peer address has open now. */
uint32_t kvr__http_peer_count(kvr_http_server_t *srv, uint8_t family, const uint8_t addr[16]);
/** Counts conn as one of its peer's; kvr__http_peer_remove (at close) gives the place back. */
void kvr__http_peer_add(kvr__http_conn_t *conn, uint8_t family, const uint8_t addr[16]);
void kvr__http_peer_remove(kvr__http_conn_t *conn);
/** Counts a refused connection and logs refusals at most once a second. */
void kvr__http_refusal_count(kvr_http_server_t *srv, int per_peer, const char *peer);
/** srv->refuse_timer's callback: logs the refusals counted since the last line. */
void kvr__http_refuse_timer_cb(uv_timer_t *timer);
/** Writes the ciphertext the connection's TLS session has waiting (handshake, alerts). */
void kvr__http_conn_tls_flush(kvr__http_conn_t *conn);
/** Sends a server-generated error and closes the connection once it is written. */
void kvr__http_conn_refuse(kvr__http_conn_t *conn, int status, const char *message);

#endif
