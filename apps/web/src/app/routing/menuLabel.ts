/**
 * The `menu` catalogue key of a module of the catalogue (`ModuleDef.key`), a fixed settings page
 * (`SYSTEM_SUBPAGES`) or 'home'. The catalogue has a label for every one of them, checked over
 * the whole list by i18n/catalogues.test.ts.
 */
export function menuLabelKey(key: string): string {
  return `menu:${key}`;
}
