import { MenuId, type GbPlayerConfig, type GbTreeNode, type GbUserCheck } from '@bwc/protocol';
import { focusManager, QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../../../api/http';
import { renderWidget } from '../../../components/test-utils';
import { GbInitError } from './gbInit';
import { GbPatrolScreen, gbInitSteps } from './GbPatrolScreen';
import { GbPtzPanel } from './GbPtzPanel';
import { GB_TREE_REFETCH_MS, GbTree } from './GbTree';
import type { VideoWallHandle } from '../VideoWall';
import { WallModel } from '../wallModel';

vi.mock('../../../api/http', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  call: vi.fn(),
}));
const callMock = vi.mocked(call);

const DEVICE = '34020000001320000001';
const CAMERA = '34020000001310000001';

function config(running: 0 | 1): GbPlayerConfig {
  return {
    status: 1,
    running,
    ocx_config: {
      userid: 1,
      username: 'admin',
      ocxID: '34020000003000000001',
      SipDomain: '3402000000',
      ocxSip: '34020000002000000001',
      ocxIp: '127.0.0.1',
      ocxPort: 5060,
      RegExpires: 3600,
      AliveInterval: 60,
      AliveTimeoutCnt: 3,
      VideoPort: 30000,
      AudioPort: 31000,
      PortCount: 500,
    },
    video_live_num: 4,
  };
}

const channel = (devgbid: string, name: string, lineon: 0 | 1): GbTreeNode => ({
  devgbid,
  itemtype: '5',
  name,
  device: DEVICE,
  lineon,
  unit_id: 1,
  ptztype: 1,
  lng: null,
  lat: null,
  hasChildren: false,
});

const TREE: GbTreeNode[] = [
  {
    devgbid: DEVICE,
    itemtype: '1',
    name: '西丽路口 NVR',
    device: DEVICE,
    lineon: 1,
    unit_id: 1,
    ptztype: 0,
    lng: null,
    lat: null,
    hasChildren: true,
    children: [channel(CAMERA, '西丽路口 球机', 1), channel('34020000001310000002', '西丽路口 枪机', 0)],
  },
];

/** What the server answers, changed by each test. */
let server: { config: GbPlayerConfig; user: GbUserCheck; tree: GbTreeNode[] };

beforeEach(() => {
  server = {
    config: config(1),
    user: { usable: 1, reason: null, username: 'admin', gbid: '34020000003000000001' },
    tree: TREE,
  };
  callMock.mockReset().mockImplementation(async (endpoint: unknown) => {
    if (endpoint === 'gbConfig') return server.config;
    if (endpoint === 'gbCheckUser') return server.user;
    if (endpoint === 'gbDeviceTree') return server.tree;
    if (endpoint === 'playGet') return { video_live_num: 4 };
    return null;
  });
});

const calls = (endpoint: string) => callMock.mock.calls.filter(([e]) => e === endpoint);

function wall(): VideoWallHandle {
  const model = new WallModel({
    createPlayer: () => {
      throw new Error('no player in this test');
    },
    releaseLive: () => undefined,
    releaseAll: () => undefined,
  });
  return { model, open: vi.fn(() => true) };
}

const WAIT = { timeout: 15_000 };

