"""Check that a package's exception classes form one drawn, exported tree.

Every exception class defined in a package's modules must subclass the package's base (or
memory-core's base), and every public one must be named in the tree drawn in the errors
module's docstring and exported from the package under the same name.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class ErrorClass:
    """One exception class and the module that defines it."""

    cls: type[BaseException]
    module: str

    @property
    def public(self) -> bool:
        """True unless the class or a module on its path is private (a leading underscore)."""
        return not self.cls.__name__.startswith("_")


def error_classes(package: ModuleType, *, exclude: tuple[str, ...] = ()) -> list[ErrorClass]:
    """Every exception class defined in ``package`` or one of its modules, walked by pkgutil.

    ``exclude`` names sub-packages left out of the walk (with everything under them).
    """
    modules = [package]
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
        if any(info.name == name or info.name.startswith(f"{name}.") for name in exclude):
            continue
        modules.append(importlib.import_module(info.name))
    found: dict[type[BaseException], ErrorClass] = {}
    for module in modules:
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, BaseException) and obj.__module__ == module.__name__:
                found[obj] = ErrorClass(obj, module.__name__)
    return sorted(found.values(), key=lambda item: (item.module, item.cls.__name__))


def drawn_names(errors_module: ModuleType) -> set[str]:
    """The class names drawn in the tree of ``errors_module``'s docstring."""
    doc = errors_module.__doc__ or ""
    return set(re.findall(r"(?:^|[─\s])([A-Z]\w*(?:Error|Exception))\b", doc, re.MULTILINE))


def tree_problems(
    package: ModuleType,
    errors_module: ModuleType,
    base: type[BaseException],
    *,
    exclude: tuple[str, ...] = (),
) -> list[str]:
    """What keeps ``package``'s errors from being one drawn, exported tree under ``base``."""
    drawn = drawn_names(errors_module)
    exported = set(getattr(package, "__all__", ()))
    problems = []
    for item in error_classes(package, exclude=exclude):
        name = f"{item.module}.{item.cls.__name__}"
        if not issubclass(item.cls, base):
            problems.append(f"{name} does not subclass {base.__name__}")
        if not item.public:
            continue
        if item.cls.__name__ not in drawn:
            problems.append(f"{name} is not drawn in {errors_module.__name__}")
        if item.cls.__name__ not in exported or getattr(package, item.cls.__name__) is not item.cls:
            problems.append(f"{name} is not exported from {package.__name__}")
    return problems
