import { describe, expect, it } from 'vitest';
import { isActionArgumentList } from './reply';

describe('isActionArgumentList', () => {
  it.each([
    '[]',
    '[{"status":"idle"},"$K1"]',
    '["cs_123",{"method":"card","card":{"name":"$$Q1 typed by a person"}}]',
    '["$undefined","$D2026-01-01T00:00:00.000Z","$NaN","$Infinity","$-Infinity","$-0"]',
  ])('lets %s through: what our pages send', (text) => {
    expect(isActionArgumentList(text)).toBe(true);
  });

  it.each([
    null,
    '"x"',
    '42',
    'null',
    '{"0":[]}',
    '[[',
    '[{"status":"idle"},"$Q1"]',
    '["$W1"]',
    '["$@1"]',
    '["$1"]',
    '["$0:0"]',
    '["$B1"]',
    '["$T"]',
    '["$h1"]',
    '["$n12"]',
    '["$R1"]',
    '["$K"]',
    '["$"]',
    '[{"deep":[{"er":"$i1"}]}]',
  ])('refuses %s: not a list, or a reference to a part no page sends', (text) => {
    expect(isActionArgumentList(text)).toBe(false);
  });
});
