"""Python names for Lean names: readable, namespaced, and injective within their scope.

Every identifier the printer and the generator write for a Lean name carries a prefix of
its namespace (``v_`` binders, ``prop_`` properties, ``leanmirror_`` module files), so no
Lean name can become a runtime or helper name (``rt``, ``NATDOM``, ``mirror``…).

Within one scope (a statement's binders, a module's properties, a project's modules) the
names are an injective function of the Lean names: :func:`readable` spells a name in ASCII
(``α`` → ``alpha``, ``x'`` → ``x_p``, ``a.b`` → ``a__b``), which is not injective, so
:func:`injective_names` keeps the readable spelling of a *faithful* name (one the spelling
did not change, beyond ``.`` → ``__``) and gives every other name whose spelling collides a
stable suffix, a digest of the Lean name itself: ``t_p`` stays ``t_p``, ``t'`` becomes
``t_p_1a2b3c``, whatever the order the names come in.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Callable, Iterable

#: A component of a faithful name: ASCII letters and digits, single inner underscores.
_FAITHFUL_COMPONENT = re.compile(r"[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*")
_SHORTEST_DIGEST = 6


def _char(ch: str) -> str:
    """One character of a Lean name in ASCII identifier characters."""
    if ch.isascii() and (ch.isalnum() or ch == "_"):
        return ch
    if ch == "'":
        return "_p"
    if ch == ".":
        return "__"
    try:
        uname = unicodedata.name(ch)
    except ValueError:
        uname = ""
    if uname.startswith("GREEK") and "LETTER" in uname:
        word = uname.split("LETTER ", 1)[1].split(" ")[0].lower()
        return word if "SMALL" in uname else word.capitalize()
    if uname.startswith(("SUBSCRIPT", "SUPERSCRIPT")):
        digit = unicodedata.digit(ch, None)
        return f"_{digit}" if digit is not None else f"_u{ord(ch):x}"
    return f"_u{ord(ch):x}"


def readable(name: str) -> str:
    """``name`` in ASCII identifier characters (deterministic; not injective)."""
    return "".join(_char(ch) for ch in name) or "x"


def faithful(name: str) -> bool:
    """Whether :func:`readable` only joined ``name``'s dot-separated components with ``__``.

    Faithful names are spelled injectively: their components have no leading, trailing or
    doubled underscore, so the ``__`` between them cannot be read two ways."""
    return all(_FAITHFUL_COMPONENT.fullmatch(part) for part in name.split("."))


def digest(name: str, length: int = _SHORTEST_DIGEST) -> str:
    """A stable hexadecimal digest of a Lean name (the suffix that settles a collision)."""
    return hashlib.sha256(name.encode("utf-8")).hexdigest()[:length]


def injective_names(names: Iterable[str], spell: Callable[[str], str],
                    key: Callable[[str], str] = lambda ident: ident,
                    reserved: Iterable[str] = (),
                    keeps: Callable[[str], bool] = faithful) -> dict[str, str]:
    """Lean name → identifier (``spell(name)``), injective over ``names`` and ``reserved``.

    ``key`` says when two identifiers collide (``str.casefold`` for file names on
    case-insensitive file systems). A name ``keeps`` accepts (one ``spell`` writes
    injectively: by default a :func:`faithful` one) keeps its spelling unless it is
    reserved; every other name whose spelling collides gets ``_<digest>``, lengthened
    (then numbered) until no two collide. The result does not depend on the order of
    ``names``."""
    unique = sorted(set(names))
    taken = {key(r) for r in reserved}
    out: dict[str, str] = {}
    spelled = {n: spell(n) for n in unique}
    counts: dict[str, int] = {}
    for ident in spelled.values():
        counts[key(ident)] = counts.get(key(ident), 0) + 1
    pending: list[str] = []
    for name in unique:
        ident = spelled[name]
        alone = counts[key(ident)] == 1 or keeps(name)
        if alone and key(ident) not in taken:
            out[name] = ident
            taken.add(key(ident))
        else:
            pending.append(name)
    for name in pending:
        out[name] = _suffixed(name, spelled[name], taken, key)
    return out


def _suffixed(name: str, ident: str, taken: set[str], key: Callable[[str], str]) -> str:
    for length in range(_SHORTEST_DIGEST, 65):
        candidate = f"{ident}_{digest(name, length)}"
        if key(candidate) not in taken:
            taken.add(key(candidate))
            return candidate
    count = 1
    while key(f"{ident}_{digest(name, 64)}_{count}") in taken:
        count += 1
    taken.add(key(f"{ident}_{digest(name, 64)}_{count}"))
    return f"{ident}_{digest(name, 64)}_{count}"


def _identifier(prefix: str) -> Callable[[str], str]:
    return lambda name: prefix + readable(name)


def binder_identifiers(names: Iterable[str]) -> dict[str, str]:
    """Lean binder name → Python parameter (``v_<readable>``), injective over ``names``."""
    return injective_names(names, _identifier("v_"))


def property_identifiers(names: Iterable[str]) -> dict[str, str]:
    """Lean statement name → property function name (``prop_<readable>``), injective."""
    return injective_names(names, _identifier("prop_"))


def _slug(module: str) -> str:
    slug = re.sub(r"[^0-9a-zA-Z]+", "_", module).strip("_").lower() or "module"
    return "leanmirror_" + slug


def module_file_stems(modules: Iterable[str]) -> dict[str, str]:
    """Lean module → Python module name of its generated mirror (``leanmirror_<slug>``).

    Injective even on case-insensitive file systems; the ``leanmirror_`` prefix keeps a
    module named ``Json``, ``Mirror`` or ``Test.P`` from shadowing an importable Python
    module or another module's ``test_`` file."""
    return injective_names(modules, _slug, key=str.casefold, keeps=lambda module: False)


__all__ = ["binder_identifiers", "digest", "faithful", "injective_names", "module_file_stems",
           "property_identifiers", "readable"]
