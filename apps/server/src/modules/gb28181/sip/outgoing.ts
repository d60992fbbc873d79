/**
 * What the platform asks of registered devices (GB/T 28181-2016): MANSCDP queries answered by SN
 * (9.4 control, 9.5 queries, 9.7 record search, Appendix A), SUBSCRIBE/NOTIFY (9.11, A.2.4) and
 * INVITE/ACK/BYE dialogs for live video (9.2; the SDP body is opaque here). GbSipPlatform owns one
 * and forwards device answers, NOTIFY and BYE to it.
 */
import {
  alarmSubscription,
  CatalogAssembler,
  catalogQuery,
  deviceInfoQuery,
  deviceStatusQuery,
  encodeManscdp,
  mobilePositionSubscription,
  ptzControl,
  RecordInfoAssembler,
  recordInfoQuery,
  type AssembledCatalog,
  type AssembledRecordInfo,
  type CatalogItem,
  type ManscdpDecoded,
  type ManscdpMessage,
  type MessageOf,
  type PtzInput,
  type RecordItem,
} from '@bwc/gb28181/manscdp';
import {
  buildMansrtsp,
  MANSRTSP_CONTENT_TYPE,
  type MansrtspControl,
  type ResponseExtra,
  type SipMessage,
} from '@bwc/gb28181/sip';
import { ClientTransactions, type ClientTimers, type SendFn } from './client-transaction';
import { buildRequest, GbRequestError, newBranch, newCallId, newTag, uriHostPort, type RequestSpec } from './requests';
import type { SipLog, SipRemote, SipTransportName } from './transport';

const MANSCDP = 'Application/MANSCDP+xml';

export interface OutgoingEvents {
  position: [
    {
      deviceId: string;
      /** the body's DeviceID (the device or one of its channels) */
      sourceId: string;
      longitude: number;
      latitude: number;
      speed?: number;
      direction?: number;
      altitude?: number;
      time: string;
    },
  ];
  alarm: [
    {
      deviceId: string;
      sourceId: string;
      priority: number;
      method: number;
      time: string;
      description?: string;
      longitude?: number;
      latitude?: number;
      alarmType?: number;
    },
  ];
  catalogChange: [{ deviceId: string; sumNum: number; items: CatalogItem[] }];
  subscriptionEnded: [{ id: string; deviceId: string; kind: SubscriptionKind; reason: string }];
  dialogEnded: [{ dialog: GbDialog; reason: 'device-bye' }];
}

export interface OutgoingContext {
  platformId: string;
  domain: string;
  /** our host and port for Via and Contact */
  local(transport: SipTransportName): { host: string; port: number };
  device(deviceId: string): { contact: string; transport: SipTransportName; remote: SipRemote } | undefined;
  send: SendFn;
  emit<K extends keyof OutgoingEvents>(event: K, ...args: OutgoingEvents[K]): void;
  log: SipLog;
  timers: ClientTimers;
  /** No MANSCDP answer (or next page) within this rejects the query. */
  queryTimeoutMs: number;
  /** A query still unanswered (pages still trickling) after this fails. */
  queryTotalTimeoutMs: number;
  /** No final answer to INVITE within this sends CANCEL. */
  inviteTimeoutMs: number;
}

export type SubscriptionKind = 'Catalog' | 'MobilePosition' | 'Alarm';

export interface GbSubscription {
  id: string;
  deviceId: string;
  kind: SubscriptionKind;
  /** seconds granted by the device */
  expires: number;
}

/** An established INVITE dialog (RFC 3261 12). */
export interface GbDialog {
  id: string;
  deviceId: string;
  channelId: string;
  callId: string;
  localTag: string;
  remoteTag: string;
}

interface Target {
  remote: SipRemote;
  connectTo?: { address: string; port: number };
  /** host:port of the device's Contact, for Request-URIs */
  hostPort: string;
}

interface DialogState {
  callId: string;
  localTag: string;
  remoteTag?: string;
  /** Request-URI of in-dialog requests (the peer's Contact) */
  remoteTarget: string;
  toUri: string;
  cseq: number;
  target: Target;
  /** CSeq of the MANSRTSP bodies sent in the dialog */
  infoCseq?: number;
}

