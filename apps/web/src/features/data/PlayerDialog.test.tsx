import { Api } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { fakeServer } from './fakeServer';
import { PlayerDialog } from './PlayerDialog';
import { testMedia } from './test-media';
import type { MediaItem } from '@bwc/protocol';

afterEach(() => vi.unstubAllGlobals());

function serve(item: MediaItem) {
  return fakeServer((path) => {
    if (path === Api.mediaView.path)
      return { item, play_url: `/media/evidence/play/${item.id}?token=t`, play_mime: item.mime, expires: Date.now() + 60_000, revisions: [] };
    if (path === Api.mediaGps.path) return { start: item.recorded_at, end: item.recorded_at, points: [] };
    return null;
  });
}

describe('player', () => {
  it('plays a video at the chosen rate, with the GPS panel beside it', async () => {
    const item = testMedia(1);
    const server = serve(item);
    await renderWidget(<PlayerDialog item={item} onClose={() => undefined} />, { language: 'en-US' });
    const video = (await screen.findByTestId('player-video')) as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe('/media/evidence/play/1?token=t');
    expect(server.calls(Api.mediaView.path)[0]).toEqual({ id: 1 });
    expect(screen.queryByTestId('player-audio')).toBeNull();
    const rates = within(screen.getByTestId('player-rate'));
    for (const label of ['0.5x', '0.75x', '1x', '1.5x', '2x']) expect(rates.getByText(label)).toBeTruthy();
    fireEvent.click(rates.getByText('1.5x'));
    await waitFor(() => expect(video.playbackRate).toBe(1.5));
    // no fixes: said so, no map
    expect(await screen.findByTestId('gps-empty')).toBeTruthy();
    expect(screen.getByTestId('player-details').textContent).toContain('a'.repeat(64));
  });

  it('plays audio in an audio element', async () => {
    const item = testMedia(2, { media_type: 2, mime: 'audio/mpeg', width: null, height: null });
    serve(item);
    await renderWidget(<PlayerDialog item={item} onClose={() => undefined} />, { language: 'en-US' });
    expect(await screen.findByTestId('player-audio')).toBeTruthy();
    expect(screen.queryByTestId('player-video')).toBeNull();
  });

  it('says a recording is being converted, or that it failed', async () => {
    const pending = testMedia(3, { playable: 'pending' });
    serve(pending);
    const view = await renderWidget(<PlayerDialog item={pending} onClose={() => undefined} />, { language: 'en-US' });
    expect((await screen.findByTestId('player-pending')).textContent).toContain('Being converted for the browser');
    expect(screen.queryByTestId('player-video')).toBeNull();
    view.unmount();
    const failed = testMedia(4, { playable: 'failed' });
    serve(failed);
    await renderWidget(<PlayerDialog item={failed} onClose={() => undefined} />, { language: 'en-US' });
    expect((await screen.findByTestId('player-failed')).textContent).toContain('cannot be played');
  });

  it('shows an image, zoomed between 0.5 and 2', async () => {
    const item = testMedia(5, { media_type: 3, mime: 'image/jpeg', duration: null, playable: 'none' });
    const server = serve(item);
    await renderWidget(<PlayerDialog item={item} onClose={() => undefined} />, { language: 'en-US' });
    fireEvent.click(await screen.findByTestId('player-image'));
    const zoomIn = await screen.findByRole('button', { name: 'Zoom in' });
    const zoomOut = screen.getByRole('button', { name: 'Zoom out' });
    for (let i = 0; i < 15; i++) fireEvent.click(zoomIn);
    await waitFor(() => expect(zoomIn).toHaveProperty('disabled', true));
    expect(screen.getByText('200%')).toBeTruthy();
    for (let i = 0; i < 20; i++) fireEvent.click(zoomOut);
    await waitFor(() => expect(zoomOut).toHaveProperty('disabled', true));
    expect(screen.getByText('50%')).toBeTruthy();
    // an image has no GPS track
    expect(screen.queryByTestId('player-gps')).toBeNull();
    expect(server.calls(Api.mediaGps.path)).toHaveLength(0);
  });
});
