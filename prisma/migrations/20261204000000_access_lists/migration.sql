-- Allow and deny lists (docs/configuration.md): a tenant's and the operator's global ones, and
-- subnet keying of IP subjects per tenant. NULL: none.
ALTER TABLE "Tenant" ADD COLUMN "lists" JSONB;
ALTER TABLE "Tenant" ADD COLUMN "ipSubjects" JSONB;

CREATE TABLE "GlobalLists" (
    "id" TEXT NOT NULL DEFAULT 'global',
    "lists" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GlobalLists_pkey" PRIMARY KEY ("id")
);
