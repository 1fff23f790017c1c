ALTER TABLE "messages" ADD COLUMN "gateway_message_id" text;--> statement-breakpoint
CREATE INDEX "messages_gateway_message" ON "messages" USING btree ("gateway_message_id") WHERE gateway_message_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_status_created" ON "messages" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "messages_type_created" ON "messages" USING btree ("type","created_at");--> statement-breakpoint
CREATE INDEX "messages_mode_created" ON "messages" USING btree ("mode","created_at");