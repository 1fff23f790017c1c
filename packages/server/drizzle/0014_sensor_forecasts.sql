CREATE TABLE "sensor_forecasts" (
	"sensor_id" integer PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"empty_at" timestamp with time zone,
	"reorder_at" timestamp with time zone,
	"empty_at_low" timestamp with time zone,
	"empty_at_high" timestamp with time zone,
	"per_day" double precision,
	"error_days" integer,
	"error_days_at" timestamp with time zone,
	"model" text,
	"based_on" timestamp with time zone NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sensor_forecasts" ADD CONSTRAINT "sensor_forecasts_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_forecasts" ADD CONSTRAINT "sensor_forecasts_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sensor_forecasts_device" ON "sensor_forecasts" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "sensor_forecasts_empty_at" ON "sensor_forecasts" USING btree ("empty_at");