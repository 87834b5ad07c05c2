-- A rotated key keeps its previous secret's hash and the end of its grace period: both
-- secrets authenticate as the same key until then (docs/api.md#key-rotation).
ALTER TABLE "ApiKey" ADD COLUMN "previousHash" CHAR(64),
ADD COLUMN "previousPrefix" TEXT,
ADD COLUMN "previousUntil" TIMESTAMP(3);
