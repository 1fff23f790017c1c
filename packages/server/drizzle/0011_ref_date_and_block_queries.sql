CREATE TABLE "block_queries" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ref_date_queries" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"interval_type" text NOT NULL,
	"intervals" jsonb NOT NULL,
	"query_at" text NOT NULL,
	"older_than" integer NOT NULL,
	"is_active" boolean NOT NULL,
	"last_run_at" timestamp with time zone,
	"next_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ref_date_query_devices" (
	"ref_date_query_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	CONSTRAINT "ref_date_query_devices_ref_date_query_id_device_id_pk" PRIMARY KEY("ref_date_query_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "send_pacing" (
	"lane" text PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queries" ADD COLUMN "block_query_id" integer;--> statement-breakpoint
ALTER TABLE "queries" ADD COLUMN "ref_date_query_id" integer;--> statement-breakpoint
ALTER TABLE "block_queries" ADD CONSTRAINT "block_queries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ref_date_queries" ADD CONSTRAINT "ref_date_queries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ref_date_query_devices" ADD CONSTRAINT "ref_date_query_devices_ref_date_query_id_ref_date_queries_id_fk" FOREIGN KEY ("ref_date_query_id") REFERENCES "public"."ref_date_queries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ref_date_query_devices" ADD CONSTRAINT "ref_date_query_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ref_date_queries_next_run" ON "ref_date_queries" USING btree ("next_run_at");--> statement-breakpoint
CREATE INDEX "ref_date_query_devices_device" ON "ref_date_query_devices" USING btree ("device_id");--> statement-breakpoint
ALTER TABLE "queries" ADD CONSTRAINT "queries_block_query_id_block_queries_id_fk" FOREIGN KEY ("block_query_id") REFERENCES "public"."block_queries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queries" ADD CONSTRAINT "queries_ref_date_query_id_ref_date_queries_id_fk" FOREIGN KEY ("ref_date_query_id") REFERENCES "public"."ref_date_queries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queries_pending" ON "queries" USING btree ("device_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "queries_block_query" ON "queries" USING btree ("block_query_id");