"""Well-known Lean core and Mathlib names, for the source scanner's name resolution.

The scanner never sees Mathlib, so it resolves a name as written (``exp`` under
``open Real``) against the project's own declarations plus this table. A name that matches
nothing is kept as written (it may be a Mathlib name missing here).
"""

from __future__ import annotations

#: Fully qualified names the scanner may resolve to through namespaces and ``open``.
WELL_KNOWN_NAMES: frozenset[str] = frozenset(
    """
    Real.exp Real.log Real.sqrt Real.pi Real.sin Real.cos Real.tan Real.tanh Real.sinh
    Real.cosh Real.arctan Real.rpow Real.logb Real.exp_pos Real.log_exp Real.exp_log
    Real.sqrt_nonneg Real.sigmoid Real.nnabs Real.toNNReal Real.cosh Real.arcsin Real.arccos
    Complex.exp Complex.I Complex.abs Complex.re Complex.im Complex.ofReal Complex.log
    Complex.conj Complex.normSq Complex.arg Complex.cos Complex.sin Complex.cpow
    Finset.sum Finset.prod Finset.range Finset.Ico Finset.Icc Finset.Ioc Finset.Ioo
    Finset.Iio Finset.Iic Finset.univ Finset.filter Finset.card Finset.sup Finset.inf
    Finset.max' Finset.min' Finset.image Finset.map Finset.mem_range Finset.antidiagonal
    Finset.sum_range_succ Finset.empty Finset.insert Finset.erase Finset.powerset
    Matrix.vecMulVec Matrix.mulVec Matrix.vecMul Matrix.transpose Matrix.PosDef
    Matrix.PosSemidef Matrix.trace Matrix.det Matrix.diagonal Matrix.of Matrix.dotProduct
    Matrix.IsHermitian Matrix.conjTranspose Matrix.inv Matrix.rank Matrix.toLin'
    Fin.val Fin.last Fin.succ Fin.castSucc Fin.mk Fin.cons Fin.snoc Fin.sum_univ_succ
    Nat.succ Nat.pred Nat.factorial Nat.choose Nat.cast Nat.sub Nat.min Nat.max Nat.gcd
    Nat.lcm Nat.log Nat.sqrt Nat.floor Nat.ceil Nat.Prime Nat.zero Nat.add Nat.mul
    Int.cast Int.floor Int.ceil Int.fract Int.natAbs Int.toNat Int.emod Int.ediv
    Rat.cast List.sum List.prod List.length List.map List.range List.replicate List.get
    Set.univ Set.Icc Set.Ico Set.Ioo Set.Ioi Set.Ici Set.Iio Set.Iic Set.range Set.image
    Function.comp Function.Injective Function.Surjective Function.Bijective id
    Filter.Tendsto Filter.atTop nhds deriv HasDerivAt Differentiable Continuous
    ContinuousOn MeasureTheory.integral intervalIntegral Polynomial.eval
    max min abs Norm.norm inner dotProduct Inv.inv Neg.neg Not And Or Iff Eq Ne True False
    Exists ExistsUnique ite dite Subtype Prod Prod.fst Prod.snd Prod.mk Sum Option Option.some
    Option.none Nat Int Rat Real Complex Fin Finset Matrix Set List Bool Prop
    NNReal ENNReal Fintype Fintype.card DecidableEq Inhabited Nonempty
    HAdd.hAdd HSub.hSub HMul.hMul HDiv.hDiv HMod.hMod HPow.hPow HSMul.hSMul
    LE.le LT.lt GE.ge GT.gt Membership.mem Dvd.dvd
    sorry Classical.choice propext Quot.sound
    """.split()
)

#: Scoped notations: namespace → written symbol → constant (active under ``open``).
SCOPED_NOTATIONS: dict[str, dict[str, str]] = {
    "Real": {"π": "Real.pi"},
    "Matrix": {},
    "BigOperators": {},
    "Nat": {"!": "Nat.factorial"},
    "ComplexConjugate": {"conj": "starRingEnd"},
}
