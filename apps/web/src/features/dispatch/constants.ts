/** Size of the device info window on the dispatch map (spec part 2 sections 2.3 and 9). */
export const INFO_WINDOW_SIZE = { width: 500, height: 390 } as const;
/**
 * A device shows the SOS icon while it has an SOS alarm (type 1) that is not acknowledged and was
 * raised within this window (older unhandled SOS stay in the bell and alarm history, not on the map).
 */
export const MAP_SOS_WINDOW_MS = 30 * 60_000;
