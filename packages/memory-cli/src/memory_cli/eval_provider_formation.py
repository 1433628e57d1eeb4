"""``agent eval memory-formation --provider ...``: provider formation evidence.

``agent eval memory-formation --provider openai-compatible --model M [--base-url URL]
--output PATH`` scores provider formation (formation@8) on the case file and publishes the
evidence artifact only when gate 20 holds. The run's JSON goes to stdout, diagnostics to
stderr. Exit 0 when the run passed (and published, with ``--output``), 1 when it did not
(nothing written), 2 for usage errors, including an existing ``--output`` target, which is
refused before any model call.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from memory_core.errors import UsageError

PROVIDERS = ("openai-compatible",)


def add_provider_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the provider-evidence options to ``agent eval memory-formation``."""
    group = parser.add_argument_group(
        "provider formation evidence",
        "score provider-assisted formation instead, and publish its evidence when gate 20 holds",
    )
    group.add_argument(
        "--provider",
        choices=PROVIDERS,
        default=None,
        help="score provider formation through this model provider",
    )
    group.add_argument("--model", default=None, help="model identifier (default: MEMORY_MODEL)")
    group.add_argument(
        "--base-url",
        default=None,
        help="chat-completions base URL (default: MEMORY_MODEL_BASE_URL, else OpenAI)",
    )
    group.add_argument(
        "--output",
        type=Path,
        default=None,
        help=(
            "evidence directory (or the exact derived file name) to publish to; an existing "
            "file is never overwritten"
        ),
    )
    group.add_argument(
        "--timeout", type=float, default=60.0, help="seconds per model request (default 60)"
    )
    group.add_argument(
        "--max-retries",
        type=int,
        default=2,
        help="retries of a transient model failure (429, 5xx, timeout; default 2)",
    )


def wants_provider(args: argparse.Namespace) -> bool:
    """True when any provider-evidence option was given."""
    return any(
        getattr(args, name) is not None for name in ("provider", "output", "model", "base_url")
    )


def run_provider(args: argparse.Namespace) -> int:
    """Handle the ``--provider`` path; returns the exit status."""
    from memory_bench.formation_eval import default_case_path, load_formation_cases
    from memory_bench.provider_evidence import diagnostics, run_provider_formation
    from memory_core.clock import SystemClock
    from memory_core.runtime.openai_compat import OpenAICompatibleModel

    if args.provider is None:
        raise UsageError(
            "--output, --model and --base-url belong to provider formation; add "
            "--provider openai-compatible"
        )
    loaded = load_formation_cases(args.cases if args.cases is not None else default_case_path())
    model = OpenAICompatibleModel(
        model=args.model,
        base_url=args.base_url,
        timeout_seconds=args.timeout,
        max_retries=args.max_retries,
    )
    try:
        run = run_provider_formation(loaded, model=model, clock=SystemClock(), output=args.output)
    finally:
        model.close()
    sys.stdout.write(run.model_dump_json(indent=2) + "\n")
    sys.stdout.flush()
    console = Console(stderr=True, highlight=False, soft_wrap=True)
    for line in diagnostics(run):
        console.print(line, markup=False)
    return 0 if run.passed else 1


__all__ = ["PROVIDERS", "add_provider_arguments", "run_provider", "wants_provider"]
