import { describe, expect, it } from 'vitest';
import { FIELD_PREDICATES, isPluralField, pluralPredicate, translate } from './index';

describe('plural field subjects', () => {
  it('takes list-like names as plural and singular nouns ending in s as singular', () => {
    for (const field of ['ids', 'uids', 'extuids', 'targets', 'device_ids', 'gps.0.points', 'units', 'positions'])
      expect(isPluralField(field), field).toBe(true);
    for (const field of [
      'id',
      'status',
      'cmd_status',
      'gps',
      'alias',
      'address',
      'gps.3.lat',
      'name',
      'ids.0',
      'positions.6',
    ])
      expect(isPluralField(field), field).toBe(false);
  });

  it('has a plural form of every predicate in both languages', () => {
    for (const key of FIELD_PREDICATES)
      for (const lang of ['zh-CN', 'en-US'] as const)
        expect(translate(lang, pluralPredicate(key)), `${lang} ${key}`).not.toBe(pluralPredicate(key));
    expect(translate('en-US', pluralPredicate('validation.required'))).toBe('are required');
  });
});
