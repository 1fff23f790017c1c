CREATE TABLE "alarms" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"sensor_id" integer,
	"scope" text NOT NULL,
	"sequence" integer,
	"type" text NOT NULL,
	"value" text,
	"severity" text DEFAULT 'unknown' NOT NULL,
	"confirmation_status" text,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_aces" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"permissions" text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"ident_type" text NOT NULL,
	"user_id" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"project" text,
	"street" text,
	"street_number" text,
	"postal_code" text,
	"city" text,
	"country_code" text DEFAULT 'DE' NOT NULL,
	"status" text DEFAULT 'ok' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"last_reported_at" timestamp with time zone,
	"location_lat" double precision,
	"location_lng" double precision,
	"location_updated_at" timestamp with time zone,
	"threshold_status" text DEFAULT 'ok' NOT NULL,
	"threshold_sensor" text DEFAULT 'first' NOT NULL,
	"threshold_confirmation_status" text,
	"value_interval" integer DEFAULT 5 NOT NULL,
	"time_interval" integer DEFAULT 86400 NOT NULL,
	"threshold_interval" integer DEFAULT 86400 NOT NULL,
	"filling_recognition_interval" integer DEFAULT 10 NOT NULL,
	"capabilities" text[] DEFAULT '{}'::text[] NOT NULL,
	"comment" text,
	"master_comment" text,
	"cell_number" text,
	"iccid" text,
	"thing_name" text,
	"ident_code" text,
	"secret_hash" text,
	"host" text,
	"port" integer,
	"firmware_version" text,
	"hardware_version" text,
	"sim_credit_qty" double precision,
	"sim_credit_currency" text,
	"battery_charge" integer,
	"public_url_access_enabled" boolean DEFAULT false NOT NULL,
	"public_url_token" text,
	"sms_header" text,
	"force_sms" boolean DEFAULT false NOT NULL,
	"watchdog_enabled" boolean DEFAULT false NOT NULL,
	"inbound_gateway_id" integer,
	"outbound_gateway_id" integer,
	"sim_creditor_id" text,
	"sim_provider" text,
	"sim_type" text,
	"debtor_ident" text,
	"order_number" text,
	"recipient_address" text,
	"iot_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "measurements" (
	"sensor_id" integer NOT NULL,
	"measured_at" timestamp with time zone NOT NULL,
	"value" double precision,
	"percent" double precision,
	"temperature" double precision,
	"hidden" boolean DEFAULT false NOT NULL,
	CONSTRAINT "measurements_sensor_id_measured_at_pk" PRIMARY KEY("sensor_id","measured_at")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer,
	"type" text NOT NULL,
	"direction" text NOT NULL,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"indication" text,
	"content" text NOT NULL,
	"from_ident" text,
	"to_ident" text,
	"from_type" text,
	"to_type" text,
	"gateway_id" integer,
	"user_id" integer,
	"report" text,
	"dedup_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"received_at" timestamp with time zone,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "monthly_consumption" (
	"sensor_id" integer NOT NULL,
	"year" integer NOT NULL,
	"month" integer NOT NULL,
	"consumption" double precision NOT NULL,
	CONSTRAINT "monthly_consumption_sensor_id_year_month_pk" PRIMARY KEY("sensor_id","year","month")
);
--> statement-breakpoint
CREATE TABLE "sensors" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"sequence" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"sub_type" text NOT NULL,
	"content_type" text,
	"capacity" integer,
	"unit" text DEFAULT 'l' NOT NULL,
	"status" text DEFAULT 'ok' NOT NULL,
	"is_connected" boolean DEFAULT true NOT NULL,
	"value" double precision,
	"pct" double precision,
	"net_pct" double precision,
	"net_free_space" double precision,
	"temperature_value" double precision,
	"temperature_unit" text DEFAULT 'c' NOT NULL,
	"temperature_limit_type" text,
	"temperature_limit_value" integer,
	"measuring_range" integer,
	"content_density" integer,
	"fill_limit" integer,
	"fill_height" integer,
	"fill_height_mm" integer,
	"ground_clearance" integer,
	"geometry" integer,
	"threshold" integer,
	"last_measured_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "unassigned_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"ident" text NOT NULL,
	"host" text,
	"last_reported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_aces" ADD CONSTRAINT "device_aces_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_aces" ADD CONSTRAINT "device_aces_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_inbound_gateway_id_sms_gateways_id_fk" FOREIGN KEY ("inbound_gateway_id") REFERENCES "public"."sms_gateways"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_outbound_gateway_id_sms_gateways_id_fk" FOREIGN KEY ("outbound_gateway_id") REFERENCES "public"."sms_gateways"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurements" ADD CONSTRAINT "measurements_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_gateway_id_sms_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."sms_gateways"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_consumption" ADD CONSTRAINT "monthly_consumption_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensors" ADD CONSTRAINT "sensors_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarms_device_open" ON "alarms" USING btree ("device_id") WHERE "alarms"."closed_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "device_aces_device_user" ON "device_aces" USING btree ("device_id","user_id");--> statement-breakpoint
CREATE INDEX "device_aces_user" ON "device_aces" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "devices_user" ON "devices" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_cell_number" ON "devices" USING btree ("cell_number");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_iccid" ON "devices" USING btree ("iccid");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_thing_name" ON "devices" USING btree ("thing_name");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_ident_code" ON "devices" USING btree ("ident_code");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_public_url_token" ON "devices" USING btree ("public_url_token");--> statement-breakpoint
CREATE INDEX "messages_device_created" ON "messages" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_created" ON "messages" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_dedup" ON "messages" USING btree ("type","dedup_key");--> statement-breakpoint
CREATE UNIQUE INDEX "sensors_device_sequence" ON "sensors" USING btree ("device_id","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "unassigned_devices_kind_ident" ON "unassigned_devices" USING btree ("kind","ident");