import type { Page } from '@playwright/test';

/**
 * The emergency screen's group tab narrowed to the groups named like `name` (the tab's search, on
 * the server): the tab's tree is virtual, and on a server where many groups were made (the demo
 * puts provisioned devices in their district's group) a group far down is not in the page at all.
 */
export async function searchGroup(page: Page, name: string): Promise<void> {
  // the test id is on the input itself or on its wrapper
  const search = page.getByTestId('group-search').locator('xpath=descendant-or-self::input').first();
  await search.fill(name);
  await search.press('Enter');
}
