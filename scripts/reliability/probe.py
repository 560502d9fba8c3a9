"""A paced, well-behaved client: a few threads, each on its own keep-alive connection, sending
GETs at a steady rate and recording every request's latency and outcome. Used by the checks to
measure what a normal client sees while something hostile goes on."""
import socket
import threading
import time

from common import parse_response


class Probe:
    def __init__(self, port, targets, threads=4, interval=0.02, timeout=5):
        self.port = port
        self.targets = targets
        self.threads = threads
        self.interval = interval
        self.timeout = timeout
        self.latencies = []
        self.failures = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._workers = []

    def start(self):
        for index in range(self.threads):
            worker = threading.Thread(target=self._run, args=(index,), daemon=True)
            worker.start()
            self._workers.append(worker)
        return self

    def stop(self):
        self._stop.set()
        for worker in self._workers:
            worker.join(self.timeout + 5)

    def run_for(self, seconds):
        self.start()
        time.sleep(seconds)
        self.stop()
        return self

    @property
    def total(self):
        return len(self.latencies) + len(self.failures)

    @property
    def success_rate(self):
        return 100.0 * len(self.latencies) / self.total if self.total else 0.0

    def _run(self, index):
        connection = None
        buffer = b""
        count = 0
        while not self._stop.is_set():
            target = self.targets[(index + count) % len(self.targets)]
            count += 1
            started = time.perf_counter()
            try:
                if connection is None:
                    connection = socket.create_connection(("127.0.0.1", self.port), timeout=self.timeout)
                    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    buffer = b""
                connection.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                status, headers, buffer = self._read(connection, buffer)
                elapsed = time.perf_counter() - started
                with self._lock:
                    if 200 <= status < 300:
                        self.latencies.append(elapsed)
                    else:
                        self.failures.append(f"status {status}")
                if headers.get("connection", "").lower() == "close":
                    connection.close()
                    connection = None
            except (OSError, ValueError) as error:
                with self._lock:
                    self.failures.append(type(error).__name__ + ": " + str(error))
                if connection is not None:
                    connection.close()
                connection = None
            pause = self.interval - (time.perf_counter() - started)
            if pause > 0:
                self._stop.wait(pause)
        if connection is not None:
            connection.close()

    @staticmethod
    def _read(connection, buffer):
        while b"\r\n\r\n" not in buffer:
            chunk = connection.recv(65536)
            if not chunk:
                raise ConnectionError("closed before the response head")
            buffer += chunk
        head, _, rest = buffer.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(rest) < length:
            chunk = connection.recv(65536)
            if not chunk:
                raise ConnectionError("closed mid-body")
            rest += chunk
        status, headers, _ = parse_response(head + b"\r\n\r\n" + rest[:length])
        return status, headers, rest[length:]
