"""``vira host --tls-cert --tls-key`` serves wss://: a client trusting the host's self-signed
certificate (``--cafile``) plays a session through it; one that does not trust it, or speaks
plain ws:// to it, is not let in. The certificate is made here with ``openssl req -x509``
(skipped, saying so, where there is no ``openssl``). Loopback only, every wait bounded.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.hosts import free_port, start_host, stop
from vira_desktop.cli import main


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost, and its key (EC P-256, a day)."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl on PATH to make a test certificate with")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    return cert, key


def test_a_host_serving_wss_plays_a_session_with_a_client_that_trusts_its_certificate(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    port = free_port()
    args = ["--players", "3", "--humans", "1", "--deals", "1", "--once", "--no-save", "--deal-pause", "0"]
    args += ["--bot-pause", "0", "--seed", "4", "--bots", "random", "--tls-cert", str(cert), "--tls-key", str(key)]
    host = start_host(args, port, tmp_path / "host.log")
    join = ["--name", "Anna", "--bot", "random", "--reconnect", "0"]
    try:
        untrusted = main(["join", f"wss://127.0.0.1:{port}/", "--name", "Eve", "--reconnect", "0"])
        plain = main(["join", f"127.0.0.1:{port}", "--name", "Eve", "--reconnect", "0"])
        dump = tmp_path / "Anna.jsonl"
        code = main(["join", f"127.0.0.1:{port}", "--cafile", str(cert), "--dump", str(dump), *join])
        assert host.wait(20) == 0
    finally:
        stop(host)
    log = (tmp_path / "host.log").read_text(encoding="utf-8")
    assert (untrusted, plain, code) == (1, 1, 0), log
    assert "listening on wss://" in log and "Eve" not in log
    lines = dump.read_text(encoding="utf-8").splitlines()
    assert '"type":"welcome"' in lines[0] and '"type":"bye"' in lines[-1]


def test_a_certificate_without_its_key_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["host", "--tls-cert", str(tmp_path / "cert.pem"), "--no-save"]) == 2
    assert "--tls-cert and --tls-key go together" in capsys.readouterr().err
