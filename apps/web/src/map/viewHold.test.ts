import { describe, expect, it } from 'vitest';
import { anyVisible, inBox, padBox } from './viewHold';

const view = { west: 114, south: 22, east: 115, north: 23 };

describe('view hold', () => {
  it('pads the view by half its size on each side', () => {
    expect(padBox(view)).toEqual({ west: 113.5, south: 21.5, east: 115.5, north: 23.5 });
    expect(inBox(padBox(view), [115.4, 21.6])).toBe(true);
    expect(inBox(padBox(view), [115.6, 22.5])).toBe(false);
  });

  it('no source update when only off-view devices moved', () => {
    const padded = padBox(view);
    // drawn far away and moving far away: nothing on screen changes
    expect(anyVisible([{ shown: [120, 30], next: [120.1, 30.1] }], padded)).toBe(false);
    // a new device off view, and one leaving the source off view
    expect(
      anyVisible(
        [
          { shown: undefined, next: [100, 40] },
          { shown: [100, 40], next: null },
        ],
        padded,
      ),
    ).toBe(false);
    // hidden devices (locating mode): neither drawn nor to be drawn
    expect(anyVisible([{ shown: undefined, next: null }], padded)).toBe(false);
  });

  it('an update when any change shows: entering, leaving, moving or removed in view', () => {
    const padded = padBox(view);
    const off = { shown: [120, 30] as const, next: [120.1, 30.1] as const };
    expect(anyVisible([off, { shown: [120, 30], next: [114.5, 22.5] }], padded)).toBe(true);
    expect(anyVisible([off, { shown: [114.5, 22.5], next: [120, 30] }], padded)).toBe(true);
    expect(anyVisible([off, { shown: [114.5, 22.5], next: [114.6, 22.6] }], padded)).toBe(true);
    expect(anyVisible([off, { shown: [114.5, 22.5], next: null }], padded)).toBe(true);
    expect(anyVisible([off, { shown: undefined, next: [114.5, 22.5] }], padded)).toBe(true);
  });

  it('without a usable view every change counts', () => {
    expect(anyVisible([{ shown: [120, 30], next: [121, 31] }], null)).toBe(true);
    expect(anyVisible([], null)).toBe(false);
  });
});
