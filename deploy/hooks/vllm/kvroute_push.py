# SPDX-License-Identifier: Apache-2.0
"""Push vLLM engine state to kvroute-statefeed, one msgpack frame per step.

Two ways to hook a vLLM server (see README.md):

* ``KvrouteStatLogger``: a vLLM stat-logger plugin. It runs in the API
  server process, receives ``SchedulerStats`` for every engine step of every
  data-parallel rank, and sends one frame summed over the ranks: running,
  waiting, KV usage, KV tokens, batch caps. ``SchedulerStats`` carries no
  per-request prefill progress, so these frames carry no pending prefill.

* ``register_scheduler_probe``: a vLLM general plugin that wraps the engine
  core scheduler's ``make_stats``. It runs inside the engine core, where the
  running and waiting requests are visible, and adds pending-prefill tokens
  and the largest remaining prefill. One rank per engine id (DP=1, or each
  rank exposed as its own engine).

Use one of them per engine, not both. The frame schema is
deploy/push-frame.md. The module imports without vLLM installed, so it can be
exercised with stand-in stats objects.

Environment:
  KVROUTE_ENGINE_ID   engine id = the engine's base URL exactly as given to
                      kvroute-statefeed --engine (required; without it the
                      hook sends nothing and says so once)
  KVROUTE_PUSH_ADDR   unix:/path, /path or udp:HOST:PORT
                      (default unix:/run/kvroute/push.sock)
  KVROUTE_PUSH_PROBE  1 to let register_scheduler_probe patch the scheduler
  KVROUTE_PUSH_IDLE_MS  while the last frame said "idle" (nothing running,
                      waiting or pending), repeat it with a fresh time this
                      often (default 200; 0 = never)
"""

import errno
import itertools
import logging
import os
import socket
import threading
import time

import msgpack

FRAME_VERSION = 1
FRAME_MAX = 1024
DEFAULT_ADDR = "unix:/run/kvroute/push.sock"
DEFAULT_IDLE_MS = 200

log = logging.getLogger("kvroute_push")

try:  # vLLM V1; the module must also import where vLLM is absent (tests, tools).
    from vllm.v1.metrics.loggers import StatLoggerBase as _StatLoggerBase
except Exception:  # noqa: BLE001 - any import failure means "no vLLM here"
    _StatLoggerBase = object


def build_frame(engine_id, running, waiting, *, sample_unix_ns=None, seq=None,
                dp_ranks=None, max_running=None, caps_complete=False,
                kv_used=None, kv_capacity=None, kv_usage=None,
                pending_prefill=None, max_prefill_remaining=None,
                utilization=None):
    """The frame as a dict with the schema's keys; optional keys only when known."""
    if not engine_id:
        raise ValueError("engine_id is required")
    frame = {
        "v": FRAME_VERSION,
        "engine": str(engine_id),
        "ts_ns": int(sample_unix_ns if sample_unix_ns is not None else time.time_ns()),
        "running": _count(running),
        "waiting": _count(waiting),
    }
    if seq is not None:
        frame["seq"] = _count(seq)
    if dp_ranks:
        frame["dp_ranks"] = _count(dp_ranks)
    if max_running:
        frame["max_running"] = _count(max_running)
    if caps_complete:
        frame["caps_complete"] = True
    if kv_used:
        frame["kv_used"] = _count(kv_used)
    if kv_capacity:
        frame["kv_capacity"] = _count(kv_capacity)
    if kv_usage is not None:
        frame["kv_usage"] = _fraction(kv_usage)
    if pending_prefill is not None:
        frame["pending_prefill"] = _count(pending_prefill)
        frame["max_prefill_remaining"] = _count(max_prefill_remaining or 0)
    if utilization is not None:
        frame["utilization"] = _fraction(utilization)
    return frame


def encode_frame(frame):
    """msgpack bytes of a frame; ValueError when it exceeds FRAME_MAX."""
    data = msgpack.packb(frame, use_bin_type=True)
    if len(data) > FRAME_MAX:
        raise ValueError("frame is %d bytes, more than %d" % (len(data), FRAME_MAX))
    return data


