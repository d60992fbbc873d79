import { AudioMutedOutlined, AudioOutlined, CloseOutlined, NumberOutlined, PhoneOutlined } from '@ant-design/icons';
import { AudioKind, CallStatus, type CallReason } from '@bwc/protocol';
import { Alert, App, Button, Progress, Typography } from 'antd';
import { AudioAlerts } from '../talk/AudioAlerts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keysOf } from '../../i18n/keys';
import type { RealtimeSdk } from '../../realtime/sdk/RealtimeSdk';
import { consoleSdk } from '../../realtime/sdk/groupLogin';
import { MicError, TalkEngine, type TalkAudio, type TalkSdk } from '../talk/audio/TalkEngine';
import type { TalkLack } from '../talk/audio/support';
import { createLivePlayer, releaseLive, type LiveDevice } from '../video/liveSource';
import { LiveView } from '../video/LiveView';
import type { LivePlayer } from '../video/player/LivePlayer';
import { claimPlayerSlot } from '../video/playerSlots';
import { disconnected, isLive, nextCall, type CallView } from './callState';
import { CALL_PLACE_ANSWER_MS, CALL_REFRESH_MS, DTMF_KEYS } from './constants';
import { onOpenCall } from './openCall';
import './call.css';

/** What the panel uses of the console-service connection. */
export type CallPanelSdk = Pick<RealtimeSdk, 'on' | 'onStatus' | 'onConnectionLost' | 'request' | 'login'> & TalkSdk;

const OUTCOME_KEYS = keysOf('call', {
  [CallStatus.HANGUP]: 'outcome.hangup',
  [CallStatus.BUSY]: 'outcome.busy',
  [CallStatus.REJECTED]: 'outcome.rejected',
  [CallStatus.TIMEOUT]: 'outcome.timeout',
  [CallStatus.UNREACHABLE]: 'outcome.unreachable',
});

/** The service's words for why a call ended (the shared console catalogue). */
const REASON_KEYS = keysOf('console', {
  offline: 'call.reason.offline',
  busy: 'call.reason.busy',
  caller_busy: 'call.reason.caller_busy',
  declined: 'call.reason.declined',
  no_answer: 'call.reason.no_answer',
  cancelled: 'call.reason.cancelled',
  hangup: 'call.reason.hangup',
  disconnected: 'call.reason.disconnected',
} satisfies Record<CallReason, string>);

const LACK_KEYS = keysOf('call', {
  insecure: 'unsupported.insecure',
  noEncoder: 'unsupported.noEncoder',
  noDecoder: 'unsupported.noDecoder',
} satisfies Record<TalkLack, string>);

const defaultAudio = (sdk: TalkSdk): TalkAudio => new TalkEngine(sdk, globalThis, AudioKind.CALL);
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
type Problem = { key: MicError['key'] | 'panel.failed' | 'panel.noAnswer'; reason: string };

const clock = (ms: number) => {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
};

interface Props {
  /** the call as it starts: placed by this console (`placing`), or ringing for it (`incoming`) */
  initial: CallView;
  /** a video call: the terminal's live picture above the call */
  video?: LiveDevice;
  sdk?: CallPanelSdk;
  /** the audio engine (tests give a fake) */
  createAudio?: (sdk: TalkSdk) => TalkAudio;
  /** a live player of the video (tests give a fake) */
  createPlayer?: (device: LiveDevice) => LivePlayer;
  /** live-change: the call is up or on its way (true), or over (false) */
  onLiveChange?: (live: boolean) => void;
  onClose: () => void;
}

/** The terminal's live picture, with a player slot of its own while the panel shows it. */
function CallVideo({ device, createPlayer }: { device: LiveDevice; createPlayer: (d: LiveDevice) => LivePlayer }) {
  const { t } = useTranslation('call');
  const [live, setLive] = useState<{ player: LivePlayer } | null | 'limit'>(null);
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    const release = claimPlayerSlot();
    if (!release) {
      setLive('limit');
      return;
    }
    const player = createPlayer(device);
    setLive({ player });
    return () => {
      releaseLive(player, device);
      player.destroy();
      release();
    };
  }, [device, createPlayer]);
  if (hidden || live === null) return null;
  if (live === 'limit')
    return <Alert type="warning" showIcon message={t('video.limit')} data-testid="call-video-limit" />;
  return (
    <div className="bwc-call-video" data-testid="call-video">
      <LiveView device={device} player={live.player} onClose={() => setHidden(true)} />
    </div>
  );
}

/**
 * A voice (or video) call with one terminal (issue 14 section 4): placed on open, ringing with
 * cancel, or ringing for this console with answer and reject; once answered the call timer, the
 * level of what is heard or said, mute, the DTMF keypad and hang up; how it ended, in words.
 * Audio is full duplex: the microphone opens as the call is placed or answered, and its frames go
 * out (AudioKind.CALL, the call id in the header) for as long as the call is up and not muted.
 */
