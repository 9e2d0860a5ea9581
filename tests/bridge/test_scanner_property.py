"""Property test: mutated Lean sources never crash the scanner, and undamaged
declarations are still found.

Mutations (deleted, duplicated and swapped tokens, invalid UTF-8 bytes) are confined to one
declaration command; every *other* declaration must survive. Truncations keep every
declaration that ends before the cut.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from bridge.lexer import tokenize
from bridge.scanner import DECLARATION_KEYWORDS, _skip_prefix, scan_file, split_commands

from .conftest import PROJECTS

SOURCES = [
    PROJECTS / "newsyntax" / "Lean" / "NewSyn" / "Basic.lean",
    PROJECTS / "oldsyntax" / "OldSyn" / "Sums.lean",
]


def _commands(text: str) -> list[tuple[int, int, int, int]]:
    """Declaration commands as (first token, end token, start offset, end offset)."""
    toks = tokenize(text)
    out = []
    for start, end in split_commands(toks):
        i = _skip_prefix(toks, start, end)[0]
        if i < end and toks[i].text in DECLARATION_KEYWORDS and toks[i].text != "example":
            out.append((start, end, toks[start].start, toks[end - 1].end))
    return out


def _names(text: str | bytes) -> tuple[set[str], list]:
    decls, diags = scan_file("Mut.lean", "Mut", text=text)
    assert not [d for d in diags if d.message.startswith("internal scanner error")], diags
    return {d.name for d in decls}, decls


def _owner(decls, lo: int, hi: int, text: str) -> set[str]:
    """Names of the declarations whose range overlaps lines lo..hi of ``text``."""
    line_lo = text.count("\n", 0, lo) + 1
    line_hi = text.count("\n", 0, hi) + 1
    return {
        d.name
        for d in decls
        if d.range is not None and not (d.range.end_line < line_lo or d.range.line > line_hi)
    }


@st.composite
def token_mutation(draw):
    path = draw(st.sampled_from(SOURCES))
    text = path.read_text(encoding="utf-8")
    toks = tokenize(text)
    commands = _commands(text)
    start, end, lo, hi = draw(st.sampled_from(commands))
    kind = draw(st.sampled_from(["delete", "duplicate", "swap"]))
    i = draw(st.integers(start, end - 1))
    j = draw(st.integers(start, end - 1))
    a, b = toks[i], toks[j]
    edits: list[tuple[int, int, str]]
    if kind == "delete":
        edits = [(a.start, a.end, " ")]
    elif kind == "duplicate":
        edits = [(a.end, a.end, " " + a.text + " ")]
    else:
        if i == j:
            edits = []
        else:
            edits = [(a.start, a.end, " " + b.text + " "), (b.start, b.end, " " + a.text + " ")]
    mutated = text
    for s, e, rep in sorted(edits, reverse=True):
        mutated = mutated[:s] + rep + mutated[e:]
    return text, mutated, lo, hi


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(token_mutation())
def test_token_mutations(case) -> None:
    text, mutated, lo, hi = case
    before, decls = _names(text)
    damaged = _owner(decls, lo, hi, text)
    after, _ = _names(mutated)
    assert before - damaged <= after


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(SOURCES), st.floats(0, 1))
def test_truncations(path: Path, fraction: float) -> None:
    text = path.read_text(encoding="utf-8")
    cut = int(len(text) * fraction)
    truncated = text[:cut]
    _, decls = _names(text)
    after, _ = _names(truncated)
    lines_kept = truncated.count("\n") + 1
    for decl in decls:
        end_offset = _offset_of(text, decl.range.end_line, decl.range.end_column)
        if end_offset <= cut and decl.range.end_line < lines_kept:
            assert decl.name in after


def _offset_of(text: str, line: int, column: int) -> int:
    starts = [0]
    for k, ch in enumerate(text):
        if ch == "\n":
            starts.append(k + 1)
    return starts[line - 1] + column - 1


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(SOURCES),
    st.data(),
    st.lists(st.integers(0x80, 0xFF), min_size=1, max_size=4).map(bytes).filter(lambda b: _invalid(b)),
)
def test_invalid_utf8(path: Path, data, garbage: bytes) -> None:
    text = path.read_text(encoding="utf-8")
    start, end, lo, hi = data.draw(st.sampled_from(_commands(text)))
    at = data.draw(st.integers(lo, hi))
    raw = text[:at].encode() + garbage + text[at:].encode()
    before, decls = _names(text)
    damaged = _owner(decls, lo, hi, text)
    after, _ = _names(raw)
    assert before - damaged <= after


def _invalid(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("theorem def (x : ℕ) := ∑ ∈ , fun ↦ | /- -/ -- \n «» ⟨⟩ @[simp] namespace end open in variable {}"))))
def test_random_soup_never_raises(text: str) -> None:
    decls, diags = scan_file("Soup.lean", "Soup", text=text)
    assert isinstance(decls, list) and isinstance(diags, list)
    assert not [d for d in diags if d.message.startswith("internal scanner error")]
