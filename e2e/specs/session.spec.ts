// limits.ts directly: the protocol's index imports JSON catalogues, which Node's ESM loader
// refuses without import attributes
import { SESSION_HEARTBEAT_MS } from '../../packages/protocol/src/limits';
import { expect, test } from '../fixtures';
import { ACCOUNTS, buttonName, login, logout, openDropdownItem } from '../support/console';
import { text } from '../support/texts';

test.describe('session', () => {
  test('a second login of the same account forces the first offline within one heartbeat', async ({ page, newUser }) => {
    await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);

    const second = await newUser();
    await login(second, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);

    // the first console's next heartbeat answers fail: message, then back to the login screen
    const within = { timeout: SESSION_HEARTBEAT_MS + 10_000 };
    await expect(page.getByText(text('zh-CN', 'common:session.forcedOffline'))).toBeVisible(within);
    await expect(page).toHaveURL(/\/login$/, within);

    // the second console carries on
    await second.reload();
    await expect(second).toHaveURL(/\/menu$/);
    await logout(second);
  });

  test('change password: the rules are checked, the new password logs in, then it is changed back', async ({ page }) => {
    const { username, password } = ACCOUNTS.unitadmin;
    const changed = 'Nw#pass2024';

    const changePassword = async (from: string, to: string, confirm = to) => {
      await openDropdownItem(page, 'user-menu', text('zh-CN', 'shell:userMenu.changePassword'));
      const dialog = page.getByRole('dialog').filter({ hasText: text('zh-CN', 'shell:password.title') });
      await expect(dialog).toBeVisible();
      await dialog.getByLabel(text('zh-CN', 'shell:password.old'), { exact: true }).fill(from);
      await dialog.getByLabel(text('zh-CN', 'shell:password.new'), { exact: true }).fill(to);
      await dialog.getByLabel(text('zh-CN', 'shell:password.confirm'), { exact: true }).fill(confirm);
      await dialog.getByRole('button', { name: buttonName(text('zh-CN', 'common:action.submit')) }).click();
      return dialog;
    };

    await login(page, username, password);

    // a confirmation that differs is refused in the form, nothing is sent
    const dialog = await changePassword(password, changed, `${changed}x`);
    await expect(dialog.getByText(text('zh-CN', 'validation:password.mismatch'))).toBeVisible();
    await dialog.getByRole('button', { name: buttonName(text('zh-CN', 'common:action.cancel')) }).click();
    await expect(dialog).toBeHidden();

    // too weak for the 8-12 / three classes rule
    const weak = await changePassword(password, 'abcdefgh');
    await expect(weak.getByText(text('zh-CN', 'validation:password.classes'))).toBeVisible();
    await weak.getByRole('button', { name: buttonName(text('zh-CN', 'common:action.cancel')) }).click();

    const ok = await changePassword(password, changed);
    await expect(ok).toBeHidden();
    await logout(page);

    await login(page, username, changed);
    const back = await changePassword(changed, password);
    await expect(back).toBeHidden();
    await logout(page);
    await login(page, username, password);
    await logout(page);
  });
});
