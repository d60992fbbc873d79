import { GlobalOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { LANGUAGES, type Language } from '@bwc/protocol';
import { Button, Dropdown, Layout, Menu, Space, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { readLoggedIn } from '../../api/session';
import { setLanguage } from '../../i18n';
import { navigationAreas } from '../routing/menu';
import { usePageInfo, useUserContext } from '../session/queries';
import { AREA_ICONS } from './menuIcons';
import { useLogout } from './useLogout';

const HOME_PATH = '/menu';

export function LanguageSwitch({ dark = false }: { dark?: boolean }) {
  const { t, i18n } = useTranslation();
  const items: MenuProps['items'] = LANGUAGES.map((lang) => ({ key: lang, label: t(`language.${lang}`) }));
  return (
    <Dropdown menu={{ items, selectable: true, selectedKeys: [i18n.language], onClick: ({ key }) => void setLanguage(key as Language) }}>
      <Button type="text" icon={<GlobalOutlined />} style={dark ? { color: '#fff' } : undefined} data-testid="language-switch">
        {t(`language.${i18n.language}`)}
      </Button>
    </Dropdown>
  );
}

/** Top navigation bar (spec part 1 section 2). */
export function NavBar() {
  const { t } = useTranslation();
  const { t: tm } = useTranslation('menu');
  const { data: pageInfo } = usePageInfo();
  const { data: context } = useUserContext();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const logout = useLogout();
  const user = readLoggedIn();

  const areas = useMemo(() => navigationAreas(context), [context]);
  const items: MenuProps['items'] = useMemo(
    () => [
      { key: HOME_PATH, icon: AREA_ICONS.home, label: tm('home') },
      ...areas.map((area) => ({ key: area.path, icon: AREA_ICONS[area.key], label: tm(area.key) })),
    ],
    [areas, tm],
  );
  const selected = [HOME_PATH, ...areas.map((a) => a.path)].filter((p) => pathname === p || pathname.startsWith(`${p}/`));

  return (
    <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 16, paddingInline: 16 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, color: '#fff', fontSize: 18, whiteSpace: 'nowrap' }}>
        {pageInfo?.logo_path ? <img src={pageInfo.logo_path} alt="" style={{ height: 32 }} /> : null}
        <span data-testid="nav-title">{pageInfo?.title || t('app.productName')}</span>
      </div>
      <Menu theme="dark" mode="horizontal" items={items} selectedKeys={selected} onClick={({ key }) => navigate(key)} style={{ flex: 1, minWidth: 0 }} />
      <Space>
        <LanguageSwitch dark />
        <Button type="text" icon={<UserOutlined />} style={{ color: '#fff' }}>
          {user?.username}
        </Button>
        <Button type="text" icon={<LogoutOutlined />} style={{ color: '#fff' }} onClick={logout} />
      </Space>
    </Layout.Header>
  );
}
