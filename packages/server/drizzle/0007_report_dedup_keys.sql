-- Reports are recognised when sent again by (device, measurement time, message id): the key
-- `report/{deviceId}/{measuredAt in UTC, to the millisecond}/{messageId}` (ingest/report-key.ts).
-- Up to now it was `{ident}:{messageId}`, which collided across devices (ident `X:7` with message
-- id `100` against ident `X` with `7:100`) and dropped the new reports of a device whose message
-- counter started again. The stored reports get the new key, so that a report stored before the
-- update and delivered again after it is still recognised.
--
-- The measurement time is read from the stored copy of the report: the JSON of net, IoT and LX-IoT
-- reports (`"measuredAt": "…"`), the measurement SMS's third field (UTC, YYYYMMDDhhmmss). A copy it
-- cannot be read from keeps its old key behind `legacy/`, which no new key starts with.
CREATE FUNCTION tankportal_report_time(content text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  found text;
BEGIN
  found := substring(content FROM '^\s*TP1;\d+;(\d{14})(;|$)');
  IF found IS NOT NULL THEN
    RETURN substr(found, 1, 4) || '-' || substr(found, 5, 2) || '-' || substr(found, 7, 2) || 'T'
      || substr(found, 9, 2) || ':' || substr(found, 11, 2) || ':' || substr(found, 13, 2) || '.000Z';
  END IF;
  found := substring(content FROM '"measuredAt"\s*:\s*"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))"');
  IF found IS NULL THEN
    RETURN NULL;
  END IF;
  RETURN to_char(found::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$;--> statement-breakpoint
WITH reports AS (
  SELECT id, type, dedup_key, device_id, substr(dedup_key, length(from_ident) + 2) AS message_id,
    tankportal_report_time(content) AS measured_at
  FROM messages
  WHERE direction = 'in' AND status = 'processed' AND indication IS NULL AND device_id IS NOT NULL
    AND type IN ('net', 'iot', 'lx_iot', 'sms') AND from_ident IS NOT NULL
    AND starts_with(dedup_key, from_ident || ':')
),
keyed AS (
  SELECT id, type, dedup_key,
    CASE WHEN measured_at IS NULL THEN NULL
      ELSE 'report/' || device_id || '/' || measured_at || '/' || message_id END AS new_key
  FROM reports
),
ranked AS (
  -- The same report under two old keys (its device's ident changed in between): the first keeps it.
  SELECT id, dedup_key, new_key, row_number() OVER (PARTITION BY type, new_key ORDER BY id) AS n
  FROM keyed
)
UPDATE messages AS m
SET dedup_key = CASE WHEN r.new_key IS NOT NULL AND r.n = 1 THEN r.new_key ELSE 'legacy/' || r.dedup_key END
FROM ranked AS r
WHERE m.id = r.id;--> statement-breakpoint
DROP FUNCTION tankportal_report_time(text);
