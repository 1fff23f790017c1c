/** What a tank or silo holds, with the density at 15 °C used as the default. */
export interface ContentType {
  id: string;
  name: { de: string; en: string };
  /** kg per cubic metre */
  defaultDensity: number;
}

const type = (id: string, de: string, en: string, defaultDensity: number): ContentType => ({
  id,
  name: { de, en },
  defaultDensity,
});

// Liquids: density at 15 °C (LPG and nitrogen as liquid in the tank); flour and corn: bulk density
// in the silo. `special` is for anything else, where the operator enters the density himself.
export const CONTENT_TYPES: readonly ContentType[] = [
  type('heating_oil_el', 'Heizöl EL', 'Heating oil EL', 845),
  type('heating_oil_es', 'Heizöl EL schwefelarm', 'Heating oil EL low-sulphur', 845),
  type('heating_oil_els', 'Heizöl EL schwefelarm Premium', 'Heating oil EL low-sulphur premium', 845),
  type('heating_oil_s', 'Heizöl S (schwer)', 'Heating oil S (heavy)', 980),
  type('heating_oil_l', 'Heizöl L (leicht)', 'Heating oil L (light)', 860),
  type('heating_oil_m', 'Heizöl M (mittel)', 'Heating oil M (medium)', 920),
  type('water', 'Wasser', 'Water', 1000),
  type('adblue', 'AdBlue®', 'AdBlue®', 1090),
  type('petrol', 'Benzin', 'Petrol', 745),
  type('super', 'Super', 'Super', 745),
  type('super_plus', 'Super Plus', 'Super Plus', 750),
  type('e10', 'Super E10', 'Super E10', 750),
  type('diesel', 'Diesel', 'Diesel', 835),
  type('hvo100', 'HVO100', 'HVO100', 780),
  type('bio_diesel', 'Biodiesel', 'Biodiesel', 880),
  type('rme', 'Rapsmethylester (RME)', 'Rapeseed methyl ester (RME)', 883),
  type('engine_oil', 'Motoröl', 'Engine oil', 870),
  type('lpg', 'Flüssiggas (LPG)', 'Liquefied petroleum gas (LPG)', 540),
  type('used_oil', 'Altöl', 'Used oil', 900),
  type('palm_oil', 'Palmöl', 'Palm oil', 890),
  type('rape_oil', 'Rapsöl', 'Rapeseed oil', 915),
  type('veg_oil', 'Pflanzenöl', 'Vegetable oil', 920),
  type('hydraulic_fluid', 'Hydrauliköl', 'Hydraulic fluid', 870),
  type('nitrogen', 'Stickstoff (flüssig)', 'Nitrogen (liquid)', 808),
  type('antifreeze', 'Frostschutzmittel', 'Antifreeze', 1070),
  type('flour', 'Mehl', 'Flour', 550),
  type('rye_flour', 'Roggenmehl', 'Rye flour', 530),
  type('corn', 'Mais', 'Maize (corn)', 720),
  type('special', 'Sonstiges', 'Other', 1000),
];