def _count(value):
    """A non-negative int (statefeed rejects negatives); fractions of counts round."""
    return max(0, int(round(value)))


def _fraction(value):
    """A float clamped to 0..1 (statefeed rejects anything outside, and NaN)."""
    value = float(value)
    if value != value:  # NaN
        return 0.0
    return min(1.0, max(0.0, value))


def prefill_backlog(requests):
    """(pending tokens, largest remaining) over requests not yet fully prefilled.

    A request's remaining prefill is num_prompt_tokens - num_computed_tokens;
    prefix-cache hits count as computed, so cached prompts add nothing.
    """
    pending = 0
    largest = 0
    for request in requests:
        prompt = getattr(request, "num_prompt_tokens", None)
        computed = getattr(request, "num_computed_tokens", 0) or 0
        if prompt is None:
            continue
        remaining = int(prompt) - int(computed)
        if remaining > 0:
            pending += remaining
            largest = max(largest, remaining)
    return pending, largest


def _is_idle(frame):
    return not frame["running"] and not frame["waiting"] and not frame.get("pending_prefill")


class PushSender:
    """Fire-and-forget datagrams: a step must never wait on, or fail with, the feed.

    An idle engine takes no steps, so it would send no frames and its slot
    would age until routers stop trusting it, and owner-pressure routing
    falls back fleet-wide when any candidate is stale. So while the last
    frame said idle, a daemon thread repeats it every idle_ms with a fresh
    time: an idle engine stays idle until a request arrives, and a request
    makes a step, whose frame replaces the idle one. Busy frames are never
    repeated: a stuck engine's slot ages honestly.
    """

    def __init__(self, address=None, idle_ms=None):
        address = address or os.environ.get("KVROUTE_PUSH_ADDR") or DEFAULT_ADDR
        self.address = address
        self.sent = 0
        self.dropped = 0
        self.repeated = 0
        if idle_ms is None:
            idle_ms = int(os.environ.get("KVROUTE_PUSH_IDLE_MS", DEFAULT_IDLE_MS))
        self.idle_ms = max(0, idle_ms)
        self._seq = itertools.count(1)
        self._lock = threading.Lock()
        self._warned = False
        self._last_idle = None  # the last frame sent, when it said idle
        self._last_send = 0.0
        self._repeater = None
        self._closed = False
        if address.startswith("udp:"):
            host, _, port = address[4:].rpartition(":")
            if not host or not port.isdigit():
                raise ValueError("KVROUTE_PUSH_ADDR udp form is udp:HOST:PORT, got %r" % address)
            host = host.strip("[]")
            family = socket.AF_INET6 if ":" in host else socket.AF_INET
            self._target = (host, int(port))
            self._sock = socket.socket(family, socket.SOCK_DGRAM)
        else:
            path = address[5:] if address.startswith("unix:") else address
            if not path.startswith("/"):
                raise ValueError("KVROUTE_PUSH_ADDR must be unix:/path, /path or udp:HOST:PORT")
            self._target = path
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._sock.setblocking(False)

    def next_seq(self):
        return next(self._seq)

    def send(self, frame):
        """Encodes and sends one frame; False (and counted) when it was dropped."""
        try:
            data = encode_frame(frame)
        except (ValueError, TypeError) as exc:
            self._drop("encode", exc)
            return False
        with self._lock:
            self._last_idle = dict(frame) if _is_idle(frame) else None
            self._last_send = time.monotonic()
            if self._last_idle is not None and self.idle_ms and self._repeater is None:
                self._repeater = threading.Thread(target=self._repeat_idle, daemon=True,
                                                  name="kvroute-push-idle")
                self._repeater.start()
            return self._send_locked(data)

    def _send_locked(self, data):
        try:
            self._sock.sendto(data, self._target)
        except OSError as exc:
            # No statefeed yet, or its queue is full: the next step sends again.
            self._drop("send", exc)
            return False
        self.sent += 1
        return True

    def _repeat_idle(self):
        period = self.idle_ms / 1000.0
        while True:
            time.sleep(period / 2)
            with self._lock:
                if self._closed:
                    return
                frame = self._last_idle
                if frame is None or time.monotonic() - self._last_send < period:
                    continue
                frame["ts_ns"] = time.time_ns()
                if "seq" in frame:
                    frame["seq"] = self.next_seq()
                self._last_send = time.monotonic()
                if self._send_locked(encode_frame(frame)):
                    self.repeated += 1

    def _drop(self, stage, exc):
        self.dropped += 1
        if not self._warned or self.dropped % 10000 == 0:
            self._warned = True
            reason = errno.errorcode.get(getattr(exc, "errno", None) or 0, "") or str(exc)
            log.warning("kvroute_push_dropped stage=%s target=%s reason=%s dropped_total=%d",
                        stage, self.address, reason, self.dropped)

    def close(self):
        with self._lock:
            self._closed = True
            self._last_idle = None
            self._sock.close()


