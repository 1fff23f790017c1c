import { describe, expect, it } from 'vitest';
import { DeliveryQueue, QUEUE_KEY, type DeliveryEntry } from './delivery-queue.ts';

class MemoryStore {
  values = new Map<string, string>();
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.values.set(key, value);
  }
}

const entry = (clientEntryId: string, stopId: number) => ({
  clientEntryId,
  stopId,
  ticketQuantity: 1200,
  deliveredAt: '2026-12-01T09:00:00.000Z',
});

describe('DeliveryQueue', () => {
  it('keeps an entry made without a connection and sends it once the connection is back', async () => {
    const store = new MemoryStore();
    let online = false;
    const sent: string[] = [];
    const queue = new DeliveryQueue(store, async (item: DeliveryEntry) => {
      if (!online) throw new Error('offline');
      sent.push(item.clientEntryId);
      return 200;
    });
    await queue.add(entry('a', 1));
    expect(queue.entryOf(1)?.state).toBe('waiting');
    // A reload: a new queue on the same store still has it.
    const again = new DeliveryQueue(store, async (item: DeliveryEntry) => {
      if (!online) throw new Error('offline');
      sent.push(item.clientEntryId);
      return 200;
    });
    expect(again.entryOf(1)?.state).toBe('waiting');
    online = true;
    await Promise.all([again.flush(), again.flush()]);
    expect(sent).toEqual(['a']);
    expect(again.entryOf(1)?.state).toBe('sent');
    await again.flush();
    expect(sent).toEqual(['a']);
    expect(JSON.parse(store.getItem(QUEUE_KEY)!)).toHaveLength(1);
  });

  it('sends again after a server error, and marks a refusal without sending it again', async () => {
    const answers = [503, 201, 404];
    const sent: string[] = [];
    const queue = new DeliveryQueue(new MemoryStore(), async (item: DeliveryEntry) => {
      sent.push(item.clientEntryId);
      return answers.shift()!;
    });
    await queue.add(entry('a', 1));
    expect(queue.entryOf(1)?.state).toBe('waiting');
    await queue.add(entry('b', 2));
    expect(sent).toEqual(['a', 'a', 'b']);
    expect(queue.entryOf(1)?.state).toBe('sent');
    expect(queue.entryOf(2)).toMatchObject({ state: 'refused', status: 404 });
    await queue.flush();
    expect(sent).toHaveLength(3);
  });

  it('forgets settled entries after three days, never waiting ones', async () => {
    const store = new MemoryStore();
    let now = new Date('2026-12-01T10:00:00Z');
    const queue = new DeliveryQueue(
      store,
      async () => 200,
      () => now,
    );
    await queue.add(entry('a', 1));
    now = new Date('2026-12-05T10:00:00Z');
    const offline = new DeliveryQueue(
      store,
      () => Promise.reject(new Error('offline')),
      () => now,
    );
    await offline.add(entry('b', 2));
    expect(offline.entries().map((item) => item.clientEntryId)).toEqual(['b']);
  });
});
