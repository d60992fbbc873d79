// Types of what TypeScript callers (bench/) use of setup.mjs.
/** Folder of the console's test build (mode e2e). */
export const E2E_WEB_DIST: string;
/** Builds the console when its folder is missing or older than its sources. */
export function ensureWebBuilt(options?: { force?: boolean; test?: boolean }): Promise<void>;
