/-
Copyright (c) 2018 Johan Commelin. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
Authors: Johan Commelin
-/
-- Excerpt (notation commands and their namespaces only) of Mathlib/Data/NNReal/Defs.lean
-- at leanprover-community/mathlib4 commit 027af32612b9240772bd3cec3b7bda04ee53650b.
def NNReal := { r : ℝ // 0 ≤ r }

namespace NNReal

@[inherit_doc] scoped notation "ℝ≥0" => NNReal

end NNReal
