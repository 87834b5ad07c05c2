-- The time zone each user reads the console's dates and chart axes in (account settings).
ALTER TABLE "User" ADD COLUMN "timeZone" TEXT NOT NULL DEFAULT 'UTC';
