import { VERSION_CHECK_INTERVAL_MS } from '@bwc/protocol';
import { act, render, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { useVersionWatch } from './useVersionWatch';

function Probe() {
  useVersionWatch();
  return null;
}

describe('version watch', () => {
  let builds: string[];
  beforeEach(async () => {
    await setLanguage('en-US');
    vi.useFakeTimers({ shouldAdvanceTime: false });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        const build = builds.length > 1 ? builds.shift()! : builds[0]!;
        return new Response(JSON.stringify({ code: 200, msg: '', data: { version: '0.1.0', build } }), {
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('offers a reload once the served build changes, checking every VERSION_CHECK_INTERVAL_MS', async () => {
    builds = ['0.1.0+1', '0.1.0+1', '0.1.0+2'];
    render(
      <AntApp>
        <Probe />
      </AntApp>,
    );
    await act(() => vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS));
    expect(screen.queryByText('The software was updated')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS));
    expect(document.querySelectorAll('.ant-modal-confirm')).toHaveLength(1);
    expect(screen.getAllByText('The software was updated').length).toBeGreaterThan(0);
    expect(screen.getByText(/changed from 0\.1\.0\+1 to 0\.1\.0\+2/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    // the same new build is offered once
    await act(() => vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS * 2));
    expect(document.querySelectorAll('.ant-modal-confirm')).toHaveLength(1);
  });
});
