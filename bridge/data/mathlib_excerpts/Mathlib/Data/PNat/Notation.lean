/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands and their namespaces only) of
-- Mathlib/Data/PNat/Notation.lean
-- at leanprover-community/mathlib4 commit 0a9c0ae9e9db5c320fbeb2fec843dc7fd509e310.
def PNat := { n : ℕ // 0 < n } deriving DecidableEq

@[inherit_doc]
notation "ℕ+" => PNat
