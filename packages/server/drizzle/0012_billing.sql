CREATE TABLE "billing_terms" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"alias" text NOT NULL,
	"price" numeric(12, 2) NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"charging_period_type" text NOT NULL,
	"time_of_invoicing" text NOT NULL,
	"valid_from" date NOT NULL,
	"valid_until" date,
	"invoiced_until" date,
	"next_invoicing_at" date,
	"additional_text" text,
	"custom_name" text,
	"exempted_quantity" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" integer NOT NULL,
	"sequence" integer NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"additional_text" text,
	"price" numeric(12, 2) NOT NULL,
	"quantity" integer NOT NULL,
	"total_price" numeric(14, 2) NOT NULL,
	"period_begin" date NOT NULL,
	"period_end" date NOT NULL,
	"device_id" integer,
	"billing_terms_id" integer
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"debtor_ident" text NOT NULL,
	"whitelabel_id" integer,
	"billed_at" date NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"vat_rate" numeric(5, 2) NOT NULL,
	"total_price" numeric(14, 2) NOT NULL,
	"total_vat_amount" numeric(14, 2) NOT NULL,
	"total_price_gross" numeric(14, 2) NOT NULL,
	"accounting_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "whitelabels" ADD COLUMN "vat_rate" numeric(5, 2) DEFAULT '19.00' NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_terms" ADD CONSTRAINT "billing_terms_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_items" ADD CONSTRAINT "invoice_items_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_items" ADD CONSTRAINT "invoice_items_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_items" ADD CONSTRAINT "invoice_items_billing_terms_id_billing_terms_id_fk" FOREIGN KEY ("billing_terms_id") REFERENCES "public"."billing_terms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_whitelabel_id_whitelabels_id_fk" FOREIGN KEY ("whitelabel_id") REFERENCES "public"."whitelabels"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_terms_device" ON "billing_terms" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "billing_terms_next" ON "billing_terms" USING btree ("next_invoicing_at");--> statement-breakpoint
CREATE INDEX "invoice_items_invoice" ON "invoice_items" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_items_term_period" ON "invoice_items" USING btree ("billing_terms_id","period_begin");--> statement-breakpoint
CREATE INDEX "invoices_billed_at" ON "invoices" USING btree ("billed_at");