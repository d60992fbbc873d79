import { MenuId } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Lazy } from '../../../app/routing/guards';
import { lazyPage } from '../../../app/routing/lazyPage';

const DispatchAlarmHistory = lazyPage(() => import('./AlarmHistoryPage'), 'DispatchAlarmHistory', []);
const AlarmHistory = lazyPage(() => import('./AlarmHistoryPage'), 'AlarmHistory', []);

/** Alarm history pages by menu id (placed by app/routing/moduleRoutes.tsx). */
export const alarmHistoryPages: Readonly<Record<number, ReactNode>> = {
  [MenuId.DISPATCH_ALARM]: (
    <Lazy>
      <DispatchAlarmHistory />
    </Lazy>
  ),
  [MenuId.MONITOR_ALARM]: (
    <Lazy>
      <AlarmHistory />
    </Lazy>
  ),
};
