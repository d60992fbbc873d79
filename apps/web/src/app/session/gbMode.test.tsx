import { MenuId, MODULE_BY_ID, type UserContext } from '@bwc/protocol';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { areaMenu, buildMenuTree, firstAllowedChildPath, navigationAreas } from '../routing/menu';
import { deviceKeyField, GB_ONLY_MENUS, isGbMode, modeHasMenu } from './gbMode';
import { sessionKeys } from './queries';
import { useGbMode } from './useGbMode';

function contextOf(ids: number[], gb: 0 | 1): UserContext {
  const modules = ids.map((id) => ({ ...MODULE_BY_ID.get(id)!, user_auth: { view: 1 as const } }));
  return { modules, all_modules: modules.map((m) => m.bh), set_auth: 0, systerm_auth: 0, replay_auth: 0, gb };
}

const MONITOR = [MenuId.VIDEO_PATROL, MenuId.PLAYBACK, MenuId.TRACK, MenuId.MONITOR_ALARM];

describe('GB mode flag', () => {
  it('reads gb 1 as GB mode and names devices by gbbm there, hostbody otherwise', () => {
    expect(isGbMode({ gb: 1 })).toBe(true);
    expect(isGbMode({ gb: 0 })).toBe(false);
    expect(isGbMode(undefined)).toBe(false);
    expect(deviceKeyField(true)).toBe('gbbm');
    expect(deviceKeyField(false)).toBe('hostbody');
  });

  it('has video patrol and the GB alarm history only in GB mode', () => {
    expect(GB_ONLY_MENUS).toEqual([MenuId.VIDEO_PATROL, MenuId.MONITOR_ALARM]);
    expect(modeHasMenu({ gb: 0 }, MenuId.VIDEO_PATROL)).toBe(false);
    expect(modeHasMenu({ gb: 0 }, MenuId.MONITOR_ALARM)).toBe(false);
    expect(modeHasMenu({ gb: 0 }, MenuId.PLAYBACK)).toBe(true);
    expect(modeHasMenu({ gb: 1 }, MenuId.VIDEO_PATROL)).toBe(true);
  });

  it('leaves GB-only routes out of the menus and the area index outside GB mode', () => {
    const gis = contextOf(MONITOR, 0);
    const gb = contextOf(MONITOR, 1);
    expect(areaMenu(gis, 10150).map((n) => n.key)).toEqual(['playback', 'track']);
    expect(areaMenu(gb, 10150).map((n) => n.key)).toEqual(['VideoPatrol', 'playback', 'track', 'AlarmHistory']);
    expect(firstAllowedChildPath(gis, 10150)).toBe('/monitor/playback');
    expect(firstAllowedChildPath(gb, 10150)).toBe('/monitor/patrol');
    // a user with only GB-only monitor menus has no monitor area outside GB mode
    const patrolOnly = [MenuId.VIDEO_PATROL, MenuId.EMERGENCY];
    expect(navigationAreas(contextOf(patrolOnly, 0)).map((a) => a.key)).toEqual(['dispatch']);
    expect(navigationAreas(contextOf(patrolOnly, 1)).map((a) => a.key)).toEqual(['dispatch', 'monitor']);
    // the full tree (route guards) still holds them: the pages stay reachable by address
    expect(buildMenuTree(gis)[0]!.children.map((n) => n.key)).toContain('VideoPatrol');
  });

  it('useGbMode follows the user context', async () => {
    function Probe() {
      const mode = useGbMode();
      return <output data-testid="mode">{`${mode.gb}:${mode.deviceKey}`}</output>;
    }
    const view = await renderWidget(<Probe />);
    expect(screen.getByTestId('mode').textContent).toBe('false:hostbody');
    act(() => {
      view.queryClient.setQueryData<UserContext>(sessionKeys.userContext, (old) => old && { ...old, gb: 1 });
    });
    await waitFor(() => expect(screen.getByTestId('mode').textContent).toBe('true:gbbm'));
  });
});
