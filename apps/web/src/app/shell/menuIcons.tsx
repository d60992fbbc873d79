import {
  AlertOutlined,
  ApartmentOutlined,
  DatabaseOutlined,
  HomeOutlined,
  RobotOutlined,
  SettingOutlined,
  ToolOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** Icons of the navigation bar's areas, by catalogue key. */
export const AREA_ICONS: Readonly<Record<string, ReactNode>> = {
  home: <HomeOutlined />,
  dispatch: <AlertOutlined />,
  monitor: <VideoCameraOutlined />,
  data: <DatabaseOutlined />,
  ai: <RobotOutlined />,
  oamcenter: <ToolOutlined />,
  configcenter: <ApartmentOutlined />,
  system: <SettingOutlined />,
};
