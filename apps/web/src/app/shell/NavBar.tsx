import {
  DownOutlined,
  InfoCircleOutlined,
  KeyOutlined,
  LogoutOutlined,
  SaveOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { MenuId, type UserContext } from '@bwc/protocol';
import { Button, ConfigProvider, Dropdown, Layout, Menu, Space, theme, Tooltip, type MenuProps } from 'antd';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { readLoggedIn } from '../../api/session';
import { AlarmBell } from '../../features/alarms/bell/AlarmBell';
import { areaMenu, navigationAreas, type MenuNode } from '../routing/menu';
import { usePageInfo, useUserContext, useUserInfo } from '../session/queries';
import { lazyPage } from '../routing/lazyPage';
import type { ShellDialog } from './dialogs/ShellDialogs';
import { LanguageSwitch } from './LanguageSwitch';
import { AREA_ICONS } from './menuIcons';
import { useLogout } from './useLogout';
import './shell.css';
import { systemTitle } from '../session/systemTitle';

const HOME_PATH = '/menu';
const LOCAL_SAVE_KEY = 'local-save';

const ShellDialogs = lazyPage(() => import('./dialogs/ShellDialogs'), 'ShellDialogs');

/**
 * System entries of the settings dropdown (spec part 1 section 6): systemset needs systerm_auth 1,
 * player (dispatch config) replay_auth 1, announcements and downloads their module.
 */
export function systemEntries(context: UserContext | undefined): MenuNode[] {
  if (!context) return [];
  return areaMenu(context, MenuId.SYSTEM).filter((node) => {
    if (node.id === MenuId.SYSTEM_SETTINGS) return context.systerm_auth === 1;
    if (node.id === MenuId.DISPATCH_CONFIG) return context.replay_auth === 1;
    return true;
  });
}

/** Top navigation bar (spec part 1 section 2). */
export function NavBar() {
  const { t } = useTranslation('shell');
  const { t: tc } = useTranslation();
  const { t: tm } = useTranslation('menu');
  const { data: pageInfo } = usePageInfo();
  const { data: context } = useUserContext();
  const { data: userInfo } = useUserInfo();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const logout = useLogout();
  const [dialog, setDialogState] = useState<ShellDialog | null>(null);
  // the dialogs' chunk loads when the first one opens and stays, so that closing animates
  const [dialogsLoaded, setDialogsLoaded] = useState(false);
  const setDialog = (next: ShellDialog | null) => {
    if (next) setDialogsLoaded(true);
    setDialogState(next);
  };
  const flag = readLoggedIn();
  const isAdmin = (userInfo?.ifadmin ?? flag?.ifadmin) === 1;

  const areas = useMemo(() => navigationAreas(context), [context]);
  const menuItems: MenuProps['items'] = useMemo(
    () => [
      { key: HOME_PATH, icon: AREA_ICONS.home, label: tm('home') },
      ...areas.map((area) => ({ key: area.path, icon: AREA_ICONS[area.key], label: tm(area.key) })),
    ],
    [areas, tm],
  );
  const selected = [HOME_PATH, ...areas.map((a) => a.path)].filter(
    (p) => pathname === p || pathname.startsWith(`${p}/`),
  );

  const settingsItems: MenuProps['items'] = useMemo(() => {
    const entries = systemEntries(context);
    return [
      ...entries.map((node) => ({ key: node.path, icon: AREA_ICONS.system, label: tm(node.key) })),
      ...(entries.length > 0 ? [{ type: 'divider' as const }] : []),
      { key: LOCAL_SAVE_KEY, icon: <SaveOutlined />, label: t('settingsMenu.localSave') },
    ];
  }, [context, t, tm]);

  const userItems: MenuProps['items'] = [
    { key: 'userInfo', icon: <UserOutlined />, label: t('userMenu.info') },
    { key: 'password', icon: <KeyOutlined />, label: t('userMenu.changePassword') },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('userMenu.logout'), danger: true },
  ];

  return (
    <Layout.Header className="shell-header">
      <div className="shell-brand" onClick={() => navigate(HOME_PATH)}>
        {pageInfo?.logo_path ? <img src={pageInfo.logo_path} alt="" className="shell-logo" /> : null}
        <span data-testid="nav-title">{systemTitle(pageInfo?.title, tc('app.productName'))}</span>
      </div>
      <Menu
        theme="dark"
        mode="horizontal"
        items={menuItems}
        selectedKeys={selected}
        onClick={({ key }) => navigate(key)}
        className="shell-menu"
        data-testid="nav-menu"
      />
      <ConfigProvider theme={{ algorithm: theme.darkAlgorithm }}>
        <Space size={4} className="shell-tools">
          <AlarmBell />
          {isAdmin ? (
            <Tooltip title={t('nav.version')}>
              <Button
                type="text"
                icon={<InfoCircleOutlined />}
                onClick={() => setDialog('version')}
                aria-label={t('nav.version')}
                data-testid="version-button"
              />
            </Tooltip>
          ) : null}
          <Dropdown
            menu={{
              items: settingsItems,
              onClick: ({ key }) => (key === LOCAL_SAVE_KEY ? setDialog('localSave') : navigate(key)),
            }}
          >
            <Button type="text" icon={<SettingOutlined />} data-testid="settings-menu" aria-label={t('nav.settings')} />
          </Dropdown>
          <LanguageSwitch />
          <Dropdown
            menu={{
              items: userItems,
              onClick: ({ key }) => (key === 'logout' ? logout() : setDialog(key as ShellDialog)),
            }}
          >
            <Button type="text" icon={<UserOutlined />} data-testid="user-menu">
              {userInfo?.hostname || flag?.username} <DownOutlined />
            </Button>
          </Dropdown>
        </Space>
      </ConfigProvider>
      {dialogsLoaded ? (
        <Suspense fallback={null}>
          <ShellDialogs dialog={dialog} onClose={() => setDialog(null)} />
        </Suspense>
      ) : null}
    </Layout.Header>
  );
}
