import { DEFAULT_LOG_LEVEL, LOG_AREA_MAX, LOG_LINE_MAX, LogLevel } from '@bwc/protocol';

/**
 * The SDK's log (spec part 1 sections 7 and 9): levels all 10 ... none 100, default 20 (debug);
 * a line longer than LOG_LINE_MAX characters is shortened; when the page has an element with id
 * `sdk_output`, each line is appended there in its level's colour and the area is emptied once it
 * holds more than LOG_AREA_MAX characters; a line at notice level (90) also raises an alert.
 */

export type LogLevelName = keyof typeof LogLevel;
export type LogLevelValue = (typeof LogLevel)[LogLevelName];

export const LOG_OUTPUT_ID = 'sdk_output';

/** Colour of a level's lines in the output area. */
const COLOURS: Record<number, string> = {
  [LogLevel.debug]: '#8c8c8c',
  [LogLevel.info]: '#1677ff',
  [LogLevel.warn]: '#d48806',
  [LogLevel.error]: '#cf1322',
  [LogLevel.fatal]: '#a8071a',
  [LogLevel.notice]: '#531dab',
};

const NAMES = Object.fromEntries(Object.entries(LogLevel).map(([name, value]) => [value, name])) as Record<
  number,
  string
>;

/** `text` shortened to LOG_LINE_MAX characters (the cut marked with an ellipsis). */
export function shorten(text: string): string {
  return text.length > LOG_LINE_MAX ? `${text.slice(0, LOG_LINE_MAX - 1)}…` : text;
}

function describe(part: unknown): string {
  if (typeof part === 'string') return part;
  if (part instanceof Error) return `${part.name}: ${part.message}`;
  try {
    return JSON.stringify(part);
  } catch {
    return String(part);
  }
}

export interface SdkLoggerOptions {
  level?: number;
  /** the page's document (the output area is looked up in it at each line); none in Node */
  document?: Document | null;
  /** raised by a notice-level line; the console shell shows it as a notification */
  alert?: (text: string) => void;
  /** the developer console (tests pass a silent one) */
  sink?: Pick<Console, 'debug' | 'info' | 'warn' | 'error'>;
}

export class SdkLogger {
  level: number;
  alert: ((text: string) => void) | null;
  private readonly document: Document | null;
  private readonly sink: Pick<Console, 'debug' | 'info' | 'warn' | 'error'>;

  constructor(options: SdkLoggerOptions = {}) {
    this.level = options.level ?? DEFAULT_LOG_LEVEL;
    this.document = options.document === undefined ? (globalThis.document ?? null) : options.document;
    this.alert = options.alert ?? null;
    this.sink = options.sink ?? console;
  }

  debug = (...parts: unknown[]) => this.write(LogLevel.debug, parts);
  info = (...parts: unknown[]) => this.write(LogLevel.info, parts);
  warn = (...parts: unknown[]) => this.write(LogLevel.warn, parts);
  error = (...parts: unknown[]) => this.write(LogLevel.error, parts);
  fatal = (...parts: unknown[]) => this.write(LogLevel.fatal, parts);
  notice = (...parts: unknown[]) => this.write(LogLevel.notice, parts);

  /** Writes one line when `level` is at or above the logger's level; returns the line written (null: filtered). */
  write(level: number, parts: unknown[]): string | null {
    if (level < this.level) return null;
    const text = shorten(parts.map(describe).join(' '));
    const line = `[${new Date().toISOString()}][sdk][${NAMES[level] ?? level}] ${text}`;
    const method =
      level >= LogLevel.error ? 'error' : level >= LogLevel.warn ? 'warn' : level >= LogLevel.info ? 'info' : 'debug';
    this.sink[method](line);
    this.toOutput(level, line);
    if (level === LogLevel.notice) this.alert?.(text);
    return line;
  }

  private toOutput(level: number, line: string): void {
    const area = this.document?.getElementById(LOG_OUTPUT_ID);
    if (!area || !this.document) return;
    if ((area.textContent ?? '').length + line.length > LOG_AREA_MAX) area.textContent = '';
    const row = this.document.createElement('div');
    row.textContent = line;
    row.dataset.level = String(level);
    row.style.color = COLOURS[level] ?? '';
    area.appendChild(row);
  }
}
