import { describe, expect, it } from 'vitest';
import { MAX_HOLD_MS, gateSourceRepaints } from './repaintGate';

type Listener = (event: never) => void;

class Events {
  private listeners = new Map<string, Set<Listener>>();
  on(type: string, listener: Listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(listener);
  }
  off(type: string, listener: Listener) {
    this.listeners.get(type)?.delete(listener);
  }
  fire(event: object, type = 'data') {
    for (const listener of this.listeners.get(type) ?? []) listener(event as never);
  }
}

/**
 * A map as MapLibre wires it: a source's data event goes to the style's listeners, then to the
 * map's own handler (which asks for a repaint), then to the map's other listeners.
 */
class FakeMap extends Events {
  repaints = 0;
  _placementDirty = false;
  _styleDirty = false;
  _sourcesDirty = false;
  loaded = true;
  transitions = false;
  /** frames that ended with nothing dirty (MapLibre fires 'idle' then) */
  idle = 0;
  style = Object.assign(new Events(), {
    /** the style's changes waiting for the next frame (images made for tiles) */
    changed: false,
    update: () => {
      // as MapLibre's Style.update: apply, then tell with a style data event
      if (!this.style.changed) return;
      this.style.changed = false;
      this.data({ dataType: 'style' }, this.loaded);
    },
  });
  triggerRepaint() {
    this.repaints += 1;
    return this;
  }
  isSourceLoaded() {
    return this.loaded;
  }
  /** a data event of a source, as it travels through style and map */
  data(event: { dataType: string; sourceId?: string; sourceDataType?: string; tile?: boolean }, loaded: boolean) {
    this.loaded = loaded;
    this.style.fire({ ...event, isSourceLoaded: loaded });
    // the map's handler (Map#_update)
    if (event.dataType === 'style') this._styleDirty = true;
    this._sourcesDirty = true;
    this.triggerRepaint();
    this.fire(event);
  }
  /**
   * a frame as MapLibre's _render makes it: the style's update (whose style data event makes the
   * map's handler mark the style and the sources dirty again and ask for a frame), 'render', then
   * the next frame when something is still dirty
   */
  render() {
    this._styleDirty = false;
    this.style.update();
    // the sources are updated in the same frame after the style
    this._sourcesDirty = false;
    if (this.transitions) this._styleDirty = true;
    this.fire({}, 'render');
    if (this._placementDirty || this._styleDirty || this._sourcesDirty) this.triggerRepaint();
    else this.idle += 1;
  }
  /** a frame: 'render', then the map asks for the next frame when something is still dirty */
  frame(dirty: { placement?: boolean; style?: boolean }) {
    this._placementDirty = !!dirty.placement;
    this._styleDirty = !!dirty.style;
    this._sourcesDirty = false;
    this.fire({}, 'render');
    if (this._placementDirty || this._styleDirty) this.triggerRepaint();
    else this.idle += 1;
  }
}

function fakeTimers() {
  const queue: { fn: () => void; at: number; id: number }[] = [];
  let now = 0;
  let next = 1;
  return {
    setTimeout: (fn: () => void, ms: number) => {
      queue.push({ fn, at: now + ms, id: next });
      return next++;
    },
    clearTimeout: (id: unknown) => {
      const i = queue.findIndex((t) => t.id === id);
      if (i >= 0) queue.splice(i, 1);
    },
    advance(ms: number) {
      now += ms;
      for (const t of queue.filter((t) => t.at <= now)) {
        queue.splice(queue.indexOf(t), 1);
        t.fn();
      }
    },
  };
}

/** One updateData of the source: metadata + content, then `tiles` tiles coming back one by one. */
function update(map: FakeMap, tiles: number) {
  map.data({ dataType: 'source', sourceId: 'dev', sourceDataType: 'metadata' }, true);
  map.data({ dataType: 'source', sourceId: 'dev', sourceDataType: 'content' }, false);
  for (let i = 1; i <= tiles; i++) map.data({ dataType: 'source', sourceId: 'dev', tile: true }, i === tiles);
}

