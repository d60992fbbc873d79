/** Timings of the talk panel (spec part 2 sections 2.3, 4 and 9). */

/** The level animation cycles through this many frames while audio flows ... */
export const TALK_ANIMATION_FRAMES = 9;
/** ... one frame every this many ms. */
export const TALK_ANIMATION_MS = 250;
/** The title marquee moves this many px ... */
export const MARQUEE_STEP_PX = 1;
/** ... every this many ms. */
export const MARQUEE_INTERVAL_MS = 40;

/**
 * How long a floor request waits for its notice before it counts as unanswered. The SDK does not
 * wait for req_ptt_on's response (fire-and-forget); a grant, queue place or refusal comes as
 * notice_ptt_status within a round trip.
 */
export const FLOOR_ANSWER_MS = 5_000;
/** A burst is stored when its recording closes, just after the floor is free: the history is read again this much later. */
export const HISTORY_REFRESH_DELAY_MS = 1_000;
/** Bursts listed in the panel's history. */
export const HISTORY_COUNT = 20;