def _engine_id_from_env():
    engine_id = os.environ.get("KVROUTE_ENGINE_ID", "").strip()
    if not engine_id:
        log.warning("kvroute_push_disabled reason=\"KVROUTE_ENGINE_ID is not set\"")
    return engine_id or None


def _config_caps(vllm_config):
    """(max_num_seqs, KV token capacity) of one rank from a VllmConfig; 0 when unknown."""
    scheduler = getattr(vllm_config, "scheduler_config", None)
    cache = getattr(vllm_config, "cache_config", None)
    max_running = int(getattr(scheduler, "max_num_seqs", 0) or 0)
    blocks = getattr(cache, "num_gpu_blocks", None) or 0
    block_size = getattr(cache, "block_size", None) or 0
    return max_running, int(blocks) * int(block_size)


def _kv_usage(stats):
    """SchedulerStats.kv_cache_usage, or gpu_cache_usage in earlier V1 releases."""
    for name in ("kv_cache_usage", "gpu_cache_usage"):
        value = getattr(stats, name, None)
        if value is not None:
            return float(value)
    return None


def _waiting(stats):
    # vLLM's own num_requests_waiting gauge adds the skipped-waiting queue.
    return int(getattr(stats, "num_waiting_reqs", 0) or 0) + int(
        getattr(stats, "num_skipped_waiting_reqs", 0) or 0)


class _RankTable:
    """Latest state of each DP rank seen by this process; frames sum over them."""

    def __init__(self):
        self._lock = threading.Lock()
        self._ranks = {}

    def update(self, rank, **state):
        with self._lock:
            self._ranks[rank] = state
            return dict(self._ranks)


_RANKS = _RankTable()  # shared by the loggers vLLM creates, one per engine index


class KvrouteStatLogger(_StatLoggerBase):
    """vLLM stat logger: one push frame per recorded step, summed over DP ranks."""

    def __init__(self, vllm_config=None, engine_index=0, *, engine_id=None, sender=None,
                 rank_table=None):
        self.vllm_config = vllm_config
        self.engine_index = engine_index
        self.engine_id = engine_id or _engine_id_from_env()
        self.sender = sender if sender is not None else (PushSender() if self.engine_id else None)
        self.ranks = rank_table if rank_table is not None else _RANKS

    def record(self, scheduler_stats, iteration_stats=None, *args, engine_idx=None, **kwargs):
        """Called by vLLM after each engine step (argument lists vary by release)."""
        if scheduler_stats is None or self.sender is None:
            return
        if engine_idx is None:
            # Some releases pass (…, mm_cache_stats, engine_idx) positionally.
            engine_idx = args[-1] if args and isinstance(args[-1], int) else self.engine_index
        max_running, capacity = _config_caps(self.vllm_config)
        usage = _kv_usage(scheduler_stats)
        ranks = self.ranks.update(
            engine_idx,
            running=int(getattr(scheduler_stats, "num_running_reqs", 0) or 0),
            waiting=_waiting(scheduler_stats),
            kv_usage=usage,
            max_running=max_running,
            capacity=capacity,
        )
        self.sender.send(_sum_ranks(self.engine_id, ranks, self.sender.next_seq()))

    def log_engine_initialized(self):
        pass

    def log(self):
        pass

    def __getattr__(self, name):
        # Hooks a later vLLM adds to the logger interface (record_*, log_*)
        # are not ours to act on: answer them with a no-op instead of failing.
        if name.startswith(("record_", "log_")):
            return lambda *args, **kwargs: None
        raise AttributeError(name)


