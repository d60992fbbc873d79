import { CallStatus } from '@bwc/protocol';
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { consoleSdk } from '../../realtime/sdk/groupLogin';
import { incoming, placing, type CallView } from './callState';
import { onOpenCall, type OpenCallRequest } from './openCall';
import { lazyPage } from '../../app/routing/lazyPage';

// the panel and its audio engine load when a call is first made
const CallPanel = lazyPage(() => import('./CallPanel'), 'CallPanel', ['call', 'video']);

interface Open {
  key: number;
  initial: CallView;
  video?: OpenCallRequest['video'];
}

/**
 * Where the call panel lives (mounted by the shell, so that a call goes on across pages): one call
 * at a time, as the service allows a user one. A call asked for while one is up is refused (the
 * open panel says so); a call that rings for this console opens the panel to answer it.
 * No catalogue here (the shell would wait for it before its first render): the panel's come with
 * its chunk (lazyPage), so nothing in it suspends once it shows.
 */
export function CallHost() {
  const [open, setOpen] = useState<Open | null>(null);
  const live = useRef(false);

  useEffect(() => {
    const offOpen = onOpenCall((request) => {
      if (live.current) return;
      live.current = true;
      setOpen({ key: Date.now(), initial: placing({ uid: request.target, name: request.name }), video: request.video });
    });
    const offNotice = consoleSdk.on('notice_call_status', (notice) => {
      const me = consoleSdk.login?.login_uid;
      if (live.current || notice.target !== me || notice.status !== CallStatus.RINGING) return;
      live.current = true;
      setOpen({ key: Date.now(), initial: incoming(notice) });
    });
    return () => {
      offOpen();
      offNotice();
    };
  }, []);

  const close = useCallback(() => {
    live.current = false;
    setOpen(null);
  }, []);

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <CallPanel
        key={open.key}
        initial={open.initial}
        video={open.video}
        onLiveChange={(on) => (live.current = on)}
        onClose={close}
      />
    </Suspense>
  );
}
