import { describe, expect, it } from 'vitest';
import { centsToDollars, parseDollars, checkProductForm } from './catalog';

const valid = {
  name: 'Foundation Builder',
  price: '49',
  total_value: '197',
  savings: '148',
  checkout_url: 'https://checkout.example.com/foundation',
  sales_video_url: '',
  provider_ids: 'stripe_price price_123\nshopify_product 777',
  total_value_is_floor: false,
  savings_is_floor: false,
};

describe('parseDollars', () => {
  it('reads dollars and cents, with or without $ and thousands commas', () => {
    expect(parseDollars('49')).toBe(4900);
    expect(parseDollars('24.95')).toBe(2495);
    expect(parseDollars('24.9')).toBe(2490);
    expect(parseDollars('$1,495.00')).toBe(149500);
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', 'abc', '49.999', '-5', '1,49', '12e3', '4 9']) expect(parseDollars(text), text).toBeNull();
  });

  it('round-trips with centsToDollars', () => {
    for (const cents of [4900, 2495, 149500, 1]) expect(parseDollars(centsToDollars(cents))).toBe(cents);
  });
});

describe('checkProductForm', () => {
  const held = new Map([['stripe_price:price_ebook', 'Yes, You Can! ebook']]);
  const check = (values: Partial<typeof valid>) => checkProductForm({ ...valid, ...values }, held);

  it('turns a valid form into the payload, prices in cents and ids by kind', () => {
    const result = check({});
    expect(result).toMatchObject({
      ok: true,
      data: {
        price: 4900,
        total_value: 19700,
        savings: 14800,
        sales_video_url: null,
        provider_ids: [
          { kind: 'stripe_price', id: 'price_123' },
          { kind: 'shopify_product', id: '777' },
        ],
      },
    });
  });

  it('says at its field what is wrong: a malformed price, a link that is not https, none at all', () => {
    expect(check({ price: '49,5' })).toMatchObject({
      ok: false,
      errors: { price: 'The price must be an amount in dollars and cents, like 49 or 24.95' },
    });
    expect(check({ price: '0' })).toMatchObject({ ok: false, errors: { price: expect.any(String) } });
    expect(check({ checkout_url: 'http://checkout.example.com/f' })).toMatchObject({
      ok: false,
      errors: { checkout_url: 'A checkout link must be an https:// link' },
    });
    expect(check({ checkout_url: '  ' })).toMatchObject({
      ok: false,
      errors: { checkout_url: 'A checkout link is required' },
    });
    expect(check({ sales_video_url: 'javascript:alert(1)' })).toMatchObject({
      ok: false,
      errors: { sales_video_url: 'The sales video must be an https:// link' },
    });
  });

  it('refuses an id another product holds, and a line that is not a kind and an id', () => {
    expect(check({ provider_ids: 'stripe_price price_ebook' })).toMatchObject({
      ok: false,
      errors: { provider_ids: 'price_ebook already grants Yes, You Can! ebook: one provider id grants one product' },
    });
    expect(check({ provider_ids: 'price_123' })).toMatchObject({
      ok: false,
      errors: { provider_ids: expect.any(String) },
    });
    expect(check({ provider_ids: 'paypal_item 1' })).toMatchObject({
      ok: false,
      errors: { provider_ids: expect.any(String) },
    });
  });
});
