/** MQTT 5 DISCONNECT reason code: another client connected with the same client id. */
export const SESSION_TAKEN_OVER = 0x8e;

/**
 * Connections the broker ends within the window after which a duplicate client id is the likely
 * cause: an MQTT 3.1.1 broker closes the connection of a client whose session another one took
 * over without saying why (so does Mosquitto 2.0 to an MQTT 5 client), and the two clients then
 * take turns every reconnect.
 */
const LOST_CONNECTIONS = 3;
const WINDOW_MS = 30_000;

/**
 * Says in one warning line, at most once per window, that another client uses this server's
 * client id: two processes started with the same MQTT_CLIENT_ID push each other off the broker
 * every second, and the log otherwise shows only disconnects and reconnects.
 */
export class SessionTakeoverWatch {
  private readonly clientId: string;
  private readonly broker: string;
  private readonly warn: (message: string) => void;
  private readonly now: () => number;
  private lost: number[] = [];
  private warnedAt = Number.NEGATIVE_INFINITY;

  constructor(clientId: string, broker: string, warn: (message: string) => void, now = Date.now) {
    this.clientId = clientId;
    this.broker = broker;
    this.warn = warn;
    this.now = now;
  }

  /** The broker sent DISCONNECT (MQTT 5) with this reason code. */
  disconnected(reasonCode: number | undefined) {
    if (reasonCode !== SESSION_TAKEN_OVER) return;
    this.warnOncePerWindow(
      `MQTT: another client connected to ${this.broker} with this server's client id "${this.clientId}" and took over its session; each server process needs its own MQTT_CLIENT_ID`,
    );
  }

  /** A connection that was up has ended, and not because this server ended it. */
  connectionLost() {
    const now = this.now();
    this.lost = this.lost.filter((at) => now - at < WINDOW_MS);
    this.lost.push(now);
    if (this.lost.length < LOST_CONNECTIONS) return;
    this.warnOncePerWindow(
      `MQTT: ${this.broker} ended this server's connection ${this.lost.length} times within ${WINDOW_MS / 1000} s; likely another client uses the same client id "${this.clientId}" and takes over the session: each server process needs its own MQTT_CLIENT_ID`,
    );
  }

  private warnOncePerWindow(message: string) {
    const now = this.now();
    if (now - this.warnedAt < WINDOW_MS) return;
    this.warnedAt = now;
    this.warn(message);
  }
}
