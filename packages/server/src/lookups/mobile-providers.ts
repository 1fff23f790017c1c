/** Mobile network operators of the countries the devices' SIMs come from (MCC/MNC per ITU-T E.212). */
export interface MobileProvider {
  id: string;
  name: string;
  countryCode: 'DE' | 'AT' | 'CH' | 'FR' | 'BE';
  mcc: string;
  mnc: string[];
}

// Only the networks' own MNCs (including those of operators they absorbed: E-Plus in o2, Orange
// Austria in Drei, tele.ring in Magenta, yesss! in A1, Mobistar in Orange Belgium), no MVNOs.
export const MOBILE_PROVIDERS: readonly MobileProvider[] = [
  { id: 'de-telekom', name: 'Telekom Deutschland', countryCode: 'DE', mcc: '262', mnc: ['01', '06'] },
  { id: 'de-vodafone', name: 'Vodafone', countryCode: 'DE', mcc: '262', mnc: ['02', '04', '09'] },
  {
    id: 'de-telefonica',
    name: 'Telefónica o2',
    countryCode: 'DE',
    mcc: '262',
    mnc: ['03', '05', '07', '08', '11', '77'],
  },
  { id: 'de-1und1', name: '1&1', countryCode: 'DE', mcc: '262', mnc: ['23'] },
  { id: 'at-a1', name: 'A1 Telekom Austria', countryCode: 'AT', mcc: '232', mnc: ['01', '11', '12'] },
  { id: 'at-magenta', name: 'Magenta Telekom', countryCode: 'AT', mcc: '232', mnc: ['03', '07'] },
  { id: 'at-drei', name: 'Drei', countryCode: 'AT', mcc: '232', mnc: ['05', '10'] },
  { id: 'ch-swisscom', name: 'Swisscom', countryCode: 'CH', mcc: '228', mnc: ['01'] },
  { id: 'ch-sunrise', name: 'Sunrise', countryCode: 'CH', mcc: '228', mnc: ['02'] },
  { id: 'ch-salt', name: 'Salt', countryCode: 'CH', mcc: '228', mnc: ['03'] },
  { id: 'fr-orange', name: 'Orange', countryCode: 'FR', mcc: '208', mnc: ['01', '02'] },
  { id: 'fr-sfr', name: 'SFR', countryCode: 'FR', mcc: '208', mnc: ['10', '11', '13'] },
  { id: 'fr-bouygues', name: 'Bouygues Telecom', countryCode: 'FR', mcc: '208', mnc: ['20', '21', '88'] },
  { id: 'fr-free', name: 'Free Mobile', countryCode: 'FR', mcc: '208', mnc: ['15', '16'] },
  { id: 'be-proximus', name: 'Proximus', countryCode: 'BE', mcc: '206', mnc: ['01'] },
  { id: 'be-orange', name: 'Orange Belgium', countryCode: 'BE', mcc: '206', mnc: ['10'] },
  { id: 'be-telenet', name: 'Telenet (BASE)', countryCode: 'BE', mcc: '206', mnc: ['20'] },
];
