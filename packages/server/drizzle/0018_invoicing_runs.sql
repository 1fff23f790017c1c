CREATE TABLE "invoicing_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"trigger" text NOT NULL,
	"user_id" integer,
	"result" jsonb NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoicing_runs" ADD CONSTRAINT "invoicing_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoicing_runs_finished" ON "invoicing_runs" USING btree ("finished_at");