CREATE INDEX "devices_sort_name" ON "devices" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "devices_sort_project" ON "devices" USING btree ("project","id");--> statement-breakpoint
CREATE INDEX "devices_sort_country_code" ON "devices" USING btree ("country_code","id");--> statement-breakpoint
CREATE INDEX "devices_sort_postal_code" ON "devices" USING btree ("postal_code","id");--> statement-breakpoint
CREATE INDEX "devices_sort_city" ON "devices" USING btree ("city","id");--> statement-breakpoint
CREATE INDEX "devices_sort_street" ON "devices" USING btree ("street","id");--> statement-breakpoint
-- Written by hand (drizzle cannot express INCLUDE): the key's index carries every column, so that a
-- process curve is read by an index-only scan (schema.ts, measurements).
ALTER TABLE "measurements" DROP CONSTRAINT "measurements_sensor_id_measured_at_pk", ADD CONSTRAINT "measurements_sensor_id_measured_at_pk" PRIMARY KEY ("sensor_id","measured_at") INCLUDE ("value","percent","temperature","hidden");--> statement-breakpoint
-- An index-only scan skips the table only for pages vacuum has marked all-visible: vacuum an
-- append-mostly table after 1 % new rows instead of the default 20 %, so the newest rows qualify soon.
ALTER TABLE "measurements" SET (autovacuum_vacuum_insert_scale_factor = 0.01);
