import { MenuId, MODULES } from '@bwc/protocol';

function pathOf(key: string): string {
  const found = MODULES.find((m) => m.key === key);
  if (!found) throw new Error(`module ${key} missing from the catalogue`);
  return found.path;
}

/**
 * Where the bell leads in each mode (spec part 1 sections 2 and 6): GB mode (context gb 1) uses
 * the monitor area, dispatch mode the dispatch area.
 */
export interface BellMode {
  gb: boolean;
  /** the bell, its read actions and view-all need view on this menu */
  menu: number;
  /** AlarmHistory / DispatchAlarmHistory */
  historyPath: string;
  /** VideoPatrol / Emergency: see and live go there, and the bell is "embedded" while it is open */
  livePath: string;
}

export function bellMode(gb: boolean): BellMode {
  return gb
    ? { gb, menu: MenuId.MONITOR_ALARM, historyPath: pathOf('AlarmHistory'), livePath: pathOf('VideoPatrol') }
    : { gb, menu: MenuId.DISPATCH_ALARM, historyPath: pathOf('DispatchAlarmHistory'), livePath: pathOf('Emergency') };
}

/** The bell sits on the Emergency or VideoPatrol page: it emits events there instead of navigating. */
export function isEmbeddedOn(pathname: string): boolean {
  return [pathOf('Emergency'), pathOf('VideoPatrol')].some((p) => pathname === p || pathname.startsWith(`${p}/`));
}
