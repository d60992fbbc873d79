import { ValidateNotSelfIntersecting, type GeoJSONStoreFeatures } from 'terra-draw';

/**
 * Whether a point may be placed (`commit`) or the polygon closed (`finish`): not when two of its
 * edges would cross. A fence or selection shaped like a bow tie has no clear inside (the fence
 * form refused it only after the drawing, asking for it to be drawn again). The line following
 * the pointer (`provisional`) is always drawn.
 */
export function edgesDoNotCross(
  feature: GeoJSONStoreFeatures,
  updateType: string,
  onRefused: () => void,
): { valid: boolean; reason?: string } {
  if (updateType !== 'commit' && updateType !== 'finish') return { valid: true };
  const result = ValidateNotSelfIntersecting(feature);
  if (!result.valid) onRefused();
  return result;
}
