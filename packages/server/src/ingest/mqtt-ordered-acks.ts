/** A QoS 1 publish received on one connection, acknowledged once its report is committed. */
export interface PendingAck {
  messageId: number;
  state: 'pending' | 'committed' | 'failed';
}

/**
 * The PUBACKs of one connection to the broker, sent in the order the publishes arrived (MQTT 5
 * §4.6: "MUST send PUBACK packets in the order in which the corresponding PUBLISH packets were
 * received"), each only after its report's commit. Many reports are in the database at once (the
 * ingest batcher stores them together); a report committed early waits for the ones before it.
 *
 * A report that could not be stored stops the acknowledgements for good: it and every publish
 * after it stay unacknowledged, and the caller drops the connection, so the broker delivers them
 * again (the ones already stored are then recognised as duplicates).
 */
export class OrderedAcks {
  private readonly queue: PendingAck[] = [];
  private halted = false;
  /** Readers waiting until at most `limit` publishes are unacknowledged. */
  private waiting: { limit: number; resume: () => void }[] = [];

  private readonly sendPuback: (messageId: number) => void;

  constructor(sendPuback: (messageId: number) => void) {
    this.sendPuback = sendPuback;
  }

  /** Publishes received and not yet acknowledged. */
  get size() {
    return this.queue.length;
  }

  /** A report failed or the connection is gone: no PUBACK is sent any more. */
  get stopped() {
    return this.halted;
  }

  received(messageId: number): PendingAck {
    const pending: PendingAck = { messageId, state: 'pending' };
    this.queue.push(pending);
    return pending;
  }

  settle(pending: PendingAck, outcome: 'committed' | 'failed') {
    pending.state = outcome;
    if (outcome === 'failed') this.halted = true;
    while (!this.halted && this.queue[0]?.state === 'committed')
      this.sendPuback(this.queue.shift()!.messageId);
    this.resumeWaiting();
  }

  /**
   * Undefined while at most `limit` publishes are unacknowledged; otherwise a promise that resolves
   * once they are (or the connection is gone). The reader stops until then.
   */
  room(limit: number): Promise<void> | undefined {
    if (this.queue.length <= limit) return undefined;
    return new Promise((resume) => this.waiting.push({ limit, resume }));
  }

  private resumeWaiting() {
    if (this.waiting.length === 0) return;
    const ready = this.waiting.filter((waiter) => this.halted || this.queue.length <= waiter.limit);
    this.waiting = this.waiting.filter((waiter) => !ready.includes(waiter));
    for (const waiter of ready) waiter.resume();
  }

  /** The connection is gone: nothing of it is acknowledged any more (the broker delivers it again). */
  abandon() {
    this.halted = true;
    this.queue.length = 0;
    this.resumeWaiting();
  }
}
