"""Small Lake projects with one faulty binding each, for the fault-injection suite.

Each project has a Lean file with a good binding (``Flt.relu``), a faulty one (``Flt.boom``,
bound to ``faultpkg.bad:boom``) and a statement that names no binding (``Flt.plain``); the
fault is the source of ``faultpkg/bad.py``.
"""

from __future__ import annotations

from pathlib import Path

LEAN = """\
import Mathlib

namespace Flt

def relu (x : ℝ) : ℝ := max x 0

def boom (x : ℝ) : ℝ := x

theorem relu_nonneg (x : ℝ) : 0 ≤ relu x := le_max_right x 0

theorem boom_id (x : ℝ) : boom x = x := rfl

theorem plain (x : ℝ) (h : 0 ≤ x) : 0 ≤ x * x + x := by positivity

theorem false_square (x : ℝ) : x ≤ x ^ 2 := by sorry

end Flt
"""

GOOD = """\
def relu(x):
    return max(x, 0.0)
"""

#: The faulty module's source, per fault: in the call, or at import.
FAULTS = {
    "exit": "import os\n\ndef boom(x):\n    os._exit(1)\n",
    "segfault": "import ctypes\n\ndef boom(x):\n    return ctypes.string_at(0)\n",
    "c_loop": "def boom(x):\n    return float(sum(range(10**12)))\n",
    "memory": "def boom(x):\n    return float(len(bytearray(1 << 40)))\n",
    "exit_at_import": "import os\nos._exit(3)\n\ndef boom(x):\n    return x\n",
    "loop_at_import": "while True:\n    pass\n\ndef boom(x):\n    return x\n",
    "segfault_at_import": "import ctypes\nctypes.string_at(0)\n\ndef boom(x):\n    return x\n",
    "print": "def boom(x):\n    print('chatty ' * 10000)\n    return x\n",
    "none": "def boom(x):\n    return x\n",
}

#: Faults a test can only see end by the hard time limit (tens of seconds each): they run in the
#: slow job (``make test-slow``, part of CI), so the default suite stays under ten minutes.
WAIT_FOR_THE_LIMIT = ("loop_at_import",)


def fault_params(names):
    """``names`` for ``pytest.mark.parametrize``, the :data:`WAIT_FOR_THE_LIMIT` ones marked
    ``slow``."""
    import pytest

    return [pytest.param(n, marks=pytest.mark.slow) if n in WAIT_FOR_THE_LIMIT else n
            for n in names]


#: The statements of every fault project and the rows a faulty ``boom`` must not touch.
UNTOUCHED = ("Flt.relu_nonneg", "Flt.plain", "Flt.relu.conformance")
#: The rows the faulty binding is in.
FAULTY = ("Flt.boom_id", "Flt.boom.conformance")


def make_project(root: Path, fault: str = "none") -> Path:
    """A Lake project at ``root`` whose ``Flt.boom`` binding has the fault ``fault``."""
    (root / "lean").mkdir(parents=True)
    (root / "lakefile.toml").write_text('name = "flt"\nsrcDir = "lean"\n\n[[lean_lib]]\n'
                                        'name = "Flt"\n', encoding="utf-8")
    (root / "lean" / "Flt.lean").write_text(LEAN, encoding="utf-8")
    package = root / "python" / "faultpkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "good.py").write_text(GOOD, encoding="utf-8")
    (package / "bad.py").write_text(FAULTS[fault], encoding="utf-8")
    (root / "leanmirror.toml").write_text(
        'python-path = ["python"]\n\n[bindings]\n'
        '"Flt.relu" = "faultpkg.good:relu"\n'
        '"Flt.boom" = "faultpkg.bad:boom"\n', encoding="utf-8")
    return root
