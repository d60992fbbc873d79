import { mulberry32 } from '@bwc/protocol';

/** Test helpers. mulberry32: a fixed-seed generator, so that every run shuffles and fuzzes the same way. */
export const rng = mulberry32;
