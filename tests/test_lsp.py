"""``parallelcheck lsp`` driven over standard input and output as an editor drives it.

The server is spawned as a process and spoken to in LSP's framing (``Content-Length``
headers, JSON-RPC): ``initialize`` (it answers with its name and that it wants ``didSave``
notifications), ``initialized``, ``textDocument/didOpen`` of the Japanese version of an
article whose table it dropped — the server publishes diagnostics for both versions of the
article: in ja.md a ``missing-table`` error at the line of the table's place, with en.md's
table line as related information; en.md an empty list — then the table is put back on disk
and ``textDocument/didSave`` makes it publish empty lists; a README that is no article gets
no diagnostics; ``shutdown`` and ``exit`` end the process with status 0.

Skipped when pygls (the ``lsp`` extra, in the ``test`` extra) is not installed, except under
CI, where that is a failure.
"""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

EN = """\
# Options

Run the tool on the folder of your articles.

| Option | Default |
| --- | --- |
| `--jobs` | 0 |
"""

JA = """\
# オプション

記事のフォルダーに対してツールを実行します。

| オプション | 既定値 |
| --- | --- |
| `--jobs` | 0 |
"""
JA_WITHOUT_TABLE = JA.split("\n| ")[0].rstrip() + "\n"
TIMEOUT = 60


