import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWidget } from '../../../components/test-utils';
import { UploadDialog } from './UploadDialog';

describe('upload dialog', () => {
  it('refuses a file of another type or too large before sending; a good file waits for start', async () => {
    await renderWidget(<UploadDialog open outside={false} onClose={() => undefined} onUploaded={() => undefined} />, {
      language: 'en-US',
    });
    const input = (await screen.findByTestId('upload-input')) as HTMLInputElement;
    expect(input.accept).toContain('.mp4');
    expect(input.accept).toContain('.jpeg');
    const start = screen.getByTestId('upload-start');
    expect(start).toHaveProperty('disabled', true);
    const bad = new File(['x'], 'tool.exe', { type: 'application/octet-stream' });
    fireEvent.change(input, { target: { files: [bad] } });
    const entry = await screen.findByTestId('upload-entry');
    expect(within(entry).getByTestId('upload-problem').textContent).toBe('Unsupported file type: exe');
    expect(start).toHaveProperty('disabled', true);
    const big = new File(['x'], 'photo.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: 51 * 1024 * 1024 });
    const good = new File(['clip'], 'clip.mp4', { type: 'video/mp4' });
    fireEvent.change(input, { target: { files: [big, good] } });
    await waitFor(() => expect(screen.getAllByTestId('upload-entry')).toHaveLength(3));
    expect(screen.getAllByTestId('upload-problem').map((p) => p.textContent)).toEqual([
      'Unsupported file type: exe',
      'The file is larger than 50 MB',
    ]);
    await waitFor(() => expect(start).toHaveProperty('disabled', false));
  });

  it('the outside view ticks "imported from outside"', async () => {
    await renderWidget(<UploadDialog open outside onClose={() => undefined} onUploaded={() => undefined} />, {
      language: 'zh-CN',
    });
    const box = (await screen.findByLabelText('外部导入')) as HTMLInputElement;
    expect(box.checked).toBe(true);
  });
});
