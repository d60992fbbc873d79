import { DIALOG_FULLSCREEN_HEIGHT, DIALOG_HEIGHT, IMAGE_ZOOM_MAX, IMAGE_ZOOM_MIN } from '@bwc/protocol';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../test-utils';
import { ImageZoom, stepScale } from './ImageZoom';

// jsdom has no PointerEvent: give pointer events the mouse coordinates and a pointer id.
if (!('PointerEvent' in window)) {
  class PointerEventPolyfill extends MouseEvent {
    pointerId: number;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 0;
    }
  }
  (window as unknown as { PointerEvent: unknown }).PointerEvent = PointerEventPolyfill;
}

function image(): HTMLImageElement {
  return screen.getByRole('img', { name: 'evidence' }) as HTMLImageElement;
}

describe('stepScale', () => {
  it('steps by 0.1 between 0.5 and 2 without float drift', () => {
    expect(stepScale(1, 1)).toBe(1.1);
    expect(stepScale(1.1, 1)).toBe(1.2);
    expect(stepScale(0.6, -1)).toBe(0.5);
    expect(stepScale(IMAGE_ZOOM_MIN, -1)).toBe(IMAGE_ZOOM_MIN);
    expect(stepScale(IMAGE_ZOOM_MAX, 1)).toBe(IMAGE_ZOOM_MAX);
  });
});

describe('ImageZoom', () => {
  it('zooms with the buttons and the wheel, stops at the limits, resets', async () => {
    await renderWidget(<ImageZoom open src="/x.png" alt="evidence" onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: '放大' }));
    fireEvent.click(screen.getByRole('button', { name: '放大' }));
    expect(image().style.transform).toContain('scale(1.2)');
    expect(screen.getByText('120%')).toBeTruthy();
    const stage = screen.getByTestId('image-zoom-stage');
    for (let i = 0; i < 20; i += 1) fireEvent.wheel(stage, { deltaY: 100 });
    expect(image().style.transform).toContain('scale(0.5)');
    expect(screen.getByRole('button', { name: '缩小' }).hasAttribute('disabled')).toBe(true);
    fireEvent.wheel(stage, { deltaY: -100 });
    expect(image().style.transform).toContain('scale(0.6)');
    fireEvent.click(screen.getByRole('button', { name: '还原' }));
    expect(image().style.transform).toBe('translate(0px, 0px) scale(1)');
  });

  it('pans by dragging', async () => {
    await renderWidget(<ImageZoom open src="/x.png" alt="evidence" onClose={vi.fn()} />);
    const stage = screen.getByTestId('image-zoom-stage');
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 100, clientY: 100 });
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 130, clientY: 80 });
    fireEvent.pointerUp(stage, { pointerId: 1 });
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 300, clientY: 300 });
    expect(image().style.transform).toBe('translate(30px, -20px) scale(1)');
  });

  it('toggles full screen (85vh) and small screen (400px), confirms in both languages', async () => {
    const onConfirm = vi.fn();
    const first = await renderWidget(<ImageZoom open src="/x.png" alt="evidence" onClose={vi.fn()} onConfirm={onConfirm} />);
    const stage = () => screen.getByTestId('image-zoom-stage');
    expect(stage().style.height).toBe(DIALOG_HEIGHT);
    fireEvent.click(screen.getByRole('button', { name: '全屏' }));
    expect(stage().style.height).toBe(DIALOG_FULLSCREEN_HEIGHT);
    fireEvent.click(screen.getByRole('button', { name: '小屏' }));
    expect(stage().style.height).toBe(DIALOG_HEIGHT);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(onConfirm).toHaveBeenCalledOnce();
    first.unmount();
    const onClose = vi.fn();
    await renderWidget(<ImageZoom open src="/x.png" alt="evidence" onClose={onClose} />, { language: 'en-US' });
    expect(screen.getByRole('button', { name: 'Full screen' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(onClose).toHaveBeenCalledOnce();
  });
});
