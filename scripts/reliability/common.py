"""Shared helpers of the reliability checks: starting the upstream simulator and the gateway,
plain-socket HTTP, and reading a process's memory and descriptors from /proc.

Every check prints progress to stderr and one verdict line to stdout:
    <check>: PASS|FAIL  key=value ...
and exits 0 on PASS, 1 on FAIL.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def verdict(check, passed, **figures):
    """Prints the one-line verdict and exits with its status."""
    fields = " ".join(f"{key}={value}" for key, value in figures.items())
    print(f"{check}: {'PASS' if passed else 'FAIL'}  {fields}", flush=True)
    sys.exit(0 if passed else 1)


def gateway_binary():
    """$GATEWAY_BIN, else the release build (built here when missing)."""
    binary = os.environ.get("GATEWAY_BIN")
    if binary:
        return binary
    scratch = os.environ.get("RELIABILITY_SCRATCH", os.path.join(ROOT, ".build-reliability-release"))
    binary = os.path.join(scratch, "release", "gateway")
    if not os.path.exists(binary):
        log(f"building the release gateway into {scratch}")
        subprocess.run(["swift", "build", "-c", "release", "--product", "gateway", "--scratch-path", scratch],
                       cwd=ROOT, check=True, stdout=sys.stderr)
    return binary


def simulator_binary():
    """$UPSTREAM_SIM_BIN, else /tmp/upstream-sim, built from ../shared/bench when missing."""
    binary = os.environ.get("UPSTREAM_SIM_BIN", "/tmp/upstream-sim")
    if not os.path.exists(binary):
        source = os.environ.get("UPSTREAM_SIM_SOURCE", os.path.join(ROOT, "..", "shared", "bench", "upstream-sim"))
        log(f"building the upstream simulator from {source}")
        subprocess.run(["go", "build", "-o", binary, "main.go"], cwd=source, check=True, stdout=sys.stderr)
    return binary


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Simulator:
    """The benchmark's upstream simulator on a free loopback port."""

    def __init__(self):
        self.process = subprocess.Popen([simulator_binary(), "-addr", "127.0.0.1:0"], stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        first = self.process.stdout.readline()
        self.url = first.strip().rsplit(" ", 1)[-1]
        self.environment = {
            "UPSTREAM_DECK_URL": self.url + "/deck/api/deck",
            "UPSTREAM_SWAPI_URL": self.url + "/swapi/api",
            "UPSTREAM_MENU_URL": self.url + "/menu",
        }

    def configure(self, rules):
        return post_json(self.url + "/__sim/config", rules)

    def reset(self):
        return post_json(self.url + "/__sim/reset", None)

    def stats(self):
        with urllib.request.urlopen(self.url + "/__sim/stats", timeout=10) as response:
            return json.load(response)

    def stop(self):
        stop_process(self.process)


class Gateway:
    """The gateway executable on a free loopback port, in front of `environment`'s upstreams
    (or its own demo upstreams with `demo=True`). It stops at once on SIGTERM (no shutdown
    delay) unless `extra` sets SHUTDOWN_DELAY_MS."""

    def __init__(self, environment=None, demo=False, extra=None, log_path=None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ)
        env.update(environment or {})
        env.update({"PORT": str(self.port), "HOST": "127.0.0.1", "LOG_LEVEL": env.get("GATEWAY_LOG_LEVEL", "warning"),
                    "SHUTDOWN_DELAY_MS": "0"})
        env.update(extra or {})
        arguments = [gateway_binary()] + (["--demo"] if demo else [])
        self.log = open(log_path or os.devnull, "w")
        self.process = subprocess.Popen(arguments, env=env, stdout=self.log, stderr=self.log, start_new_session=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gateway exited at start with {self.process.returncode}")
            try:
                status, _, _ = http_get(self.port, "/healthz", timeout=1)
                if status == 200:
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("gateway did not answer /healthz within 60 s")

    @property
    def pid(self):
        return self.process.pid

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        code = stop_process(self.process)
        self.log.close()
        return code


def stop_process(process, grace=10):
    """SIGTERM, then SIGKILL after `grace` seconds; returns the exit code."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return process.returncode


def post_json(url, value):
    data = b"" if value is None else json.dumps(value).encode()
    request = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read()


def http_get(port, target, headers=None, timeout=10, source=None):
    """One GET on a fresh connection (from the loopback address `source`, such as 127.0.0.3, to
    be another client): (status, headers dict lower-cased, body bytes)."""
    local = (source, 0) if source else None
    with socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=local) as connection:
        lines = [f"GET {target} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        received = bytearray()
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
    return parse_response(bytes(received))


def parse_response(data):
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) < 2 or not parts[0].startswith("HTTP/"):
        raise ValueError(f"not an HTTP response: {lines[0]!r}")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        length = int(headers["content-length"])
        if len(body) < length:
            raise ValueError(f"body cut short: {len(body)} of {length} bytes")
        body = body[:length]
    return int(parts[1]), headers, body


def rss_mib(pid, field="VmRSS"):
    """Resident set of a process, in MiB; field="RssAnon" gives its anonymous part (heap, stacks)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def open_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def thread_count(pid):
    return len(os.listdir(f"/proc/{pid}/task"))


def raise_file_limit(wanted=20000):
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(wanted, hard) if hard != resource.RLIM_INFINITY else wanted
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def percentile(values, fraction):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def slope(points):
    """Least-squares slope of (x, y) points."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    denominator = sum((x - mean_x) ** 2 for x, _ in points)
    if denominator == 0:
        return 0.0
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / denominator
