// Shared by the group talk benchmarks (talk-groups.ts, talk-latency.ts): talk groups of new
// devices made through the server's own routes, and a bare console-service client per member.
import { CONSOLE_WS_PATH, imeiWithCheckDigit } from '@bwc/protocol';
import { WebSocket, type WsClient } from '@bwc/simulator/ws';
import { insertNewDevice } from '../apps/server/src/modules/devices/devices.service';
import { api } from '../apps/server/test/api';
import { DEMO, login } from '../apps/server/test/helpers';
import type { prepareDataDir } from './support';

export interface Member {
  id: number;
  hostbody: string;
  secret: string;
  jq: string;
}
export interface Group {
  tgid: number;
  members: Member[];
}

/**
 * `groups` fixed talk groups of `members` new devices with cluster numbers each, at the root unit,
 * through the open app (prepareDataDir with a test captcha); answers them with the devices' secrets.
 */
export async function createTalkGroups(
  app: Awaited<ReturnType<typeof prepareDataDir>>,
  GROUPS: number,
  MEMBERS: number,
  prefix = 'TK',
  /** first device number: IMEIs and cluster numbers must not meet another call's */
  first = 0,
  name = 'bench talk',
): Promise<Group[]> {
  const admin = await login(app, DEMO.admin.username, DEMO.admin.password);
  const unit = await app.db.selectFrom('units').select(['id', 'bh']).where('pid', '=', 0).executeTakeFirstOrThrow();
  const groups: Group[] = [];
  for (let g = 0; g < GROUPS; g += 1) {
    const members: Member[] = [];
    for (let m = 0; m < MEMBERS; m += 1) {
      const n = first + g * MEMBERS + m + 1;
      const hostbody = `${prefix}${String(n).padStart(6, '0')}`;
      const jq = String(700000 + n);
      const { id, secret } = await insertNewDevice(app.db, {
        hostbody,
        imei: imeiWithCheckDigit(`8698${String(n).padStart(10, '0')}`),
        hostname: `talk ${n}`,
        hostcode: `T${n}`,
        jq_hostcode: jq,
        unit_id: unit.id,
      });
      members.push({ id, hostbody, secret, jq });
    }
    const added = await api<{ groupid: number }>(app, 'groupAdd', admin, {
      channel_name: `${name} ${g + 1}`,
      cate: '1',
      device: members.map((m) => m.jq),
      bh: unit.bh,
    });
    if (added.code !== 200) throw new Error(`group ${g}: ${added.msg}`);
    groups.push({ tgid: added.data.groupid, members });
  }
  return groups;
}

/** One connected member: requests by cbid, a binary listener. */
export class Peer {
  private serial = 0;
  private waiting = new Map<string, (m: Record<string, unknown>) => void>();
  onBinary: (data: Buffer, at: number) => void = () => {};
  private constructor(readonly ws: WsClient) {
    ws.on('message', (data, binary) => {
      const at = performance.now();
      if (binary) return this.onBinary(data, at);
      const m = JSON.parse(data.toString()) as Record<string, unknown>;
      const w = typeof m.cbid === 'string' ? this.waiting.get(m.cbid) : undefined;
      if (w) {
        this.waiting.delete(m.cbid as string);
        w(m);
      }
    });
  }
  static open(url: string): Promise<Peer> {
    return new Promise((res, rej) => {
      const ws = new WebSocket(url);
      ws.once('open', () => res(new Peer(ws)));
      ws.once('error', rej);
    });
  }
  request(code: string, payload: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const cbid = `b${++this.serial}`;
    return new Promise((res) => {
      this.waiting.set(cbid, res);
      this.ws.send(JSON.stringify({ msg_code: code, cmd_type: 0, cbid, ...payload }));
    });
  }
}

/** Every member logged on at the server's /ws/console with its device credentials and in its group. */
export async function logonGroups(port: number, groups: Group[]): Promise<Peer[][]> {
  const url = `ws://127.0.0.1:${port}${CONSOLE_WS_PATH}`;
  const peers: Peer[][] = [];
  for (const g of groups) {
    const members: Peer[] = [];
    for (const m of g.members) {
      const p = await Peer.open(url);
      const rsp = await p.request('req_logon', {
        logon_name: m.hostbody,
        passwd: m.secret,
        user_type: 0,
        clientid: `talk-bench-${m.hostbody}`,
      });
      if (rsp.cmd_status !== 0) throw new Error(`logon ${m.hostbody}: ${String(rsp.error_reason)}`);
      const entered = await p.request('req_enter_group', { tgid: g.tgid });
      if (entered.cmd_status !== 0) throw new Error(`enter ${g.tgid}: ${String(entered.error_reason)}`);
      members.push(p);
    }
    peers.push(members);
  }
  return peers;
}
