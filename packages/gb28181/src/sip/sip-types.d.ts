declare module 'sip' {
  export function parse(data: string): unknown;
  export function stringify(message: unknown): string;
}
