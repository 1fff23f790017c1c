ALTER TABLE "devices" ADD COLUMN "leitweg_id" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "buyer" jsonb;--> statement-breakpoint
ALTER TABLE "whitelabels" ADD COLUMN "invoice_seller" jsonb;