import { Layout, Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { Lazy } from '../routing/guards';
import { areaMenu, type MenuNode } from '../routing/menu';
import { useUserContext } from '../session/queries';

type Item = Required<MenuProps>['items'][number];

function toItems(nodes: MenuNode[], label: (key: string) => string): Item[] {
  return nodes.map((node) =>
    node.children.length > 0
      ? { key: node.path, label: label(node.key), children: toItems(node.children, label) }
      : { key: node.path, label: label(node.key) },
  );
}

/** Sub-menus on the way to the current page. */
function openKeysOf(pathname: string, nodes: MenuNode[]): string[] {
  return nodes
    .filter((n) => n.children.length > 0 && pathname.startsWith(`${n.path}/`))
    .flatMap((n) => [n.path, ...openKeysOf(pathname, n.children)]);
}

/** An area page: side menu of the area's allowed modules, the page on the right. */
export function AreaLayout({ areaId }: { areaId: number }) {
  const { t } = useTranslation('menu');
  const { data: context } = useUserContext();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const nodes = useMemo(() => areaMenu(context, areaId), [context, areaId]);
  const items = useMemo(() => toItems(nodes, (key) => t(key)), [nodes, t]);
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  // open the sub-menus leading to the page after every navigation (redirects included)
  const pathOpenKeys = openKeysOf(pathname, nodes).join('|');
  useEffect(() => {
    if (pathOpenKeys) setOpenKeys((keys) => [...new Set([...keys, ...pathOpenKeys.split('|')])]);
  }, [pathOpenKeys]);
  const selected = useMemo(() => {
    const all: string[] = [];
    const walk = (list: MenuNode[]) => list.forEach((n) => (all.push(n.path), walk(n.children)));
    walk(nodes);
    return all
      .filter((p) => pathname === p || pathname.startsWith(`${p}/`))
      .sort((a, b) => b.length - a.length)
      .slice(0, 1);
  }, [nodes, pathname]);
  return (
    <Layout style={{ flex: 1 }}>
      <Layout.Sider width={220} theme="light" style={{ borderRight: '1px solid #f0f0f0' }} className="area-sider">
        <Menu
          mode="inline"
          items={items}
          selectedKeys={selected}
          openKeys={openKeys}
          onOpenChange={setOpenKeys}
          onClick={({ key }) => navigate(key)}
          style={{ borderInlineEnd: 'none' }}
        />
      </Layout.Sider>
      <Layout.Content style={{ padding: 16, overflow: 'auto' }}>
        <Lazy>
          <Outlet />
        </Lazy>
      </Layout.Content>
    </Layout>
  );
}
