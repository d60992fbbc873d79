import { SYSTEM_TITLE_DEFAULT } from '@bwc/protocol';

/**
 * The title of the login page and the navigation bar: the one an administrator set under System ->
 * system title, shown as typed in every language; while it is the shipped default (or empty) the
 * product name in the console's language.
 */
export function systemTitle(title: string | undefined, productName: string): string {
  return title && title !== SYSTEM_TITLE_DEFAULT ? title : productName;
}
