import { describe, expect, it } from 'vitest';
import { parseRecipientAddress } from './buyer-address.ts';

describe('parseRecipientAddress', () => {
  it('reads name, street and town of a German address', () => {
    expect(parseRecipientAddress('Heizöl Meier GmbH\nHauptstraße 5\n12345 Musterstadt', 'D-1', 'DE')).toEqual(
      {
        name: 'Heizöl Meier GmbH',
        streetLines: ['Hauptstraße 5'],
        postalCode: '12345',
        city: 'Musterstadt',
        countryCode: 'DE',
      },
    );
  });

  it('takes the country from a last line or a letter before the postal code', () => {
    expect(
      parseRecipientAddress('Gemeinde Au\nz. Hd. Bauamt\nDorfplatz 1\nA-6870 Bezau', 'x', 'DE'),
    ).toMatchObject({
      streetLines: ['z. Hd. Bauamt', 'Dorfplatz 1'],
      postalCode: '6870',
      city: 'Bezau',
      countryCode: 'AT',
    });
    expect(
      parseRecipientAddress('Ferme\n1 rue Haute\n67000 Strasbourg\nFrankreich', 'x', 'DE'),
    ).toMatchObject({
      postalCode: '67000',
      countryCode: 'FR',
    });
  });

  it('keeps at most two street lines and tolerates blank lines and CRLF', () => {
    expect(parseRecipientAddress('A\r\n\r\nB\r\nC\r\nD\r\n80331 München', 'x', 'DE').streetLines).toEqual([
      'B',
      'C, D',
    ]);
  });

  it('without a town line names the debtor, with no town; without text the debtor ident', () => {
    expect(parseRecipientAddress('Just a name', 'x', 'DE')).toMatchObject({
      name: 'Just a name',
      city: null,
    });
    expect(parseRecipientAddress(null, 'D-4711', 'AT')).toEqual({
      name: 'D-4711',
      streetLines: [],
      postalCode: null,
      city: null,
      countryCode: 'AT',
    });
  });
});
