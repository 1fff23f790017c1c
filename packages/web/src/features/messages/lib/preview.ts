import type { MessageType } from '@tankportal/shared/devices';

/** How much of a message's content the lists show (mails less: their text is long). */
const PREVIEW_LENGTH = { mail: 100, other: 160 } as const;

export type MessagePreview =
  { kind: 'text'; text: string } | { kind: 'placeholder'; label: 'xml' | 'iot' | 'empty' };

/**
 * What a list shows of a content: its start, or a label where the content is machine data that a
 * person cannot read in a line (XML, IoT telegrams), or nothing at all.
 */
export function messagePreview(type: MessageType, content: string): MessagePreview {
  const text = content.trim();
  if (!text) return { kind: 'placeholder', label: 'empty' };
  if (text.startsWith('<')) return { kind: 'placeholder', label: 'xml' };
  if (type === 'iot' || type === 'lx_iot') return { kind: 'placeholder', label: 'iot' };
  const max = type === 'mail' ? PREVIEW_LENGTH.mail : PREVIEW_LENGTH.other;
  const flat = text.replace(/\s+/g, ' ');
  return { kind: 'text', text: flat.length > max ? `${flat.slice(0, max - 1)}…` : flat };
}

/** Status groups for the colour bar: what went well, what failed, what is under way. */
export function statusTone(status: string): 'success' | 'error' | 'warning' | 'info' {
  if (['parsing_failed', 'sending_failed', 'delivery_failed', 'error'].includes(status)) return 'error';
  if (['processed', 'finalized', 'delivered', 'ok', 'parsed', 'received', 'sent'].includes(status))
    return 'success';
  if (['unknown', 'released'].includes(status)) return 'warning';
  return 'info';
}
