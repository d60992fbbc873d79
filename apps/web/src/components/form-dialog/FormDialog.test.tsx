import { ResultCode } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Form, Input } from 'antd';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../api/http';
import { renderWidget } from '../test-utils';
import { FormDialog } from './FormDialog';
import { useFormDialog, type DialogTarget, type FormDialogOptions } from './useFormDialog';

interface Thing {
  id: number;
  name: string;
  note: string;
  internal: string;
}

const Schema = z.object({
  name: z.string().trim().min(1, { error: 'validation.required' }),
  note: z.string().default(''),
});
type Schema = typeof Schema;
type Options = Partial<FormDialogOptions<Thing, Schema>>;

const THING: Thing = { id: 7, name: 'first', note: 'kept', internal: 'never in the form' };

/** A page with a "new" and an "edit" button opening one form dialog built with the kit. */
function Page({ options, onSaved = () => undefined }: { options: Options; onSaved?: () => void }) {
  const [target, setTarget] = useState<DialogTarget<Thing>>(null);
  const dialog = useFormDialog<Thing, Schema>({
    target,
    onClose: () => setTarget(null),
    onSaved: () => {
      setTarget(null);
      onSaved();
    },
    schema: Schema,
    defaults: { note: 'default note' },
    ...options,
  });
  return (
    <>
      <button onClick={() => setTarget('new')}>open new</button>
      <button onClick={() => setTarget(THING)}>open edit</button>
      <FormDialog dialog={dialog} name="thing" title={dialog.creating ? 'New thing' : 'Edit thing'} okText="Save it">
        <Form.Item name="name" label="Name" rules={dialog.rules('name')} required>
          <Input />
        </Form.Item>
        <Form.Item name="note" label="Note" rules={dialog.rules('note')}>
          <Input />
        </Form.Item>
      </FormDialog>
    </>
  );
}

async function click(name: string | RegExp) {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
}
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
async function type(label: string, value: string) {
  await act(async () => {
    fireEvent.change(field(label), { target: { value } });
  });
}
const dialogBox = () => screen.getByRole('dialog');
const save = () => within(dialogBox()).getByRole('button', { name: /Save it/ });

describe('form dialog kit', () => {
  it('opens a new entry with the defaults and keeps it from the server until the schema is satisfied', async () => {
    const create = vi.fn(async () => undefined);
    const saved = vi.fn();
    await renderWidget(<Page options={{ create }} onSaved={saved} />, { language: 'en-US' });
    await click('open new');
    expect(within(dialogBox()).getByText('New thing')).toBeTruthy();
    expect(field('Note').value).toBe('default note');

    await act(async () => {
      fireEvent.click(save());
    });
    // the schema's message, translated, under its field; nothing sent
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(create).not.toHaveBeenCalled();

    await type('Name', '  second  ');
    await act(async () => {
      fireEvent.click(save());
    });
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    // validated and parsed values
    expect(create).toHaveBeenCalledWith({ name: 'second', note: 'default note' }, expect.anything());
  });

  it('opens an entry with its values of the schema fields and sends them with the row', async () => {
    const update = vi.fn(async () => undefined);
    await renderWidget(<Page options={{ update }} />, { language: 'en-US' });
    await click('open edit');
    expect(within(dialogBox()).getByText('Edit thing')).toBeTruthy();
    expect(field('Name').value).toBe('first');
    expect(field('Note').value).toBe('kept');
    await type('Name', 'renamed');
    await act(async () => {
      fireEvent.click(save());
    });
    await waitFor(() =>
      expect(update).toHaveBeenCalledWith({ name: 'renamed', note: 'kept' }, THING, expect.anything()),
    );
  });

  it('says at the top of the form when the schema fails on a key that no field shows, and sends nothing', async () => {
    // a request key the form has no field for (as the device form once had typecate): every save
    // used to do nothing at all, with no message anywhere
    const WithTags = Schema.extend({ tags: z.array(z.string(), { error: 'validation.type' }) });
    const create = vi.fn(async () => undefined);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await renderWidget(<Page options={{ create, schema: WithTags as unknown as Schema }} />, { language: 'en-US' });
      await click('open new');
      await type('Name', 'tagged');
      await act(async () => {
        fireEvent.click(save());
      });
      const top = await waitFor(() => {
        const alert = document.querySelector('.bwc-form-dialog-error');
        if (!alert) throw new Error('no error at the top of the form');
        return alert;
      });
      expect(top.textContent).toContain('Cannot save: the form check failed on tags, which this form does not show');
      expect(create).not.toHaveBeenCalled();
      expect(logged).toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it('is busy while the server works: the form is disabled and the save button loads', async () => {
    let finish: () => void = () => undefined;
    const update = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    await renderWidget(<Page options={{ update }} />, { language: 'en-US' });
    await click('open edit');
    await act(async () => {
      fireEvent.click(save());
    });
    await waitFor(() => expect(field('Name').disabled).toBe(true));
    expect(save().className).toMatch(/ant-btn-loading/);
    await act(async () => finish());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows an envelope error that names a field under that field, and any other at the top of the form', async () => {
    const failures = [
      new ApiError(ResultCode.INVALID, 'Field name: This name is taken.', 200),
      new ApiError(ResultCode.CONFLICT, 'The thing is in use', 200),
    ];
    const update = vi.fn(async () => {
      throw failures.shift();
    });
    const saved = vi.fn();
    await renderWidget(<Page options={{ update }} onSaved={saved} />, { language: 'en-US' });
    await click('open edit');

    await act(async () => {
      fireEvent.click(save());
    });
    const under = await screen.findByText('This name is taken.');
    expect(under.closest('.ant-form-item')?.textContent).toContain('Name');
    expect(document.querySelector('.bwc-form-dialog-error')).toBeNull();

    await act(async () => {
      fireEvent.click(save());
    });
    const top = await screen.findByText('The thing is in use');
    expect(top.closest('.bwc-form-dialog-error')).toBeTruthy();
    // the dialog stays open with what was typed; editing clears the message
    expect(saved).not.toHaveBeenCalled();
    expect(field('Name').value).toBe('first');
    await type('Note', 'changed');
    expect(screen.queryByText('The thing is in use')).toBeNull();
  });

  it('waits for values that load, with the form disabled, and closes when they cannot be read', async () => {
    let answer: (values: Record<string, unknown>) => void = () => undefined;
    let fail: () => void = () => undefined;
    const initial = vi.fn(
      (row: Thing | null) =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          answer = resolve;
          fail = () => reject(new Error(`no ${row?.id}`));
        }),
    );
    await renderWidget(<Page options={{ initial }} />, { language: 'en-US' });
    await click('open edit');
    expect(initial).toHaveBeenCalledWith(THING, expect.any(AbortSignal));
    await waitFor(() => expect(field('Name').disabled).toBe(true));
    expect((save() as HTMLButtonElement).disabled).toBe(true);
    await act(async () => answer({ name: 'loaded', note: 'from the server' }));
    await waitFor(() => expect(field('Name').value).toBe('loaded'));
    expect(field('Name').disabled).toBe(false);
    await click('Cancel');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await click('open edit');
    await act(async () => fail());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
