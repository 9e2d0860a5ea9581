"""The tables of Lean 4 term syntax the statement parser reads: precedences, operators and
the constants they elaborate to, keywords, binder predicates, brackets."""

from __future__ import annotations

from bridge.lexer import Token

MAX_PREC = 1024
ARG_PREC = 1023
LEAD_PREC = 1022
#: Nesting depth beyond which the parser reports a diagnostic instead of recursing further.
MAX_DEPTH = 120

#: Notation for the number systems.
NUMBER_TYPES = {"ℕ": "Nat", "ℤ": "Int", "ℚ": "Rat", "ℝ": "Real", "ℂ": "Complex"}

#: Binary operators: symbol → (constant, precedence, associativity "l" | "r" | "n").
BINARY_OPS: dict[str, tuple[str, int, str]] = {
    "+": ("HAdd.hAdd", 65, "l"),
    "-": ("HSub.hSub", 65, "l"),
    "*": ("HMul.hMul", 70, "l"),
    "/": ("HDiv.hDiv", 70, "l"),
    "%": ("HMod.hMod", 70, "l"),
    "^": ("HPow.hPow", 75, "r"),
    "•": ("HSMul.hSMul", 73, "r"),
    "∘": ("Function.comp", 90, "r"),
    "∣": ("Dvd.dvd", 50, "n"),
    "=": ("Eq", 50, "n"),
    "≠": ("Ne", 50, "n"),
    "!=": ("bne", 50, "n"),
    "==": ("BEq.beq", 50, "n"),
    "<": ("LT.lt", 50, "n"),
    ">": ("GT.gt", 50, "n"),
    "≤": ("LE.le", 50, "n"),
    "<=": ("LE.le", 50, "n"),
    "≥": ("GE.ge", 50, "n"),
    ">=": ("GE.ge", 50, "n"),
    "∈": ("Membership.mem", 50, "n"),
    "∉": ("Membership.mem", 50, "n"),
    "⊆": ("HasSubset.Subset", 50, "n"),
    "⊂": ("HasSSubset.SSubset", 50, "n"),
    "≈": ("HasEquiv.Equiv", 50, "n"),
    "∩": ("Inter.inter", 70, "l"),
    "∪": ("Union.union", 65, "l"),
    "\\": ("SDiff.sdiff", 70, "l"),
    "⊓": ("Inf.inf", 69, "l"),
    "⊔": ("Sup.sup", 68, "l"),
    "∧": ("And", 35, "r"),
    "/\\": ("And", 35, "r"),
    "∨": ("Or", 30, "r"),
    "\\/": ("Or", 30, "r"),
    "↔": ("Iff", 20, "n"),
    "<->": ("Iff", 20, "n"),
    "→": ("→", 25, "r"),
    "->": ("→", 25, "r"),
    "×": ("Prod", 35, "r"),
    "×ˢ": ("SProd.sprod", 82, "r"),
    "++": ("HAppend.hAppend", 65, "l"),
    "&&": ("and", 35, "l"),
    "||": ("or", 30, "l"),
    "::": ("List.cons", 67, "r"),
    "<|": ("<|", 10, "r"),
    "$": ("<|", 10, "r"),
    "|>": ("|>", 10, "l"),
}
#: Postfix operators at max precedence.
POSTFIX_OPS = {"⁻¹": "Inv.inv", "ᶜ": "HasCompl.compl"}
#: Binder predicates allowed after a bound name: ``∀ x ∈ s, p`` and friends.
BINDER_PREDICATES = ("∈", "∉", "<", "≤", ">", "≥", "≠", "⊆", "⊂", "<=", ">=")
#: Words that end a term (they belong to the surrounding syntax).
KEYWORDS = frozenset(
    """fun λ if then else let have show from by do match with at in where deriving
    termination_by decreasing_by theorem lemma def abbrev instance structure class inductive
    axiom opaque example namespace section end open variable universe set_option attribute
    mutual private protected noncomputable partial unsafe calc suffices using extends
    obtain generalizing export import omit include""".split()
)
#: Identifiers treated as constructors (not pattern variables) in patterns.
PATTERN_CONSTRUCTORS = frozenset({"none", "some", "true", "false", "unit"})

_CLOSERS = {"(": ")", "[": "]", "#[": "]", "![": "]", "!![": "]", "@[": "]", "%[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "⌊": "⌋", "⌈": "⌉"}


def _describe(tok: Token | None) -> str:
    if tok is None:
        return "end of input"
    if tok.kind == "error":
        return str(tok.value)
    return f"{tok.kind} {tok.text!r}"
