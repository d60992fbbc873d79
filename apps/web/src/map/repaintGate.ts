/**
 * What the gate needs of a MapLibre map: `triggerRepaint` (which the map's own code calls for
 * every data event), its events, the style's events (they come BEFORE the map's own handler of
 * the same event) and whether a source has loaded.
 */
export interface GateMap {
  triggerRepaint(): unknown;
  on(type: 'data' | 'render', listener: (event: never) => void): unknown;
  off(type: 'data' | 'render', listener: (event: never) => void): unknown;
  isSourceLoaded(id: string): boolean;
  style?: GateStyle | null;
}

interface GateStyle {
  on(type: 'data', listener: (event: never) => void): unknown;
  off(type: 'data', listener: (event: never) => void): unknown;
  /** applies the style's changes inside a frame (maplibre-gl 6 internals, wrapped to know when) */
  update?: (...args: never[]) => unknown;
}

interface SourceEvent {
  dataType?: string;
  sourceId?: string;
  sourceDataType?: string;
  /** set by the style on every source event: every tile of the source holds its data */
  isSourceLoaded?: boolean;
}

/**
 * What MapLibre's frame says it still needs (maplibre-gl 6 internals, read only): a frame that
 * needs only a new symbol placement. Without these fields (another version) nothing is skipped.
 */
interface FrameState {
  _placementDirty?: boolean;
  _styleDirty?: boolean;
  _sourcesDirty?: boolean;
}

/** A held repaint is made at the latest this long after the first one held. */
export const MAX_HOLD_MS = 400;

export interface RepaintGate {
  /** run `change` (e.g. `addImage` for a tile of the source) without a repaint while the source is loading */
  quietly<T>(change: () => T): T;
  /** how many repaints were held back since the gate was opened (tests, diagnostics) */
  readonly held: number;
  /** restore the map's own `triggerRepaint` and make any repaint still held */
  close(): void;
}

/**
 * One repaint per update of a GeoJSON source. An update of a clustered source reloads every
 * tile of it in the worker; each tile that comes back fires a data event, and the map repaints
 * for each in its own frame (3-4 repaints of the whole map per update with software WebGL).
 * The gate holds back the repaints asked for by the source's events while some tile of it is
 * still loading (the style tells with `isSourceLoaded`) and the images made for those tiles
 * (`quietly`): the map repaints once, when the last tile has come, or after MAX_HOLD_MS. What
 * the source had shown stays on screen meanwhile (reloading tiles keep their data); repaints for
 * anything else (camera, other sources, the style) are made as usual.
 *
 * After a frame in which symbol tiles changed MapLibre marks its new symbol placement stale and
 * asks for one more frame, which places the same symbols again (it was made with the new tiles:
 * with `fadeDuration: 0` every placement is a full one, never paused). When the frame that shows a
 * held update ends with nothing else dirty, the gate clears that mark before the map reads it: no
 * extra frame, and the map fires `idle` as it would have after the extra frame.
 *
 * Images made for the source's tiles (cluster counts, labels) change the style. A frame applies
 * such changes in the style's update and draws them, but the update then fires a style data event
 * whose handler marks the style dirty again and asks for a frame: one more frame of the same
 * picture after every update that brought a new image (most of them, as cluster counts change).
 * The gate drops the repaint that this echo asks for and takes back the dirty mark it left (the
 * update it tells of is applied), so that the frame ends clean: the map is `loaded()` and fires
 * `idle` as it would have one frame later. Transitions mark the style dirty after the update and
 * still get their frames.
 */
