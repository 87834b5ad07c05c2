-- A limit's penalty (docs/algorithms.md, Penalties): { blockMs, grow, maxMs, windowMs }; NULL: none.
ALTER TABLE "Limit" ADD COLUMN "penalty" JSONB;