interface SubscriptionState extends DialogState {
  pub: GbSubscription;
  event: string;
  interval: number;
  refresh?: NodeJS.Timeout;
}

interface InviteDialogState extends DialogState {
  pub: GbDialog;
  ack: string;
}

interface Waiter {
  deviceId: string;
  take(message: ManscdpMessage): void;
  fail(error: GbRequestError): void;
}

/** Queries waiting for answers, subscriptions and dialogs, each. */
const MAX_PENDING = 10_000;

/** Refresh a subscription this long before it runs out: half its life, at most 60 s early. */
const refreshDelayMs = (expires: number) => Math.max((expires * 1000) / 2, expires * 1000 - 60_000);

export class GbOutgoing {
  readonly tx: ClientTransactions;
  private sn = 1 + Math.floor(Math.random() * 100_000);
  private readonly waiting = new Map<string, Waiter>();
  private readonly subscriptions = new Map<string, SubscriptionState>();
  private readonly dialogs = new Map<string, InviteDialogState>();
  /** INVITEs given up before any answer: a late 2xx gets ACK and BYE (RFC 3261 15). */
  private readonly abandoned = new Map<string, { state: DialogState; timer: NodeJS.Timeout }>();

  constructor(private readonly c: OutgoingContext) {
    this.tx = new ClientTransactions(c.send, c.timers, c.log);
  }

  stop(): void {
    for (const s of this.subscriptions.values()) clearTimeout(s.refresh);
    this.subscriptions.clear();
    this.dialogs.clear();
    for (const a of this.abandoned.values()) clearTimeout(a.timer);
    this.abandoned.clear();
    this.tx.stop();
    for (const w of [...this.waiting.values()]) w.fail(new GbRequestError('stopped', 'platform stopped'));
  }

  /** The device unregistered or went offline: its queries fail now rather than at their timeout. */
  deviceGone(deviceId: string, why: string): void {
    for (const w of [...this.waiting.values()])
      if (w.deviceId === deviceId) w.fail(new GbRequestError('not_registered', `device ${deviceId} ${why}`));
  }

  // MANSCDP queries (9.5, 9.7) and control (9.3 / 9.4)

  queryCatalog(deviceId: string): Promise<AssembledCatalog> {
    const sn = this.nextSn();
    const assembler = new CatalogAssembler(sn, deviceId);
    return this.query(
      deviceId,
      catalogQuery({ sn, deviceId }),
      (m) => {
        if (m.kind !== 'Response' || m.CmdType !== 'Catalog') return undefined;
        const r = assembler.add(m);
        return r.state === 'complete' ? r.assembled : undefined;
      },
      () => assembler.partial(),
    );
  }

  queryRecordInfo(
    deviceId: string,
    channelId: string,
    startTime: string,
    endTime: string,
  ): Promise<AssembledRecordInfo> {
    const sn = this.nextSn();
    const assembler = new RecordInfoAssembler(sn, channelId);
    return this.query(
      deviceId,
      recordInfoQuery({ sn, deviceId: channelId, startTime, endTime }),
      (m) => {
        if (m.kind !== 'Response' || m.CmdType !== 'RecordInfo') return undefined;
        const r = assembler.add(m);
        return r.state === 'complete' ? (r.assembled as AssembledRecordInfo) : undefined;
      },
      () => assembler.partial() as { items: RecordItem[] },
    );
  }

  queryDeviceInfo(deviceId: string): Promise<MessageOf<'Response', 'DeviceInfo'>> {
    const sn = this.nextSn();
    return this.query(deviceId, deviceInfoQuery({ sn, deviceId }), (m) =>
      m.kind === 'Response' && m.CmdType === 'DeviceInfo' ? m : undefined,
    );
  }

  queryDeviceStatus(deviceId: string): Promise<MessageOf<'Response', 'DeviceStatus'>> {
    const sn = this.nextSn();
    return this.query(deviceId, deviceStatusQuery({ sn, deviceId }), (m) =>
      m.kind === 'Response' && m.CmdType === 'DeviceStatus' ? m : undefined,
    );
  }

