import { describe, expect, it } from 'vitest';
import { messagePreview, statusTone } from './preview.ts';

describe('messagePreview', () => {
  it('shortens texts to 160 characters, mails to 100, on one line', () => {
    const long = 'Füllstand '.repeat(30);
    const sms = messagePreview('sms', long);
    expect(sms).toEqual({ kind: 'text', text: expect.stringMatching(/…$/) });
    expect(sms.kind === 'text' && sms.text.length).toBe(160);
    const mail = messagePreview('mail', `Betreff\n\n${long}`);
    expect(mail.kind === 'text' && mail.text.length).toBe(100);
    expect(mail.kind === 'text' && mail.text).toMatch(/^Betreff Füllstand/);
    expect(messagePreview('sms', 'kurz')).toEqual({ kind: 'text', text: 'kurz' });
  });

  it('labels XML, IoT telegrams and empty contents instead of showing them', () => {
    expect(messagePreview('net', '<?xml version="1.0"?><report/>')).toEqual({
      kind: 'placeholder',
      label: 'xml',
    });
    expect(messagePreview('iot', '{"level":5}')).toEqual({ kind: 'placeholder', label: 'iot' });
    expect(messagePreview('sms', '  ')).toEqual({ kind: 'placeholder', label: 'empty' });
  });
});

describe('statusTone', () => {
  it('groups the statuses', () => {
    expect(statusTone('delivery_failed')).toBe('error');
    expect(statusTone('processed')).toBe('success');
    expect(statusTone('gateway')).toBe('info');
    expect(statusTone('unknown')).toBe('warning');
  });
});
