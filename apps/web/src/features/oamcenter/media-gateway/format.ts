/** Seconds as h:mm:ss (hours are not capped at 24: a stream may run for days). */
export function formatUptime(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const mm = String(Math.floor((total % 3600) / 60)).padStart(2, '0');
  const ss = String(total % 60).padStart(2, '0');
  return `${h}:${mm}:${ss}`;
}

/** Bits per second as whole kbit/s (1 kbit = 1000 bits). */
export function toKbps(bitsPerSecond: number): number {
  return Math.round(bitsPerSecond / 1000);
}
