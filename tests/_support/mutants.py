"""The mutation lane: targeted bugs in the gated code paths, each of which a gate test must kill.

Run it with ``nox -s mutants`` (or ``python tests/_support/mutants.py [ID ...]``). The working
tree is copied once to a temporary directory (tracked and untracked, non-ignored files); the
copy's ``packages/*/src`` and ``tests`` are put first on ``PYTHONPATH`` so every import, in the
test process and in any subprocess, reads the copy. The gate tests of every mutant are first
run unmutated (they must pass, or a kill means nothing); then each mutant is applied to the
copy alone, only its own gate tests run (``-m gate``, hypothesis seeded so a run is
reproducible), and the file is restored.

A mutant is **killed** when its tests fail, **survives** when they pass, and is an **error**
when pytest cannot run them (a mutation that no longer applies, a collection error). The lane
fails on any survivor or error. A mutant marked ``pending`` names the change that will kill it
(for example a corpus commit on another branch); it is run and reported, and counts as a
survivor only with ``--strict``.

Why hand-written mutants rather than mutmut or cosmic-ray: both generate operator-level
mutants (flip ``<`` to ``<=``, ``+1`` to ``-1``, ...) over whole modules, which over these
paths means hundreds of mutants, many equivalent, and one test command for all of them. The
audit's bugs are semantic (a deleted sub-condition, a rounding direction, a path that skips
the rejection check, a deleted hazard screen) and each belongs to one gate; a list that pairs
each realistic bug with the gate that must catch it keeps the lane small, fast and able to
demand zero survivors.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HYPOTHESIS_SEED = "20261201"
TEST_TIMEOUT_SECONDS = 900


@dataclass(frozen=True, kw_only=True)
class Edit:
    """Replace ``find`` (which must occur exactly ``count`` times) with ``replace`` in ``path``."""

    path: str
    find: str
    replace: str
    count: int = 1


@dataclass(frozen=True, kw_only=True)
class Mutant:
    """One realistic bug and the gate tests that must kill it.

    Attributes:
        id: Short stable name (``area.what``).
        gate: The gate whose tests must fail.
        description: The bug, in words.
        edits: The source edits that introduce it.
        tests: Test files or node ids to run (gate-marked tests only).
        keyword: Optional ``pytest -k`` expression narrowing ``tests``.
        pending: Why the mutant is expected to survive for now (``None`` when it must die).
    """

    id: str
    gate: str
    description: str
    edits: tuple[Edit, ...]
    tests: tuple[str, ...]
    keyword: str | None = None
    pending: str | None = None


RULES = "packages/memory-bench/src/memory_bench/corpus/_rules.py"
EVIDENCE = "packages/memory-bench/src/memory_bench/live/evidence.py"
CEILING = "packages/memory-bench/src/memory_bench/live/ceiling.py"
BASELINE = "packages/memory-bench/src/memory_bench/baseline.py"
SELECTION = "packages/memory-core/src/memory_core/formation/selection.py"
SERVICE = "packages/memory-core/src/memory_core/formation/service.py"
HAZARDS = "packages/memory-core/src/memory_core/formation/hazards/_screen.py"
STORE = "packages/memory-core/src/memory_core/stores/memory.py"
RETRIEVER = "packages/memory-core/src/memory_core/retrieval/retriever.py"
RANKING = "packages/memory-core/src/memory_core/retrieval/ranking.py"
CONTEXT = "packages/memory-core/src/memory_core/runtime/context.py"

CORPUS_TESTS = ("tests/memory_bench/corpus",)
THRESHOLD_TESTS = ("tests/memory_bench/live/test_thresholds.py",)
BENCH_GATES = ("tests/gates/test_bench_gates.py",)
FORMATION_GATES = ("tests/memory_core/formation/test_gates.py",)

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="rules.abstention_forbids_nothing",
        gate="gate.memory.bench_corpus_shape",
        description="an abstention probe that forbids nothing is accepted",
        edits=(
            Edit(
                path=RULES,
                find="            if not probe.forbidden_statements:\n                problems",
                replace="            if False:\n                problems",
            ),
        ),
        tests=CORPUS_TESTS,
    ),
    Mutant(
        id="rules.abstention_needs_beliefs",
        gate="gate.memory.bench_corpus_shape",
        description="an abstention probe that needs beliefs is accepted",
        edits=(
            Edit(
                path=RULES,
                find="            if needed:\n                problems.append",
                replace="            if False:\n                problems.append",
            ),
        ),
        tests=CORPUS_TESTS,
    ),
    Mutant(
        id="rules.multi_hop_one_belief",
        gate="gate.memory.bench_corpus_shape",
        description="a multi_hop probe needing a single belief is accepted",
        edits=(Edit(path=RULES, find="if len(needed) < 2:", replace="if len(needed) < 1:"),),
        tests=CORPUS_TESTS,
    ),
    Mutant(
        id="rules.negative_transfer_forbids_nothing",
        gate="gate.memory.bench_corpus_shape",
        description="a negative transfer probe that forbids nothing is accepted",
        edits=(
            Edit(
                path=RULES,
                find='if probe.answer.kind != "abstain" or not probe.forbidden_statements:',
                replace='if probe.answer.kind != "abstain":',
            ),
        ),
        tests=CORPUS_TESTS,
    ),
    Mutant(
        id="rules.preference_needs_nothing",
        gate="gate.memory.bench_corpus_shape",
        description="a preference probe with no needed belief passes vacuously",
        edits=(
            Edit(
                path=RULES,
                find='        case "preference":\n            if not needed:',
                replace='        case "preference":\n            if False:',
            ),
        ),
        tests=CORPUS_TESTS,
    ),
    Mutant(
        id="rules.temporal_minimum_exclusive",
        gate="gate.memory.bench_corpus_shape",
        description="a temporal belief exactly thirty days old is refused",
        edits=(
            Edit(
                path=RULES,
                find="if age < TEMPORAL_MIN_SECONDS:",
                replace="if age <= TEMPORAL_MIN_SECONDS:",
            ),
        ),
        tests=CORPUS_TESTS,
    ),
    Mutant(
        id="rules.protected_abstention_any_category",
        gate="gate.memory.bench_corpus_shape",
        description="a transfer probe forbidding a protected statement counts as abstention",
        edits=(
            Edit(
                path=RULES,
                find='        probe.category == "abstention"\n        and protected',
                replace="        protected",
            ),
        ),
        tests=CORPUS_TESTS,
    ),
    Mutant(
        id="evidence.minimum_lift_rounds_down",
        gate="gate.memory.bench_evidence_publish",
        description="minimum_lift is twenty per cent rounded down (lift 10 of 52 publishes)",
        edits=(
            Edit(
                path=EVIDENCE,
                find="return (self.answerable + 4) // 5",
                replace="return self.answerable // 5",
            ),
        ),
        tests=THRESHOLD_TESTS,
    ),
    Mutant(
        id="evidence.lift_condition_off_by_one",
        gate="gate.memory.bench_evidence_publish",
        description="a lift one short of minimum_lift publishes",
        edits=(
            Edit(
                path=EVIDENCE,
                find="if counts.lift < counts.minimum_lift:",
                replace="if counts.lift < counts.minimum_lift - 1:",
            ),
        ),
        tests=THRESHOLD_TESTS,
    ),
    Mutant(
        id="evidence.recoverable_condition_off_by_one",
        gate="gate.memory.bench_evidence_publish",
        description="recoverable_correct one short of its floor publishes",
        edits=(
            Edit(
                path=EVIDENCE,
                find="if counts.recoverable_correct < counts.minimum_recoverable_correct:",
                replace="if counts.recoverable_correct < counts.minimum_recoverable_correct - 1:",
            ),
        ),
        tests=THRESHOLD_TESTS,
    ),
    Mutant(
        id="core.eighty_per_cent_floor_rounds_down",
        gate="gate.memory.provider_positive_coverage_v2",
        description="the eighty-per-cent floor rounds down (16 of 21, 9 of 12 pass)",
        edits=(
            Edit(
                path=SELECTION,
                find="return (4 * positive_cases + 4) // 5",
                replace="return (4 * positive_cases) // 5",
            ),
        ),
        tests=(*THRESHOLD_TESTS, "tests/memory_bench/provider_evidence/test_gate20.py"),
    ),
    Mutant(
        id="gate20.one_short_publishes",
        gate="gate.memory.provider_positive_coverage_v2",
        description="provider evidence one case short of the floor is accepted",
        edits=(
            Edit(
                path=SELECTION,
                find="if evidence.fully_supported_positive < floor:",
                replace="if evidence.fully_supported_positive < floor - 1:",
            ),
        ),
        tests=("tests/memory_bench/provider_evidence/test_gate20.py",),
    ),
    Mutant(
        id="baseline.probe_rows_neutral",
        gate="gate.memory.bench_no_regression",
        description="probe rows are compared as neutral changes, so offsetting moves cancel",
        edits=(
            Edit(
                path=BASELINE,
                find="        sorter.counts(key, a.counts, b.counts)\n        sorter.labels(",
                replace=(
                    "        for name in type(a.counts).model_fields:\n"
                    "            sorter.neutral(f'{key}.{name}', getattr(a.counts, name), "
                    "getattr(b.counts, name))\n"
                    "        sorter.labels("
                ),
            ),
        ),
        tests=BENCH_GATES,
        keyword="no_regression or comparison_would_catch",
    ),
    Mutant(
        id="supersession.old_belief_stays_live",
        gate="gate.memory.bench_supersession_current",
        description="a superseded belief keeps its live status and names no successor",
        edits=(
            Edit(
                path=SERVICE,
                find=(
                    '                        "status": BeliefStatus.SUPERSEDED,\n'
                    '                        "valid_to": ended,\n'
                    '                        "superseded_by": successor.id,\n'
                ),
                replace='                        "valid_to": ended,\n',
            ),
        ),
        tests=BENCH_GATES,
        keyword="never_renders_what_it_superseded",
    ),
    Mutant(
        id="scope.predicates_dropped",
        gate="gate.memory.scope_isolation",
        description="recall ignores the project scope (store predicate and retriever check)",
        edits=(
            Edit(
                path=STORE,
                find="        if belief.scope not in scopes or belief.status not in statuses:",
                replace="        if belief.status not in statuses:",
            ),
            Edit(
                path=RETRIEVER,
                find="            and b.scope in scopes\n",
                replace="",
            ),
        ),
        tests=(
            "tests/memory_core/retrieval/test_properties.py",
            "tests/memory_core/foundation/test_scope_isolation_properties.py",
        ),
        keyword="scope",
    ),
    Mutant(
        id="rejection.replay_skips_rejections",
        gate="gate.memory.rejection_durable",
        description="replay re-forms what the user rejected",
        edits=(
            Edit(
                path=SERVICE,
                find="if key in rejected or (forgotten and key_digest(key) in forgotten):",
                replace=(
                    'if trigger != "replay" and '
                    "(key in rejected or (forgotten and key_digest(key) in forgotten)):"
                ),
            ),
        ),
        tests=FORMATION_GATES,
        keyword="rejected",
    ),
    Mutant(
        id="rejection.remember_skips_rejections",
        gate="gate.memory.rejection_durable",
        description="the remember tool re-forms what the user rejected",
        edits=(
            Edit(
                path=SERVICE,
                find="if key in rejected or (forgotten and key_digest(key) in forgotten):",
                replace=(
                    'if trigger != "remember" and '
                    "(key in rejected or (forgotten and key_digest(key) in forgotten)):"
                ),
            ),
        ),
        tests=FORMATION_GATES,
        keyword="rejected",
    ),
    Mutant(
        id="ceiling.admits_without_reserving",
        gate="gate.memory.bench_cost_ceiling",
        description="a run is admitted while spent is under the ceiling, without its reservation",
        edits=(
            Edit(
                path=CEILING,
                find="if self.spent_usd + self.per_run_usd > self.ceiling_usd + 1e-12:",
                replace="if self.spent_usd > self.ceiling_usd + 1e-12:",
            ),
        ),
        tests=("tests/memory_bench/live/test_arm_ceiling.py",),
    ),
    Mutant(
        id="ranking.subject_cap_ignored",
        gate="gate.memory.bench_no_regression",
        description="the per-subject cap is the shipped 2 whatever the profile says",
        edits=(
            Edit(
                path=RETRIEVER,
                find="ranked, retrieval.per_subject_cap",
                replace="ranked, 2",
            ),
        ),
        tests=("tests/memory_bench/corpus/test_ranking_sensitivity.py",),
        keyword="per_subject_cap",
    ),
    Mutant(
        id="ranking.fusion_constant_ignored",
        gate="gate.memory.bench_no_regression",
        description="rank fusion uses the shipped constant 60 whatever the profile says",
        edits=(
            Edit(
                path=RETRIEVER,
                find="k=retrieval.reciprocal_rank_fusion_k,",
                replace="k=60,",
            ),
        ),
        tests=("tests/memory_bench/corpus/test_ranking_sensitivity.py",),
        keyword="fusion",
    ),
    Mutant(
        id="render.token_budget_doubled",
        gate="gate.memory.token_ceiling",
        description="a block is seated up to twice its token budget",
        edits=(
            Edit(
                path=RANKING,
                find="tokens_for_length(seated_chars + 1 + len(lines[index])) <= max_tokens",
                replace="tokens_for_length(seated_chars + 1 + len(lines[index])) <= 2 * max_tokens",
            ),
        ),
        tests=("tests/memory_core/retrieval/test_properties.py",),
        keyword="token_ceiling",
    ),
    Mutant(
        id="prefix.user_turn_in_prefix",
        gate="gate.memory.prefix_stable",
        description="the user's turn is appended to the cached system prefix",
        edits=(
            Edit(
                path=CONTEXT,
                find="        prefix = self.prefix(snapshot_block)\n",
                replace="        prefix = self.prefix(snapshot_block + '\\n' + user_turn)\n",
            ),
        ),
        tests=("tests/memory_core/runtime/test_run.py",),
        keyword="prefix",
    ),
    Mutant(
        id="hazards.screen_deleted",
        gate="gate.memory.bench_protected_never_rendered",
        description="the hazard screen finds nothing: every secret and injection forms",
        edits=(
            Edit(
                path=HAZARDS,
                find=(
                    "return [item for item in rules "
                    "if item.admits(form, tokens) and item.matches(form)]"
                ),
                replace="return []",
            ),
        ),
        tests=BENCH_GATES,
        keyword="protected_content",
    ),
)
"""Every mutant of the lane, in report order."""


def apply_edits(root: Path, edits: Sequence[Edit]) -> dict[Path, str]:
    """Apply ``edits`` under ``root``; return the original text of every touched file.

    Raises:
        ValueError: an edit's ``find`` does not occur exactly ``count`` times.
    """
    originals: dict[Path, str] = {}
    for edit in edits:
        path = root / edit.path
        current = path.read_text(encoding="utf-8")
        originals.setdefault(path, current)
        found = current.count(edit.find)
        if found != edit.count:
            raise ValueError(
                f"{edit.path}: expected {edit.count} occurrence(s) of {edit.find!r}, found {found}"
            )
        path.write_text(current.replace(edit.find, edit.replace), encoding="utf-8")
    return originals


def restore(originals: dict[Path, str]) -> None:
    """Write every file back as it was."""
    for path, text in originals.items():
        path.write_text(text, encoding="utf-8")


def copy_tree(source: Path, target: Path) -> None:
    """Copy the tracked and untracked (non-ignored) files of the checkout at ``source``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=source,
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8")
    for name in filter(None, listed.split("\0")):
        origin = source / name
        if not origin.is_file():
            continue  # deleted in the working tree
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(origin, destination)