describe('GB patrol screen: init states', { timeout: 60_000 }, () => {
  it('no username: "synchronise users first"; fixed, a retry goes on from init to register, then catalog and the tree', async () => {
    server.user = { usable: 0, reason: 'username', username: 'x y', gbid: '' };
    server.config = config(0);
    await renderWidget(<GbPatrolScreen title="视频巡逻" wall={wall()} />, {
      permissions: { [MenuId.VIDEO_PATROL]: { view: 1 } },
    });
    const failure = await screen.findByTestId('gb-init-failure', undefined, WAIT);
    expect(failure.getAttribute('data-reason')).toBe('noUser');
    expect(within(failure).getByText('初始化失败，请先同步用户')).toBeTruthy();
    expect(within(failure).getByText(/用户名不能用于国标注册/)).toBeTruthy();
    expect(screen.queryByTestId('gb-tree')).toBeNull();

    // the user is synchronised; the server's GB access still is not running
    server.user = { usable: 1, reason: null, username: 'admin', gbid: '34020000003000000001' };
    fireEvent.click(within(failure).getByRole('button'));
    await waitFor(
      () => expect(screen.getByTestId('gb-init-failure').getAttribute('data-reason')).toBe('register'),
      WAIT,
    );
    expect(screen.getByText(/服务器注册失败/)).toBeTruthy();
    expect(screen.getByText('服务器的国标 GB28181 接入未运行')).toBeTruthy();
    expect(calls('gbCheckUser')).toHaveLength(2);

    // it runs: the retry starts at register (init is not asked again), then the catalog
    server.config = config(1);
    fireEvent.click(within(screen.getByTestId('gb-init-failure')).getByRole('button'));
    const tree = await screen.findByTestId('gb-tree', undefined, WAIT);
    expect(calls('gbCheckUser')).toHaveLength(2);
    await waitFor(() => expect(within(tree).getByText('西丽路口 球机')).toBeTruthy(), WAIT);
    expect(screen.queryByTestId('gb-init')).toBeNull();
  });

  it('shows the failures in English', async () => {
    server.user = { usable: 0, reason: 'id_range', username: 'admin', gbid: '' };
    await renderWidget(<GbPatrolScreen title="Video patrol" wall={wall()} />, {
      permissions: { [MenuId.VIDEO_PATROL]: { view: 1 } },
      language: 'en-US',
    });
    const failure = await screen.findByTestId('gb-init-failure', undefined, WAIT);
    expect(within(failure).getByText('Initialisation failed, please synchronise users first')).toBeTruthy();
    expect(within(failure).getByText('The user number does not fit the 7-digit serial of a GB id')).toBeTruthy();
    expect(screen.getByText('Initialise')).toBeTruthy();
    expect(screen.getByText('Register with the server')).toBeTruthy();
    expect(screen.getByText('Fetch the catalog')).toBeTruthy();
  });

  it('the catalog step fails with "catalog timeout" when the tree does not answer in time', async () => {
    callMock.mockImplementation(
      (endpoint: unknown, _payload: unknown, options?: { signal?: AbortSignal }) =>
        new Promise((resolve, reject) => {
          if (endpoint !== 'gbDeviceTree') return resolve(null);
          options?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
        }) as never,
    );
    const steps = gbInitSteps(new QueryClient(), 50);
    const error = await steps.catalog(new AbortController().signal).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(GbInitError);
    expect((error as GbInitError).reason).toBe('catalogTimeout');
  });

  it('a catalog refused by the server is "fetch resource failed", not a timeout', async () => {
    callMock.mockRejectedValue(new Error('您无权查看该单位'));
    const steps = gbInitSteps(new QueryClient(), 5_000);
    const error = await steps.catalog(new AbortController().signal).catch((err: unknown) => err);
    expect(error).not.toBeInstanceOf(GbInitError);
    expect((error as Error).message).toBe('您无权查看该单位');
  });
});

