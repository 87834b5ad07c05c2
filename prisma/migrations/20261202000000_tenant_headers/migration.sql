-- The RateLimit header flavour of a tenant's check answers (docs/configuration.md); NULL: draft-11.
ALTER TABLE "Tenant" ADD COLUMN "headers" TEXT;