# vLLM's StatLoggerBase gains abstract methods between releases (its own docs
# call the interface unstable); the ones this logger has no use for must not
# make it uninstantiable.
KvrouteStatLogger.__abstractmethods__ = frozenset()


def _sum_ranks(engine_id, ranks, seq):
    states = list(ranks.values())
    usages = [s["kv_usage"] for s in states if s["kv_usage"] is not None]
    capacity = sum(s["capacity"] for s in states)
    kv_usage = max(usages) if usages else None
    kv_used = None
    if capacity and len(usages) == len(states):
        kv_used = sum(s["kv_usage"] * s["capacity"] for s in states)
    return build_frame(
        engine_id,
        sum(s["running"] for s in states),
        sum(s["waiting"] for s in states),
        seq=seq,
        dp_ranks=len(states),
        max_running=sum(s["max_running"] for s in states),
        caps_complete=all(s["max_running"] > 0 for s in states),
        kv_used=kv_used,
        kv_capacity=capacity,
        kv_usage=kv_usage,
    )


# ---- engine-core probe --------------------------------------------------------

def scheduler_frame(scheduler, stats, engine_id, seq=None):
    """A frame from a V1 Scheduler (running list, waiting queue) and its SchedulerStats."""
    running = list(getattr(scheduler, "running", []) or [])
    waiting = list(getattr(scheduler, "waiting", []) or [])
    pending, largest = prefill_backlog(running + waiting)
    usage = _kv_usage(stats) if stats is not None else None
    if usage is None:
        manager = getattr(scheduler, "kv_cache_manager", None)
        usage = getattr(manager, "usage", None)
    max_running = int(getattr(scheduler, "max_num_running_reqs", 0) or 0)
    cache = getattr(scheduler, "cache_config", None)
    capacity = int(getattr(cache, "num_gpu_blocks", 0) or 0) * int(getattr(cache, "block_size", 0) or 0)
    return build_frame(
        engine_id,
        len(running),
        len(waiting),
        seq=seq,
        dp_ranks=1,
        max_running=max_running,
        caps_complete=max_running > 0,
        kv_used=(usage * capacity) if (usage is not None and capacity) else None,
        kv_capacity=capacity,
        kv_usage=usage,
        pending_prefill=pending,
        max_prefill_remaining=largest,
    )


def register_scheduler_probe():
    """vLLM general plugin entry point: wraps Scheduler.make_stats when KVROUTE_PUSH_PROBE=1."""
    if os.environ.get("KVROUTE_PUSH_PROBE") != "1":
        return
    try:
        from vllm.v1.core.sched.scheduler import Scheduler
    except Exception:  # noqa: BLE001 - not a V1 engine core process
        return
    if getattr(Scheduler, "_kvroute_probe", False):
        return  # general plugins load once per process, possibly more than once
    engine_id = _engine_id_from_env()
    if engine_id is None:
        return
    sender = PushSender()
    original = Scheduler.make_stats

    def make_stats(self, *args, **kwargs):
        stats = original(self, *args, **kwargs)
        try:
            sender.send(scheduler_frame(self, stats, engine_id, sender.next_seq()))
        except Exception:  # noqa: BLE001 - the engine step must never fail for the feed
            log.exception("kvroute_push_probe_failed")
        return stats

    Scheduler.make_stats = make_stats
    Scheduler._kvroute_probe = True
    log.info("kvroute_push_probe_installed engine=%s target=%s", engine_id, sender.address)
