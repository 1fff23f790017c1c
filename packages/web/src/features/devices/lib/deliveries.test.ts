import { describe, expect, it } from 'vitest';
import { deliveryTicketBody } from '@tankportal/shared/schemas/tank-health';
import {
  differenceShare,
  isShortfall,
  measuredQuantity,
  parseQuantity,
  quantityInput,
  ticketBodyOf,
} from './deliveries.ts';

describe('delivery quantities', () => {
  it('compares the quantity at 15 °C where there is one', () => {
    expect(measuredQuantity({ quantity: 3000, quantity15: 2990 })).toBe(2990);
    expect(measuredQuantity({ quantity: 3000, quantity15: null })).toBe(3000);
  });

  it('calls a delivery short only beyond 1 % of the ticket', () => {
    expect(isShortfall({ ticketQuantity: 3000, difference: -30 })).toBe(false);
    expect(isShortfall({ ticketQuantity: 3000, difference: -31 })).toBe(true);
    expect(isShortfall({ ticketQuantity: 3000, difference: 200 })).toBe(false);
    expect(isShortfall({ ticketQuantity: null, difference: null })).toBe(false);
    expect(isShortfall({ ticketQuantity: 0, difference: 10 })).toBe(false);
  });

  it('gives the difference as a share of the ticket', () => {
    expect(differenceShare({ ticketQuantity: 2000, difference: -40 })).toBe(-0.02);
    expect(differenceShare({ ticketQuantity: 0, difference: 5 })).toBeNull();
    expect(differenceShare({ ticketQuantity: null, difference: null })).toBeNull();
  });
});

describe('the ticket quantity as typed', () => {
  it('reads German numbers', () => {
    expect(parseQuantity('2500', 'de')).toBe(2500);
    expect(parseQuantity(' 2.500 ', 'de')).toBe(2500);
    expect(parseQuantity('2.500,5', 'de')).toBe(2500.5);
    expect(parseQuantity('2500,5', 'de')).toBe(2500.5);
    expect(parseQuantity('2500.5', 'de')).toBe(2500.5);
    expect(parseQuantity('12.345.678', 'de')).toBe(12345678);
  });

  it('reads English numbers', () => {
    expect(parseQuantity('2,500.5', 'en')).toBe(2500.5);
    expect(parseQuantity('2500.5', 'en')).toBe(2500.5);
    expect(parseQuantity('2500,5', 'en')).toBeNaN();
  });

  it('takes empty as no ticket and anything else as not a number', () => {
    expect(parseQuantity('', 'de')).toBeNull();
    expect(parseQuantity('  ', 'en')).toBeNull();
    expect(parseQuantity('abc', 'de')).toBeNaN();
    expect(parseQuantity('1,2,3', 'de')).toBeNaN();
    expect(parseQuantity('-5', 'de')).toBe(-5);
  });

  it('shows a stored quantity to edit without grouping', () => {
    expect(quantityInput(null, 'de')).toBe('');
    expect(quantityInput(2500.5, 'de')).toBe('2500,5');
    expect(quantityInput(2500.5, 'en')).toBe('2500.5');
    expect(quantityInput(3000, 'de')).toBe('3000');
  });

  it('gives the shared schema what it checks', () => {
    expect(deliveryTicketBody.safeParse(ticketBodyOf('2.500', 'de')).data).toEqual({ ticketQuantity: 2500 });
    expect(deliveryTicketBody.safeParse(ticketBodyOf('', 'de')).data).toEqual({ ticketQuantity: null });
    const negative = deliveryTicketBody.safeParse(ticketBodyOf('-1', 'de'));
    expect(negative.error?.issues[0]).toMatchObject({ code: 'too_small', path: ['ticketQuantity'] });
    const text = deliveryTicketBody.safeParse(ticketBodyOf('viel', 'de'));
    expect(text.error?.issues[0]).toMatchObject({ message: 'invalid', path: ['ticketQuantity'] });
  });
});
