-- Config versions in parts: a version stores what it changed (ConfigPart), the newest of
-- each part is indexed by ConfigPartHead. Versions recorded before keep their whole snapshot.

-- AlterTable
ALTER TABLE "ConfigVersion" ADD COLUMN     "partial" BOOLEAN NOT NULL DEFAULT false,
ALTER COLUMN "snapshot" DROP NOT NULL;

-- CreateTable
CREATE TABLE "ConfigPart" (
    "scope" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "tenant" TEXT,
    "compiled" TEXT,
    "document" TEXT,
    "hash" TEXT NOT NULL,

    CONSTRAINT "ConfigPart_pkey" PRIMARY KEY ("scope","version")
);

-- CreateTable
CREATE TABLE "ConfigPartHead" (
    "scope" TEXT NOT NULL,
    "tenant" TEXT,
    "version" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL,

    CONSTRAINT "ConfigPartHead_pkey" PRIMARY KEY ("scope")
);

-- CreateIndex
CREATE INDEX "ConfigPart_version_idx" ON "ConfigPart"("version");

-- CreateIndex
CREATE INDEX "ConfigPartHead_tenant_idx" ON "ConfigPartHead"("tenant");

-- A version is whole (snapshot kept) or in parts, never neither.
ALTER TABLE "ConfigVersion" ADD CONSTRAINT "ConfigVersion_whole_or_parts_check"
  CHECK ("partial" OR "snapshot" IS NOT NULL);
