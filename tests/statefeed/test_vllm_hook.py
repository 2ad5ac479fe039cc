# SPDX-License-Identifier: Apache-2.0
"""The vLLM push hook (deploy/hooks/vllm/kvroute_push.py), fed stand-in stats.

1. Frames the hook builds pass the C decoder statefeed uses (push-probe sink).
2. Against a live kvroute-statefeed with a push engine: the values the hook
   sends land in that engine's slot (read back with `kvroute-shm dump --json`
   when that tool is built, and always with push-probe's seqlock reader).

Run by ctest (test_vllm_hook) with KVR_SOURCE_DIR, KVR_BIN_KVR_PUSH_PROBE,
KVR_BIN_KVROUTE_STATEFEED and optionally KVR_BIN_KVROUTE_SHM set.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from types import SimpleNamespace

import msgpack

import kvrbench.tool

SOURCE_DIR = os.environ.get("KVR_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SOURCE_DIR, "deploy", "hooks", "vllm"))

import kvroute_push  # noqa: E402  (path set just above)

PROBE = os.environ.get("KVR_BIN_KVR_PUSH_PROBE")
STATEFEED = os.environ.get("KVR_BIN_KVROUTE_STATEFEED")
SHM_TOOL = os.environ.get("KVR_BIN_KVROUTE_SHM")


def vllm_config(max_num_seqs=64, num_gpu_blocks=1000, block_size=16):
    """The parts of a VllmConfig the hook reads."""
    return SimpleNamespace(
        scheduler_config=SimpleNamespace(max_num_seqs=max_num_seqs),
        cache_config=SimpleNamespace(num_gpu_blocks=num_gpu_blocks, block_size=block_size))


def scheduler_stats(running, waiting, kv_usage, skipped=0):
    """A stand-in for vllm.v1.metrics.stats.SchedulerStats."""
    return SimpleNamespace(num_running_reqs=running, num_waiting_reqs=waiting,
                           num_skipped_waiting_reqs=skipped, kv_cache_usage=kv_usage,
                           step_counter=0, current_wave=0)


class CaptureSender:
    """A sender that keeps frames instead of sending them."""

    def __init__(self):
        self.frames = []
        self._seq = 0

    def next_seq(self):
        self._seq += 1
        return self._seq

    def send(self, frame):
        kvroute_push.encode_frame(frame)  # must encode within the size limit
        self.frames.append(frame)
        return True


class _CountingTime:
    """The time module as kvroute_push sees it, counting the naps its idle
    repeater starts: the test waits on those, not on the clock."""

    def __init__(self):
        self.sleeps = 0
        self._cond = threading.Condition()

    def __getattr__(self, name):
        return getattr(time, name)

    def sleep(self, seconds):
        with self._cond:
            self.sleeps += 1
            self._cond.notify_all()
        time.sleep(seconds)

    def wait_sleeps(self, count, timeout):
        with self._cond:
            return self._cond.wait_for(lambda: self.sleeps >= count, timeout)


class HookUnitTest(unittest.TestCase):
    def test_logger_sums_dp_ranks(self):
        sender = CaptureSender()
        table = kvroute_push._RankTable()
        cfg = vllm_config()
        rank0 = kvroute_push.KvrouteStatLogger(cfg, 0, engine_id="http://e:8000", sender=sender,
                                               rank_table=table)
        rank1 = kvroute_push.KvrouteStatLogger(cfg, 1, engine_id="http://e:8000", sender=sender,
                                               rank_table=table)
        rank0.record(scheduler_stats(7, 3, 0.42, skipped=1), None, engine_idx=0)
        rank1.record(scheduler_stats(5, 0, 0.61), None, None, 1)  # positional engine_idx
        frame = sender.frames[-1]
        self.assertEqual(frame["running"], 12)
        self.assertEqual(frame["waiting"], 4, "skipped-waiting counts as waiting, as vLLM's gauge")
        self.assertEqual(frame["dp_ranks"], 2)
        self.assertEqual(frame["max_running"], 128)
        self.assertTrue(frame["caps_complete"])
        self.assertAlmostEqual(frame["kv_usage"], 0.61)
        self.assertEqual(frame["kv_capacity"], 32000)
        self.assertEqual(frame["kv_used"], round(0.42 * 16000 + 0.61 * 16000))
        self.assertNotIn("pending_prefill", frame, "SchedulerStats cannot tell pending prefill")
        self.assertEqual([f["seq"] for f in sender.frames], [1, 2])

    def test_logger_without_engine_id_sends_nothing(self):
        os.environ.pop("KVROUTE_ENGINE_ID", None)
        logger = kvroute_push.KvrouteStatLogger(vllm_config(), 0)
        self.assertIsNone(logger.sender)
        logger.record(scheduler_stats(1, 1, 0.1), None)  # must not raise

    def test_older_stats_field_and_missing_stats(self):
        sender = CaptureSender()
        logger = kvroute_push.KvrouteStatLogger(vllm_config(max_num_seqs=0), 0, engine_id="http://e",
                                                sender=sender,
                                                rank_table=kvroute_push._RankTable())
        logger.record(None, None)
        self.assertEqual(sender.frames, [], "no stats, no frame")
        old = SimpleNamespace(num_running_reqs=2, num_waiting_reqs=1, gpu_cache_usage=1.7)
        logger.record(old, None)
        frame = sender.frames[-1]
        self.assertEqual(frame["kv_usage"], 1.0, "clamped to the schema's 0..1")
        self.assertNotIn("caps_complete", frame, "max_num_seqs unknown: caps incomplete")

    def test_prefill_backlog_and_scheduler_frame(self):
        def req(prompt, computed):
            return SimpleNamespace(num_prompt_tokens=prompt, num_computed_tokens=computed)
        scheduler = SimpleNamespace(
            running=[req(100000, 40000), req(500, 500)],
            waiting=[req(3000, 1000), req(10, 0)],
            max_num_running_reqs=256,
            cache_config=SimpleNamespace(num_gpu_blocks=2000, block_size=16),
            kv_cache_manager=SimpleNamespace(usage=0.5))
        self.assertEqual(kvroute_push.prefill_backlog(scheduler.running + scheduler.waiting),
                         (62010, 60000))
        frame = kvroute_push.scheduler_frame(scheduler, None, "http://e:1", seq=9)
        self.assertEqual(frame["running"], 2)
        self.assertEqual(frame["waiting"], 2)
        self.assertEqual(frame["pending_prefill"], 62010)
        self.assertEqual(frame["max_prefill_remaining"], 60000)
        self.assertEqual(frame["kv_used"], 16000)
        self.assertTrue(frame["caps_complete"])

    def test_sender_never_raises_without_a_listener(self):
        tmp = tempfile.mkdtemp(prefix="kvr-hook-")
        try:
            sender = kvroute_push.PushSender("unix:" + os.path.join(tmp, "absent.sock"))
            self.assertFalse(sender.send(kvroute_push.build_frame("http://e", 1, 0)))
            self.assertEqual(sender.dropped, 1)
            sender.close()
        finally:
            shutil.rmtree(tmp)
        with self.assertRaises(ValueError):
            kvroute_push.PushSender("tcp:127.0.0.1:1")

    def test_idle_frames_repeat_busy_frames_do_not(self):
        tmp = tempfile.mkdtemp(prefix="kvr-hook-")
        path = os.path.join(tmp, "sink.sock")
        sink = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sink.bind(path)
        sink.settimeout(2)
        clock = _CountingTime()
        kvroute_push.time = clock
        sender = kvroute_push.PushSender("unix:" + path, idle_ms=40)
        try:
            sender.send(kvroute_push.build_frame("http://e", 0, 0, seq=sender.next_seq()))
            frames = [msgpack.unpackb(sink.recv(2048)) for _ in range(4)]
            self.assertEqual([f["running"] for f in frames], [0, 0, 0, 0])
            seqs = [f["seq"] for f in frames]
            self.assertEqual(seqs, sorted(set(seqs)), "each repeat is a new frame")
            self.assertGreater(frames[-1]["ts_ns"], frames[0]["ts_ns"], "repeats carry a fresh time")
            started = clock.sleeps
            sender.send(kvroute_push.build_frame("http://e", 3, 1, seq=sender.next_seq()))
            # Each nap the repeater starts follows a look at the last frame:
            # five of them after the busy frame span two idle periods.
            self.assertTrue(clock.wait_sleeps(started + 6, timeout=10), "the repeater stopped looking")
            sink.setblocking(False)
            rest = []
            while True:
                try:
                    rest.append(msgpack.unpackb(sink.recv(2048)))
                except BlockingIOError:
                    break
            self.assertEqual([f["running"] for f in rest if f["running"]], [3],
                             "a busy frame is sent once, never repeated")
            self.assertEqual(rest[-1]["running"], 3)
        finally:
            kvroute_push.time = time
            sender.close()
            sink.close()
            shutil.rmtree(tmp)

    def test_subclasses_vllm_base_even_with_new_abstract_hooks(self):
        """With a stand-in vllm.v1.metrics.loggers, the logger is a StatLoggerBase."""
        import abc
        import importlib
        import types

        class StatLoggerBase(abc.ABC):
            @abc.abstractmethod
            def __init__(self, vllm_config, engine_index=0): ...

            @abc.abstractmethod
            def record(self, scheduler_stats, iteration_stats, engine_idx=0): ...

            @abc.abstractmethod
            def log_engine_initialized(self): ...

            @abc.abstractmethod
            def record_sleep_state(self, sleep, level): ...  # a hook from a later release

        names = ["vllm", "vllm.v1", "vllm.v1.metrics", "vllm.v1.metrics.loggers"]
        saved = {n: sys.modules.get(n) for n in names}
        for n in names:
            sys.modules[n] = types.ModuleType(n)
        sys.modules["vllm.v1.metrics.loggers"].StatLoggerBase = StatLoggerBase
        try:
            module = importlib.reload(kvroute_push)
            sender = CaptureSender()
            logger = module.KvrouteStatLogger(vllm_config(), 0, engine_id="http://e", sender=sender,
                                              rank_table=module._RankTable())
            self.assertIsInstance(logger, StatLoggerBase)
            logger.record_sleep_state(1, 1)
            logger.record(scheduler_stats(2, 1, 0.5), None, 0)
            self.assertEqual(sender.frames[-1]["running"], 2)
        finally:
            for n in names:
                if saved[n] is None:
                    sys.modules.pop(n, None)
                else:
                    sys.modules[n] = saved[n]
            importlib.reload(kvroute_push)

    def test_oversized_frame_refused(self):
        with self.assertRaises(ValueError):
            kvroute_push.encode_frame(kvroute_push.build_frame("http://" + "x" * 2000, 1, 1))


def run_probe_sink(path, count):
    proc = subprocess.Popen([PROBE, "--socket", path, "--count", str(count), "--timeout-ms", "5000"],
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if json.loads(line).get("ready") is not True:
        proc.kill()
        raise AssertionError("push-probe did not start: %r" % line)
    return proc


@unittest.skipUnless(PROBE, "KVR_BIN_KVR_PUSH_PROBE not set")
class CDecoderTest(unittest.TestCase):
    def test_hook_frames_pass_the_c_decoder(self):
        tmp = tempfile.mkdtemp(prefix="kvr-hook-")
        path = os.path.join(tmp, "push.sock")
        proc = run_probe_sink(path, 3)
        try:
            sender = kvroute_push.PushSender("unix:" + path)
            logger = kvroute_push.KvrouteStatLogger(vllm_config(), 0, engine_id="http://10.1.2.3:8000",
                                                    sender=sender,
                                                    rank_table=kvroute_push._RankTable())
            logger.record(scheduler_stats(38, 116, 0.93), None)
            scheduler = SimpleNamespace(
                running=[SimpleNamespace(num_prompt_tokens=100000, num_computed_tokens=8192)],
                waiting=[], max_num_running_reqs=48,
                cache_config=SimpleNamespace(num_gpu_blocks=10000, block_size=16))
            sender.send(kvroute_push.scheduler_frame(scheduler, scheduler_stats(1, 0, 0.25),
                                                     "http://10.1.2.3:8000", sender.next_seq()))
            sender.send(kvroute_push.build_frame("http://10.1.2.3:8000", 0, 0, utilization=0.5))
            sender.close()
            out, _ = proc.communicate(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            shutil.rmtree(tmp)
        self.assertEqual(proc.returncode, 0)
        frames = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(len(frames), 3)
        first, second, third = frames
        self.assertEqual(first["rc"], 0, first)
        self.assertEqual(first["engine"], "http://10.1.2.3:8000")
        self.assertEqual((first["running"], first["waiting"], first["max_running"]), (38, 116, 64))
        self.assertAlmostEqual(first["kv_usage"], 0.93)
        self.assertEqual(first["kv_capacity"], 16000)
        self.assertTrue(first["caps_complete"])
        self.assertFalse(first["has_pending_prefill"])
        self.assertTrue(first["has_seq"])
        self.assertLess(abs(first["ts_ns"] - time.time_ns()), 60 * 10**9)
        self.assertEqual(second["rc"], 0, second)
        self.assertTrue(second["has_pending_prefill"])
        self.assertEqual(second["pending_prefill"], 91808)
        self.assertEqual(second["max_prefill_remaining"], 91808)
        self.assertEqual(second["kv_used"], 40000)
        self.assertEqual(third["rc"], 0, third)
        self.assertTrue(third["has_utilization"])
        self.assertEqual(third["utilization"], 0.5)


def free_port():
    port = kvrbench.tool.free_ports(1)
    if port is None:
        raise RuntimeError("no free port")
    return port


def find_engine(doc, engine_id):
    """The object in a JSON document that names engine_id (dump formats may nest)."""
    if isinstance(doc, dict):
        if engine_id in doc.values():
            return doc
        children = doc.values()
    elif isinstance(doc, list):
        children = doc
    else:
        return None
    for child in children:
        found = find_engine(child, engine_id)
        if found is not None:
            return found
    return None


@unittest.skipUnless(PROBE and STATEFEED, "statefeed or push-probe not built")
class LiveStatefeedTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="kvr-hook-")
        self.sock = os.path.join(self.tmp, "push.sock")
        self.shm = "/kvr-hook-test-%d" % os.getpid()
        self.engine = "http://127.0.0.1:%d" % free_port()
        self.log = open(os.path.join(self.tmp, "statefeed.log"), "w+")
        self.feed = subprocess.Popen(
            [STATEFEED, "--shm", self.shm, "--engine", self.engine + ",kind=push",
             "--push-socket", self.sock, "--period-ms", "20", "--push-max-age-ms", "2000",
             "--log-level", "info"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while not os.path.exists(self.sock):
            if self.feed.poll() is not None or time.monotonic() > deadline:
                self.fail("statefeed did not bind its push socket:\n" + self.feed_log())
            time.sleep(0.02)

    def tearDown(self):
        if self.feed.poll() is None:
            self.feed.send_signal(signal.SIGTERM)
            try:
                self.feed.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.feed.kill()
                self.feed.wait()
        self.log.close()
        try:
            os.unlink("/dev/shm" + self.shm)
        except OSError:
            pass
        shutil.rmtree(self.tmp)

    def feed_log(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()[-4000:]

    def read_slot(self):
        result = subprocess.run([PROBE, "--shm", self.shm, "--engine", self.engine],
                                capture_output=True, text=True, timeout=5)
        return json.loads(result.stdout) if result.returncode == 0 else None

    def send_until(self, send, accept, what):
        """Sends every 20 ms (as a busy engine would) until the slot satisfies accept."""
        deadline = time.monotonic() + 10
        slot = None
        while time.monotonic() < deadline:
            send()
            slot = self.read_slot()
            if slot is not None and accept(slot):
                return slot
            time.sleep(0.02)
        self.fail("%s never reached the slot; last %r\n%s" % (what, slot, self.feed_log()))

    def test_pushed_values_land_in_the_segment(self):
        sender = kvroute_push.PushSender("unix:" + self.sock)
        logger = kvroute_push.KvrouteStatLogger(vllm_config(max_num_seqs=48), 0,
                                                engine_id=self.engine, sender=sender,
                                                rank_table=kvroute_push._RankTable())
        slot = self.send_until(lambda: logger.record(scheduler_stats(38, 116, 0.9), None),
                               lambda s: s["running"] == 38, "stat-logger frame")
        self.assertEqual(slot["source"], "push")
        self.assertTrue(slot["healthy"])
        self.assertEqual(slot["waiting"], 116)
        self.assertEqual(slot["max_running"], 48)
        self.assertTrue(slot["caps_complete"])
        self.assertAlmostEqual(slot["kv_usage"], 0.9)
        self.assertEqual(slot["kv_capacity"], 16000)
        self.assertEqual(slot["kv_used"], 14400)
        self.assertFalse(slot["has_pending_prefill"])
        self.assertLess(slot["age_ns"], 2 * 10**9)

        if SHM_TOOL:
            dump = subprocess.run([SHM_TOOL, "dump", self.shm, "--json"], capture_output=True,
                                  text=True, timeout=5)
            self.assertEqual(dump.returncode, 0, dump.stderr)
            entry = find_engine(json.loads(dump.stdout), self.engine)
            self.assertIsNotNone(entry, "kvroute-shm dump lists the engine: " + dump.stdout[:2000])
            expected = {"source": "push", "healthy": True, "caps_complete": True, "running": 38,
                        "waiting": 116, "max_running": 48, "dp_ranks": 1,
                        "kv_tokens_used": 14400, "kv_tokens_capacity": 16000,
                        "pending_prefill_tokens": None}  # not measured: shown as null
            for key, want in expected.items():
                self.assertEqual(entry.get(key), want, "kvroute-shm dump: %s in %r" % (key, entry))
            self.assertAlmostEqual(entry["kv_usage"], 0.9)

        def req(prompt, computed):
            return SimpleNamespace(num_prompt_tokens=prompt, num_computed_tokens=computed)
        scheduler = SimpleNamespace(running=[req(100000, 20000)], waiting=[req(4000, 0)],
                                    max_num_running_reqs=48,
                                    cache_config=SimpleNamespace(num_gpu_blocks=1000, block_size=16),
                                    kv_cache_manager=SimpleNamespace(usage=0.25))
        slot = self.send_until(
            lambda: sender.send(kvroute_push.scheduler_frame(scheduler, None, self.engine,
                                                             sender.next_seq())),
            lambda s: s["has_pending_prefill"], "engine-core probe frame")
        self.assertEqual(slot["pending_prefill"], 84000)
        self.assertEqual(slot["max_prefill_remaining"], 80000)
        self.assertEqual((slot["running"], slot["waiting"]), (1, 1))
        sender.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
