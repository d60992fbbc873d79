/**
 * A written-out map from values (a fence rule, an alarm level, a device state) to catalogue keys
 * of one namespace, for `t(RULE_LABELS[rule])` where a key would otherwise be built at runtime
 * (a template string given to `t`, invisible to a search and to the catalogue check).
 * `i18n/catalogues.test.ts` reads every `keysOf` map and fails on a key missing from its namespace
 * (the first argument, only read by that check). Translate with that namespace's `t`, or pass
 * `{ ns }`.
 */
export function keysOf<K extends PropertyKey, V extends string>(
  _namespace: string,
  keys: Record<K, V>,
): Readonly<Record<K, V>> {
  return keys;
}
