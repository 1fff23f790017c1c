import { describe, expect, it } from 'vitest';
import { OrderedAcks } from './mqtt-ordered-acks.ts';

describe('OrderedAcks', () => {
  it('acknowledges each publish after its commit, in the order the publishes came', () => {
    const sent: number[] = [];
    const acks = new OrderedAcks((messageId) => sent.push(messageId));
    const [first, second, third] = [11, 12, 13].map((id) => acks.received(id));
    acks.settle(third, 'committed');
    acks.settle(second, 'committed');
    // The broker must not learn of 12 and 13 before 11 (MQTT 5 §4.6).
    expect(sent).toEqual([]);
    acks.settle(first, 'committed');
    expect(sent).toEqual([11, 12, 13]);
    expect(acks.size).toBe(0);
  });

  it('acknowledges nothing from a failed report on, so that the broker delivers it again', () => {
    const sent: number[] = [];
    const acks = new OrderedAcks((messageId) => sent.push(messageId));
    const [first, failing, later] = [1, 2, 3].map((id) => acks.received(id));
    acks.settle(first, 'committed');
    acks.settle(failing, 'failed');
    acks.settle(later, 'committed');
    expect(sent).toEqual([1]);
    expect(acks.stopped).toBe(true);
  });

  it('acknowledges nothing of a connection that is gone', () => {
    const sent: number[] = [];
    const acks = new OrderedAcks((messageId) => sent.push(messageId));
    const pending = acks.received(5);
    acks.abandon();
    acks.settle(pending, 'committed');
    expect(sent).toEqual([]);
  });

  it('holds the reader back while more publishes than the window wait for their PUBACK', async () => {
    const acks = new OrderedAcks(() => {});
    const [first, second, third] = [1, 2, 3].map((id) => acks.received(id));
    expect(acks.room(3)).toBeUndefined();
    let resumed = false;
    void acks.room(2)!.then(() => (resumed = true));
    acks.settle(second, 'committed');
    await Promise.resolve();
    // 2 cannot be acknowledged before 1: still three waiting.
    expect(resumed).toBe(false);
    acks.settle(first, 'committed');
    await Promise.resolve();
    expect(resumed).toBe(true);
    acks.settle(third, 'committed');
  });
});
