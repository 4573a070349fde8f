"""A headless Chromium driven over the DevTools protocol, for the html report's tests and bench.

Chromium is started with ``--remote-debugging-pipe``: it reads protocol commands on file
descriptor 3 and writes responses and events on 4, each message a JSON text ended by a NUL
byte — so no port is opened and nothing but the standard library is needed.  A test opens a
page (:meth:`Browser.open`), acts on it as a user does — real mouse clicks, wheel turns and
typed text, dispatched as input events (:meth:`Browser.click`, :meth:`Browser.scroll`,
:meth:`Browser.type`) — and then reads the page's state with a JavaScript expression
(:meth:`Browser.evaluate`) or a screenshot (:meth:`Browser.screenshot`).

The browser is Debian's ``/usr/bin/chromium`` (``apt-get install chromium``), or the first
``chromium`` on the PATH.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--font-render-hinting=none",
]
#: How long one protocol command may take, in seconds.
TIMEOUT = 60.0


def find_chromium() -> str | None:
    return CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")


class BrowserError(RuntimeError):
    pass


class Browser:
    """One headless Chromium with one page (a tab) of *width* × *height* CSS pixels."""

    def __init__(self, profile: Path, width: int = 1280, height: int = 800) -> None:
        executable = find_chromium()
        if executable is None:
            raise BrowserError("chromium is not installed")
        profile.mkdir(parents=True, exist_ok=True)
        to_browser, from_us = os.pipe()
        to_us, from_browser = os.pipe()
        # Out of the way of 3 and 4, which the child gets them as.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_browser, from_browser)]
        for fd in (to_browser, from_browser):
            os.close(fd)

        def descriptors() -> None:
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.process = subprocess.Popen(
            [
                executable,
                *FLAGS,
                "--remote-debugging-pipe",
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=descriptors,
        )
        for fd in high:
            os.close(fd)
        self._out, self._in = from_us, to_us
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.command("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.command("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.resize(width, height)

    def resize(self, width: int, height: int) -> None:
        """Make the window *width* × *height* CSS pixels."""
        self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )

    # -- the protocol -----------------------------------------------------------

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._in], [], [], left)[0]:
                raise BrowserError("chromium did not answer in time")
            chunk = os.read(self._in, 1 << 20)
            if not chunk:
                raise BrowserError("chromium closed its end of the pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def command(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        """Send a command (to the page's session when *session* is given) and wait for its
        result; events that arrive meanwhile are kept in :attr:`events`."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """A command to the page."""
        return self.command(method, self.session, **params)

    def wait_for(self, event: str) -> dict[str, Any]:
        """Wait for (and take) the page's next *event*."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            for index, seen in enumerate(self.events):
                if seen.get("method") == event and seen.get("sessionId") == self.session:
                    return self.events.pop(index)
            self.events.append(self._read_message(deadline))

    # -- what a test does -------------------------------------------------------

    def open(self, url: str) -> None:
        """Load *url* and wait until its load event has fired."""
        self.events.clear()
        self.send("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def center_of(self, selector: str) -> tuple[float, float]:
        """Where on the screen the element *selector* is, scrolled into view first."""
        box = self.evaluate(
            f"(function () {{ var el = document.querySelector({json.dumps(selector)});"
            " el.scrollIntoView({block: 'center'}); var r = el.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        return box[0], box[1]

    def click(self, selector: str) -> None:
        """A left mouse click in the middle of the element *selector*."""
        x, y = self.center_of(selector)
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def type(self, selector: str, text: str) -> None:
        """Click into the field *selector* and type *text*, one key at a time."""
        self.click(selector)
        for char in text:
            self.send("Input.dispatchKeyEvent", type="keyDown", text=char, key=char)
            self.send("Input.dispatchKeyEvent", type="keyUp", key=char)

    def scroll(self, pixels: int, x: float = 400, y: float = 400) -> None:
        """Turn the mouse wheel over (*x*, *y*) by *pixels* down, and let the page settle."""
        self.send("Input.dispatchMouseEvent", type="mouseWheel", x=x, y=y, deltaX=0, deltaY=pixels)
        self.evaluate(
            "new Promise(function (done) { requestAnimationFrame(function () {"
            " requestAnimationFrame(done); }); })"
        )

    def _holding(self, selector: str, text: str) -> str:
        """A JavaScript expression for the first element *selector* whose text holds *text*."""
        return (
            f"Array.from(document.querySelectorAll({json.dumps(selector)}))"
            f".find(function (el) {{ return el.textContent.indexOf({json.dumps(text)}) >= 0; }})"
        )

    def fonts_of(self, selector: str, text: str) -> list[str]:
        """The names of the fonts the browser drew the text of the first element *selector*
        that holds *text* with."""
        found = self.send("Runtime.evaluate", expression=self._holding(selector, text))
        object_id = found["result"].get("objectId")
        if object_id is None:
            raise BrowserError(f"no {selector} holds {text!r}")
        self.send("DOM.enable")
        self.send("CSS.enable")
        self.send("DOM.getDocument", depth=0)  # nodes get ids once the document has one
        node = self.send("DOM.requestNode", objectId=object_id)["nodeId"]
        fonts = self.send("CSS.getPlatformFontsForNode", nodeId=node)["fonts"]
        return [font["familyName"] for font in fonts]

    def screenshot_of(self, selector: str, text: str) -> bytes:
        """A PNG of the first element *selector* that holds *text*, as drawn on the screen."""
        box = self.evaluate(
            f"(function () {{ var el = {self._holding(selector, text)};"
            " el.scrollIntoView({block: 'center'}); var r = el.getBoundingClientRect();"
            " return [r.left, r.top, r.width, r.height]; })()"
        )
        return self.screenshot_area(*box)

    def screenshot_area(self, left: float, top: float, width: float, height: float) -> bytes:
        """A PNG of a rectangle of the window (CSS pixels from its top left corner)."""
        scrolled = self.evaluate("[window.scrollX, window.scrollY]")
        clip = {
            "x": left + scrolled[0],
            "y": top + scrolled[1],
            "width": width,
            "height": height,
            "scale": 1,
        }
        data = self.send("Page.captureScreenshot", format="png", clip=clip)["data"]
        return base64.b64decode(data)

    def screenshot(self, path: Path) -> bytes:
        """The visible part of the page as a PNG, also written to *path*."""
        data = base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"])
        path.write_bytes(data)
        return data

    def close(self) -> None:
        with contextlib.suppress(BrowserError):
            self.command("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._out)
        os.close(self._in)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
