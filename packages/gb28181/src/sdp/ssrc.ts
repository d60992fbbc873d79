import { SdpError } from './errors';

export type SsrcKind = 'live' | 'history';

/** The parts of a GB28181 y= SSRC (9.2.2 / Appendix F): 0 live or 1 history, 5 domain digits, 4 sequence digits. */
export interface GbSsrc {
  kind: SsrcKind;
  domain: string;
  sequence: number;
}

export function parseSsrc(y: string): GbSsrc {
  if (!/^[01]\d{9}$/.test(y)) throw new SdpError('invalid', `SSRC '${y.slice(0, 20)}' is not [01] + 9 digits`, 'y');
  return { kind: y[0] === '0' ? 'live' : 'history', domain: y.slice(1, 6), sequence: Number(y.slice(6)) };
}

/** The RTP SSRC field for a y= value (decimal; at most 1,999,999,999, so it fits 32 bits). */
export function ssrcNumber(y: string): number {
  if (!/^\d{10}$/.test(y)) throw new SdpError('invalid', `SSRC '${y.slice(0, 20)}' is not 10 digits`, 'y');
  const n = Number(y);
  if (n > 0xffffffff) throw new SdpError('invalid', `SSRC ${y} over 32 bits`, 'y');
  return n;
}

/** Digits 4-8 of the 20-digit SIP domain id (or of its 10-digit prefix) name the domain in an SSRC. */
export function ssrcDomain(domainId: string): string {
  if (!/^\d{8,20}$/.test(domainId)) throw new SdpError('invalid', `domain id '${domainId.slice(0, 24)}'`, 'y');
  return domainId.slice(3, 8);
}

/**
 * Hands out the y= SSRCs of one domain: 10,000 per kind, never one that is still open. Sequences
 * are given round-robin, so a just-released SSRC is the last to come back (late packets of a
 * closed stream are not taken for a new one).
 */
export class SsrcAllocator {
  private readonly domain: string;
  private readonly open = { live: new Set<number>(), history: new Set<number>() };
  private readonly next = { live: 0, history: 0 };

  constructor(domainId: string) {
    this.domain = ssrcDomain(domainId);
  }

  allocate(kind: SsrcKind): string {
    const open = this.open[kind];
    if (open.size >= 10000) throw new SdpError('ssrc-exhausted', `all 10000 ${kind} SSRCs are open`);
    let seq = this.next[kind];
    while (open.has(seq)) seq = (seq + 1) % 10000;
    open.add(seq);
    this.next[kind] = (seq + 1) % 10000;
    return `${kind === 'live' ? 0 : 1}${this.domain}${String(seq).padStart(4, '0')}`;
  }

  /** Frees an SSRC this allocator gave; false when it was not open here. */
  release(y: string): boolean {
    let s: GbSsrc;
    try {
      s = parseSsrc(y);
    } catch {
      return false;
    }
    if (s.domain !== this.domain) return false;
    return this.open[s.kind].delete(s.sequence);
  }

  isOpen(y: string): boolean {
    try {
      const s = parseSsrc(y);
      return s.domain === this.domain && this.open[s.kind].has(s.sequence);
    } catch {
      return false;
    }
  }

  get size(): number {
    return this.open.live.size + this.open.history.size;
  }
}