describe('repaint gate', () => {
  it('one repaint per source update, when the last reloaded tile has come', () => {
    const map = new FakeMap();
    const timers = fakeTimers();
    const gate = gateSourceRepaints(map, 'dev', timers);
    update(map, 9);
    expect(map.repaints).toBe(1);
    expect(gate.held).toBe(10);
    // nothing left to repaint later
    timers.advance(MAX_HOLD_MS * 2);
    expect(map.repaints).toBe(1);
    gate.close();
  });

  it('without the gate every tile repaints', () => {
    const map = new FakeMap();
    update(map, 9);
    expect(map.repaints).toBe(11);
  });

  it('repaints for anything else pass: other sources, camera, style', () => {
    const map = new FakeMap();
    const gate = gateSourceRepaints(map, 'dev', fakeTimers());
    map.data({ dataType: 'source', sourceId: 'basemap', tile: true }, false);
    map.triggerRepaint();
    map.data({ dataType: 'style' }, true);
    expect(map.repaints).toBe(3);
    gate.close();
  });

  it('a held repaint is made after MAX_HOLD_MS when the last tile does not come', () => {
    const map = new FakeMap();
    const timers = fakeTimers();
    const gate = gateSourceRepaints(map, 'dev', timers);
    map.data({ dataType: 'source', sourceId: 'dev', sourceDataType: 'content' }, false);
    map.data({ dataType: 'source', sourceId: 'dev', tile: true }, false);
    expect(map.repaints).toBe(0);
    timers.advance(MAX_HOLD_MS - 1);
    expect(map.repaints).toBe(0);
    timers.advance(1);
    expect(map.repaints).toBe(1);
    gate.close();
  });

  it('images made for loading tiles add no repaint of their own; made otherwise they do', () => {
    const map = new FakeMap();
    const gate = gateSourceRepaints(map, 'dev', fakeTimers());
    map.loaded = false;
    gate.quietly(() => map.data({ dataType: 'style' }, false));
    expect(map.repaints).toBe(0);
    map.loaded = true;
    gate.quietly(() => map.data({ dataType: 'style' }, true));
    expect(map.repaints).toBe(1);
    gate.close();
  });

  it('a hold the map did not ask for reaches no later repaint', () => {
    const map = new FakeMap();
    const gate = gateSourceRepaints(map, 'dev', fakeTimers());
    // the style saw the event, but the map's handler asked for nothing (style not loaded)
    map.style.fire({ dataType: 'source', sourceId: 'dev', isSourceLoaded: false });
    map.fire({ dataType: 'source', sourceId: 'dev' });
    map.triggerRepaint();
    expect(map.repaints).toBe(1);
    gate.close();
  });

  it('skips the frame that only re-places the symbols after the frame showing an update', async () => {
    const map = new FakeMap();
    const gate = gateSourceRepaints(map, 'dev', fakeTimers());
    update(map, 4);
    expect(map.repaints).toBe(1);
    map.frame({ placement: true });
    expect(map.repaints).toBe(1);
    // ... and the frame ends clean: the map fires 'idle'
    expect(map.idle).toBe(1);
    // a later frame (after that task) that needs the placement again is made
    await Promise.resolve();
    map.frame({ placement: true });
    expect(map.repaints).toBe(2);
    // after another update, a frame that needs more than the placement is made too
    update(map, 2);
    expect(map.repaints).toBe(3);
    map.frame({ placement: true, style: true });
    expect(map.repaints).toBe(4);
    gate.close();
  });

  it('a frame that applies new images draws them once and ends clean (idle, nothing dirty)', () => {
    const map = new FakeMap();
    const gate = gateSourceRepaints(map, 'dev', fakeTimers());
    update(map, 3);
    expect(map.repaints).toBe(1);
    // images were made for the tiles: the frame showing the update applies them
    map.style.changed = true;
    map.render();
    expect(map.repaints).toBe(1);
    expect(map._styleDirty).toBe(false);
    expect(map.idle).toBe(1);
    // an image made outside an update (no hold) is drawn by the frame it asks for, then nothing more
    map.style.changed = true;
    map.triggerRepaint();
    expect(map.repaints).toBe(2);
    map.render();
    expect(map.repaints).toBe(2);
    expect(map.idle).toBe(2);
    // while a transition runs, the frame after it is made
    map.style.changed = true;
    map.transitions = true;
    map.render();
    expect(map.repaints).toBe(3);
    gate.close();
    // closed: the style's update is MapLibre's again, and every request passes
    expect(Object.prototype.hasOwnProperty.call(map.style, 'update')).toBe(true);
    map.transitions = false;
    map.style.changed = true;
    map.render();
    expect(map.repaints).toBe(5);
  });

  it('without the gate, such a frame is followed by another of the same picture', () => {
    const map = new FakeMap();
    map.style.changed = true;
    map.render();
    expect(map.repaints).toBe(2);
    expect(map.idle).toBe(0);
  });

  it('close leaves a wrapper made after the gate in place, and the gate passes everything from then on', () => {
    const map = new FakeMap();
    const gate = gateSourceRepaints(map, 'dev', fakeTimers());
    const gated = map.triggerRepaint;
    let wrapped = 0;
    map.triggerRepaint = function () {
      wrapped += 1;
      return gated.call(this);
    };
    gate.close();
    update(map, 3);
    expect(wrapped).toBe(5);
    expect(map.repaints).toBe(5);
  });

  it('close restores the map and makes a repaint still held', () => {
    const map = new FakeMap();
    const gate = gateSourceRepaints(map, 'dev', fakeTimers());
    map.data({ dataType: 'source', sourceId: 'dev', sourceDataType: 'content' }, false);
    expect(map.repaints).toBe(0);
    gate.close();
    expect(map.repaints).toBe(1);
    expect(Object.prototype.hasOwnProperty.call(map, 'triggerRepaint')).toBe(false);
    update(map, 3);
    expect(map.repaints).toBe(1 + 5);
  });
});