export function CallPanel({
  initial,
  video,
  sdk = consoleSdk,
  createAudio = defaultAudio,
  createPlayer = createLivePlayer,
  onLiveChange,
  onClose,
}: Props) {
  const { t } = useTranslation('call');
  const { t: tc } = useTranslation('console');
  const { message } = App.useApp();
  const me = sdk.login?.login_uid ?? 0;
  const online = me !== 0;
  const [view, setView] = useState(initial);
  const viewRef = useRef(view);
  viewRef.current = view;
  const [problem, setProblem] = useState<Problem | null>(null);
  const [muted, setMuted] = useState(false);
  const [keypad, setKeypad] = useState(false);
  const [digits, setDigits] = useState('');

  const [audio, setAudio] = useState<TalkAudio | null>(null);
  useEffect(() => {
    const engine = createAudio(sdk);
    setAudio(engine);
    return () => engine.close();
  }, [sdk, createAudio]);

  const openMic = useCallback(
    (engine: TalkAudio) =>
      engine
        .startCapture()
        .catch((error: unknown) =>
          setProblem(error instanceof MicError ? { key: error.key, reason: error.reason } : failed(error)),
        ),
    [],
  );

  useEffect(
    () =>
      sdk.on('notice_call_status', (notice) => {
        setView((current) => nextCall(current, notice, me));
      }),
    [sdk, me],
  );

  // a new connection (language switch, new address) or a lost one: the service ended the call
  useEffect(() => sdk.onStatus(() => setView(disconnected)), [sdk]);
  useEffect(() => sdk.onConnectionLost(() => setView(disconnected)), [sdk]);

  // the call is placed as the panel opens (the microphone opens meanwhile: its prompt comes now)
  const placed = useRef(false);
  useEffect(() => {
    if (!audio || placed.current || initial.phase !== 'placing') return;
    placed.current = true;
    if (!online) return;
    if (audio.support.canTalk) void openMic(audio);
    sdk
      .request('req_call', { target: initial.peer.uid, call_type: 0 })
      .catch((error: unknown) => setProblem(failed(error)));
  }, [audio, initial, online, openMic, sdk]);

  // a call the service never answers
  useEffect(() => {
    if (view.phase !== 'placing' || !online) return;
    const timer = setTimeout(() => setProblem({ key: 'panel.noAnswer', reason: '' }), CALL_PLACE_ANSWER_MS);
    return () => clearTimeout(timer);
  }, [view.phase, online]);

  // what follows from a phase: hearing and sending the call's audio, the end tone, live-change
  const onLiveChangeRef = useRef(onLiveChange);
  onLiveChangeRef.current = onLiveChange;
  useEffect(() => {
    if (!audio) return;
    if (view.phase === 'answered') {
      audio.listen(view.callid);
      audio.send(muted ? null : { tgid: view.callid, emergency: false });
    }
    if (view.phase === 'ended') {
      audio.send(null);
      audio.stopCapture();
    }
  }, [audio, view.phase, view.callid, muted]);
  useEffect(() => {
    if (view.phase === 'ended' && view.outcome !== CallStatus.HANGUP) audio?.tone('busy');
  }, [audio, view.phase, view.outcome]);
  useEffect(() => {
    onLiveChangeRef.current?.(isLive(view));
  }, [view]);

  // closing the panel (or leaving the console) while the call is up hangs it up
  useEffect(
    () => () => {
      const current = viewRef.current;
      if (isLive(current) && online) sendStatus(sdk, current, CallStatus.HANGUP).catch(() => undefined);
    },
    [sdk, online],
  );

  // another call asked for while this one is up: one call at a time
  useEffect(
    () =>
      onOpenCall(() => {
        if (isLive(viewRef.current)) void message.warning(t('panel.oneAtATime'));
      }),
    [message, t],
  );

  // the level meter and the call timer
  const [level, setLevel] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!audio) return;
    const timer = setInterval(() => {
      setLevel(audio.level());
      setNow(Date.now());
    }, CALL_REFRESH_MS);
    return () => clearInterval(timer);
  }, [audio]);

  const act = (status: typeof CallStatus.ANSWERED | typeof CallStatus.REJECTED | typeof CallStatus.HANGUP) => {
    audio?.resume();
    if (status === CallStatus.ANSWERED && audio?.support.canTalk) void openMic(audio);
    sendStatus(sdk, view, status).catch((error: unknown) => setProblem(failed(error)));
  };

  const key = (value: string) => {
    setDigits((d) => (d + value).slice(-16));
    sdk.request('req_dtmf', { callid: view.callid, value }).catch((error: unknown) => setProblem(failed(error)));
  };

  const lacks = audio?.support.lacks ?? [];
  const stateText =
    view.phase === 'placing'
      ? t('state.placing')
      : view.phase === 'ringing'
        ? t('state.ringing')
        : view.phase === 'incoming'
          ? t('state.incoming')
          : view.phase === 'answered'
            ? t('state.answered')
            : view.outcome === CallStatus.HANGUP || view.outcome === null
              ? t('state.ended')
              : t(OUTCOME_KEYS[view.outcome as keyof typeof OUTCOME_KEYS]);
  const reasonShown = view.phase === 'ended' && view.reason && view.reason !== 'hangup' && view.reason !== 'cancelled';
  const byPeer = view.phase === 'ended' && view.by === view.peer.uid;
  const title = t(video ? 'panel.videoTitle' : 'panel.title', { name: view.peer.name });

  return (
    <section className="bwc-call-panel" data-testid="call-panel" data-phase={view.phase} aria-label={title}>
      <header className="bwc-call-header">
        <PhoneOutlined />
        <span className="bwc-call-title" data-testid="call-title" title={title}>
          {title}
        </span>
        <Button
          size="small"
          type="text"
          icon={<CloseOutlined />}
          aria-label={isLive(view) ? t('button.hangup') : t('panel.close')}
          title={isLive(view) ? t('button.hangup') : t('panel.close')}
          data-testid="call-close"
          onClick={onClose}
        />
      </header>
      {video && <CallVideo device={video} createPlayer={createPlayer} />}
      <AudioAlerts
        lacks={lacks}
        lackText={(lack) => t(LACK_KEYS[lack])}
        offline={online ? null : t('panel.offline')}
        problem={problem && t(problem.key, { reason: problem.reason })}
        onCloseProblem={() => setProblem(null)}
        prefix="call"
      />
      <div className="bwc-call-state" data-testid="call-state" data-phase={view.phase} data-outcome={view.outcome ?? 0}>
        <span>{stateText}</span>
        {view.phase === 'answered' && view.answeredAt !== null && (
          <span className="bwc-call-timer" data-testid="call-timer">
            {clock(now - view.answeredAt)}
          </span>
        )}
      </div>
      {reasonShown && (
        <Typography.Text type="secondary" data-testid="call-reason" data-reason={view.reason}>
          {tc(REASON_KEYS[view.reason!])}
        </Typography.Text>
      )}
      {byPeer && view.reason === 'hangup' && (
        <Typography.Text type="secondary" data-testid="call-reason" data-reason="peer">
          {t('outcome.byPeer', { name: view.peer.name })}
        </Typography.Text>
      )}
      {(view.phase === 'answered' || view.phase === 'ringing' || view.phase === 'placing') && (
        <div className="bwc-call-level" aria-label={t('panel.level')} role="img">
          <AudioOutlined />
          <Progress
            percent={Math.round(level * 100)}
            showInfo={false}
            size="small"
            strokeColor="#52c41a"
            data-testid="call-level"
            data-level={Math.round(level * 100)}
          />
        </div>
      )}
      {view.phase === 'answered' && keypad && (
        <div className="bwc-call-keypad" data-testid="call-keypad" role="group" aria-label={t('button.keypad')}>
          <div className="bwc-call-digits" data-testid="call-digits">
            {digits || '\u00a0'}
          </div>
          {DTMF_KEYS.map((value) => (
            <Button key={value} data-testid="call-key" data-key={value} onClick={() => key(value)}>
              {value}
            </Button>
          ))}
        </div>
      )}
      <div className="bwc-call-actions">
        {view.phase === 'incoming' && (
          <>
            <Button type="primary" data-testid="call-answer" onClick={() => act(CallStatus.ANSWERED)}>
              {t('button.answer')}
            </Button>
            <Button danger data-testid="call-reject" onClick={() => act(CallStatus.REJECTED)}>
              {t('button.reject')}
            </Button>
          </>
        )}
        {view.phase === 'answered' && (
          <>
            <Button
              icon={muted ? <AudioMutedOutlined /> : <AudioOutlined />}
              aria-pressed={muted}
              data-testid="call-mute"
              data-muted={muted ? 1 : 0}
              onClick={() => setMuted((m) => !m)}
            >
              {muted ? t('button.unmute') : t('button.mute')}
            </Button>
            <Button
              icon={<NumberOutlined />}
              aria-pressed={keypad}
              data-testid="call-keypad-toggle"
              onClick={() => setKeypad((k) => !k)}
            >
              {t('button.keypad')}
            </Button>
          </>
        )}
        {(view.phase === 'placing' || view.phase === 'ringing') && (
          <Button danger type="primary" data-testid="call-cancel" onClick={() => act(CallStatus.HANGUP)}>
            {t('button.cancel')}
          </Button>
        )}
        {view.phase === 'answered' && (
          <Button danger type="primary" data-testid="call-hangup" onClick={() => act(CallStatus.HANGUP)}>
            {t('button.hangup')}
          </Button>
        )}
        {view.phase === 'ended' && (
          <Button data-testid="call-done" onClick={onClose}>
            {t('panel.close')}
          </Button>
        )}
      </div>
    </section>
  );
}

const failed = (error: unknown): Problem => ({ key: 'panel.failed', reason: reasonOf(error) });

/** req_call_status of the panel's call (before the service named it: the sender's call). */
function sendStatus(
  sdk: Pick<RealtimeSdk, 'request'>,
  view: CallView,
  status: typeof CallStatus.ANSWERED | typeof CallStatus.REJECTED | typeof CallStatus.HANGUP,
): Promise<unknown> {
  return sdk.request('req_call_status', { ...(view.callid ? { callid: view.callid } : {}), status });
}
