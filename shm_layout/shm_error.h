/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_SHM_ERROR_H
#define KVR_SHM_ERROR_H

/*
 * Codes the segment functions return besides negative errno values. They
 * are part of the ABI's reader side: a reader in another program needs only
 * this folder, so the codes and their text live here, and common/error.h
 * takes them from here. Values -4001..-4019 belong to the segments: the
 * state segment's -4001..-4012, the dispatch segment's (dispatch.h)
 * -4013..-4019, the residency table's (residency.h) -4020..-4021.
 */

enum kvr_shm_err {
    KVR_ESHM_MAGIC = -4001,       /* bad magic (not a kvroute segment) */
    KVR_ESHM_MAJOR = -4002,       /* another ABI major version */
    KVR_ESHM_TRUNCATED = -4003,   /* object smaller than its header */
    KVR_ESHM_CAPACITY = -4004,    /* capacity does not fit the object */
    KVR_ESHM_SLOT_SIZE = -4005,   /* slot size below this ABI's or not 64-byte aligned */
    KVR_ESHM_STALE = -4006,       /* writer heartbeat older than max age, or in the future */
    KVR_ESHM_ENGINE_ID = -4007,   /* engine id not NUL-terminated */
    KVR_ESHM_HEADER_SIZE = -4008, /* header size below this ABI's or not 64-byte aligned */
    KVR_ESHM_WRITER_GONE = -4009, /* writer stopped */
    KVR_ESHM_BUSY = -4010,        /* slot kept changing (writer busy or dead mid-write) */
    KVR_ESHM_OWNER = -4011,       /* object owned by another user, or writable by group/other */
    KVR_ESHM_CHANGED = -4012,     /* object shrank, its geometry changed or the name was replaced */
    KVR_EDSP_MAGIC = -4013,       /* bad magic (not a kvroute dispatch segment) */
    KVR_EDSP_GEOMETRY = -4014, /* rows, engines per row or ring do not fit this ABI or the object */
    KVR_EDSP_FULL = -4015,     /* every row is held by a live router */
    KVR_EDSP_ROW_LOST = -4016, /* this router's row now belongs to another (its heartbeat lapsed) */
    KVR_EDSP_RING_BUSY =
        -4017,                /* the ring slot was held by another writer: the entry was dropped */
    KVR_EDSP_ENGINES = -4018, /* more engines than a row holds, or two with one key */
    KVR_ERES_MAGIC = -4020,   /* bad magic (not a kvroute residency table) */
    KVR_ERES_GEOMETRY =
        -4021, /* engines, buckets or probe bound do not fit this ABI or the object */
};

/** Text for a KVR_ESHM_* code; NULL for any other value. */
static inline const char *kvr_shm_strerror(int code)
{
    switch (code) {
    case KVR_ESHM_MAGIC: return "bad magic: not a kvroute state segment";
    case KVR_ESHM_MAJOR: return "incompatible ABI major version";
    case KVR_ESHM_TRUNCATED: return "object smaller than the segment header";
    case KVR_ESHM_CAPACITY: return "slot capacity does not fit the mapping";
    case KVR_ESHM_SLOT_SIZE: return "slot size smaller than this ABI's or not 64-byte aligned";
    case KVR_ESHM_STALE: return "writer heartbeat older than the max age or in the future";
    case KVR_ESHM_ENGINE_ID: return "engine id is not NUL-terminated";
    case KVR_ESHM_HEADER_SIZE: return "header size smaller than this ABI's header";
    case KVR_ESHM_WRITER_GONE: return "writer has stopped";
    case KVR_ESHM_BUSY: return "slot kept changing during the read (writer busy or died mid-write)";
    case KVR_ESHM_OWNER: return "object owned by another user or writable by group/other";
    case KVR_ESHM_CHANGED:
        return "object shrank, changed geometry or was replaced after it was mapped";
    case KVR_EDSP_MAGIC: return "bad magic: not a kvroute dispatch segment";
    case KVR_EDSP_GEOMETRY:
        return "dispatch segment geometry (rows, engines per row, ring) does not fit the object";
    case KVR_EDSP_FULL: return "every dispatch row is held by a live router";
    case KVR_EDSP_ROW_LOST:
        return "this router's dispatch row was claimed by another (heartbeat lapsed)";
    case KVR_EDSP_RING_BUSY: return "placement ring slot held by another writer: entry dropped";
    case KVR_EDSP_ENGINES:
        return "more engines than a dispatch row holds, or two engines with one key";
    case KVR_ERES_MAGIC: return "bad magic: not a kvroute residency table";
    case KVR_ERES_GEOMETRY:
        return "residency table geometry (engines, buckets, probe bound) does not fit the object";
    default: return (void *)0;
    }
}

#endif
