ALTER TABLE "invoices" ADD COLUMN "accounting_state" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "accounting_claim" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "accounting_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "accounting_failure" text;--> statement-breakpoint
-- A creation a process began and never finished: its outcome is unknown; the next attempt looks it up.
UPDATE "invoices" SET "accounting_state" = 'unknown', "accounting_failure" = 'AccountingOutcomeUnknown', "accounting_id" = NULL WHERE "accounting_id" LIKE 'creating:%';--> statement-breakpoint
UPDATE "invoices" SET "accounting_state" = 'created' WHERE "accounting_id" IS NOT NULL AND "accounting_state" = 'pending';
