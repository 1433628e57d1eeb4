"""memory-core's sub-packages import each other in one direction only: a layer order.

Every ``import`` of every module under ``memory_core`` (top level, inside functions and under
``TYPE_CHECKING`` alike) is read from its AST. A module may import its own sub-package and
any module of a lower layer, never a module of its own layer or a higher one, so no two
sub-packages can import each other, directly or around a longer loop.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import memory_core

ROOT = Path(memory_core.__file__).parent

LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"errors"}),
    frozenset({"ids", "clock", "_config", "policy", "telemetry", "text_gate", "tokenizer"}),
    frozenset({"domain", "profiles", "provenance", "text"}),
    frozenset({"idle", "ports"}),
    frozenset({"base"}),
    frozenset({"stores", "formation", "retrieval"}),
    frozenset({"recording", "session_close", "management", "portability"}),
    frozenset({"runtime"}),
    frozenset({"sessions"}),
    frozenset({"maintenance", "memory_api"}),
    frozenset({"bootstrap"}),
    frozenset({"__init__"}),
    frozenset({"testing"}),
)
"""memory-core's sub-packages and top-level modules, lowest layer first."""

LAYER_OF = {name: index for index, layer in enumerate(LAYERS) for name in layer}


def _unit(module: str) -> str:
    """The sub-package or top-level module ``memory_core.<unit>...`` belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The ``memory_core`` modules ``path`` imports, relative imports resolved."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.add(".".join([*base, *([node.module] if node.module else [])]))
            elif node.module:
                found.add(node.module)
    return {m for m in found if m == "memory_core" or m.startswith("memory_core.")}


def _arrows() -> set[tuple[str, str, str]]:
    """(importing module, its unit, imported unit) for every import across units."""
    arrows = set()
    for path in ROOT.rglob("*.py"):
        module = _module_name(path)
        for imported in _imports(path):
            if _unit(imported) != _unit(module):
                arrows.add((module, _unit(module), _unit(imported)))
    return arrows


def test_every_sub_package_and_module_has_a_layer() -> None:
    units = {_unit(_module_name(path)) for path in ROOT.rglob("*.py")}
    assert units == set(LAYER_OF)


def test_imports_point_down_the_layers_only() -> None:
    upward = sorted(
        f"{module} imports memory_core.{target} (layer {LAYER_OF[target]} >= {LAYER_OF[unit]})"
        for module, unit, target in _arrows()
        if LAYER_OF[target] >= LAYER_OF[unit]
    )
    assert upward == []


def test_the_base_layer_imports_nothing_above_the_foundation() -> None:
    above = {"stores", "formation", "retrieval", "runtime", "sessions", "recording"}
    assert {t for _, unit, t in _arrows() if unit == "base"}.isdisjoint(above)


def test_importing_formation_does_not_load_httpx() -> None:
    probe = "import sys, memory_core.formation; print('httpx' in sys.modules)"
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert shown.strip() == "False"


def test_the_model_client_still_loads_on_first_use() -> None:
    probe = (
        "import sys, memory_core; loaded = 'httpx' in sys.modules; "
        "from memory_core import OpenAICompatibleModel; imported = 'httpx' in sys.modules; "
        "OpenAICompatibleModel(model='m', base_url='http://127.0.0.1:9/v1'); "
        "print(loaded, imported, 'httpx' in sys.modules, OpenAICompatibleModel.__module__)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert shown.split() == ["False", "False", "True", "memory_core.runtime.openai_compat"]
