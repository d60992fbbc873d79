import type { StartConfNotice } from '@bwc/protocol';
import { Suspense, useEffect, useState } from 'react';
import type { RealtimeSdk } from '../../realtime/sdk/RealtimeSdk';
import { consoleSdk } from '../../realtime/sdk/groupLogin';
import { onOpenConference } from './openConference';
import { lazyPage } from '../../app/routing/lazyPage';

// the panel, its players and its audio load with the first conference
const ConferencePanel = lazyPage(() => import('./ConferencePanel'), 'ConferencePanel', ['conference', 'talk', 'video']);

interface Props {
  sdk?: Pick<RealtimeSdk, 'on' | 'request' | 'login' | 'sendBinary' | 'onBinary'>;
}

/**
 * Where the conference panel lives: it opens when this console starts a conference (the group
 * tab's button, openConference) or when another console starts one this console takes part in
 * (notice_start_video_conf, event `started`). One conference at a time.
 */
export function ConferenceHost({ sdk = consoleSdk }: Props) {
  const [open, setOpen] = useState<{ tgid: number; join?: StartConfNotice; key: number } | null>(null);

  useEffect(() => onOpenConference(({ tgid }) => setOpen((now) => now ?? { tgid, key: Date.now() })), []);
  useEffect(
    () =>
      sdk.on('notice_start_video_conf', (notice) => {
        if (notice.event !== 'started' || notice.demander === sdk.login?.login_uid) return;
        setOpen((now) => now ?? { tgid: notice.tgid, join: notice as StartConfNotice, key: Date.now() });
      }),
    [sdk],
  );

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ConferencePanel key={open.key} tgid={open.tgid} join={open.join} sdk={sdk} onClose={() => setOpen(null)} />
    </Suspense>
  );
}