  /** A.2.3.1 PTZ control (presets too: preset_set/preset_call/preset_del with `preset`). Devices send no MANSCDP answer: done at 200. */
  async deviceControlPtz(deviceId: string, channelId: string, command: PtzInput): Promise<void> {
    const target = this.target(deviceId);
    const body = encodeManscdp(ptzControl({ sn: this.nextSn(), deviceId: channelId, ptz: command }));
    await this.message(deviceId, target, body);
  }

  /**
   * A device answer MESSAGE (Response with an SN we wait for): handed to its query, true. Anything
   * else (unsolicited, late, unknown SN) is false and goes to the 'message' event.
   */
  takeAnswer(deviceId: string, message: ManscdpDecoded): boolean {
    if (message.kind !== 'Response') return false;
    const waiter = this.waiting.get(`${deviceId}|${message.CmdType}|${message.SN}`);
    if (!waiter) return false;
    waiter.take(message);
    return true;
  }

  private nextSn(): number {
    this.sn = this.sn >= 2_000_000_000 ? 1 : this.sn + 1;
    return this.sn;
  }

  private async query<T>(
    deviceId: string,
    body: ManscdpMessage & { SN: number; CmdType: string },
    collect: (m: ManscdpMessage) => T | undefined,
    partial?: () => { items: unknown[] },
  ): Promise<T> {
    const target = this.target(deviceId);
    if (this.waiting.size >= MAX_PENDING) throw new GbRequestError('busy', 'too many queries waiting');
    const bytes = encodeManscdp(body);
    const key = `${deviceId}|${body.CmdType}|${body.SN}`;
    return await new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let pages = 0;
      const finish = (err: GbRequestError | null, value?: T) => {
        if (this.waiting.get(key) !== waiter) return;
        clearTimeout(timer);
        clearTimeout(whole);
        this.waiting.delete(key);
        if (err) reject(err);
        else resolve(value as T);
      };
      const fail = (why: string) => {
        const got = partial?.();
        if (pages > 0 && got)
          finish(
            new GbRequestError(
              'incomplete',
              `${body.CmdType} SN ${body.SN}: ${got.items.length} items, ${why}`,
              undefined,
              got,
            ),
          );
        else finish(new GbRequestError('timeout', `no ${body.CmdType} answer: ${why}`));
      };
      // The answer timeout runs from the query and again from each page; the whole query has a cap.
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => fail(`nothing for ${this.c.queryTimeoutMs} ms`), this.c.queryTimeoutMs);
      };
      const whole = setTimeout(
        () => fail(`not complete after ${this.c.queryTotalTimeoutMs} ms`),
        this.c.queryTotalTimeoutMs,
      );
      const waiter: Waiter = {
        deviceId,
        fail: (err) => finish(err),
        take: (m) => {
          pages++;
          let value: T | undefined;
          try {
            value = collect(m);
          } catch (err) {
            this.c.log.warn({ err, deviceId }, 'gb28181 sip: answer not usable');
          }
          if (value !== undefined) finish(null, value);
          else arm();
        },
      };
      this.waiting.set(key, waiter);
      arm();
      // The answer may come before the 200 to our MESSAGE (UDP reordering): the waiter is set first.
      this.message(deviceId, target, bytes).catch((err: GbRequestError) => finish(err));
    });
  }

  private async message(deviceId: string, target: Target, body: Buffer): Promise<void> {
    const res = await this.request(target, {
      method: 'MESSAGE',
      uri: `sip:${deviceId}@${target.hostPort}`,
      to: { uri: `sip:${deviceId}@${this.c.domain}` },
      callId: newCallId(),
      localTag: newTag(),
      cseq: 1,
      contentType: MANSCDP,
      body,
    });
    if (res.status! >= 300) throw rejected('MESSAGE', res);
  }

  // SUBSCRIBE / NOTIFY (9.11, A.2.4)

  async subscribe(
    deviceId: string,
    kind: SubscriptionKind,
    options: { expires?: number; interval?: number; event?: string } = {},
  ): Promise<GbSubscription> {
    const target = this.target(deviceId);
    if (this.subscriptions.size >= MAX_PENDING) throw new GbRequestError('busy', 'too many subscriptions');
    const expires = options.expires ?? 3600;
    const s: SubscriptionState = {
      callId: newCallId(),
      localTag: newTag(),
      remoteTarget: `sip:${deviceId}@${target.hostPort}`,
      toUri: `sip:${deviceId}@${this.c.domain}`,
      cseq: 0,
      target,
      event: options.event ?? 'presence',
      interval: options.interval ?? 5,
      pub: { id: '', deviceId, kind, expires },
    };
    s.pub.id = `${s.callId}|${s.localTag}`;
    // Registered before the SUBSCRIBE goes: a NOTIFY may overtake the 200 (RFC 6665 4.1.2.4).
    this.subscriptions.set(s.pub.id, s);
    try {
      await this.sendSubscribe(s, expires);
    } catch (err) {
      this.subscriptions.delete(s.pub.id);
      throw err;
    }
    return { ...s.pub };
  }

  /** SUBSCRIBE with Expires 0; the subscription is gone whatever the device answers. */
  async unsubscribe(subscription: GbSubscription): Promise<void> {
    const s = this.subscriptions.get(subscription.id);
    if (!s) return;
    clearTimeout(s.refresh);
    this.subscriptions.delete(subscription.id);
    const res = await this.inDialog(
      s,
      'SUBSCRIBE',
      [
        ['Event', s.event],
        ['Expires', '0'],
      ],
      this.subscriptionBody(s),
    );
    if (res.status! >= 300 && res.status !== 481) throw rejected('SUBSCRIBE', res);
  }

  private async sendSubscribe(s: SubscriptionState, expires: number): Promise<void> {
    const res = await this.inDialog(
      s,
      'SUBSCRIBE',
      [
        ['Event', s.event],
        ['Expires', String(expires)],
      ],
      this.subscriptionBody(s),
    );
    if (res.status! >= 300) throw rejected('SUBSCRIBE', res);
    if (!this.subscriptions.has(s.pub.id)) return; // unsubscribed meanwhile
    s.remoteTag ??= res.headers.to?.params.tag ?? undefined;
    const contact = Array.isArray(res.headers.contact) ? res.headers.contact[0]?.uri : undefined;
    if (contact) s.remoteTarget = contact;
    const granted = Number(String(res.headers.expires ?? expires).trim());
    s.pub.expires = Number.isInteger(granted) && granted > 0 ? Math.min(granted, expires) : expires;
    clearTimeout(s.refresh);
    s.refresh = setTimeout(() => {
      this.sendSubscribe(s, expires).catch((err: unknown) => {
        if (!this.subscriptions.delete(s.pub.id)) return;
        this.c.log.warn({ err, deviceId: s.pub.deviceId }, 'gb28181 sip: subscription refresh failed');
        this.c.emit('subscriptionEnded', { ...s.pub, reason: `refresh failed: ${(err as Error).message}` });
      });
    }, refreshDelayMs(s.pub.expires));
  }

  private subscriptionBody(s: SubscriptionState): Buffer {
    const a = { sn: this.nextSn(), deviceId: s.pub.deviceId };
    const body =
      s.pub.kind === 'Catalog'
        ? catalogQuery(a)
        : s.pub.kind === 'MobilePosition'
          ? mobilePositionSubscription({ ...a, interval: s.interval })
          : alarmSubscription(a);
    return encodeManscdp(body);
  }

  /** An incoming NOTIFY: 200 and an event for a known subscription, 481 otherwise. */
  onNotify(m: SipMessage, decode: (m: SipMessage) => ManscdpDecoded | string, send: Reply): void {
    const s = this.subscriptions.get(`${m.headers['call-id']}|${m.headers.to?.params.tag}`);
    if (!s) return send(481, 'Subscription Does Not Exist');
    const decoded = decode(m);
    if (typeof decoded === 'string') return send(400, decoded);
    s.remoteTag ??= m.headers.from?.params.tag ?? undefined;
    send(200, 'OK');
    const state = String(m.headers['subscription-state'] ?? '');
    const deviceId = s.pub.deviceId;
    if (decoded.kind === 'Notify' && decoded.CmdType === 'MobilePosition') {
      this.c.emit('position', {
        deviceId,
        sourceId: decoded.DeviceID,
        longitude: decoded.Longitude,
        latitude: decoded.Latitude,
        speed: decoded.Speed,
        direction: decoded.Direction,
        altitude: decoded.Altitude,
        time: decoded.Time,
      });
    } else if (decoded.kind === 'Notify' && decoded.CmdType === 'Alarm') {
      this.c.emit('alarm', {
        deviceId,
        sourceId: decoded.DeviceID,
        priority: decoded.AlarmPriority,
        method: decoded.AlarmMethod,
        time: decoded.AlarmTime,
        description: decoded.AlarmDescription,
        longitude: decoded.Longitude,
        latitude: decoded.Latitude,
        alarmType: decoded.Info?.AlarmType,
      });
    } else if (decoded.kind === 'Notify' && decoded.CmdType === 'Catalog') {
      this.c.emit('catalogChange', { deviceId, sumNum: decoded.SumNum, items: decoded.DeviceList });
    } else {
      this.c.log.warn({ deviceId, kind: decoded.kind }, 'gb28181 sip: NOTIFY body not used');
    }
    if (/^\s*terminated/i.test(state)) {
      clearTimeout(s.refresh);
      this.subscriptions.delete(s.pub.id);
      this.c.emit('subscriptionEnded', { ...s.pub, reason: state.trim() });
    }
  }

  // INVITE / ACK / BYE (9.2)

  /**
   * INVITE for a channel's live stream. Subject `<channelId>:<ssrc>,<platformId>:0` (9.2.2.1). 2xx ->
   * ACK and a dialog; non-2xx -> GbRequestError 'rejected' with the status; no final answer within
   * the invite timeout -> CANCEL (after a 1xx) and 'timeout'.
   */
  async invite(
    deviceId: string,
    channelId: string,
    sdpOffer: string,
    options: { subject?: string; ssrc?: string; timeoutMs?: number } = {},
  ): Promise<{ answer: string; dialog: GbDialog }> {
    const target = this.target(deviceId);
    if (this.dialogs.size >= MAX_PENDING) throw new GbRequestError('busy', 'too many dialogs');
    const callId = newCallId();
    const localTag = newTag();
    const branch = newBranch();
    const uri = `sip:${channelId}@${target.hostPort}`;
    const toUri = `sip:${channelId}@${this.c.domain}`;
    const subject = options.subject ?? `${channelId}:${options.ssrc ?? '0'},${this.c.platformId}:0`;
    const spec = (method: string, toTag?: string): RequestSpec => ({
      method,
      uri,
      transport: target.remote.transport,
      local: this.c.local(target.remote.transport),
      branch,
      from: { uri: this.fromUri(), tag: localTag },
      to: { uri: toUri, tag: toTag },
      callId,
      cseq: 1,
    });
    const text = buildRequest({
      ...spec('INVITE'),
      contact: this.contactUri(target.remote.transport),
      headers: [['Subject', subject]],
      contentType: 'APPLICATION/SDP',
      body: Buffer.from(sdpOffer, 'latin1'),
    });
    let proceeding = false;
    const t = this.tx.start({
      method: 'INVITE',
      branch,
      text,
      remote: target.remote,
      connectTo: target.connectTo,
      onProvisional: () => (proceeding = true),
      ackFor: (res) => buildRequest(spec('ACK', res.headers.to?.params.tag ?? undefined)),
    });
    let timedOut = false;
    let followUp: NodeJS.Timeout | undefined;
    const limit = options.timeoutMs ?? this.c.inviteTimeoutMs;
    const timer = setTimeout(() => {
      timedOut = true;
      if (!proceeding) {
        // RFC 3261 9.1: no CANCEL before a provisional answer; a late 2xx gets ACK and BYE.
        this.rememberAbandoned({ callId, localTag, remoteTarget: uri, toUri, cseq: 1, target });
        t.abandon(new GbRequestError('timeout', `no answer to INVITE in ${limit} ms`));
        return;
      }
      const cancel = buildRequest(spec('CANCEL'));
      this.tx
        .start({ method: 'CANCEL', branch, text: cancel, remote: target.remote, connectTo: target.connectTo })
        .response.catch(() => {});
      // A device that takes the CANCEL but never ends the INVITE (no 487) is given up on.
      followUp = setTimeout(
        () => t.abandon(new GbRequestError('timeout', `no answer to INVITE in ${limit} ms, none to CANCEL either`)),
        this.c.timers.timeoutMs,
      );
    }, limit);
    let res: SipMessage;
    try {
      res = await t.response;
    } finally {
      clearTimeout(timer);
      clearTimeout(followUp);
    }
    if (res.status! >= 300) {
      if (timedOut) throw new GbRequestError('timeout', `no answer to INVITE in ${limit} ms (cancelled)`, res.status);
      throw rejected('INVITE', res);
    }
    const remoteTag = res.headers.to?.params.tag ?? '';
    const contact = Array.isArray(res.headers.contact) ? res.headers.contact[0]?.uri : undefined;
    const d: InviteDialogState = {
      callId,
      localTag,
      remoteTag,
      remoteTarget: contact ?? uri,
      toUri,
      cseq: 1,
      target,
      pub: { id: `${callId}|${localTag}`, deviceId, channelId, callId, localTag, remoteTag },
      ack: '',
    };
    d.ack = buildRequest({
      method: 'ACK',
      uri: d.remoteTarget,
      transport: target.remote.transport,
      local: this.c.local(target.remote.transport),
      branch: newBranch(),
      from: { uri: this.fromUri(), tag: localTag },
      to: { uri: toUri, tag: remoteTag },
      callId,
      cseq: 1,
    });
    this.dialogs.set(d.pub.id, d);
    this.sendAck(d);
    return { answer: res.content ?? '', dialog: { ...d.pub } };
  }

  /** BYE in the dialog; it is forgotten whatever the answer. */
  async bye(dialog: GbDialog): Promise<void> {
    const d = this.dialogs.get(dialog.id);
    if (!d) return;
    this.dialogs.delete(dialog.id);
    const res = await this.inDialog(d, 'BYE', []);
    if (res.status! >= 300 && res.status !== 481) throw rejected('BYE', res);
  }

  /**
   * A playback control in the dialog (9.8.2: INFO with a MANSRTSP body): pause, resume, seek or speed. Resolves
   * at the device's 2xx; rejects with its refusal, or when the dialog is gone.
   */
  async info(dialog: GbDialog, control: MansrtspControl): Promise<void> {
    const d = this.dialogs.get(dialog.id);
    if (!d) throw new GbRequestError('rejected', `INFO: dialog ${dialog.id} ended`, 481);
    const body = Buffer.from(buildMansrtsp(control, (d.infoCseq = (d.infoCseq ?? 0) + 1)));
    const res = await this.inDialog(d, 'INFO', [], body, MANSRTSP_CONTENT_TYPE);
    if (res.status! >= 300) throw rejected('INFO', res);
  }

  dialog(id: string): GbDialog | undefined {
    const d = this.dialogs.get(id);
    return d && { ...d.pub };
  }

  /** An incoming BYE: the device ended a dialog (200, 'dialogEnded'); 481 for an unknown one. */
  onBye(m: SipMessage, send: Reply): void {
    const id = `${m.headers['call-id']}|${m.headers.to?.params.tag}`;
    const d = this.dialogs.get(id);
    if (!d || (d.remoteTag && m.headers.from?.params.tag !== d.remoteTag))
      return send(481, 'Call/Transaction Does Not Exist');
    this.dialogs.delete(id);
    send(200, 'OK');
    this.c.emit('dialogEnded', { dialog: { ...d.pub }, reason: 'device-bye' });
  }

  /**
   * A response no transaction took: a retransmitted 2xx to INVITE gets its ACK again; a 2xx to an
   * INVITE given up on gets ACK and BYE, so the device does not stream to nobody.
   */
  onStrayResponse(m: SipMessage): void {
    if (m.headers.cseq?.method?.toUpperCase() !== 'INVITE' || m.status! < 200 || m.status! >= 300) return;
    const id = `${m.headers['call-id']}|${m.headers.from?.params.tag}`;
    const d = this.dialogs.get(id);
    if (d) return this.sendAck(d);
    const gone = this.abandoned.get(id);
    if (!gone) return;
    clearTimeout(gone.timer);
    this.abandoned.delete(id);
    const state = gone.state;
    state.remoteTag = m.headers.to?.params.tag ?? undefined;
    const contact = Array.isArray(m.headers.contact) ? m.headers.contact[0]?.uri : undefined;
    if (contact) state.remoteTarget = contact;
    const transport = state.target.remote.transport;
    const ack = buildRequest({
      method: 'ACK',
      uri: state.remoteTarget,
      transport,
      local: this.c.local(transport),
      branch: newBranch(),
      from: { uri: this.fromUri(), tag: state.localTag },
      to: { uri: state.toUri, tag: state.remoteTag },
      callId: state.callId,
      cseq: 1,
    });
    this.c
      .send(state.target.remote, ack, state.target.connectTo)
      .catch((err: unknown) => this.c.log.warn({ err }, 'gb28181 sip: ACK not sent'));
    this.inDialog(state, 'BYE', []).catch((err: unknown) =>
      this.c.log.warn({ err }, 'gb28181 sip: BYE of a late call failed'),
    );
  }

  private rememberAbandoned(state: DialogState): void {
    const id = `${state.callId}|${state.localTag}`;
    if (this.abandoned.size >= MAX_PENDING) return;
    const timer = setTimeout(() => this.abandoned.delete(id), this.c.timers.timeoutMs);
    timer.unref();
    this.abandoned.set(id, { state, timer });
  }

  private sendAck(d: InviteDialogState): void {
    this.c
      .send(d.target.remote, d.ack, d.target.connectTo)
      .catch((err: unknown) => this.c.log.warn({ err }, 'gb28181 sip: ACK not sent'));
  }

  // requests

  private target(deviceId: string): Target {
    const device = this.c.device(deviceId);
    if (!device) throw new GbRequestError('not_registered', `device ${deviceId} is not registered`);
    const contact = uriHostPort(device.contact);
    const hostPort = contact
      ? `${contact.address.includes(':') ? `[${contact.address}]` : contact.address}:${contact.port}`
      : `${device.remote.address}:${device.remote.port}`;
    return { remote: device.remote, connectTo: contact ?? undefined, hostPort };
  }

  private fromUri(): string {
    return `sip:${this.c.platformId}@${this.c.domain}`;
  }

  private contactUri(transport: SipTransportName): string {
    const l = this.c.local(transport);
    return `sip:${this.c.platformId}@${l.host}:${l.port}`;
  }

  private async inDialog(
    d: DialogState,
    method: string,
    headers: Array<[string, string]>,
    body?: Buffer,
    contentType = MANSCDP,
  ): Promise<SipMessage> {
    d.cseq++;
    return this.request(d.target, {
      method,
      uri: d.remoteTarget,
      to: { uri: d.toUri, tag: d.remoteTag },
      callId: d.callId,
      localTag: d.localTag,
      cseq: d.cseq,
      headers,
      contact: method === 'SUBSCRIBE',
      contentType: body ? contentType : undefined,
      body,
    });
  }

  private request(
    target: Target,
    r: {
      method: string;
      uri: string;
      to: { uri: string; tag?: string };
      callId: string;
      localTag: string;
      cseq: number;
      headers?: Array<[string, string]>;
      contact?: boolean;
      contentType?: string;
      body?: Buffer;
    },
  ): Promise<SipMessage> {
    const branch = newBranch();
    const transport = target.remote.transport;
    const text = buildRequest({
      method: r.method,
      uri: r.uri,
      transport,
      local: this.c.local(transport),
      branch,
      from: { uri: this.fromUri(), tag: r.localTag },
      to: r.to,
      callId: r.callId,
      cseq: r.cseq,
      contact: r.contact ? this.contactUri(transport) : undefined,
      headers: r.headers,
      contentType: r.contentType,
      body: r.body,
    });
    return this.tx.start({ method: r.method, branch, text, remote: target.remote, connectTo: target.connectTo })
      .response;
  }
}

export type Reply = (status: number, reason: string, extra?: ResponseExtra) => void;

function rejected(method: string, res: SipMessage): GbRequestError {
  return new GbRequestError('rejected', `${method} answered ${res.status} ${res.reason ?? ''}`.trim(), res.status);
}
