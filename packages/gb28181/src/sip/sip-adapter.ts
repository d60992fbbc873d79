/**
 * The only file that touches the `sip` npm package (0.0.6, unmaintained): its message parser and
 * printer. Sockets, framing, transactions and digest checks are ours, so the package can be swapped
 * by rewriting this file. Messages are latin1 strings; bodies go to MANSCDP as bytes.
 */
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the declarations of the untyped `sip` package, for every project that compiles this file
/// <reference path="./sip-types.d.ts" />
import sip from 'sip';

export interface SipUri {
  schema?: string;
  user?: string;
  host?: string;
  port?: number;
  params?: Record<string, string | null | undefined>;
}

export interface SipNameAddr {
  name?: string;
  uri: string;
  params: Record<string, string | null | undefined>;
}

export interface SipVia {
  version?: string;
  protocol?: string;
  host?: string;
  port?: number;
  params: Record<string, string | null | undefined>;
}

/** A parsed request (`method` set) or response (`status` set), as the `sip` package shapes it. */
export interface SipMessage {
  method?: string;
  uri?: string;
  status?: number;
  reason?: string;
  version: string;
  headers: Record<string, unknown> & {
    via?: SipVia[];
    to?: SipNameAddr;
    from?: SipNameAddr;
    'call-id'?: string;
    cseq?: { seq: number; method: string };
    contact?: SipNameAddr[] | '*';
    authorization?: Array<Record<string, string | undefined>>;
    'content-length'?: number;
    'content-type'?: string;
    expires?: string | number;
  };
  content?: string;
}

/** Parses one whole message (head, blank line, body); null when it is not SIP or lacks a mandatory header. */
export function parseSip(text: string): SipMessage | null {
  // The package's own regex backtracks quadratically over leading whitespace and a missing blank
  // line, so both are dealt with here first.
  const start = text.search(/\S/);
  if (start < 0 || text.indexOf('\r\n\r\n', start) < 0) return null;
  let m: SipMessage | undefined;
  try {
    m = sip.parse(start === 0 ? text : text.slice(start)) as SipMessage | undefined;
  } catch {
    return null;
  }
  if (!m || typeof m !== 'object' || !m.headers) return null;
  const h = m.headers;
  if (!Array.isArray(h.via) || h.via.length === 0 || !h.via[0]?.params) return null;
  if (typeof h['call-id'] !== 'string' || !h.to?.uri || !h.from?.uri) return null;
  if (!h.cseq || typeof h.cseq.method !== 'string' || !Number.isFinite(h.cseq.seq)) return null;
  if (m.method === undefined && !(typeof m.status === 'number' && m.status >= 100 && m.status <= 699)) return null;
  return m;
}

/** The user part of a `sip:user@host` URI, or '' when there is none. */
export function uriUser(uri: string): string {
  const m = /^sips?:([^@;>]*)@/i.exec(uri.trim());
  if (!m) return '';
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return ''; // a bad %-escape
  }
}

export interface ResponseExtra {
  headers?: Record<string, unknown>;
  /** latin1 string (bytes as chars). */
  content?: string;
}

/** A response to `rq` (Via, From, To, Call-ID, CSeq copied; a To tag added unless present). */
export function buildResponse(rq: SipMessage, status: number, reason: string, extra: ResponseExtra = {}): string {
  const to = rq.headers.to!;
  const headers: Record<string, unknown> = {
    via: rq.headers.via,
    to: { ...to, params: { ...to.params, tag: to.params.tag ?? tagFor(rq) } },
    from: rq.headers.from,
    'call-id': rq.headers['call-id'],
    cseq: rq.headers.cseq,
    ...extra.headers,
    'content-length': Buffer.byteLength(extra.content ?? '', 'latin1'),
  };
  // Reason phrases are one line of text (RFC 3261 25.1).
  const phrase = reason.replace(/[\r\n]+/g, ' ').slice(0, 200);
  return sip.stringify({ status, reason: phrase, version: rq.version || '2.0', headers, content: extra.content ?? '' });
}

function tagFor(rq: SipMessage): string {
  // Stable per transaction so a retransmitted request gets the same To tag.
  let h = 0;
  const s = `${rq.headers['call-id']}|${rq.headers.cseq?.seq}`;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) >>> 0;
  return h.toString(16);
}
