"""Drives Debian's headless Chromium over the DevTools protocol through a pipe: no browser is
downloaded and no Python package is needed.

`--remote-debugging-pipe` makes Chromium read commands from file descriptor 3 and write replies
and events to descriptor 4, each message JSON ended by a NUL byte.

    with Chromium(width=390, height=844, scale=3) as browser:
        browser.navigate("file:///…/index.html")
        browser.wait_for("document.querySelectorAll('.card.shown').length > 0")
        browser.screenshot("shot.png")
        browser.start_trace(["benchmark", "cc"])
        events = browser.end_trace()
"""

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


class BrowserError(Exception):
    """Chromium failed, answered with an error, or a condition did not hold in time."""


class Chromium:
    """One headless Chromium with one page of `width` x `height` CSS pixels at device scale `scale`;
    with `cpus`, the browser and every process it starts run on those CPUs only."""

    def __init__(self, width=1280, height=900, scale=1, mobile=False, cpus=None):
        if not os.access(CHROMIUM, os.X_OK):
            raise BrowserError(f"{CHROMIUM} is not installed: `make test-deps` installs Debian's chromium")
        self.profile = tempfile.mkdtemp(prefix="cardbake-chromium-")
        to_browser, self._commands = os.pipe()
        self._replies, from_browser = os.pipe()
        # Above 10 so that moving them to 3 and 4 in the child cannot overwrite one another.
        child_ends = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_browser, from_browser)]
        os.close(to_browser)
        os.close(from_browser)

        def set_up_child():
            os.dup2(child_ends[0], 3)
            os.dup2(child_ends[1], 4)
            if cpus is not None:
                os.sched_setaffinity(0, cpus)

        self.process = subprocess.Popen(
            [CHROMIUM, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--mute-audio",
             "--force-color-profile=srgb", f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=False, preexec_fn=set_up_child)
        for fd in child_ends:
            os.close(fd)
        self._buffer = b""
        self._next_id = 0
        self.events = []
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.page("Page.enable")
        self.page("Runtime.enable")
        self.page("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def close(self):
        """Ends the browser and removes its profile."""
        if self.process.poll() is None:
            try:
                self.send("Browser.close")
            except BrowserError:
                pass
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for fd in (self._commands, self._replies):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def send(self, method, params=None, session=None, timeout=120):
        """Sends one command and returns its result; events that arrive meanwhile are kept."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            self.events.append(reply)

    def page(self, method, params=None, timeout=120):
        """A command to the page's session."""
        return self.send(method, params, session=self.session, timeout=timeout)

    def _read(self, deadline):
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self._replies], [], [], remaining)[0]:
                raise BrowserError("Chromium did not answer in time")
            chunk = os.read(self._replies, 1 << 16)
            if not chunk:
                raise BrowserError(f"Chromium exited (status {self.process.poll()})")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def navigate(self, url, timeout=60):
        """Loads `url` and waits for its load event."""
        self.events.clear()
        self.page("Page.navigate", {"url": url})
        self._wait_for_event("Page.loadEventFired", timeout)

    def _wait_for_event(self, method, timeout):
        """Reads messages into `events` until one is the event `method`."""
        deadline = time.monotonic() + timeout
        while not any(event.get("method") == method for event in self.events):
            self.events.append(self._read(deadline))

    def start_trace(self, categories):
        """Starts recording the browser's trace events of `categories` (Chromium's trace categories)."""
        self.send("Tracing.start", {"traceConfig": {"includedCategories": list(categories),
                                                    "excludedCategories": ["*"]},
                                    "transferMode": "ReportEvents"})

    def end_trace(self, timeout=60):
        """Stops the trace started by start_trace; returns its events (Chrome's JSON trace event format)."""
        self.send("Tracing.end")
        self._wait_for_event("Tracing.tracingComplete", timeout)
        collected = [event for event in self.events if event.get("method") == "Tracing.dataCollected"]
        self.events = [event for event in self.events
                       if event.get("method") not in ("Tracing.dataCollected", "Tracing.tracingComplete")]
        return [trace_event for event in collected for trace_event in event["params"]["value"]]

    def evaluate(self, expression, timeout=120):
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.page("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True}, timeout=timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise BrowserError(f"{expression}: {details.get('exception', {}).get('description') or details.get('text')}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout=60):
        """Waits until `expression` is truthy in the page, checking ten times a second."""
        deadline = time.monotonic() + timeout
        while not self._holds(expression):
            if time.monotonic() > deadline:
                raise BrowserError(f"still false after {timeout} s: {expression}")
            time.sleep(0.1)

    def _holds(self, expression):
        """Whether `expression` is truthy; false while the page is between documents (a reload)."""
        try:
            return self.evaluate(expression)
        except BrowserError:
            return False

    def screenshot(self, path):
        """Writes a PNG of the viewport to `path`."""
        data = self.page("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))
