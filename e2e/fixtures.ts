import { test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';

/**
 * Every page of a test is watched: a browser console error or an uncaught page error fails the
 * test, listed with the page it came from. Use `newUser()` for a second browser (another context,
 * e.g. the second login that forces the first offline); its page is watched the same way.
 */
type Fixtures = {
  /** console error texts a test expects (rare; say why where it is used) */
  allowedConsoleErrors: RegExp[];
  newUser: () => Promise<Page>;
};

function watch(page: Page, errors: string[], allowed: RegExp[], label: string): void {
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (allowed.some((re) => re.test(text))) return;
    errors.push(`[${label}] console error: ${text} (${message.location().url || page.url()})`);
  });
  page.on('pageerror', (error) => errors.push(`[${label}] page error: ${error.message}`));
}

export const test = base.extend<Fixtures & { consoleErrors: string[] }>({
  allowedConsoleErrors: [[], { option: true }],
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture arguments from this pattern
  consoleErrors: async ({}, use) => {
    const errors: string[] = [];
    await use(errors);
    expect(errors, 'the browser console stayed free of errors').toEqual([]);
  },
  page: async ({ page, consoleErrors, allowedConsoleErrors }, use) => {
    watch(page, consoleErrors, allowedConsoleErrors, 'page');
    await use(page);
  },
  newUser: async ({ browser, consoleErrors, allowedConsoleErrors }, use, testInfo) => {
    const contexts: BrowserContext[] = [];
    await use(async () => {
      const context = await newContext(browser, testInfo.project.use);
      contexts.push(context);
      const page = await context.newPage();
      watch(page, consoleErrors, allowedConsoleErrors, `user ${contexts.length + 1}`);
      return page;
    });
    for (const context of contexts) await context.close();
  },
});

async function newContext(browser: Browser, use: { baseURL?: string; locale?: string; viewport?: { width: number; height: number } | null }) {
  return browser.newContext({ baseURL: use.baseURL, locale: use.locale, viewport: use.viewport ?? null });
}

export { expect };
