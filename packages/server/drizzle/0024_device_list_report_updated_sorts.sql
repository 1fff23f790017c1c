-- Written by hand in part (drizzle cannot express INCLUDE): the list's sorts by last report, SIM
-- credit and status read a page from these indexes instead of sorting every device. The owner's id
-- rides along, so that an admin's page is checked for visibility (owner in the admin's subtree) in
-- the index alone, without a visit to every device before the page (schema.ts, devices).
CREATE INDEX "devices_sort_last_reported_at" ON "devices" USING btree ("last_reported_at","id") INCLUDE ("user_id");--> statement-breakpoint
CREATE INDEX "devices_sort_sim_credit" ON "devices" USING btree ("sim_credit_qty","id") INCLUDE ("user_id");--> statement-breakpoint
CREATE INDEX "devices_sort_status" ON "devices" USING btree ("status","id") INCLUDE ("user_id");
