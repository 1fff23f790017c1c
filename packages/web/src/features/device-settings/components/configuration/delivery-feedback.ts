import { useTranslation } from 'react-i18next';
import type { VariantType } from 'notistack';
import type { ConfigurationSaved } from '../../api/configuration.ts';

export interface Feedback {
  text: string;
  variant: VariantType;
}

/**
 * What the user is told after a save (decision 025): saved, and whether the configuration has
 * reached the device — sent by SMS or MQTT, waiting for the net device's next report, or not sent
 * and why. A failed send is one warning that says both (saved, not sent), never a bare "saved".
 */
export function useDeliveryFeedback() {
  const { t } = useTranslation();
  return ({ smsSent, delivery }: Pick<ConfigurationSaved, 'smsSent' | 'delivery'>): Feedback[] => {
    if (delivery.status === 'failed') {
      const channel = delivery.channel ?? 'sms';
      const failure = delivery.failure ?? 'refused';
      return [
        {
          text: t('device-config.responses.notSent', {
            reason: t(`device-config.responses.notSentReasons.${channel}.${failure}`),
          }),
          variant: 'warning',
        },
      ];
    }
    const saved: Feedback = { text: t('device-config.responses.updated'), variant: 'success' };
    if (delivery.status === 'pending')
      return [saved, { text: t('device-config.responses.pending'), variant: 'info' }];
    if (smsSent > 0)
      return [saved, { text: t('device-config.responses.smsSent', { count: smsSent }), variant: 'info' }];
    if (delivery.channel === 'mqtt')
      return [saved, { text: t('device-config.responses.sentMqtt'), variant: 'info' }];
    return [saved];
  };
}
