/** A call the service has not answered with a notice this long after req_call shows "no answer". */
export const CALL_PLACE_ANSWER_MS = 10_000;
/** How often the level meter and the call timer are redrawn. */
export const CALL_REFRESH_MS = 150;
/** The DTMF keypad, row by row. */
export const DTMF_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const;
