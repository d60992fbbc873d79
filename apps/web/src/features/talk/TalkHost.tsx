import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { onOpenTalk, type OpenTalkRequest } from './openTalk';
import { lazyPage } from '../../app/routing/lazyPage';

// the panel and its audio engine load when a group's talk is first opened
const TalkPanel = lazyPage(() => import('./TalkPanel'), 'TalkPanel', ['talk']);

/**
 * Where the talk panel lives (mounted by the shell, so that talk goes on across pages): it opens
 * the panel of the group any page asks for (openTalk). One group at a time, as the service
 * attaches a console to one group: another group's request while this console is talking is
 * refused (the open panel shows the spec's warning); otherwise the panel moves to the new group.
 * No catalogue here (the shell would wait for it before its first render): the panel's come with
 * its chunk (lazyPage), so nothing in it suspends once it shows.
 */
export function TalkHost() {
  const [open, setOpen] = useState<(OpenTalkRequest & { key: number }) | null>(null);
  const talking = useRef(false);
  const current = useRef<number | null>(null);

  useEffect(
    () =>
      onOpenTalk((request) => {
        if (talking.current && current.current !== request.tgid) return;
        if (current.current === request.tgid && !request.start) return;
        current.current = request.tgid;
        setOpen({ ...request, key: Date.now() });
      }),
    [],
  );

  const close = useCallback(() => {
    current.current = null;
    talking.current = false;
    setOpen(null);
  }, []);

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <TalkPanel
        key={`${open.tgid}:${open.key}`}
        tgid={open.tgid}
        start={open.start}
        onTalkChange={(active) => (talking.current = active)}
        onClose={close}
      />
    </Suspense>
  );
}
