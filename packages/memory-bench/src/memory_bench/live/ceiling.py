"""The live arm's hard cost ceiling, enforced before each run is admitted.

The admission arithmetic (spent + USD 0.05 <= USD 4.00) holds only if no admitted run can spend
more than USD 0.05, and the runtime checks a run's ``max_cost_usd`` only after a call has been
paid for. So before any request the live arm also bounds one run statically
(:func:`worst_case_run_cost_usd`): every step sending a full context window and receiving the
full output reservation, at the catalog's price. A model and policy whose bound exceeds the
per-run ceiling are refused (:class:`RunCostAboveCeilingError`). A model the catalog does not
price is left to the zero-price abort (:data:`PRICING_UNAVAILABLE`), which also fires on any
run whose calls the catalog could not price. A run any of whose calls reported no token usage
aborts the arm (:data:`COST_UNKNOWN`), whenever it happens: an unknown cost is never counted as
free.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memory_bench.errors import BenchError
from memory_core.errors import UsageError
from memory_core.runtime.policy_profile import PolicyProfile
from memory_core.runtime.pricing import ModelPrice

INVOCATION_CEILING_USD = 4.00
PER_RUN_CEILING_USD = 0.05
PRICING_UNAVAILABLE = "model pricing unavailable; ceiling unenforceable"
COST_UNKNOWN = "model server reported no token usage; cost unknown; ceiling unenforceable"


TOKENS_PER_PRICE_UNIT = 1_000_000
"""Catalog prices are USD per million tokens."""


def worst_case_run_cost_usd(
    profile: PolicyProfile, price: ModelPrice, *, context_window_tokens: int
) -> float:
    """The most one run can cost: ``max_steps`` calls, each sending the whole context window
    and receiving the whole output reservation.

    ``max_steps x (context_window_tokens x input + max_output_tokens x output)``, prices in
    USD per million tokens.
    """
    per_call = (
        context_window_tokens * price.input + profile.model.max_output_tokens * price.output
    ) / TOKENS_PER_PRICE_UNIT
    return profile.limits.max_steps * per_call


class RunCostAboveCeilingError(BenchError, UsageError):
    """One run of this model under this policy could cost more than the per-run ceiling the
    pre-admission check reserves, so the invocation ceiling could be crossed."""


def require_bounded_run_cost(
    profile: PolicyProfile,
    *,
    model: str,
    price: ModelPrice | None,
    context_window_tokens: int,
    per_run_usd: float = PER_RUN_CEILING_USD,
) -> float | None:
    """Refuse a model and policy whose worst-case run exceeds the per-run ceiling.

    Args:
        profile: The runtime policy of every live run.
        model: The model's name (for the message).
        price: The model's catalog price; ``None`` when the catalog does not know it (the
            zero-price abort then stops the arm after its first completed run).
        context_window_tokens: The context plan's window.
        per_run_usd: The per-run ceiling each admission reserves.

    Returns:
        The worst-case cost of one run, or ``None`` for an unpriced model.

    Raises:
        RunCostAboveCeilingError: The worst case exceeds ``per_run_usd``.
    """
    if price is None:
        return None
    worst = worst_case_run_cost_usd(profile, price, context_window_tokens=context_window_tokens)
    if worst > per_run_usd + 1e-12:
        raise RunCostAboveCeilingError(
            f"model {model!r} at USD {price.input:g} input / {price.output:g} output per "
            f"million tokens can spend USD {worst:.4f} in one run under policy "
            f"{profile.name!r} ({profile.limits.max_steps} steps x ({context_window_tokens} "
            f"context-window tokens in + {profile.model.max_output_tokens} max_output_tokens "
            f"out)), above the live arm's per-run ceiling of USD {per_run_usd:.2f}; lower "
            "limits.max_steps (--policy-profile) or model.max_output_tokens (--model-policy), "
            "or choose a cheaper model"
        )
    return worst


class PricingUnavailableError(BenchError):
    """The first completed live run cost nothing, or a run's cost is unknown: the ceiling
    cannot be enforced."""

    def __init__(self, message: str = PRICING_UNAVAILABLE) -> None:
        super().__init__(message)


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

    def record(
        self,
        cost_usd: float,
        *,
        completed: bool,
        cost_known: bool = True,
        usage_reported: bool = True,
    ) -> None:
        """Add a run's cost (billed even when it failed).

        Args:
            cost_usd: What the run's calls cost (an estimate when ``cost_known`` is false).
            completed: Whether the run completed.
            cost_known: False when any call's cost was unknown.
            usage_reported: False when any call's reply carried no token usage.

        Raises:
            PricingUnavailableError: a call reported no usage (:data:`COST_UNKNOWN`), a call was
                not priced, or the first completed run reported zero cost
                (:data:`PRICING_UNAVAILABLE`).
        """
        self.spent_usd += cost_usd
        if not usage_reported:
            raise PricingUnavailableError(COST_UNKNOWN)
        if not cost_known:
            raise PricingUnavailableError()
        if completed and not self._priced:
            if cost_usd <= 0:
                raise PricingUnavailableError()
            self._priced = True
