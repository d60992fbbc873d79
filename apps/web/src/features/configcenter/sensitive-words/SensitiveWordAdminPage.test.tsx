import { Api, MenuId } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../components/test-utils';
import { fakeServer } from '../../data/fakeServer';
import { SensitiveWordAdminPage } from './SensitiveWordAdminPage';

afterEach(() => vi.unstubAllGlobals());

const words = [
  { id: 1, word: 'secret', updated: '2026-06-01T00:00:00.000Z' },
  { id: 2, word: '涉密', updated: '2026-06-01T00:00:00.000Z' },
];
const row = (id: number) => document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`);

function server() {
  return fakeServer((path, body) => {
    if (path === Api.sensitiveWordList.path) return { total: 2, page: 1, limit: 20, list: words };
    if (path === Api.sensitiveWordAdd.path)
      return body.word === 'SECRET'
        ? { code: 400, msg: 'The sensitive word "SECRET" already exists', data: null }
        : { id: 3, word: body.word, updated: '' };
    if (path === Api.sensitiveWordEdit.path) return { id: body.id, word: body.word, updated: '' };
    if (path === Api.sensitiveWordDelete.path) return { deleted: 1 };
    return null;
  });
}

describe('sensitive words', () => {
  it('lists the words; view only has no add, edit or delete', async () => {
    const s = server();
    await renderWidget(<SensitiveWordAdminPage />, {
      url: '/configcenter/Admin/SensitiveWordAdmin',
      permissions: { [MenuId.SENSITIVE_WORDS]: { view: 1 } },
      language: 'en-US',
    });
    await waitFor(() => expect(row(2)).not.toBeNull());
    expect(row(1)!.textContent).toContain('secret');
    expect(s.calls(Api.sensitiveWordList.path)[0]).toMatchObject({ page: 1 });
    expect(screen.queryByText('Add a word')).toBeNull();
    expect(within(row(1)!).queryByText('Edit')).toBeNull();
    expect(within(row(1)!).queryByText('Delete')).toBeNull();
  });

  it('adds, edits and deletes with the rights', async () => {
    const s = server();
    await renderWidget(<SensitiveWordAdminPage />, {
      url: '/configcenter/Admin/SensitiveWordAdmin',
      permissions: { [MenuId.SENSITIVE_WORDS]: { view: 1, add: 1, edit: 1 } },
      language: 'en-US',
    });
    await waitFor(() => expect(row(1)).not.toBeNull());

    fireEvent.click(screen.getByText('Add a word'));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText('Sensitive word');
    fireEvent.change(input, { target: { value: 'SECRET' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    });
    // the server's refusal stays in the dialog
    expect(await within(dialog).findByText('The sensitive word "SECRET" already exists')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'classified' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    });
    await waitFor(() => expect(s.calls(Api.sensitiveWordAdd.path).at(-1)).toEqual({ word: 'classified' }));

    fireEvent.click(within(row(2)!).getByText('Edit'));
    const edit = await screen.findByRole('dialog', { name: 'Edit a sensitive word' });
    const editInput = within(edit).getByLabelText('Sensitive word') as HTMLInputElement;
    await waitFor(() => expect(editInput.value).toBe('涉密'));
    fireEvent.change(editInput, { target: { value: '机密' } });
    await act(async () => {
      fireEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    });
    await waitFor(() => expect(s.calls(Api.sensitiveWordEdit.path)).toEqual([{ id: 2, word: '机密' }]));

    fireEvent.click(within(row(1)!).getByText('Delete'));
    const confirm = await screen.findByText('Delete this sensitive word?');
    const pop = confirm.closest('.ant-popover') as HTMLElement;
    await act(async () => {
      fireEvent.click(within(pop).getByRole('button', { name: /OK|Delete|Yes/ }));
    });
    await waitFor(() => expect(s.calls(Api.sensitiveWordDelete.path)).toEqual([{ ids: [1] }]));
  });
});
