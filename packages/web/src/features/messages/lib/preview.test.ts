import { describe, expect, it } from 'vitest';
import { messagePreview, readableContent, statusTone } from './preview.ts';

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

describe('messagePreview of JSON', () => {
  it('reads a report out: its time and each sensor value, an errored sensor without one', () => {
    const report = JSON.stringify({
      messageId: 'n-17',
      measuredAt: '2026-11-24T06:00:00Z',
      sensors: [
        { sequence: 1, value: 2500.5 },
        { sequence: 2, value: 12, error: true },
      ],
    });
    expect(messagePreview('net', report)).toEqual({
      kind: 'report',
      measuredAt: '2026-11-24T06:00:00Z',
      readings: [
        { sequence: 1, value: 2500.5 },
        { sequence: 2, value: null },
      ],
    });
    expect(messagePreview('iot', report)).toMatchObject({ kind: 'report' });
  });

  it('names a command, labels other JSON, and leaves text that only looks like JSON', () => {
    expect(messagePreview('net', '{"command":"configuration","version":1}')).toEqual({
      kind: 'command',
      command: 'configuration',
    });
    expect(messagePreview('net', '{"hello":1}')).toEqual({ kind: 'placeholder', label: 'json' });
    expect(messagePreview('net', '{kaputt')).toEqual({ kind: 'text', text: '{kaputt' });
    expect(messagePreview('sms', '{"command":"x"}')).toEqual({ kind: 'text', text: '{"command":"x"}' });
  });
});

describe('readableContent', () => {
  it('indents JSON and leaves other contents alone', () => {
    expect(readableContent('{"command":"query","queryId":7}')).toBe(
      '{\n  "command": "query",\n  "queryId": 7\n}',
    );
    expect(readableContent('TP1;77;S1=2500')).toBe('TP1;77;S1=2500');
    expect(readableContent('{kaputt')).toBe('{kaputt');
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
