"""Typed errors raised while loading or validating a benchmark corpus.

Hierarchy::

    BenchError, UsageError (memory_bench.errors)
    └── CorpusError             a corpus file or document cannot be used; fix the corpus
        ├── CorpusFormatError   the file is unreadable, not JSON, or does not fit the schema
        └── CorpusRuleError     the document parses but breaks a category, scenario or
                                corpus rule; ``violations`` names every broken rule

Every message names the file, the scenario, the probe (when there is one) and the rule or field.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory_bench.corpus._rules_catalog import CorpusRule
from memory_bench.errors import BenchError
from memory_core.errors import UsageError


@dataclass(frozen=True, kw_only=True)
class CorpusViolation:
    """One broken rule: which rule, where, and what was wrong.

    Attributes:
        rule: The rule that was broken.
        scenario_id: The scenario it was broken in; ``None`` for a corpus-wide rule.
        probe_id: The probe it was broken in; ``None`` when the rule is not about one probe.
        detail: What was wrong, in words an author can act on.
    """

    rule: CorpusRule
    scenario_id: str | None
    probe_id: str | None
    detail: str

    def describe(self) -> str:
        """Return ``scenario <id> probe <id> rule <rule>: <detail>`` for an error message."""
        where = []
        if self.scenario_id is not None:
            where.append(f"scenario {self.scenario_id}")
        if self.probe_id is not None:
            where.append(f"probe {self.probe_id}")
        where.append(f"rule {self.rule.value}")
        return f"{' '.join(where)}: {self.detail}"


class CorpusError(BenchError, UsageError):
    """A benchmark corpus cannot be used; the message says which file and what to fix.

    Attributes:
        source: The file (or in-memory label) the corpus came from.
    """

    def __init__(self, source: str, message: str) -> None:
        super().__init__(f"{source}: {message}")
        self.source = source


class CorpusFormatError(CorpusError):
    """The corpus file is unreadable, is not JSON, or does not fit the corpus schema.

    Attributes:
        source: The file the corpus came from.
        field: The dotted location of the offending field (``""`` for the whole document).
        scenario_id: The scenario the field belongs to, when it can be named.
        probe_id: The probe the field belongs to, when it can be named.
    """

    def __init__(
        self,
        source: str,
        message: str,
        *,
        field: str = "",
        scenario_id: str | None = None,
        probe_id: str | None = None,
    ) -> None:
        super().__init__(source, message)
        self.field = field
        self.scenario_id = scenario_id
        self.probe_id = probe_id


class CorpusRuleError(CorpusError):
    """The corpus parses but breaks at least one rule.

    Attributes:
        source: The file (or in-memory label) the corpus came from.
        violations: Every broken rule, in scenario, probe and rule order.
    """

    def __init__(self, source: str, violations: tuple[CorpusViolation, ...]) -> None:
        if not violations:
            raise ValueError("CorpusRuleError needs at least one violation")
        lines = "\n".join(f"  - {violation.describe()}" for violation in violations)
        noun = "rule" if len(violations) == 1 else "rules"
        super().__init__(
            source,
            f"the corpus breaks {len(violations)} {noun}; fix each before running the "
            f"benchmark:\n{lines}",
        )
        self.violations = violations

    @property
    def rules(self) -> tuple[CorpusRule, ...]:
        """The distinct broken rules, in first-seen order."""
        return tuple(dict.fromkeys(violation.rule for violation in self.violations))
