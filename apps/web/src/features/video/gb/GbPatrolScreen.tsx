import type { GbTreeNode, GbUserRefusal } from '@bwc/protocol';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Alert, Button, Steps } from 'antd';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { keysOf } from '../../../i18n/keys';
import { VideoWall, type VideoWallHandle } from '../VideoWall';
import { GB_INIT_STEPS, GbInit, GbInitError, type GbInitFailure, type GbInitState, type GbInitSteps } from './gbInit';
import { liveDeviceOfGbChannel } from './gbLive';
import { GbPtzPanel } from './GbPtzPanel';
import { fetchGbTree, gbTreeKey } from './GbTree';
import { GbTree } from './GbTree';
import './gb.css';

/** How long the catalog step waits for the device tree before "catalog timeout". */
export const GB_CATALOG_TIMEOUT_MS = 15_000;

export const STEP_KEYS = keysOf('video', {
  init: 'gb.init.step.init',
  register: 'gb.init.step.register',
  catalog: 'gb.init.step.catalog',
});

export const FAILURE_KEYS = keysOf('video', {
  noUser: 'gb.init.failure.noUser',
  init: 'gb.init.failure.init',
  register: 'gb.init.failure.register',
  catalogTimeout: 'gb.init.failure.catalogTimeout',
  catalog: 'gb.init.failure.catalog',
} satisfies Record<GbInitFailure, string>);

const USER_NOT_RUNNING_KEY = keysOf('video', { key: 'gb.init.notRunning' }).key;

export const USER_REFUSAL_KEYS = keysOf('video', {
  gb_off: 'gb.init.user.gb_off',
  username: 'gb.init.user.username',
  id_range: 'gb.init.user.id_range',
} satisfies Record<GbUserRefusal, string>);

/**
 * The steps on the real endpoints: init reads the GB player configuration (gbconfig/get) and
 * whether the user can be used for GB (checkgbuser: without a username, "synchronise users
 * first"); register asks whether the server's SIP platform runs (gbconfig/get running); catalog
 * fetches the device tree (videopatrols/getdevice) into the tree's query, within
 * GB_CATALOG_TIMEOUT_MS.
 */
export function gbInitSteps(queryClient: QueryClient, catalogTimeoutMs = GB_CATALOG_TIMEOUT_MS): GbInitSteps {
  return {
    init: async (signal) => {
      await call('gbConfig', undefined, { silent: true, signal });
      const check = await call('gbCheckUser', undefined, { silent: true, signal });
      if (check.usable !== 1) throw new GbInitError('noUser', check.reason ?? '');
    },
    register: async (signal) => {
      const config = await call('gbConfig', undefined, { silent: true, signal });
      if (config.running !== 1) throw new GbInitError('register');
    },
    catalog: async (signal) => {
      const abort = new AbortController();
      const stop = () => abort.abort();
      signal.addEventListener('abort', stop);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, catalogTimeoutMs);
      try {
        const request = {};
        const nodes = await fetchGbTree(request, abort.signal);
        queryClient.setQueryData(gbTreeKey(request), nodes);
      } catch (err) {
        if (timedOut) throw new GbInitError('catalogTimeout');
        throw err;
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
      }
    },
  };
}

/** The catalogue key of a failure's explanation, or the server's own words (detail). */
function failureDetail(failure: NonNullable<GbInitState['failure']>): { key: string } | { text?: string } {
  if (failure.reason === 'noUser') {
    const key = USER_REFUSAL_KEYS[failure.detail as GbUserRefusal] as string | undefined;
    return key ? { key } : {};
  }
  if (failure.reason === 'register' && !failure.detail) return { key: USER_NOT_RUNNING_KEY };
  return { text: failure.detail };
}

/** The three init steps, the failure of the last attempt and a retry (spec part 2 sections 4 and 8). */
export function GbInitStatus({ machine }: { machine: GbInit }) {
  const { t } = useTranslation('video');
  const state = useSyncExternalStore(machine.subscribe, machine.getSnapshot);
  const { failure } = state;
  const ongoing = GB_INIT_STEPS.some((step) => state.phases[step] === 'ongoing');
  const detail = failure ? failureDetail(failure) : null;
  return (
    <div className="bwc-gb-init" data-testid="gb-init" data-ready={state.ready}>
      <Steps
        size="small"
        direction="vertical"
        items={GB_INIT_STEPS.map((step) => ({
          title: t(STEP_KEYS[step]),
          status:
            failure?.step === step
              ? 'error'
              : state.phases[step] === 'done'
                ? 'finish'
                : state.phases[step] === 'ongoing'
                  ? 'process'
                  : 'wait',
          description:
            state.phases[step] === 'ongoing'
              ? t('gb.init.phase.ongoing')
              : state.phases[step] === 'done'
                ? t('gb.init.phase.done')
                : t('gb.init.phase.idle'),
        }))}
      />
      {failure && (
        <Alert
          type="error"
          showIcon
          data-testid="gb-init-failure"
          data-reason={failure.reason}
          message={t(FAILURE_KEYS[failure.reason])}
          description={detail && ('key' in detail ? t(detail.key) : detail.text)}
          action={
            <Button size="small" disabled={ongoing} onClick={() => void machine.start()}>
              {t('gb.init.retry')}
            </Button>
          }
        />
      )}
    </div>
  );
}

/**
 * Video patrol in GB mode: the GB player's init steps, then the GB equipment tree (a click on a
 * channel opens it on the wall and shows its PTZ panel) beside the video wall.
 */
export function GbPatrolScreen({ title, wall }: { title: string; wall: VideoWallHandle }) {
  const { t } = useTranslation('video');
  const queryClient = useQueryClient();
  const machine = useMemo(() => new GbInit(gbInitSteps(queryClient)), [queryClient]);
  const state = useSyncExternalStore(machine.subscribe, machine.getSnapshot);
  const [channel, setChannel] = useState<GbTreeNode | null>(null);
  useEffect(() => {
    void machine.start();
    return () => machine.dispose();
  }, [machine]);

  return (
    <div className="bwc-video-page" data-testid="video-patrol-page" data-mode="gb">
      <aside className="bwc-video-side">
        <h2 className="bwc-video-side-title">{title}</h2>
        {!state.ready && <GbInitStatus machine={machine} />}
        {state.ready && (
          <>
            <div className="bwc-video-hint">{t('gb.tree.hint')}</div>
            <GbTree
              onChannel={(node) => {
                setChannel(node);
                wall.open(liveDeviceOfGbChannel(node));
              }}
            />
            {channel && <GbPtzPanel key={channel.devgbid} channel={channel} />}
          </>
        )}
      </aside>
      <main className="bwc-video-main">
        <VideoWall wall={wall} />
      </main>
    </div>
  );
}
