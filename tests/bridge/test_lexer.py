"""The Lean tokenizer."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from bridge.lexer import tokenize


def kinds_texts(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(text)]


def test_nested_comments_are_dropped() -> None:
    toks = tokenize("a /- one /- two -/ still comment -/ b -- line\nc")
    assert [t.text for t in toks] == ["a", "b", "c"]
    assert toks[2].newline_before and toks[2].line == 2 and toks[2].column == 1


def test_doc_and_module_doc_kept() -> None:
    toks = tokenize("/-! module doc -/\n/-- the doc -/\ntheorem x")
    assert toks[0].kind == "moddoc" and toks[0].value == "module doc"
    assert toks[1].kind == "doc" and toks[1].value == "the doc"
    assert toks[2].text == "theorem"


def test_guillemet_and_dotted_names() -> None:
    toks = tokenize("Foo.«bar baz».qux x₁ α' ℝ")
    assert toks[0].kind == "ident" and toks[0].parts == ("Foo", "bar baz", "qux")
    assert [t.text for t in toks[1:]] == ["x₁", "α'", "ℝ"]
    assert all(t.kind == "ident" for t in toks)


def test_numbers() -> None:
    toks = tokenize("37 0.5 1e-3 2.5e2 0x1F x.1")
    values = [t.value for t in toks if t.kind == "num"]
    assert values == [37, Fraction(1, 2), Fraction(1, 1000), Fraction(250), 31, 1]


def test_unicode_symbols() -> None:
    text = "∑ ∏ ∈ ∉ → ↦ ↔ ∀ ∃ λ ≤ ≥ ≠ ¬ ∧ ∨ ⟨ ⟩ ‖ | ↑ • ⁻¹ ᵀ ∘ × ⊆ ∩ ∪ := =>"
    toks = tokenize(text)
    assert [t.text for t in toks] == text.split()
    assert all(t.kind == "sym" for t in toks)


def test_postfix_adjacent() -> None:
    assert [t.text for t in tokenize("x⁻¹ Aᵀ")] == ["x", "⁻¹", "A", "ᵀ"]


def test_strings_and_chars() -> None:
    toks = tokenize('"a\\n\\"b" \'c\' x\'')
    assert toks[0].kind == "str" and toks[0].value == 'a\n"b'
    assert toks[1].kind == "char" and toks[1].value == "c"
    assert toks[2].kind == "ident" and toks[2].text == "x'"


def test_errors_are_tokens() -> None:
    toks = tokenize('a /- never closed')
    assert toks[-1].kind == "error" and "-/" in str(toks[-1].value)
    toks = tokenize('"open string')
    assert toks[-1].kind == "error"
    toks = tokenize("«open name")
    assert toks[-1].kind == "error"


def test_positions() -> None:
    toks = tokenize("theorem foo\n  (x : ℕ) : x = x")
    paren = toks[2]
    assert (paren.line, paren.column) == (2, 3)
    assert toks[0].start == 0 and toks[0].end == 7


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_never_raises(text: str) -> None:
    toks = tokenize(text)
    for tok in toks:
        assert text[tok.start : tok.end] == tok.text
