/**
 * Tank geometries with their fixed ids 1..9. The filled share per geometry is in
 * sensor-logic/geometry.ts; the ids here must stay in step with it.
 */
export interface TankGeometry {
  id: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  name: { de: string; en: string };
}

export const TANK_GEOMETRIES: readonly TankGeometry[] = [
  { id: 1, name: { de: 'Zylindertank stehend', en: 'Vertical cylinder' } },
  { id: 2, name: { de: 'Zylindertank liegend', en: 'Horizontal cylinder' } },
  { id: 3, name: { de: 'Rechtecktank (Quader)', en: 'Rectangular tank (cuboid)' } },
  { id: 4, name: { de: 'Kugeltank', en: 'Spherical tank' } },
  {
    id: 5,
    name: { de: 'Zylindertank liegend mit Klöpperböden', en: 'Horizontal cylinder with dished ends' },
  },
  {
    id: 6,
    name: { de: 'Batterietank (Kunststoff)', en: 'Battery tank (plastic, rounded rectangular)' },
  },
  {
    id: 7,
    name: {
      de: 'Kellertank (Stahl, rechteckig mit gerundeten Kanten)',
      en: 'Cellar tank (steel, rectangular with rounded edges)',
    },
  },
  {
    id: 8,
    name: {
      de: 'Silo (Zylinder stehend mit Auslaufkonus)',
      en: 'Silo (vertical cylinder with conical bottom)',
    },
  },
  { id: 9, name: { de: 'Ovaltank liegend', en: 'Horizontal oval tank' } },
];
