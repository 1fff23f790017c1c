/**
 * MQTT topics of IoT and LX-IoT devices (docs/protocols.md). A device connects with its client id
 * equal to its thing name (IoT) or ICCID (LX-IoT) and publishes its reports, QoS 1, to
 * `devices/{kind}/{clientId}/report`; the server sends commands to `devices/{kind}/{clientId}/command`.
 */
export const MQTT_KINDS = { iot: 'iot', 'lx-iot': 'lx_iot' } as const;
export type MqttKind = (typeof MQTT_KINDS)[keyof typeof MQTT_KINDS];

export const REPORT_TOPIC_FILTER = 'devices/+/+/report';

export interface ReportTopic {
  kind: MqttKind;
  ident: string;
}

export function parseReportTopic(topic: string): ReportTopic | null {
  const match = /^devices\/(iot|lx-iot)\/([^/+#]{1,128})\/report$/.exec(topic);
  return match ? { kind: MQTT_KINDS[match[1] as keyof typeof MQTT_KINDS], ident: match[2] } : null;
}

export function commandTopic(kind: MqttKind, ident: string): string {
  return `devices/${kind === 'lx_iot' ? 'lx-iot' : 'iot'}/${ident}/command`;
}