describe('GB equipment tree', { timeout: 60_000 }, () => {
  it('devices with their channels, camera icon and online state per row; a channel opens on the wall; search asks the server', async () => {
    const handle = wall();
    await renderWidget(<GbPatrolScreen title="视频巡逻" wall={handle} />, {
      permissions: { [MenuId.VIDEO_PATROL]: { view: 1 } },
    });
    const tree = await screen.findByTestId('gb-tree', undefined, WAIT);
    await waitFor(() => expect(within(tree).getByText('西丽路口 NVR')).toBeTruthy(), WAIT);
    expect(within(tree).getByTestId('gb-tree-count').textContent).toBe('设备 1 台（在线 1），通道 2 个');
    const cameras = tree.querySelectorAll('[data-itemtype="camera"]');
    expect(cameras).toHaveLength(2);
    expect([...cameras].map((icon) => icon.getAttribute('data-online'))).toEqual(['1', '0']);
    expect(tree.querySelector('[data-itemtype="device"]')?.getAttribute('aria-label')).toBe('在线');
    expect(cameras[1]?.getAttribute('aria-label')).toBe('离线');

    fireEvent.click(within(tree).getByText('西丽路口 球机'));
    expect(handle.open).toHaveBeenCalledWith(
      expect.objectContaining({ name: '西丽路口 球机', gb: { device: DEVICE, channel: CAMERA } }),
    );
    // no PTZ panel without the edit permission
    expect(screen.queryByTestId('gb-ptz')).toBeNull();

    server.tree = [];
    const search = within(tree).getByRole('searchbox');
    fireEvent.change(search, { target: { value: '枪机' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(calls('gbDeviceTree').at(-1)?.[1]).toEqual({ key: '枪机' }), WAIT);
    await waitFor(
      () => expect(within(tree).getByTestId('gb-tree-count').textContent).toBe('设备 0 台（在线 0），通道 0 个'),
      WAIT,
    );
  });
});

describe('GB equipment tree: staying fresh', { timeout: 60_000 }, () => {
  const GATE = '34020000001320000002';
  const NEW = '34020000001320000003';
  const device = (devgbid: string, name: string, lineon: 0 | 1, children: GbTreeNode[]): GbTreeNode => ({
    ...TREE[0]!,
    devgbid,
    device: devgbid,
    name,
    lineon,
    hasChildren: children.length > 0,
    children: children.map((c) => ({ ...c, device: devgbid })),
  });
  const gate = device(GATE, '东门 NVR', 1, [channel('34020000001310000010', '东门 枪机', 1)]);
  const node = (tree: HTMLElement, name: string) => within(tree).getByText(name).closest('.ant-tree-treenode')!;
  const selected = (tree: HTMLElement, name: string) =>
    within(tree)
      .getByText(name)
      .closest('.ant-tree-node-content-wrapper')!
      .className.includes('ant-tree-node-selected');

  afterEach(() => {
    vi.useRealTimers();
    focusManager.setFocused(undefined);
  });

  it('the refresh button reads the tree again and keeps what the user collapsed and selected', async () => {
    server.tree = [TREE[0]!, gate];
    await renderWidget(<GbPatrolScreen title="视频巡逻" wall={wall()} />, {
      permissions: { [MenuId.VIDEO_PATROL]: { view: 1 } },
    });
    const tree = await screen.findByTestId('gb-tree', undefined, WAIT);
    await waitFor(() => expect(within(tree).getByText('东门 枪机')).toBeTruthy(), WAIT);
    // the user folds the gate NVR and picks the dome camera
    fireEvent.click(node(tree, '东门 NVR').querySelector('.ant-tree-switcher')!);
    await waitFor(() => expect(within(tree).queryByText('东门 枪机')).toBeNull(), WAIT);
    fireEvent.click(within(tree).getByText('西丽路口 球机'));
    expect(selected(tree, '西丽路口 球机')).toBe(true);

    const button = within(tree).getByRole('button', { name: '刷新设备列表' });
    fireEvent.mouseEnter(button);
    expect(await screen.findByRole('tooltip', undefined, WAIT)).toHaveProperty('textContent', '刷新设备列表');

    // meanwhile the crossroads NVR dropped offline and a new device registered
    server.tree = [
      device(DEVICE, '西丽路口 NVR', 0, [channel(CAMERA, '西丽路口 球机', 0)]),
      gate,
      device(NEW, '北门 IPC', 1, [channel('34020000001310000020', '北门 通道1', 1)]),
    ];
    const before = calls('gbDeviceTree').length;
    fireEvent.click(button);
    await waitFor(() => expect(within(tree).getByText('北门 IPC')).toBeTruthy(), WAIT);
    expect(calls('gbDeviceTree').length).toBe(before + 1);
    expect(within(tree).getByTestId('gb-tree-count').textContent).toBe('设备 3 台（在线 2），通道 3 个');
    expect(node(tree, '西丽路口 NVR').querySelector('[data-itemtype="device"]')?.getAttribute('data-online')).toBe('0');
    // still folded, still selected
    expect(within(tree).queryByText('东门 枪机')).toBeNull();
    expect(selected(tree, '西丽路口 球机')).toBe(true);
  });

  it('reads the tree again every 30 s while the tab is shown; a failed reading keeps the last tree', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await renderWidget(<GbTree />, { language: 'en-US' });
    const tree = await screen.findByTestId('gb-tree', undefined, WAIT);
    await waitFor(() => expect(within(tree).getByText('西丽路口 球机')).toBeTruthy(), WAIT);
    expect(calls('gbDeviceTree')).toHaveLength(1);
    expect(within(tree).getByRole('button', { name: 'Refresh the device list' })).toBeTruthy();

    server.tree = [{ ...TREE[0]!, lineon: 0 }];
    await vi.advanceTimersByTimeAsync(GB_TREE_REFETCH_MS);
    await waitFor(() => expect(calls('gbDeviceTree')).toHaveLength(2), WAIT);
    await waitFor(
      () => expect(tree.querySelector('[data-itemtype="device"]')?.getAttribute('data-online')).toBe('0'),
      WAIT,
    );

    // hidden tab: no reading
    focusManager.setFocused(false);
    await vi.advanceTimersByTimeAsync(GB_TREE_REFETCH_MS * 2);
    expect(calls('gbDeviceTree')).toHaveLength(2);
    focusManager.setFocused(true);
    // shown again: it reads again (focus) and then on its interval
    await waitFor(() => expect(calls('gbDeviceTree').length).toBeGreaterThan(2), WAIT);

    // the server fails: the last tree stays, with a line saying the reading failed
    callMock.mockImplementation(async (endpoint: unknown) => {
      if (endpoint === 'gbDeviceTree') throw new Error('network down');
      return null;
    });
    fireEvent.click(within(tree).getByRole('button', { name: 'Refresh the device list' }));
    expect((await within(tree).findByTestId('gb-tree-stale', undefined, WAIT)).textContent).toBe(
      'Refresh failed, showing the last result: network down',
    );
    expect(within(tree).getByText('西丽路口 球机')).toBeTruthy();
  });
});

describe('GB PTZ panel', { timeout: 60_000 }, () => {
  const target = channel(CAMERA, '西丽路口 球机', 1);

  it('is hidden without video patrol edit', async () => {
    await renderWidget(<GbPtzPanel channel={target} />, { permissions: { [MenuId.VIDEO_PATROL]: { view: 1 } } });
    expect(screen.queryByTestId('gb-ptz')).toBeNull();
  });

  it('sends directions, zoom, stop and presets to the PTZ route for the channel', async () => {
    await renderWidget(<GbPtzPanel channel={target} />, {
      permissions: { [MenuId.VIDEO_PATROL]: { view: 1, edit: 1 } },
    });
    const panel = screen.getByTestId('gb-ptz');
    // by label (icon buttons) or text: role queries over the antd tree are slow
    const find = (name: string): HTMLButtonElement =>
      (within(panel).queryByLabelText(name) ?? within(panel).getByText(name).closest('button')) as HTMLButtonElement;
    const press = async (name: string) => {
      const before = calls('gbPtz').length;
      fireEvent.click(find(name));
      await waitFor(() => expect(calls('gbPtz').length).toBe(before + 1), WAIT);
      await waitFor(() => expect(find(name).disabled).toBe(false), WAIT);
      return calls('gbPtz').at(-1)?.[1];
    };
    expect(await press('上')).toEqual({ device: DEVICE, channel: CAMERA, action: 'up', speed: 128 });
    expect(await press('左下')).toEqual({ device: DEVICE, channel: CAMERA, action: 'downleft', speed: 128 });
    expect(await press('放大')).toEqual({ device: DEVICE, channel: CAMERA, action: 'zoomin', speed: 128 });
    expect(await press('聚焦近')).toEqual({ device: DEVICE, channel: CAMERA, action: 'focusnear', speed: 128 });
    expect(await press('光圈大')).toEqual({ device: DEVICE, channel: CAMERA, action: 'irisopen', speed: 128 });
    expect(await press('停止')).toEqual({ device: DEVICE, channel: CAMERA, action: 'stop', speed: 128 });
    fireEvent.change(within(panel).getByLabelText('预置位'), { target: { value: '7' } });
    expect(await press('调用')).toEqual({ device: DEVICE, channel: CAMERA, action: 'preset_call', preset: 7 });
    expect(await press('设置')).toEqual({ device: DEVICE, channel: CAMERA, action: 'preset_set', preset: 7 });
    expect(await press('删除')).toEqual({ device: DEVICE, channel: CAMERA, action: 'preset_del', preset: 7 });
    expect(calls('gbPtz')[0]?.[2]).toEqual({ success: '云台指令已发送' });
  });
});
