/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands and their namespaces only) of
-- Mathlib/Order/Notation.lean
-- at leanprover-community/mathlib4 commit 0a8a00c75d34f88ddb8c5ff6f5b5a42c2c0297c1.
/-- The top (`⊤`, `\top`) element -/
notation "⊤" => Top.top

/-- The bot (`⊥`, `\bot`) element -/
notation "⊥" => Bot.bot
