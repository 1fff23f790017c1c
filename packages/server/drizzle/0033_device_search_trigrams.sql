-- Written by hand (drizzle cannot write triggers or a conditional index): the devices' search text
-- in a table of its own with a trigram index, so that a list search finds its devices from the
-- index instead of testing the text of every device the user may see (repositories/devices.ts,
-- listConditions). Not on the devices table: each report rewrites its device's row, and an index
-- there (not HOT: the last report is indexed) would take a trigram entry per report, 60 µs of
-- PostgreSQL per device update (bench/device-update-index-cost.ts). The copy follows the device's
-- own generated `search_text`, written only when a device is created or one of its texts is set.
-- pg_trgm ships with PostgreSQL's contrib and is a trusted extension (a database owner may create
-- it); the embedded database loads it (db/embedded.ts). Where it cannot be created (a role without
-- the right, a server without contrib) the search reads the narrow table: correct, without the index.
CREATE TABLE "device_search" (
	"device_id" integer PRIMARY KEY NOT NULL REFERENCES "devices"("id") ON DELETE CASCADE,
	"search_text" text NOT NULL
);--> statement-breakpoint
INSERT INTO "device_search" ("device_id", "search_text") SELECT "id", "search_text" FROM "devices";--> statement-breakpoint
CREATE FUNCTION "device_search_copy"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_search (device_id, search_text) VALUES (NEW.id, NEW.search_text)
  ON CONFLICT (device_id) DO UPDATE SET search_text = EXCLUDED.search_text;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "device_search_on_insert" AFTER INSERT ON "devices"
  FOR EACH ROW EXECUTE FUNCTION "device_search_copy"();--> statement-breakpoint
CREATE TRIGGER "device_search_on_update" AFTER UPDATE OF "name", "project", "street", "postal_code", "city",
  "cell_number", "iccid", "thing_name", "ident_code" ON "devices"
  FOR EACH ROW WHEN (OLD."search_text" IS DISTINCT FROM NEW."search_text")
  EXECUTE FUNCTION "device_search_copy"();--> statement-breakpoint
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN insufficient_privilege OR undefined_file OR feature_not_supported THEN
  RAISE NOTICE 'pg_trgm is not available (%): the device search runs without its trigram index', SQLERRM;
END $$;--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS "device_search_trigrams" ON "device_search" USING gin ("search_text" gin_trgm_ops);
  END IF;
END $$;
