CREATE TABLE "audit_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"username" text NOT NULL,
	"real_user_id" integer,
	"real_username" text,
	"address" text,
	"entity_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	"device_id" integer,
	"subject_user_id" integer,
	"action" text NOT NULL,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_entries_at" ON "audit_entries" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_entries_device" ON "audit_entries" USING btree ("device_id","at");--> statement-breakpoint
CREATE INDEX "audit_entries_subject_user" ON "audit_entries" USING btree ("subject_user_id","at");--> statement-breakpoint
CREATE INDEX "audit_entries_user" ON "audit_entries" USING btree ("user_id","at");--> statement-breakpoint
-- The record is not rewritten: an entry is never updated (the retention purge only deletes old ones).
CREATE FUNCTION "audit_entries_unchangeable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit entries are never changed';
END $$;--> statement-breakpoint
CREATE TRIGGER "audit_entries_unchangeable" BEFORE UPDATE ON "audit_entries"
  FOR EACH ROW EXECUTE FUNCTION "audit_entries_unchangeable"();
