import { describe, expect, it } from 'vitest';
import { panToFit, visibleBox } from './popupFit';

const view = { left: 0, top: 0, right: 800, bottom: 700 };

describe('panToFit', () => {
  it('leaves a popup that fits alone', () => {
    expect(panToFit({ left: 100, top: 100, right: 600, bottom: 500 }, view, 8)).toEqual([0, 0]);
  });

  it('pans up when the popup runs past the bottom (content moves up: positive y)', () => {
    expect(panToFit({ left: 100, top: 446, right: 600, bottom: 846 }, view, 8)).toEqual([0, 154]);
  });

  it('pans down and right when the popup runs past the top and the left', () => {
    expect(panToFit({ left: -20, top: -30, right: 480, bottom: 370 }, view, 8)).toEqual([-28, -38]);
  });

  it('pans left when it runs past the right edge', () => {
    expect(panToFit({ left: 400, top: 100, right: 900, bottom: 500 }, view, 8)).toEqual([108, 0]);
  });

  it('keeps the top left (title) inside when the popup is larger than the view', () => {
    expect(panToFit({ left: 10, top: 200, right: 510, bottom: 600 }, { ...view, bottom: 300 }, 8)).toEqual([0, 192]);
    expect(panToFit({ left: 10, top: -50, right: 510, bottom: 350 }, { ...view, bottom: 300 }, 8)).toEqual([0, -58]);
  });
});

describe('visibleBox', () => {
  it('cuts the map to the window', () => {
    expect(visibleBox({ left: 576, top: 80, right: 1382, bottom: 916 }, { width: 1440, height: 900 })).toEqual({
      left: 576,
      top: 80,
      right: 1382,
      bottom: 900,
    });
  });
});
