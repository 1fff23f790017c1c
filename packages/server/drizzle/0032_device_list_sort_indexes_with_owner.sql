-- Written by hand (drizzle cannot express INCLUDE): the list's sort indexes on the columns a report
-- does not write carry the owner's id as well, like those of migration 0024, so that an admin's page
-- is checked for visibility (owner in the admin's subtree, or an access entry by device id) in the
-- index alone instead of a visit to every device before the page (schema.ts, devices).
DROP INDEX "devices_sort_name";--> statement-breakpoint
CREATE INDEX "devices_sort_name" ON "devices" USING btree ("name" COLLATE "natural","id") INCLUDE ("user_id");--> statement-breakpoint
DROP INDEX "devices_sort_project";--> statement-breakpoint
CREATE INDEX "devices_sort_project" ON "devices" USING btree ("project","id") INCLUDE ("user_id");--> statement-breakpoint
DROP INDEX "devices_sort_country_code";--> statement-breakpoint
CREATE INDEX "devices_sort_country_code" ON "devices" USING btree ("country_code","id") INCLUDE ("user_id");--> statement-breakpoint
DROP INDEX "devices_sort_postal_code";--> statement-breakpoint
CREATE INDEX "devices_sort_postal_code" ON "devices" USING btree ("postal_code","id") INCLUDE ("user_id");--> statement-breakpoint
DROP INDEX "devices_sort_city";--> statement-breakpoint
CREATE INDEX "devices_sort_city" ON "devices" USING btree ("city","id") INCLUDE ("user_id");--> statement-breakpoint
DROP INDEX "devices_sort_street";--> statement-breakpoint
CREATE INDEX "devices_sort_street" ON "devices" USING btree ("street","id") INCLUDE ("user_id");
