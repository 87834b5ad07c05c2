-- CreateEnum
CREATE TYPE "LimitConsistency" AS ENUM ('exact', 'local');

-- AlterTable
ALTER TABLE "Limit" ADD COLUMN     "consistency" "LimitConsistency",
ADD COLUMN     "syncEveryMs" INTEGER;

-- The bounds the document validates (10 ms .. 60 s), also refused by the database.
ALTER TABLE "Limit" ADD CONSTRAINT "Limit_syncEveryMs_range_check"
  CHECK ("syncEveryMs" BETWEEN 10 AND 60000);
