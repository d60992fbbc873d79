/**
 * Requests the platform sends (RFC 3261 8.1.1): the text of a request, fresh branch, tag and
 * Call-ID values, and the typed error every outgoing operation rejects with.
 */
import { randomBytes } from 'node:crypto';
import type { SipTransportName } from './transport';

export type GbRequestErrorCode =
  /** no final answer in time (Timer B/F), or no MANSCDP answer in time */
  | 'timeout'
  /** pages of a Catalog/RecordInfo answer stopped coming; `partial` holds what arrived */
  | 'incomplete'
  /** a final answer other than 2xx; `status` holds it */
  | 'rejected'
  /** the device is not registered (or went offline) */
  | 'not_registered'
  /** the request could not be sent (no socket, TCP connect failed) */
  | 'transport'
  /** the platform stopped */
  | 'stopped'
  /** too many queries, subscriptions or dialogs at once (10,000 each) */
  | 'busy';

export class GbRequestError extends Error {
  constructor(
    readonly code: GbRequestErrorCode,
    message: string,
    readonly status?: number,
    readonly partial?: unknown,
  ) {
    super(message);
    this.name = 'GbRequestError';
  }
}

/** A branch with the RFC 3261 magic cookie. */
export const newBranch = () => `z9hG4bK${randomBytes(8).toString('hex')}`;
export const newTag = () => randomBytes(6).toString('hex');
export const newCallId = () => randomBytes(12).toString('hex');

export interface RequestSpec {
  method: string;
  uri: string;
  transport: SipTransportName;
  /** our address and port for Via (and Contact) */
  local: { host: string; port: number };
  branch: string;
  from: { uri: string; tag: string };
  to: { uri: string; tag?: string };
  callId: string;
  cseq: number;
  /** Contact URI (INVITE, SUBSCRIBE) */
  contact?: string;
  /** extra headers in order: [name, value] */
  headers?: Array<[string, string]>;
  contentType?: string;
  body?: Buffer;
}

const hostPort = (h: { host: string; port: number }) => `${h.host.includes(':') ? `[${h.host}]` : h.host}:${h.port}`;

/** The request as a latin1 string (body bytes as chars), Content-Length in bytes. */
export function buildRequest(r: RequestSpec): string {
  const line = (s: string) => s.replace(/[\r\n]+/g, ' ');
  const body = r.body ?? Buffer.alloc(0);
  const head = [
    `${r.method} ${line(r.uri)} SIP/2.0`,
    `Via: SIP/2.0/${r.transport.toUpperCase()} ${hostPort(r.local)};rport;branch=${r.branch}`,
    `From: <${line(r.from.uri)}>;tag=${r.from.tag}`,
    `To: <${line(r.to.uri)}>${r.to.tag ? `;tag=${line(r.to.tag)}` : ''}`,
    `Call-ID: ${line(r.callId)}`,
    `CSeq: ${r.cseq} ${r.method}`,
    'Max-Forwards: 70',
    ...(r.contact ? [`Contact: <${line(r.contact)}>`] : []),
    ...(r.headers ?? []).map(([k, v]) => `${k}: ${line(v)}`),
    ...(r.contentType ? [`Content-Type: ${r.contentType}`] : []),
    `Content-Length: ${body.length}`,
    '',
    '',
  ].join('\r\n');
  return head + body.toString('latin1');
}

/** `host` and `port` of a SIP URI (`sip:id@host:port;params`); port 5060 when absent. */
export function uriHostPort(uri: string): { address: string; port: number } | null {
  const m = /^sips?:(?:[^@;>]*@)?(\[[^\]]+\]|[^:;>?]+)(?::(\d{1,5}))?/i.exec(uri.trim());
  if (!m) return null;
  const port = m[2] ? Number(m[2]) : 5060;
  if (port < 1 || port > 65_535) return null;
  return { address: m[1]!.replace(/^\[|\]$/g, ''), port };
}
