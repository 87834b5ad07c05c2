-- AlterTable
ALTER TABLE "ConfigVersion" ADD COLUMN     "document" JSONB;
