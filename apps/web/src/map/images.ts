import type { MapLibreMap } from './maplibre';
import type { DeviceMarkerState } from './points';

/** Colours of the device icons by state. */
export const STATE_COLORS: Record<DeviceMarkerState, string> = {
  online: '#1e9e48',
  offline: '#8c8c8c',
  killed: '#3a3a3a',
  sos: '#e02424',
};

const RATIO = typeof window !== 'undefined' ? Math.min(window.devicePixelRatio || 1, 2) : 1;
const FONT = '12px "Microsoft YaHei", "PingFang SC", "Noto Sans CJK SC", sans-serif';

/**
 * A 2D canvas kept in main memory (`willReadFrequently`): every image is read back once with
 * getImageData, which on a GPU canvas is a synchronous read-back stalling the main thread.
 */
function canvas(width: number, height: number): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const element = document.createElement('canvas');
  element.width = Math.ceil(width * RATIO);
  element.height = Math.ceil(height * RATIO);
  const context = element.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
  context.scale(RATIO, RATIO);
  return [element, context];
}

function toImage(element: HTMLCanvasElement) {
  const context = element.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
  return context.getImageData(0, 0, element.width, element.height);
}

let probeContext: CanvasRenderingContext2D | null = null;
/** text width in CSS pixels (one shared measuring context) */
function textWidth(text: string): number {
  probeContext ??= canvas(1, 1)[1];
  probeContext.font = FONT;
  return probeContext.measureText(text).width;
}

/** Body-camera pin in the state's colour; killed shows a cross, SOS an exclamation mark. */
function deviceIcon(state: DeviceMarkerState) {
  const size = 30;
  const [element, c] = canvas(size, size);
  c.fillStyle = STATE_COLORS[state];
  c.strokeStyle = '#ffffff';
  c.lineWidth = 2;
  c.beginPath();
  c.arc(size / 2, size / 2 - 2, 11, 0, Math.PI * 2);
  c.fill();
  c.stroke();
  // camera body
  c.fillStyle = '#ffffff';
  c.fillRect(9, 9, 9, 8);
  c.beginPath();
  c.moveTo(18, 11);
  c.lineTo(22, 9);
  c.lineTo(22, 17);
  c.lineTo(18, 15);
  c.fill();
  if (state === 'killed') {
    c.strokeStyle = '#ff4d4f';
    c.lineWidth = 2.5;
    c.beginPath();
    c.moveTo(7, 4);
    c.lineTo(23, 22);
    c.stroke();
  }
  if (state === 'sos') {
    c.fillStyle = '#ffffff';
    c.fillRect(size / 2 - 1, 18, 2, 3);
  }
  return toImage(element);
}

function labelImage(text: string) {
  const width = Math.ceil(textWidth(text)) + 10;
  const [element, c] = canvas(width, 18);
  c.fillStyle = 'rgba(255,255,255,0.92)';
  c.strokeStyle = 'rgba(0,0,0,0.25)';
  c.lineWidth = 1;
  c.beginPath();
  c.roundRect(0.5, 0.5, width - 1, 17, 3);
  c.fill();
  c.stroke();
  c.fillStyle = '#1f1f1f';
  c.font = FONT;
  c.textBaseline = 'middle';
  c.fillText(text, 5, 9.5);
  return toImage(element);
}

function clusterImage(count: string) {
  const size = count.length > 3 ? 46 : 38;
  const [element, c] = canvas(size, size);
  c.fillStyle = 'rgba(22,119,255,0.25)';
  c.beginPath();
  c.arc(size / 2, size / 2, size / 2, 0, Math.PI * 2);
  c.fill();
  c.fillStyle = '#1677ff';
  c.beginPath();
  c.arc(size / 2, size / 2, size / 2 - 5, 0, Math.PI * 2);
  c.fill();
  c.fillStyle = '#ffffff';
  c.font = 'bold 12px sans-serif';
  c.textAlign = 'center';
  c.textBaseline = 'middle';
  c.fillText(count, size / 2, size / 2 + 0.5);
  return toImage(element);
}

export const LABEL_PREFIX = 'lbl:';
export const CLUSTER_PREFIX = 'cnt:';
export const ICON_PREFIX = 'dev-';

/**
 * Draws the console's images when the map first asks for them: device icons (`dev-<state>`),
 * marker labels (`lbl:<text>`, any script, no glyph server) and cluster counts (`cnt:<n>`), through MapLibre 6's
 * missing-image resolver. `add` wraps each `addImage` (the devices layer adds them without a
 * repaint of their own while the tiles that asked for them are still loading).
 */
export function installImageFactory(
  map: MapLibreMap,
  add: <T>(change: () => T) => T = (change) => change(),
): () => void {
  map.setMissingStyleImageResolver((id: string) => {
    if (map.hasImage(id)) return;
    let image: ImageData | null = null;
    if (id.startsWith(ICON_PREFIX)) image = deviceIcon(id.slice(ICON_PREFIX.length) as DeviceMarkerState);
    else if (id.startsWith(LABEL_PREFIX)) image = labelImage(id.slice(LABEL_PREFIX.length));
    else if (id.startsWith(CLUSTER_PREFIX)) image = clusterImage(id.slice(CLUSTER_PREFIX.length));
    if (image) add(() => map.addImage(id, image, { pixelRatio: RATIO }));
  });
  return () => {
    map.setMissingStyleImageResolver(null);
  };
}
