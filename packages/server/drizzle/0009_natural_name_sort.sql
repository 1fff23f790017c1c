-- Written by hand in part (drizzle cannot create a collation). Device names sort naturally:
-- "Bielefeld 5" before "Bielefeld 17", case and accents second ("äpfel 1", "Äpfel 2", "Apfel 10").
-- The ICU locale is given in ICU's own syntax: PGlite's ICU ignores the BCP 47 form
-- 'und-u-kn-true' (it sorts "17" before "5"), PostgreSQL reads both the same.
CREATE COLLATION IF NOT EXISTS "natural" (provider = icu, locale = 'und@colNumeric=yes');--> statement-breakpoint
DROP INDEX "devices_sort_name";--> statement-breakpoint
CREATE INDEX "devices_sort_name" ON "devices" USING btree ("name" COLLATE "natural","id");
