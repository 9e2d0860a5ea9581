/-
Copyright (c) 2018 Ellen Arlt. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
Authors: Ellen Arlt, Blair Shi, Sean Leather, Mario Carneiro, Johan Commelin, Lu-Ming Zhang
-/
-- Excerpt (notation commands and their namespaces only) of Mathlib/Data/Matrix/Defs.lean
-- at leanprover-community/mathlib4 commit 06d459e8c9e789979187afee49e099d1c19cc8d1.
namespace Matrix

/-- The transpose of a matrix. -/
def transpose (M : Matrix m n α) : Matrix n m α :=
  of fun x y => M y x

@[inherit_doc]
scoped postfix:1024 "ᵀ" => Matrix.transpose

end Matrix
