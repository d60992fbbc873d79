import {
  CameraOutlined,
  CloseOutlined,
  ControlOutlined,
  DashboardOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  MutedOutlined,
  SoundOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { MenuId, SEND_CMD_TYPES } from '@bwc/protocol';
import { App, Button, Dropdown, Tooltip } from 'antd';
import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { readLocalSave } from '../../app/shell/localSave';
import { usePermission } from '../../app/session/Permission';
import { keysOf } from '../../i18n/keys';
import { FAILURE_KEYS, type LiveDevice } from './liveSource';
import { canRecord, mediaFileName, recordClip, saveSnapshot, type ClipRecording } from './media';
import type { LivePlayer, LivePlayerState, LiveStats } from './player/LivePlayer';
import { isGbLiveDevice } from './gb/gbLive';

/** Catalogue keys of the camera commands (video namespace), also used by the device dialog. */
export const COMMAND_KEYS = keysOf('video', {
  turnleft: 'command.turnleft',
  turnright: 'command.turnright',
  takephoto: 'command.takephoto',
  startvideo: 'command.startvideo',
  startaudio: 'command.startaudio',
  stopaudio: 'command.stopaudio',
  startmute: 'command.startmute',
  stopmute: 'command.stopmute',
} satisfies Record<(typeof SEND_CMD_TYPES)[number], string>);

const STATS_REFRESH_MS = 1_000;

/** The message over the picture for a state; null while the picture plays. */
export function StateOverlay({ state, name, onRetry }: { state: LivePlayerState; name: string; onRetry: () => void }) {
  const { t } = useTranslation('video');
  let text: ReactNode = null;
  let retry = false;
  switch (state.kind) {
    case 'idle':
    case 'requesting':
      text = t('tile.requesting', { name });
      break;
    case 'connecting':
      text = state.starting ? t('tile.starting') : t('tile.connecting');
      break;
    case 'stalled':
      text = t('tile.stalled');
      break;
    case 'reconnecting':
      text = t('tile.reconnecting', { seconds: state.delayMs / 1000, attempt: state.attempt });
      break;
    case 'paused':
      text = t('tile.paused');
      break;
    case 'ended':
      text = t('tile.ended');
      retry = true;
      break;
    case 'failed':
      text = (
        <>
          <div>{t(FAILURE_KEYS[state.reason])}</div>
          {state.detail && <div className="bwc-live-detail">{state.detail}</div>}
          {state.retryInMs !== undefined && <RetryCountdown ms={state.retryInMs} />}
        </>
      );
      retry = true;
      break;
    case 'playing':
      return null;
  }
  const failed = state.kind === 'failed' || state.kind === 'ended';
  return (
    <div
      className={failed ? 'bwc-live-overlay bwc-live-overlay-failed' : 'bwc-live-overlay'}
      data-testid="live-overlay"
      role="status"
    >
      <div>{text}</div>
      {retry && (
        <Button
          size="small"
          onClick={(event) => {
            event.stopPropagation();
            onRetry();
          }}
          data-testid="live-retry"
        >
          {t('tile.retry')}
        </Button>
      )}
    </div>
  );
}

/**
 * "Retrying in N s" under a passing failure, counting down. Mounted afresh with each failure: the
 * player goes through 'requesting' before it can fail again.
 */
function RetryCountdown({ ms }: { ms: number }) {
  const { t } = useTranslation('video');
  const [until] = useState(() => Date.now() + ms);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="bwc-live-detail" data-testid="live-auto-retry">
      {t('tile.autoRetry', { seconds: Math.max(1, Math.ceil((until - now) / 1_000)) })}
    </div>
  );
}

