import type { ServerConfig } from '../config/env.ts';
import { lionelGateway, onceGateway, type SmsGateway } from './sms-gateways.ts';
import type { PendingNetConfigurations } from './net-pending-configuration.ts';

export type GatewayProvider = SmsGateway['provider'];

/** Publishes to the broker the server runs with (embedded Aedes or the external broker's client). */
export interface MqttPublisher {
  /** Resolves once the broker has taken the message (QoS 1). */
  publish(topic: string, payload: string): Promise<void>;
}

/** A device cannot be reached this way right now (not configured, broker not running). */
export class ChannelUnavailableError extends Error {}

/**
 * The server's ways to reach devices (queries, configuration): the SMS gateways' outbound
 * APIs, configured from the environment, the MQTT broker, attached once it has started (the
 * app is built before the broker runs, and tests attach a broker of their own), and for net
 * devices, which cannot be called, the configuration waiting for their next report.
 */
export class DeviceChannels {
  private mqtt: MqttPublisher | null = null;
  private readonly gateways: Partial<Record<GatewayProvider, SmsGateway>>;
  readonly net: PendingNetConfigurations;

  constructor(apis: ServerConfig['smsGatewayApis'], net: PendingNetConfigurations) {
    this.net = net;
    this.gateways = {
      ...(apis.lionel ? { lionel: lionelGateway(apis.lionel) } : {}),
      ...(apis['1nce'] ? { '1nce': onceGateway(apis['1nce']) } : {}),
    };
  }

  attachMqtt(publisher: MqttPublisher | null) {
    this.mqtt = publisher;
  }

  smsGateway(provider: GatewayProvider): SmsGateway {
    const gateway = this.gateways[provider];
    if (!gateway) throw new ChannelUnavailableError(`the ${provider} gateway API is not configured`);
    return gateway;
  }

  async publish(topic: string, payload: string): Promise<void> {
    if (!this.mqtt) throw new ChannelUnavailableError('no MQTT broker is running');
    await this.mqtt.publish(topic, payload);
  }
}