export function gateSourceRepaints(
  map: GateMap,
  sourceId: string,
  timers: {
    setTimeout: (fn: () => void, ms: number) => unknown;
    clearTimeout: (handle: unknown) => void;
  } = {
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
): RepaintGate {
  const target = map as GateMap & { triggerRepaint: () => unknown };
  const own = Object.prototype.hasOwnProperty.call(target, 'triggerRepaint') ? target.triggerRepaint : null;
  const original = target.triggerRepaint;
  let quiet = false;
  let heldCount = 0;
  let pending: unknown = null;
  /** held repaints since the last one made: the next frame shows an update of the source */
  let holding = false;
  /** the last tile of a held update came: its frame is the next one */
  let showing = false;
  /** inside the style's own update, in a frame */
  let styleUpdating = false;
  /** that update fired its style data event (the echo) */
  let echoed = false;

  const release = () => {
    if (pending !== null) timers.clearTimeout(pending);
    pending = null;
  };
  let closed = false;
  const gatedRepaint = function gatedRepaint(this: unknown) {
    if (closed) return original.call(target);
    // the echo's own request, inside the frame that applies and draws the change
    if (styleUpdating && echoed) {
      heldCount += 1;
      return target;
    }
    if (quiet) {
      quiet = false;
      holding = true;
      heldCount += 1;
      if (pending === null)
        pending = timers.setTimeout(() => {
          pending = null;
          original.call(target);
        }, MAX_HOLD_MS);
      return target;
    }
    release();
    return original.call(target);
  };
  target.triggerRepaint = gatedRepaint;
  // the style hears a source's event before the map, whose handler asks for the repaint
  const beforeMap = (event: SourceEvent) => {
    if (event.dataType === 'style' && styleUpdating) echoed = true;
    if (event.dataType !== 'source' || event.sourceId !== sourceId) return;
    // 'metadata' comes right before the 'content' event that starts the reload
    if (event.isSourceLoaded === false || event.sourceDataType === 'metadata') quiet = true;
    else if (holding) {
      holding = false;
      showing = true;
    }
  };
  const onRender = () => {
    if (!showing) return;
    showing = false;
    // MapLibre reads what is still dirty right after 'render' and asks for its next frame then
    const frame = target as FrameState;
    if ('_placementDirty' in frame && frame._placementDirty === true && !frame._styleDirty && !frame._sourcesDirty) {
      frame._placementDirty = false;
      heldCount += 1;
    }
  };
  // ... and after it: a hold not taken (the map asked for no repaint) never reaches another event
  const afterMap = () => {
    quiet = false;
    // the map's handler of the echo marked the style dirty for an update already applied
    if (styleUpdating && echoed) (target as FrameState)._styleDirty = false;
  };
  const style = map.style ?? null;
  const styleUpdate = style?.update;
  const ownStyleUpdate = !!style && Object.prototype.hasOwnProperty.call(style, 'update');
  if (style && typeof styleUpdate === 'function') {
    style.update = function updateWatched(this: unknown, ...args: never[]) {
      styleUpdating = true;
      try {
        return styleUpdate.apply(this, args);
      } finally {
        styleUpdating = false;
        echoed = false;
      }
    };
  }
  style?.on('data', beforeMap as (event: never) => void);
  map.on('data', afterMap as (event: never) => void);
  map.on('render', onRender);

  return {
    quietly<T>(change: () => T): T {
      const loading = !map.isSourceLoaded(sourceId);
      quiet = loading;
      try {
        return change();
      } finally {
        quiet = false;
      }
    },
    get held() {
      return heldCount;
    },
    close() {
      style?.off('data', beforeMap as (event: never) => void);
      if (style && styleUpdate) {
        if (ownStyleUpdate) style.update = styleUpdate;
        else delete style.update;
      }
      map.off('data', afterMap as (event: never) => void);
      map.off('render', onRender);
      closed = true;
      // restored only when nobody wrapped it after the gate (a later wrapper keeps calling ours,
      // which now passes everything)
      if (target.triggerRepaint === gatedRepaint) {
        if (own) target.triggerRepaint = own;
        else delete (target as { triggerRepaint?: unknown }).triggerRepaint;
      }
      if (pending !== null) {
        release();
        original.call(target);
      }
    },
  };
}