function StatsOverlay({ player }: { player: LivePlayer }) {
  const { t } = useTranslation('video');
  const [stats, setStats] = useState<LiveStats | null>(() => player.stats());
  useEffect(() => {
    const timer = setInterval(() => setStats(player.stats()), STATS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [player]);
  const unknown = t('stats.unknown');
  return (
    <div className="bwc-live-stats" data-testid="live-stats">
      {stats ? (
        <>
          <div>{t('stats.resolution', { width: stats.width, height: stats.height })}</div>
          <div>{t('stats.fps', { fps: stats.fps ?? unknown })}</div>
          <div>{t('stats.dropped', { dropped: stats.droppedFrames, decoded: stats.decodedFrames })}</div>
          <div>{t('stats.bitrate', { kbps: stats.bitrateKbps ?? unknown })}</div>
          <div>{t('stats.buffer', { seconds: stats.bufferS.toFixed(2) })}</div>
          <div>{t('stats.latency', { seconds: stats.latencyS.toFixed(2) })}</div>
        </>
      ) : (
        t('stats.none')
      )}
    </div>
  );
}

export interface LiveViewProps {
  device: LiveDevice;
  player: LivePlayer;
  onClose: () => void;
}

/**
 * One live picture: the video element the player plays into, the state over it and the tools
 * (shown on hover and when focused by keyboard): close, full screen, sound, snapshot, clip, stream
 * info, device commands.
 */
export function LiveView({ device, player, onClose }: LiveViewProps) {
  const { t } = useTranslation('video');
  const { message } = App.useApp();
  const state = useSyncExternalStore(player.subscribe, player.getState);
  const videoRef = useRef<HTMLVideoElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  // muted by default: browsers only autoplay muted media
  const [muted, setMuted] = useState(true);
  const [showStats, setShowStats] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const [recording, setRecording] = useState<ClipRecording | null>(null);
  const recordingRef = useRef<ClipRecording | null>(null);
  recordingRef.current = recording;
  // body-camera commands (sendcmd): a GB channel has none (its PTZ is on the patrol page)
  const mayCommand = usePermission(MenuId.EMERGENCY, 'edit') && !isGbLiveDevice(device);
  const names = () => {
    const play = player.play;
    return {
      hostname: play?.hostname || device.name,
      hostbody: play?.hostbody || device.hostbody || String(device.id),
    };
  };

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    player.attach(video);
    return () => {
      recordingRef.current?.stop();
      player.detach();
    };
  }, [player]);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === rootRef.current && rootRef.current !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggleMute = () => {
    const video = videoRef.current;
    if (!video) return;
    video.muted = !muted;
    setMuted(!muted);
  };

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void rootRef.current?.requestFullscreen?.().catch(() => undefined);
  };

  const snapshot = async () => {
    const video = videoRef.current;
    const { hostname, hostbody } = names();
    if (!video || !(await saveSnapshot(video, mediaFileName(hostname, hostbody, new Date(), 'png'))))
      message.info(t('toolbar.snapshotNone'));
  };

  const toggleRecord = () => {
    if (recording) return recording.stop();
    const video = videoRef.current;
    if (!video || !canRecord(video)) return void message.warning(t('toolbar.recordUnsupported'));
    const { hostname, hostbody } = names();
    const minutes = readLocalSave().time;
    const clip = recordClip(video, mediaFileName(hostname, hostbody, new Date(), 'webm'), minutes * 60_000, () =>
      setRecording(null),
    );
    setRecording(clip);
    message.info(t('toolbar.recording', { minutes }));
  };

  const command = (type: (typeof SEND_CMD_TYPES)[number]) => {
    const imei = player.play?.imei ?? device.imei;
    // the http layer shows the answer's message: success or the refusal
    if (imei) void call('gisSendCmd', { imei, type }, { success: true }).catch(() => undefined);
  };

  const playing = state.kind === 'playing' || state.kind === 'stalled';
  const tool = (
    key: string,
    label: string,
    icon: ReactNode,
    onClick: () => void,
    options: { active?: boolean; disabled?: boolean } = {},
  ) => (
    <Tooltip title={label} key={key}>
      <Button
        size="small"
        type={options.active ? 'primary' : 'text'}
        danger={key === 'record' && options.active}
        className="bwc-live-tool"
        aria-label={label}
        aria-pressed={options.active}
        data-testid={`live-${key}`}
        icon={icon}
        disabled={options.disabled}
        onClick={(event) => {
          event.stopPropagation();
          onClick();
        }}
      />
    </Tooltip>
  );

  return (
    <div className="bwc-live-view" ref={rootRef} data-testid="live-view" data-state={state.kind}>
      <video ref={videoRef} className="bwc-live-video" muted playsInline autoPlay />
      <div className="bwc-live-name">{names().hostname}</div>
      <StateOverlay state={state} name={device.name} onRetry={() => player.retry()} />
      {showStats && <StatsOverlay player={player} />}
      {playing && muted && player.hasAudio && (
        <Button
          size="small"
          className="bwc-live-unmute"
          icon={<MutedOutlined />}
          onClick={(event) => {
            event.stopPropagation();
            toggleMute();
          }}
          data-testid="live-unmute-hint"
        >
          {t('toolbar.unmute')}
        </Button>
      )}
      <div className="bwc-live-toolbar" role="toolbar" aria-label={t('toolbar.label')}>
        {player.hasAudio &&
          tool(
            'mute',
            muted ? t('toolbar.unmute') : t('toolbar.mute'),
            muted ? <MutedOutlined /> : <SoundOutlined />,
            toggleMute,
          )}
        {tool('snapshot', t('toolbar.snapshot'), <CameraOutlined />, () => void snapshot(), { disabled: !playing })}
        {tool(
          'record',
          recording ? t('toolbar.stopRecord') : t('toolbar.record'),
          <VideoCameraOutlined />,
          toggleRecord,
          {
            active: recording !== null,
            disabled: !playing && recording === null,
          },
        )}
        {tool('stats', t('toolbar.stats'), <DashboardOutlined />, () => setShowStats((on) => !on), {
          active: showStats,
        })}
        {mayCommand && (
          <Dropdown
            trigger={['click']}
            menu={{
              items: SEND_CMD_TYPES.map((type) => ({ key: type, label: t(COMMAND_KEYS[type]) })),
              onClick: ({ key, domEvent }) => {
                domEvent.stopPropagation();
                const type = SEND_CMD_TYPES.find((known) => known === key);
                if (type) command(type);
              },
            }}
          >
            <Tooltip title={t('toolbar.commands')}>
              <Button
                size="small"
                type="text"
                className="bwc-live-tool"
                aria-label={t('toolbar.commands')}
                data-testid="live-commands"
                icon={<ControlOutlined />}
                onClick={(event) => event.stopPropagation()}
              />
            </Tooltip>
          </Dropdown>
        )}
        {tool(
          'fullscreen',
          fullscreen ? t('toolbar.exitFullscreen') : t('toolbar.fullscreen'),
          fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />,
          toggleFullscreen,
        )}
        {tool('close', t('toolbar.close'), <CloseOutlined />, onClose)}
      </div>
    </div>
  );
}
