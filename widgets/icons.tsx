// Catalogue icons are @ant-design/icons names in the declarations; only these are bundled.
import {
  AlignLeftOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BorderOuterOutlined,
  BorderOutlined,
  BulbOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  CheckSquareOutlined,
  ClockCircleOutlined,
  DashOutlined,
  DashboardOutlined,
  DownSquareOutlined,
  EditOutlined,
  ExpandOutlined,
  FieldTimeOutlined,
  FileTextOutlined,
  FolderOutlined,
  FontSizeOutlined,
  GlobalOutlined,
  HourglassOutlined,
  LineOutlined,
  MinusOutlined,
  NotificationOutlined,
  NumberOutlined,
  OrderedListOutlined,
  PictureOutlined,
  PieChartOutlined,
  RadiusUpleftOutlined,
  RiseOutlined,
  SendOutlined,
  SwapOutlined,
  TableOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

const ICONS: Record<string, ComponentType> = {
  AlignLeftOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BorderOuterOutlined,
  BorderOutlined,
  BulbOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  CheckSquareOutlined,
  ClockCircleOutlined,
  DashOutlined,
  DashboardOutlined,
  DownSquareOutlined,
  EditOutlined,
  ExpandOutlined,
  FieldTimeOutlined,
  FileTextOutlined,
  FolderOutlined,
  FontSizeOutlined,
  GlobalOutlined,
  HourglassOutlined,
  LineOutlined,
  MinusOutlined,
  NotificationOutlined,
  NumberOutlined,
  OrderedListOutlined,
  PictureOutlined,
  PieChartOutlined,
  RadiusUpleftOutlined,
  RiseOutlined,
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
