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
  }

  /** The connection is gone: nothing of it is acknowledged any more (the broker delivers it again). */
  abandon() {
    this.halted = true;
    this.queue.length = 0;
  }
}
