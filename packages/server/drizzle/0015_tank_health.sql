CREATE TABLE "deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"sensor_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone NOT NULL,
	"level_before" double precision NOT NULL,
	"level_after" double precision NOT NULL,
	"quantity" double precision NOT NULL,
	"quantity_15" double precision,
	"temperature" double precision,
	"ticket_quantity" double precision
);
--> statement-breakpoint
CREATE TABLE "health_issues" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"sensor_id" integer,
	"kind" text NOT NULL,
	"detail" jsonb NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sensor_checks" (
	"sensor_id" integer PRIMARY KEY NOT NULL,
	"based_on" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_issues" ADD CONSTRAINT "health_issues_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_issues" ADD CONSTRAINT "health_issues_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_checks" ADD CONSTRAINT "sensor_checks_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_sensor_start" ON "deliveries" USING btree ("sensor_id","started_at");--> statement-breakpoint
CREATE INDEX "deliveries_device_time" ON "deliveries" USING btree ("device_id","delivered_at");--> statement-breakpoint
CREATE UNIQUE INDEX "health_issues_open" ON "health_issues" USING btree ("device_id","kind",coalesce("sensor_id", 0)) WHERE "health_issues"."closed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "health_issues_kind_open" ON "health_issues" USING btree ("kind","device_id") WHERE "health_issues"."closed_at" IS NULL;