class Client:
    """An editor's side of the conversation: frames written to the server's standard
    input, frames read from its standard output by a thread into a queue."""

    def __init__(self, cwd: Path):
        env = {**os.environ, "PARALLELCHECK_CACHE_DIR": str(cwd / ".cache")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "parallelcheck", "lsp", "--stdio"],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.messages: queue.Queue[dict] = queue.Queue()
        self.next_id = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while (line := stream.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if line == b"" or length is None:
                return
            self.messages.put(json.loads(stream.read(length)))

    def send(self, method: str, params: dict | None = None, *, request: bool = False) -> int:
        message: dict = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()
        return self.next_id

    def receive(self, wanted) -> dict:
        """The next message ``wanted(message)`` accepts (others are passed over)."""
        while True:
            try:
                message = self.messages.get(timeout=TIMEOUT)
            except queue.Empty:
                stderr = self.process.stderr.read1().decode(errors="replace")  # type: ignore[attr-defined]
                raise AssertionError(f"no message from the server; its stderr: {stderr}") from None
            if wanted(message):
                return message

    def response(self, request_id: int) -> dict:
        return self.receive(lambda m: m.get("id") == request_id and "method" not in m)

    def diagnostics(self, uris: set[str]) -> dict[str, list[dict]]:
        """The next publishDiagnostics of each of ``uris``."""
        found: dict[str, list[dict]] = {}
        while set(found) != uris:
            message = self.receive(lambda m: m.get("method") == "textDocument/publishDiagnostics")
            found[message["params"]["uri"]] = message["params"]["diagnostics"]
        return found


@pytest.fixture
def project(tmp_path: Path) -> Path:
    guide = tmp_path / "articles" / "guide"
    guide.mkdir(parents=True)
    (guide / "en.md").write_text(EN, encoding="utf-8")
    (guide / "ja.md").write_text(JA_WITHOUT_TABLE, encoding="utf-8")
    (tmp_path / "README.md").write_text("# Not an article\n", encoding="utf-8")
    return tmp_path


def _document(path: Path, language: str = "markdown") -> dict:
    return {
        "textDocument": {
            "uri": path.as_uri(),
            "languageId": language,
            "version": 1,
            "text": path.read_text(encoding="utf-8"),
        }
    }


def test_the_server_publishes_an_articles_findings_on_open_and_on_save(project: Path) -> None:
    if importlib.util.find_spec("pygls") is None:
        if os.environ.get("CI"):
            pytest.fail("pygls is not installed; the test extra installs it (the lsp extra)")
        pytest.skip("pygls is not installed (pip install '.[lsp]')")
    en, ja = project / "articles/guide/en.md", project / "articles/guide/ja.md"
    client = Client(project)
    try:
        init = client.send(
            "initialize",
            {"processId": os.getpid(), "rootUri": project.as_uri(), "capabilities": {}},
            request=True,
        )
        result = client.response(init)["result"]
        assert result["serverInfo"]["name"] == "parallelcheck"
        sync = result["capabilities"]["textDocumentSync"]
        assert sync["openClose"] and sync["save"] is not None
        client.send("initialized", {})

        # 1. ja.md, without its table, is opened: both versions get their diagnostics
        client.send("textDocument/didOpen", _document(ja))
        published = client.diagnostics({en.as_uri(), ja.as_uri()})
        assert published[en.as_uri()] == []
        (table,) = published[ja.as_uri()]
        assert table["code"] == "missing-table" and table["source"] == "parallelcheck"
        assert table["severity"] == 1  # error
        assert "table" in table["message"]
        # ja.md's last line, where the table would follow; en.md's table starts at line 5
        assert table["range"]["start"] == {"line": 2, "character": 0}
        (related,) = table["relatedInformation"]
        assert related["location"]["uri"] == en.as_uri()
        assert related["location"]["range"]["start"] == {"line": 4, "character": 0}
        assert related["message"] == "en: reference version"

        # 2. The table is put back and ja.md saved: the finding is gone from both files
        ja.write_text(JA, encoding="utf-8")
        client.send("textDocument/didSave", {"textDocument": {"uri": ja.as_uri()}})
        assert client.diagnostics({en.as_uri(), ja.as_uri()}) == {
            en.as_uri(): [],
            ja.as_uri(): [],
        }

        # 3. A file of no article: nothing is published for it, the server goes on
        client.send("textDocument/didOpen", _document(project / "README.md"))
        ping = client.send("shutdown", None, request=True)
        assert client.response(ping)["result"] is None
        client.send("exit")
        assert client.process.wait(timeout=TIMEOUT) == 0
        client.reader.join(TIMEOUT)  # every message the server wrote is in the queue
    finally:
        if client.process.poll() is None:
            client.process.kill()
            client.process.wait()
    left = list(client.messages.queue)
    assert not [m for m in left if m.get("method") == "textDocument/publishDiagnostics"], left


def test_each_deviating_version_gets_the_finding_with_the_others_related(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shipped article: ko and zh-Hant both hold a table the source en (and ja) lack.
    Each of ko.md and zh-Hant.md gets the finding at its own line; its related information
    is the other deviating version and the two reference versions, each at its own line."""
    pytest.importorskip("pygls")
    from conftest import REPO

    monkeypatch.setenv("PARALLELCHECK_CACHE_DIR", str(tmp_path))
    from parallelcheck.lsp import check_article_of, diagnostics

    folder = REPO / "articles" / "deepinfer-vs-lmdeploy"
    files, findings = check_article_of(str(folder / "ja.md"), str(REPO))
    uri = {lang: (folder / f"{lang}.md").as_uri() for lang in ("en", "ja", "ko", "zh-Hant")}
    assert files == {"deepinfer-vs-lmdeploy": set(uri.values())}
    published = diagnostics(findings, str(REPO))
    assert sum(len(d) for d in published.values()) == sum(
        len(f.shown_and_related()[0]) for f in findings
    )
    table_in = {
        lang: next(d for d in published[uri[lang]] if d.code == "missing-table")
        for lang in ("ko", "zh-Hant")
    }
    assert not any(d.code == "missing-table" for d in published.get(uri["en"], []))
    assert table_in["zh-Hant"].range.start.line == 28  # line 29
    related = [(r.location.uri, r.message) for r in table_in["zh-Hant"].related_information]
    assert related == [
        (uri["ko"], "ko: deviating version"),
        (uri["en"], "en: reference version"),
        (uri["ja"], "ja: reference version"),
    ]
    assert [r.location.range.start.line for r in table_in["zh-Hant"].related_information] == [
        28,
        24,
        24,
    ]
    assert table_in["ko"].related_information[0].message == "zh-Hant: deviating version"


def test_without_pygls_the_command_says_which_extra_to_install(monkeypatch) -> None:
    from click.testing import CliRunner

    from parallelcheck.cli import cli

    for name in [m for m in sys.modules if m == "parallelcheck.lsp" or m.startswith("pygls.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pygls", None)  # as if not installed
    result = CliRunner().invoke(cli, ["lsp"])
    assert result.exit_code == 2
    assert "pip install 'parallelcheck[lsp]'" in result.stderr
    assert "the language server needs the lsp extra" in result.stderr and "pygls" in result.stderr
