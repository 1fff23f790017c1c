import type { MessageType } from '@tankportal/shared/devices';

/** How much of a message's content the lists show (mails less: their text is long). */
const PREVIEW_LENGTH = { mail: 100, other: 160 } as const;

export type MessagePreview =
  | { kind: 'text'; text: string }
  | { kind: 'placeholder'; label: 'xml' | 'iot' | 'json' | 'empty' }
  /** A device's JSON report: when it measured, and each sensor's value (none: an error). */
  | { kind: 'report'; measuredAt: string | null; readings: { sequence: number; value: number | null }[] }
  /** A command to a device (`{"command": "configuration", …}`). */
  | { kind: 'command'; command: string };

/** The commands the portal sends devices, named in words in the lists. */
const KNOWN_COMMANDS = ['configuration', 'query'] as const;
export const isKnownCommand = (command: string): command is (typeof KNOWN_COMMANDS)[number] =>
  (KNOWN_COMMANDS as readonly string[]).includes(command);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON of a report or a command in a line a person reads; null for any other content. */
function jsonPreview(text: string): MessagePreview | null {
  if (!text.startsWith('{')) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(json)) return null;
  if (typeof json.command === 'string') return { kind: 'command', command: json.command };
  if (!Array.isArray(json.sensors)) return { kind: 'placeholder', label: 'json' };
  const readings = json.sensors.filter(isRecord).map((sensor) => ({
    sequence: typeof sensor.sequence === 'number' ? sensor.sequence : 0,
    value: typeof sensor.value === 'number' && sensor.error !== true ? sensor.value : null,
  }));
  const measuredAt =
    typeof json.measuredAt === 'string' && !Number.isNaN(Date.parse(json.measuredAt))
      ? json.measuredAt
      : null;
  return { kind: 'report', measuredAt, readings };
}

/**
 * What a list shows of a content: its start, a JSON report or command read out, or a label where
 * the content is machine data that a person cannot read in a line (XML, IoT telegrams), or
 * nothing at all.
 */
export function messagePreview(type: MessageType, content: string): MessagePreview {
  const text = content.trim();
  if (!text) return { kind: 'placeholder', label: 'empty' };
  if (text.startsWith('<')) return { kind: 'placeholder', label: 'xml' };
  const json = type === 'sms' || type === 'mail' ? null : jsonPreview(text);
  // Other JSON: an IoT telegram keeps its label.
  if (json && (json.kind !== 'placeholder' || type === 'net')) return json;
  if (type === 'iot' || type === 'lx_iot') return { kind: 'placeholder', label: 'iot' };
  const max = type === 'mail' ? PREVIEW_LENGTH.mail : PREVIEW_LENGTH.other;
  const flat = text.replace(/\s+/g, ' ');
  return { kind: 'text', text: flat.length > max ? `${flat.slice(0, max - 1)}…` : flat };
}

/** The content as the detail shows it: JSON indented, one field a line; anything else as it is. */
export function readableContent(content: string): string {
  const text = content.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return content;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return content;
  }
}

/** Status groups for the colour bar: what went well, what failed, what is under way. */
export function statusTone(status: string): 'success' | 'error' | 'warning' | 'info' {
  if (['parsing_failed', 'sending_failed', 'delivery_failed', 'error'].includes(status)) return 'error';
  if (['processed', 'finalized', 'delivered', 'ok', 'parsed', 'received', 'sent'].includes(status))
    return 'success';
  if (['unknown', 'released'].includes(status)) return 'warning';
  return 'info';
}
