// Catalogue icons are @ant-design/icons names in the declarations; only these are bundled.
import {
  AlignLeftOutlined,
  AppstoreOutlined,
  AreaChartOutlined,
  BarChartOutlined,
  BorderOuterOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  CheckSquareOutlined,
  DashboardOutlined,
  DotChartOutlined,
  DownSquareOutlined,
  EditOutlined,
  FieldTimeOutlined,
  FolderOutlined,
  FontSizeOutlined,
  FunnelPlotOutlined,
  LineChartOutlined,
  NumberOutlined,
  PictureOutlined,
  PieChartOutlined,
  RadarChartOutlined,
  SendOutlined,
  SwapOutlined,
  TableOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

const ICONS: Record<string, ComponentType> = {
  AlignLeftOutlined,
  AppstoreOutlined,
  AreaChartOutlined,
  BarChartOutlined,
  BorderOuterOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  CheckSquareOutlined,
  DashboardOutlined,
  DotChartOutlined,
  DownSquareOutlined,
  EditOutlined,
  FieldTimeOutlined,
  FolderOutlined,
  FontSizeOutlined,
  FunnelPlotOutlined,
  LineChartOutlined,
  NumberOutlined,
  PictureOutlined,
  PieChartOutlined,
  RadarChartOutlined,
  SendOutlined,
  SwapOutlined,
  TableOutlined,
};

export function WidgetIcon({ name }: { name: string }) {
  const Icon = ICONS[name] ?? AppstoreOutlined;
  return <Icon />;
}

export function hasIcon(name: string): boolean {
  return name in ICONS;
}
