/** Size of the device info window on the dispatch map (spec part 2 sections 2.3 and 9). */
export const INFO_WINDOW_SIZE = { width: 500, height: 390 } as const;
/** Room the info window keeps from the edges of the visible map (pixels). */
export const INFO_WINDOW_MARGIN = 8;
