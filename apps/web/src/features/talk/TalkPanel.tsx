import { AudioOutlined, CloseOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { MenuId, type FloorReason, type TalkRecord } from '@bwc/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Switch, Tag, Tooltip, Typography } from 'antd';
import { AudioAlerts } from './AudioAlerts';
import { useCallback, useEffect, useReducer, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../app/session/Permission';
import { formatTime } from '../../format/time';
import { keysOf } from '../../i18n/keys';
import type { RealtimeSdk } from '../../realtime/sdk/RealtimeSdk';
import { consoleSdk } from '../../realtime/sdk/groupLogin';
import { MicError, TalkEngine, type TalkAudio, type TalkSdk } from './audio/TalkEngine';
import type { TalkLack } from './audio/support';
import {
  FLOOR_ANSWER_MS,
  HISTORY_COUNT,
  HISTORY_REFRESH_DELAY_MS,
  MARQUEE_INTERVAL_MS,
  MARQUEE_STEP_PX,
  TALK_ANIMATION_FRAMES,
  TALK_ANIMATION_MS,
} from './constants';
import { nextTurn, useFloor, type TalkTurn } from './floor';
import { onOpenTalk } from './openTalk';
import './talk.css';

/** What the panel uses of the console-service connection. */
export type TalkPanelSdk = Pick<RealtimeSdk, 'on' | 'request' | 'login' | 'url'> & TalkSdk;

const REASON_KEYS = keysOf('talk', {
  busy: 'reason.busy',
  not_attached: 'reason.not_attached',
  preempted: 'reason.preempted',
  expired: 'reason.expired',
  forced: 'reason.forced',
  disconnected: 'reason.disconnected',
  released: 'reason.released',
  left: 'reason.left',
  noAnswer: 'reason.noAnswer',
} satisfies Record<FloorReason | 'noAnswer', string>);

const LACK_KEYS = keysOf('talk', {
  insecure: 'unsupported.insecure',
  noEncoder: 'unsupported.noEncoder',
  noDecoder: 'unsupported.noDecoder',
} satisfies Record<TalkLack, string>);

/** What the talk-state hook shows (data-state): the console's own turn, else whether someone else talks. */
export type TalkState = TalkTurn['kind'] | 'busy';

const defaultAudio = (sdk: TalkSdk): TalkAudio => new TalkEngine(sdk);
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** A message of the talk catalogue and the reason it names. */
type Problem = { key: MicError['key'] | 'panel.failed'; reason: string };
const failed = (error: unknown): Problem => ({ key: 'panel.failed', reason: reasonOf(error) });
const isActive = (turn: TalkTurn) => turn.kind === 'requesting' || turn.kind === 'granted' || turn.kind === 'queued';

interface Props {
  tgid: number;
  /** ask for the floor at once and keep it until the talk button is pressed again (voice broadcast) */
  start?: boolean;
  sdk?: TalkPanelSdk;
  /** the audio engine (tests give a fake) */
  createAudio?: (sdk: TalkSdk) => TalkAudio;
  /** talk-change: the talk toggle became active (asking for, waiting for or holding the floor) or inactive */
  onTalkChange?: (active: boolean) => void;
  /** close: the panel's close button */
  onClose: () => void;
}

/**
 * The title, moving MARQUEE_STEP_PX every MARQUEE_INTERVAL_MS and coming back in from the right
 * when it is wider than its place; a title that fits stands still (moving, it was mostly cut).
 */
function Marquee({ text }: { text: string }) {
  const box = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    let offset = 0;
    const timer = setInterval(() => {
      const width = inner.current?.scrollWidth ?? 0;
      const room = box.current?.clientWidth ?? 0;
      if (width <= room) offset = 0;
      else offset = offset >= width ? -room : offset + MARQUEE_STEP_PX;
      if (inner.current) inner.current.style.transform = offset ? `translateX(${-offset}px)` : '';
    }, MARQUEE_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [text]);
  return (
    <div className="bwc-talk-marquee" ref={box} title={text}>
      <span ref={inner} data-testid="talk-title">
        {text}
      </span>
    </div>
  );
}

/** The voice-level icon: frame `frame` of TALK_ANIMATION_FRAMES, bars as high as the frame says. */
function LevelIcon({ frame, label }: { frame: number; label: string }) {
  return (
    <span className="bwc-talk-level" data-testid="talk-level" data-frame={frame} role="img" aria-label={label}>
      <AudioOutlined />
      {[0, 1, 2, 3].map((bar) => (
        <i key={bar} style={{ height: frame === 0 ? 3 : 3 + ((frame + bar * 2) % TALK_ANIMATION_FRAMES) * 2 }} />
      ))}
    </span>
  );
}

/**
 * Push-to-talk panel of one group (spec part 2 sections 2.3 and 4): the title marquee, close, the
 * current talker, the level animation while audio flows, the talk button (hold it, or the Space
 * key; its label switches between start talk and close talk), the console's own turn (asking,
 * talking with the hold countdown, queued, refused, someone else talking), emergency talk, the
 * dispatcher's force release, and the group's recorded bursts with replay.
 *
 * Opening it enters the group with speak and hear (the service relays audio only to those, and
 * grants the floor only to those); closing gives the floor back and leaves the group.
 */
export function TalkPanel({
  tgid,
  start = false,
  sdk = consoleSdk,
  createAudio = defaultAudio,
  onTalkChange,
  onClose,
}: Props) {
  const { t } = useTranslation('talk');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const me = sdk.login?.login_uid ?? 0;
  const online = me !== 0;
  const floor = useFloor(sdk, tgid);
  const mayReleaseDispatch = usePermission(MenuId.EMERGENCY, 'edit');
  const mayReleaseCluster = usePermission(MenuId.CLUSTER, 'edit');
  const mayRelease = mayReleaseDispatch || mayReleaseCluster;

  const [audio, setAudio] = useState<TalkAudio | null>(null);
  useEffect(() => {
    const engine = createAudio(sdk);
    setAudio(engine);
    engine.listen(tgid);
    return () => engine.close();
  }, [sdk, tgid, createAudio]);
  const canTalk = online && (audio?.support.canTalk ?? false);

  const [turn, dispatch] = useReducer(nextTurn, { kind: 'idle' });
  const turnRef = useRef(turn);
  turnRef.current = turn;
  /** the talk toggle is on (set at once on press and release, ahead of the turn's render) */
  const active = useRef(false);
  /** on until pressed again instead of while held (a panel opened with `start`) */
  const latched = useRef(false);
  const attached = useRef(false);
  const [emergency, setEmergency] = useState(false);
  /** listening only: in the group to hear it, not to speak (req_enter_group with mute 1) */
  const [listenOnly, setListenOnly] = useState(false);
  const listenOnlyRef = useRef(false);
  /** what went wrong, translated when shown (a language switch changes it, not the panel's state) */
  const [problem, setProblem] = useState<Problem | null>(null);

  const group = useQuery({
    queryKey: ['talk', 'group', tgid],
    queryFn: () => sdk.request('req_grp_profile', { tgid }),
    enabled: online,
    staleTime: 60_000,
  });
  const name = group.data?.groups[0]?.tg_name ?? `#${tgid}`;

  const records = useQuery({
    queryKey: ['talk', 'records', tgid],
    queryFn: () => sdk.request('req_ptt_records', { tgid, start: 0, count: HISTORY_COUNT }),
    enabled: online,
  });

  const enter = useCallback(async () => {
    await sdk.request('req_enter_group', { tgid, mute: listenOnlyRef.current ? 1 : 0 });
    attached.current = true;
  }, [sdk, tgid]);

  /**
   * Listen only (spec part 2 section 4: the listen toggle; leaving it for listening only while
   * speaking is refused with a warning): the group is entered again with mute 1, or 0 to speak.
   */
  const toggleListenOnly = useCallback(
    (on: boolean) => {
      if (on && active.current) {
        message.warning(t('listenOnly.whileTalking'));
        return;
      }
      listenOnlyRef.current = on;
      setListenOnly(on);
      enter().catch((error: unknown) => setProblem(failed(error)));
    },
    [enter, message, t],
  );

  // entering on open; on close the floor is given back first, then the group left
  useEffect(() => {
    if (!online) return;
    enter().catch((error: unknown) => setProblem(failed(error)));
    const offLeave = sdk.on('notice_leave_group', (notice) => {
      if (notice.tgid === tgid && notice.uids.includes(me)) attached.current = false;
    });
    return () => {
      offLeave();
      if (active.current) void sdk.request('req_ptt_off', { tgid }).catch(() => undefined);
      active.current = false;
      attached.current = false;
      void sdk.request('req_leave_group', { tgid }).catch(() => undefined);
    };
  }, [sdk, tgid, me, online, enter]);

  // the floor's notices drive the turn; a burst that ended is soon in the history
  useEffect(() => {
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const off = sdk.on('notice_ptt_status', (notice) => {
      if (notice.tgid !== tgid) return;
      dispatch({ type: 'notice', notice, me, now: Date.now() });
      if (notice.previous) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          void queryClient.invalidateQueries({ queryKey: ['talk', 'records', tgid] });
        }, HISTORY_REFRESH_DELAY_MS);
        timers.add(timer);
      }
    });
    return () => {
      off();
      timers.forEach(clearTimeout);
    };
  }, [sdk, tgid, me, queryClient]);

  const release = useCallback(() => {
    if (!active.current) return;
    active.current = false;
    latched.current = false;
    dispatch({ type: 'release' });
    void sdk.request('req_ptt_off', { tgid }).catch(() => undefined);
  }, [sdk, tgid]);

  const press = useCallback(
    async (latch = false) => {
      if (!canTalk || !audio || listenOnlyRef.current) return;
      audio.resume();
      if (active.current) {
        if (latched.current) release();
        return;
      }
      active.current = true;
      latched.current = latch;
      setProblem(null);
      dispatch({ type: 'press' });
      try {
        if (!attached.current) await enter();
        await sdk.request('req_ptt_on', { tgid, emergency: emergency ? 1 : 0 });
      } catch (error) {
        setProblem(failed(error));
        release();
        return;
      }
      try {
        await audio.startCapture();
        // let go while the microphone was opening
        if (!active.current) audio.stopCapture();
      } catch (error) {
        setProblem(error instanceof MicError ? { key: error.key, reason: error.reason } : failed(error));
        release();
      }
    },
    [audio, canTalk, emergency, enter, release, sdk, tgid],
  );

  // a panel opened to talk at once (voice broadcast) asks as soon as it can
  const started = useRef(false);
  useEffect(() => {
    if (!start || started.current || !audio || !canTalk) return;
    started.current = true;
    void press(true);
  }, [start, audio, canTalk, press]);

  // what follows from a new turn: sending, tones, the microphone, the talk-change event
  const previous = useRef<TalkTurn>(turn);
  const onTalkChangeRef = useRef(onTalkChange);
  onTalkChangeRef.current = onTalkChange;
  useEffect(() => {
    const before = previous.current;
    previous.current = turn;
    if (before === turn || !audio) return;
    if (turn.kind === 'granted' && before.kind !== 'granted') {
      audio.send({ tgid, emergency });
      audio.tone('grant');
    }
    if (turn.kind === 'denied' || (turn.kind === 'idle' && turn.lost)) {
      audio.tone('busy');
      // refused or taken back: the toggle is off, whatever the hand on the button does
      if (active.current && turn.kind === 'denied' && turn.reason === 'noAnswer')
        void sdk.request('req_ptt_off', { tgid }).catch(() => undefined);
      active.current = false;
      latched.current = false;
    }
    if (!isActive(turn)) {
      audio.send(null);
      audio.stopCapture();
    }
    if (isActive(turn) !== isActive(before)) onTalkChangeRef.current?.(isActive(turn));
  }, [turn, audio, tgid, emergency, sdk]);

  // another group's talk asked for while this one is on: the host keeps this panel (one group at a time)
  useEffect(
    () =>
      onOpenTalk((request) => {
        if (request.tgid !== tgid && active.current) void message.warning(t('panel.exitFirst'));
      }),
    [tgid, message, t],
  );

  // a request that no notice answers
  useEffect(() => {
    if (turn.kind !== 'requesting') return;
    const timer = setTimeout(() => dispatch({ type: 'timeout' }), FLOOR_ANSWER_MS);
    return () => clearTimeout(timer);
  }, [turn]);

  // level animation and hold countdown
  const [frame, setFrame] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!audio) return;
    const timer = setInterval(() => {
      const flowing = audio.level() > 0;
      setFrame((f) => (flowing ? (f + 1) % TALK_ANIMATION_FRAMES : 0));
      if (turnRef.current.kind === 'granted') setNow(Date.now());
    }, TALK_ANIMATION_MS);
    return () => clearInterval(timer);
  }, [audio]);

  // the toggle never stays on by itself when the window loses focus (a key or button let go elsewhere)
  useEffect(() => {
    const blur = () => {
      if (!latched.current) release();
    };
    window.addEventListener('blur', blur);
    return () => window.removeEventListener('blur', blur);
  }, [release]);

  const onKey = (event: KeyboardEvent, down: boolean) => {
    if (event.code !== 'Space' && event.key !== ' ') return;
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, [contenteditable="true"]')) return;
    event.preventDefault();
    if (down && !event.repeat && !active.current) void press();
    else if (!down && !latched.current) release();
  };

  const [replay, setReplay] = useState<{ refid: string; url?: string } | null>(null);
  useEffect(
    () =>
      sdk.on('notice_ptt_replay', (notice) =>
        setReplay((current) =>
          current?.refid === notice.record.refid
            ? { refid: current.refid, url: new URL(notice.url, serviceBase(sdk)).toString() }
            : current,
        ),
      ),
    [sdk],
  );
  const askReplay = (record: TalkRecord) => {
    setReplay({ refid: record.refid });
    sdk
      .request('req_ptt_replay', { tgid, refid: record.refid })
      .catch((error: unknown) => void message.error(t('panel.failed', { reason: reasonOf(error) })));
  };

  const forceRelease = async () => {
    try {
      const answer = await sdk.request('req_ptt_release', { tgid });
      void (answer.released ? message.success(t('force.done')) : message.info(t('force.nothing')));
    } catch (error) {
      void message.error(t('panel.failed', { reason: reasonOf(error) }));
    }
  };

  const talker = floor?.talker ?? null;
  const state: TalkState = turn.kind === 'idle' && talker && talker.uid !== me ? 'busy' : turn.kind;
  const stateText =
    turn.kind === 'requesting'
      ? t('state.requesting')
      : turn.kind === 'granted'
        ? t('state.granted')
        : turn.kind === 'queued'
          ? t('state.queued', { position: turn.position })
          : turn.kind === 'denied'
            ? t('state.denied', { reason: t(REASON_KEYS[turn.reason]) })
            : state === 'busy'
              ? t('state.busy', { name: talker?.name })
              : t('state.idle');
  const secondsLeft =
    turn.kind === 'granted' ? Math.max(0, Math.ceil((turn.hold_ms - Math.max(0, now - turn.granted_at)) / 1000)) : null;
  const toggleOn = isActive(turn);
  const lacks = audio?.support.lacks ?? [];

  return (
    <section
      className="bwc-talk-panel"
      data-testid="talk-panel"
      data-tgid={tgid}
      aria-label={t('panel.title', { name })}
      onKeyDown={(event) => onKey(event, true)}
      onKeyUp={(event) => onKey(event, false)}
    >
      <header className="bwc-talk-header">
        <Marquee text={t('panel.title', { name })} />
        <Button
          size="small"
          type="text"
          icon={<CloseOutlined />}
          aria-label={t('panel.close')}
          title={t('panel.close')}
          data-testid="talk-close"
          onClick={onClose}
        />
      </header>
      <AudioAlerts
        lacks={lacks}
        lackText={(lack) => t(LACK_KEYS[lack])}
        offline={online ? null : t('panel.offline')}
        problem={problem && t(problem.key, { reason: problem.reason })}
        onCloseProblem={() => setProblem(null)}
        prefix="talk"
      />
      <div className="bwc-talk-now">
        <LevelIcon frame={frame} label={t('panel.level')} />
        <span className="bwc-talk-talker">
          <Typography.Text type="secondary">{t('panel.talker')}</Typography.Text>{' '}
          <span data-testid="talk-talker" data-uid={talker?.uid ?? 0}>
            {talker ? talker.name : t('panel.nobody')}
          </span>
          {talker?.emergency === 1 && (
            <Tag color="red" bordered={false}>
              {t('history.emergency')}
            </Tag>
          )}
        </span>
      </div>
      <div className="bwc-talk-state" data-testid="talk-state" data-state={state}>
        {stateText}
        {secondsLeft !== null && (
          <span className="bwc-talk-countdown" data-testid="talk-countdown" data-seconds={secondsLeft}>
            {t('countdown', { seconds: secondsLeft })}
          </span>
        )}
      </div>
      {turn.kind === 'idle' && turn.lost && (
        <Typography.Text type="warning" data-testid="talk-lost" data-reason={turn.lost}>
          {t('state.lost', { reason: t(REASON_KEYS[turn.lost]) })}
        </Typography.Text>
      )}
      {/* hints open beside the panel, and this one not while talking: over the panel they hid the
          state and countdown, or the control the pointer was moving to (the popup keeps its place
          while the pointer is over it) */}
      <Tooltip title={toggleOn ? undefined : t('button.hint')} placement="left">
        <Button
          block
          size="large"
          type={toggleOn ? 'primary' : 'default'}
          danger={toggleOn && emergency}
          className="bwc-talk-button"
          data-testid="talk-button"
          data-active={toggleOn ? 1 : 0}
          aria-pressed={toggleOn}
          disabled={!canTalk || listenOnly}
          onPointerDown={(event) => {
            if (event.button > 0) return;
            event.preventDefault();
            event.currentTarget.setPointerCapture?.(event.pointerId);
            void press();
          }}
          onPointerUp={() => {
            if (!latched.current) release();
          }}
          onPointerCancel={() => {
            if (!latched.current) release();
          }}
          onContextMenu={(event) => event.preventDefault()}
        >
          {toggleOn ? t('button.close') : t('button.start')}
        </Button>
      </Tooltip>
      <div className="bwc-talk-options">
        <Tooltip title={t('emergencyHint')} placement="left">
          <span>
            <Switch
              size="small"
              checked={emergency}
              disabled={!canTalk || toggleOn}
              onChange={setEmergency}
              data-testid="talk-emergency"
            />{' '}
            {t('emergency')}
          </span>
        </Tooltip>
        <Tooltip title={t('listenOnly.hint')} placement="left">
          <span>
            <Switch size="small" checked={listenOnly} onChange={toggleListenOnly} data-testid="talk-listen-only" />{' '}
            {t('listenOnly.label')}
          </span>
        </Tooltip>
        {mayRelease && talker && (
          <Button size="small" danger data-testid="talk-force-release" onClick={() => void forceRelease()}>
            {t('force.button')}
          </Button>
        )}
      </div>
      <div className="bwc-talk-history" data-testid="talk-history">
        <Typography.Text strong>{t('history.title')}</Typography.Text>
        {(records.data?.records ?? []).length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.empty')} />
        ) : (
          <ul>
            {records.data!.records.map((record) => (
              <li key={record.refid} data-testid="talk-record" data-refid={record.refid}>
                <span className="bwc-talk-record-name">
                  {record.name}
                  {record.emergency === 1 && (
                    <Tag color="red" bordered={false}>
                      {t('history.emergency')}
                    </Tag>
                  )}
                </span>
                <Typography.Text type="secondary">
                  {formatTime(new Date(record.start).toISOString())} ·{' '}
                  {t('history.duration', { seconds: Math.max(1, Math.round((record.stop - record.start) / 1000)) })}
                </Typography.Text>
                <Button
                  size="small"
                  type="text"
                  icon={<PlayCircleOutlined />}
                  aria-label={t('history.replay')}
                  title={t('history.replay')}
                  loading={replay?.refid === record.refid && !replay.url}
                  data-testid="talk-replay"
                  onClick={() => askReplay(record)}
                />
              </li>
            ))}
          </ul>
        )}
        {replay?.url && (
          <audio
            key={replay.url}
            src={replay.url}
            controls
            autoPlay
            data-testid="talk-replay-audio"
            data-refid={replay.refid}
          />
        )}
      </div>
    </section>
  );
}

/** The console service's http(s) address: a replay address is a path on it. */
function serviceBase(sdk: Pick<RealtimeSdk, 'url'>): string {
  return sdk.url ? sdk.url.replace(/^ws/, 'http') : window.location.href;
}
