import { MenuId } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useMemo } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { DataTableColumn } from '../data-table';
import type { FormDialogTargetProps } from '../form-dialog';
import { renderWidget } from '../test-utils';
import { CrudPage } from './CrudPage';
import { useCrud } from './useCrud';

interface Thing {
  id: number;
  name: string;
}

const THINGS: Thing[] = [
  { id: 1, name: 'alpha' },
  { id: 2, name: 'beta' },
];
const KEY = ['things'] as const;

/** Stands for the screen's form dialog: says what it was opened for. */
function ThingDialog({ target, onClose }: FormDialogTargetProps<Thing>) {
  if (target === null) return null;
  return (
    <div role="dialog">
      {target === 'new' ? 'creating' : `editing ${target.name}`}
      <button onClick={onClose}>close</button>
    </div>
  );
}

function ThingsPage({ read, remove }: { read: () => Promise<Thing[]>; remove: (row: Thing) => Promise<unknown> }) {
  const { dialog, addButton, editAction, deleteAction } = useCrud<Thing>({
    menu: MenuId.ROLES,
    invalidate: [KEY, ['elsewhere']],
  });
  const rows = useQuery({ queryKey: KEY, queryFn: read });
  const columns = useMemo<DataTableColumn<Thing>[]>(
    () => [
      { title: 'Name', dataIndex: 'name', key: 'name' },
      {
        kind: 'operation',
        actions: [editAction('Edit'), deleteAction({ label: 'Delete', confirm: 'Delete it?', remove })],
      },
    ],
    [editAction, deleteAction, remove],
  );
  return (
    <CrudPage<Thing>
      title="Things"
      rows={rows}
      columns={columns}
      searchItems={[addButton('Add thing')]}
      dialog={<ThingDialog {...dialog} />}
    />
  );
}

const EDIT = { [MenuId.ROLES]: { view: 1, edit: 1, add: 1 } } as const;

describe('CRUD page kit', () => {
  it('offers add, edit and delete only with the add / edit rights of the screen', async () => {
    await renderWidget(<ThingsPage read={async () => THINGS} remove={vi.fn()} />, {
      language: 'en-US',
      permissions: { [MenuId.ROLES]: { view: 1 } },
    });
    expect(await screen.findByText('alpha')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add thing' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('opens the dialog for a new entry or a row, and deletes after the confirmation, then reloads', async () => {
    let calls = 0;
    const read = vi.fn(async () => (calls++ === 0 ? THINGS : THINGS.slice(1)));
    const remove = vi.fn(async () => undefined);
    const view = await renderWidget(<ThingsPage read={read} remove={remove} />, {
      language: 'en-US',
      permissions: EDIT,
    });
    const invalidate = vi.spyOn(view.queryClient, 'invalidateQueries');
    await screen.findByText('alpha');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add thing' }));
    });
    expect(screen.getByRole('dialog').textContent).toContain('creating');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'close' }));
    });
    await act(async () => {
      fireEvent.click(screen.getAllByRole('button', { name: 'Edit' })[0]!);
    });
    expect(screen.getByRole('dialog').textContent).toContain('editing alpha');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'close' }));
    });

    await act(async () => {
      fireEvent.click(screen.getAllByRole('button', { name: 'Delete' })[0]!);
    });
    expect(remove).not.toHaveBeenCalled();
    const confirm = await screen.findByText('Delete it?');
    const popup = confirm.closest('.ant-popover') as HTMLElement;
    await act(async () => {
      fireEvent.click(within(popup).getByRole('button', { name: 'OK' }));
    });
    await waitFor(() => expect(remove).toHaveBeenCalledWith(THINGS[0]));
    await waitFor(() => expect(screen.queryByText('alpha')).toBeNull());
    expect(invalidate).toHaveBeenCalledWith({ queryKey: KEY });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['elsewhere'] });
  });

  it('shows a retry state when the rows cannot be read', async () => {
    let fail = true;
    const read = vi.fn(async () => {
      if (fail) throw new Error('down');
      return THINGS;
    });
    await renderWidget(<ThingsPage read={read} remove={vi.fn()} />, { language: 'en-US', permissions: EDIT });
    expect(await screen.findByText('Could not load the data')).toBeTruthy();
    fail = false;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    });
    expect(await screen.findByText('alpha')).toBeTruthy();
  });
});