def copy_environment(copy: Path) -> dict[str, str]:
    """The environment that makes every import read the copy."""
    paths = sorted(str(p) for p in (copy / "packages").glob("*/src"))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*paths, str(copy / "tests")])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def pytest_command(tests: Sequence[str], keyword: str | None) -> list[str]:
    """The pytest invocation of a mutant's gate tests."""
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-x",
        "-m",
        "gate",
        "-p",
        "no:cacheprovider",
        f"--hypothesis-seed={HYPOTHESIS_SEED}",
        *tests,
    ]
    if keyword:
        command += ["-k", keyword]
    return command


def run_tests(copy: Path, env: dict[str, str], tests: Sequence[str], keyword: str | None) -> int:
    """Run the tests in the copy; return pytest's exit status."""
    result = subprocess.run(
        pytest_command(tests, keyword),
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=TEST_TIMEOUT_SECONDS,
        check=False,
    )
    return result.returncode


def _verify_imports(copy: Path, env: dict[str, str]) -> None:
    probe = "import memory_core as c, memory_bench as b; print(c.__file__); print(b.__file__)"
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=copy, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    if not all(Path(line).resolve().is_relative_to(copy.resolve()) for line in out):
        raise SystemExit(f"imports do not read the copy at {copy}: {out}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the lane; exit 0 only when every (non-pending) mutant is killed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", help="run only these mutants (default: all)")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument(
        "--strict", action="store_true", help="count a surviving pending mutant as a survivor"
    )
    args = parser.parse_args(argv)
    known = {m.id: m for m in MUTANTS}
    unknown = [i for i in args.ids if i not in known]
    if unknown:
        parser.error(f"unknown mutant(s) {unknown}; --list shows them")
    chosen = [known[i] for i in args.ids] if args.ids else list(MUTANTS)
    if args.list:
        for mutant in chosen:
            mark = " [pending]" if mutant.pending else ""
            print(f"{mutant.id}{mark}  ({mutant.gate}): {mutant.description}")
        return 0

    with tempfile.TemporaryDirectory(prefix="mutants-") as scratch:
        copy = Path(scratch) / "tree"
        copy_tree(ROOT, copy)
        env = copy_environment(copy)
        _verify_imports(copy, env)
        print(f"mutation lane: {len(chosen)} mutants, tree copied to {copy}", flush=True)
        unmutated_failures = [m.id for m in chosen if run_tests(copy, env, m.tests, m.keyword) != 0]
        if unmutated_failures:
            print(f"the gate tests fail without any mutation: {unmutated_failures}")
            return 1
        results: list[tuple[Mutant, str, float]] = []
        for mutant in chosen:
            started = time.monotonic()
            try:
                originals = apply_edits(copy, mutant.edits)
            except ValueError as exc:
                results.append((mutant, f"ERROR ({exc})", 0.0))
                print(f"  {mutant.id}: ERROR {exc}", flush=True)
                continue
            try:
                status = run_tests(copy, env, mutant.tests, mutant.keyword)
            finally:
                restore(originals)
            outcome = {0: "SURVIVED", 1: "KILLED"}.get(status, f"ERROR (pytest exit {status})")
            elapsed = time.monotonic() - started
            results.append((mutant, outcome, elapsed))
            mark = f"  [pending: {mutant.pending}]" if mutant.pending else ""
            print(f"  {outcome:<9} {mutant.id} ({mutant.gate}, {elapsed:.1f}s){mark}", flush=True)

    killed = [m for m, o, _ in results if o == "KILLED"]
    survived = [m for m, o, _ in results if o == "SURVIVED"]
    errors = [m for m, o, _ in results if o.startswith("ERROR")]
    excused = [m for m in survived if m.pending and not args.strict]
    failing = [m for m in survived if m not in excused]
    print(
        f"{len(results)} mutants: {len(killed)} killed, {len(survived)} survived "
        f"({len(excused)} pending), {len(errors)} errors"
    )
    for mutant in killed:
        if mutant.pending:
            print(f"pending mutant {mutant.id} is now killed: remove its pending mark")
    for mutant in failing:
        print(f"SURVIVOR {mutant.id}: {mutant.description} ({mutant.gate})")
    return 1 if failing or errors else 0


if __name__ == "__main__":
    sys.exit(main())
