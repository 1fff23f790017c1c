CREATE TABLE "weather_daily" (
	"station_id" text NOT NULL,
	"day" date NOT NULL,
	"mean_temperature" double precision NOT NULL,
	CONSTRAINT "weather_daily_station_id_day_pk" PRIMARY KEY("station_id","day")
);
--> statement-breakpoint
CREATE TABLE "weather_stations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"imported_at" timestamp with time zone,
	"import_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "weather_station_id" text;--> statement-breakpoint
ALTER TABLE "weather_daily" ADD CONSTRAINT "weather_daily_station_id_weather_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."weather_stations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_weather_station_id_weather_stations_id_fk" FOREIGN KEY ("weather_station_id") REFERENCES "public"."weather_stations"("id") ON DELETE set null ON UPDATE no action;