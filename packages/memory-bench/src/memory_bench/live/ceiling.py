"""The live arm's hard cost ceiling, enforced before each run is admitted."""

from __future__ import annotations

from dataclasses import dataclass, field

from memory_core.errors import MemoryCoreError

INVOCATION_CEILING_USD = 4.00
PER_RUN_CEILING_USD = 0.05
PRICING_UNAVAILABLE = "model pricing unavailable; ceiling unenforceable"


class PricingUnavailableError(MemoryCoreError):
    """The first completed live run cost nothing: the ceiling cannot be enforced."""

    def __init__(self) -> None:
        super().__init__(PRICING_UNAVAILABLE)


@dataclass
class CostCeiling:
    """Tracks spend and admits a run only if spent + per-run ceiling stays within the ceiling."""

    ceiling_usd: float = INVOCATION_CEILING_USD
    per_run_usd: float = PER_RUN_CEILING_USD
    spent_usd: float = 0.0
    runs_admitted: int = 0
    ceiling_hits: int = 0
    _priced: bool = field(default=False, repr=False)

    def admit(self) -> bool:
        """Admit the next run (retries included), or record a ceiling hit and refuse it."""
        if self.spent_usd + self.per_run_usd > self.ceiling_usd + 1e-12:
            self.ceiling_hits += 1
            return False
        self.runs_admitted += 1
        return True

    def record(self, cost_usd: float, *, completed: bool) -> None:
        """Add a run's cost (billed even when it failed).

        Raises:
            PricingUnavailableError: the first completed run reported zero cost.
        """
        self.spent_usd += cost_usd
        if completed and not self._priced:
            if cost_usd <= 0:
                raise PricingUnavailableError()
            self._priced = True
