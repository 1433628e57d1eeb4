"""The price catalog: USD per million input and output tokens, per model.

The shipped catalog is ``prices.yaml`` beside this module; an operator file of the same shape
(``MEMORY_MODEL_PRICES`` or an explicit path) is merged over it. An unknown model costs zero,
which callers that enforce a ceiling must treat as "pricing unavailable": ``price`` returns
``None`` for it, ``OpenAICompatibleModel`` marks its replies ``cost_known=False``, and
``bootstrap.build`` refuses such a model when the run policy's ``max_cost_usd`` is finite.
A local or free model is priced explicitly at zero (``my-model: {input: 0, output: 0}``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field

from memory_core._config import validate_document
from memory_core.base.model import Usage
from memory_core.errors import ConfigurationError

PRICES_ENV = "MEMORY_MODEL_PRICES"


class ModelPrice(BaseModel):
    """Price of one model in USD per million tokens."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input: float = Field(ge=0)
    output: float = Field(ge=0)


class _CatalogDocument(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    models: dict[str, ModelPrice]


class PriceCatalog:
    """Looks up model prices and turns usage into cost."""

    def __init__(self, prices: Mapping[str, ModelPrice]) -> None:
        self._prices = dict(prices)

    @classmethod
    def load(cls, override: Path | str | None = None) -> PriceCatalog:
        """The shipped catalog with an operator file (argument or ``MEMORY_MODEL_PRICES``) over it.

        Raises:
            ConfigurationError: the override file is missing or malformed.
        """
        shipped = resources.files("memory_core.runtime").joinpath("prices.yaml").read_text("utf-8")
        prices = dict(_parse(yaml.safe_load(shipped), "memory_core/runtime/prices.yaml").models)
        path = override if override is not None else os.environ.get(PRICES_ENV)
        if path:
            source = Path(path)
            try:
                data = yaml.safe_load(source.read_text(encoding="utf-8"))
            except FileNotFoundError as exc:
                raise ConfigurationError(f"{source}: price catalog not found") from exc
            except yaml.YAMLError as exc:
                raise ConfigurationError(f"{source}: not valid YAML ({exc})") from exc
            prices.update(_parse(data, str(source)).models)
        return cls(prices)

    def price(self, model: str) -> ModelPrice | None:
        """The model's price, or ``None`` when the catalog does not know it."""
        return self._prices.get(model)

    def cost(self, model: str, usage: Usage) -> float:
        """USD cost of ``usage`` on ``model``; zero for an unknown model."""
        price = self._prices.get(model)
        if price is None:
            return 0.0
        return (usage.input_tokens * price.input + usage.output_tokens * price.output) / 1_000_000


def _parse(data: Any, source: str) -> _CatalogDocument:
    return validate_document(_CatalogDocument, data, source=source, what="price catalog")
