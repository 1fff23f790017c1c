/** The SMS gateways a fresh installation knows. */
export interface SmsGatewaySeed {
  label: string;
  provider: 'lionel' | '1nce';
  owner: string;
  country: string;
}

// Lionel sends from a national number per country; 1NCE is one global IoT SIM platform
// (operated from Germany) that sends to and receives from its own SIMs by ICCID.
export const SMS_GATEWAY_SEEDS: readonly SmsGatewaySeed[] = [
  { label: 'Lionel DE', provider: 'lionel', owner: 'system', country: 'DE' },
  { label: 'Lionel AT', provider: 'lionel', owner: 'system', country: 'AT' },
  { label: 'Lionel CH', provider: 'lionel', owner: 'system', country: 'CH' },
  { label: '1NCE global', provider: '1nce', owner: 'system', country: 'DE' },
];
