-- AlterTable
ALTER TABLE "AdminToken" ADD COLUMN     "revokedReason" TEXT;
