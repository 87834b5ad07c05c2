-- AlterTable
ALTER TABLE "Plan" ADD COLUMN     "serviceBurst" INTEGER,
ADD COLUMN     "serviceChecksPerSecond" INTEGER;

-- A service limit is a rate and a burst, both at least 1, or neither (the document also
-- keeps the burst at 1,000 or more; the database refuses what can never be enforced).
ALTER TABLE "Plan" ADD CONSTRAINT "Plan_service_range_check"
  CHECK ("serviceChecksPerSecond" >= 1 AND "serviceBurst" >= 1);
ALTER TABLE "Plan" ADD CONSTRAINT "Plan_service_pair_check"
  CHECK (("serviceChecksPerSecond" IS NULL) = ("serviceBurst" IS NULL));
