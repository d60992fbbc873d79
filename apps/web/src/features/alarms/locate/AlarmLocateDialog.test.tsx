import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../components/test-utils';
import { AlarmLocateDialog } from './AlarmLocateDialog';
import { markerPosition } from './position';

describe('markerPosition', () => {
  it('takes numbers and numeric strings', () => {
    expect(markerPosition(116.4, 39.9)).toEqual([116.4, 39.9]);
    expect(markerPosition('116.4', '39.9')).toEqual([116.4, 39.9]);
  });
  it('has no position when lng or lat is missing, not a number, out of range or 0/0', () => {
    expect(markerPosition(null, 39.9)).toBeNull();
    expect(markerPosition(116.4, undefined)).toBeNull();
    expect(markerPosition('', '39.9')).toBeNull();
    expect(markerPosition('abc', 39.9)).toBeNull();
    expect(markerPosition(181, 39.9)).toBeNull();
    expect(markerPosition(116.4, -91)).toBeNull();
    expect(markerPosition(0, 0)).toBeNull();
    expect(markerPosition(0, 39.9)).toEqual([0, 39.9]);
  });
});

describe('AlarmLocateDialog', () => {
  it("says 'The alarm has no position to show' without a position and loads no map", async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    await renderWidget(<AlarmLocateDialog open lng={null} lat={39.9} onClose={() => undefined} />, {
      language: 'en-US',
    });
    expect((await screen.findByTestId('alarm-locate-not-found')).textContent).toContain('The alarm has no position to show');
    expect(screen.getByText('Alarm location')).toBeTruthy();
    expect(screen.queryByTestId('alarm-locate-map')).toBeNull();
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });
});
