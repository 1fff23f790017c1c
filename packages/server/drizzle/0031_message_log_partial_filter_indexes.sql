DROP INDEX "messages_status_created";--> statement-breakpoint
DROP INDEX "messages_type_created";--> statement-breakpoint
DROP INDEX "messages_mode_created";--> statement-breakpoint
CREATE INDEX "messages_status_created" ON "messages" USING btree ("status","created_at") WHERE status <> 'processed';--> statement-breakpoint
CREATE INDEX "messages_type_created" ON "messages" USING btree ("type","created_at") WHERE type NOT IN ('net', 'iot', 'lx_iot');--> statement-breakpoint
CREATE INDEX "messages_mode_created" ON "messages" USING btree ("mode","created_at") WHERE mode <> 'deviceToSystem';